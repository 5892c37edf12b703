"""A run whose main process is killed without the chance to stop its process pool (SIGKILL,
the out-of-memory killer, a crash, a signal nobody takes) leaves no worker behind: the
workers see it gone and end within about a second (bots/runner.py `exit_with_parent`).

They played on, orphaned, through the chunk they held and the pool's queued ones: both cores
busy for minutes after the user had killed the study (an arena of expert Watten bots: each
chunk minutes of play).

The processes are found through /proc (Linux), as the main process's descendants before the kill.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GONE_WITHIN = 15.0  # seconds; generous (the workers look every half second), a chunk takes minutes

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the workers through /proc")


def _stat(pid: int) -> tuple[int, str, str] | None:
    """Parent pid, state and start time of process `pid`, None if there is none."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2:].split()  # after "pid (name) "
    return int(fields[1]), fields[0], fields[19]


def _descendants(pid: int) -> dict[int, str]:
    """The living descendants of `pid`, with their start times (a pid used again is not theirs)."""
    living = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None and stat[1] != "Z":
                living[int(entry)] = stat
    out: dict[int, str] = {}
    parents = {pid}
    while parents:
        found = {p: stat[2] for p, stat in living.items() if stat[0] in parents and p not in out}
        out.update(found)
        parents = set(found)
    return out


def _running(pid: int, started: str) -> bool:
    stat = _stat(pid)
    # an orphan that ended may stay a zombie where pid 1 does not reap: it runs no more
    return stat is not None and stat[2] == started and stat[1] != "Z"


def _killed_leaves_nothing(proc: subprocess.Popen, signum: int, workers: int, log: Path) -> None:
    """Wait for `workers` descendants of `proc` at play, send `signum` to `proc` alone, and
    check that every descendant has ended soon after; kill whatever is left in any case."""
    below: dict[int, str] = {}
    try:
        end = time.monotonic() + 60
        while len(below) < workers:  # the pool starts its workers with the first chunk handed out
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < end, f"no {workers} worker processes:\n{log.read_text()}"
            time.sleep(0.1)
            below = _descendants(proc.pid)
        time.sleep(0.5)  # into the chunks
        below = _descendants(proc.pid)
        assert proc.poll() is None, log.read_text()
        proc.send_signal(signum)
        proc.wait(timeout=30)
        end = time.monotonic() + GONE_WITHIN
        while any(_running(pid, started) for pid, started in below.items()) and time.monotonic() < end:
            time.sleep(0.1)
        left = [pid for pid, started in below.items() if _running(pid, started)]
        assert not left, f"processes {left} still running {GONE_WITHIN:g} s after their main process was killed"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid, started in below.items():
            if _running(pid, started):
                os.kill(pid, signal.SIGKILL)


def _environment() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]))


ARENA = ["arena", "watten", "--bots", "expert,random", "--games", "300", "--jobs", "2"]
LAB = ["lab", "wasserloch", "--bots", "heuristic,random", "--games", "30000", "--jobs", "2", "--out", "study"]


@pytest.mark.parametrize("args, signum", [(LAB, signal.SIGKILL), (ARENA, signal.SIGUSR1)],
                         ids=["lab-sigkill", "arena-sigusr1"])
def test_the_workers_of_a_killed_run_stop_within_a_second_or_so(tmp_path, args, signum):
    # SIGUSR1 to the command alone: nobody takes it, so it ends the command on the spot as
    # SIGKILL does (SIGHUP, a closed terminal, is an interrupt now: tests/cli/test_hangups.py)
    log = tmp_path / "output.txt"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "wasserspiele", *args], stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, cwd=tmp_path, env=_environment(), start_new_session=True)
        _killed_leaves_nothing(proc, signum, 2, log)


# A program of its own on the process backend, with the start method it chooses: "spawn" (macOS's
# and Windows' default) and "forkserver" (Linux's from Python 3.14), whose workers are the fork
# server's children; the server lives as long as they do, so their parent never changed.
SCRIPT = """
import multiprocessing, sys, time
from wasserspiele.bots.runner import PoolBackend

def busy(chunk):
    end = time.monotonic() + 0.05 * len(chunk)
    while time.monotonic() < end:
        pass
    return chunk

if __name__ == "__main__":
    multiprocessing.set_start_method(sys.argv[1])
    with PoolBackend(2) as backend:
        backend.run(busy, list(range(2)))  # both workers started
        backend.run(busy, list(range(100_000)))  # chunks of 64: 3 s each
"""


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_the_workers_of_a_killed_program_stop_whatever_their_start_method(tmp_path, method):
    (tmp_path / "program.py").write_text(SCRIPT)
    log = tmp_path / "output.txt"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "program.py", method], stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, cwd=tmp_path, env=_environment(), start_new_session=True)
        # its workers, and multiprocessing's resource tracker (and fork server)
        _killed_leaves_nothing(proc, signal.SIGKILL, 3 if method == "spawn" else 4, log)


# A command that takes a hangup as its interrupt (cli/entry.py) keeps the games its workers are
# playing, as on Ctrl-C: the closed terminal hangs up the whole process group, and a worker
# forked from the command inherits its handler (which ignores the hangup there), but a worker
# started by "spawn" or a fork server starts with the default action and died of it, its
# chunk lost (BrokenProcessPool: the run kept only the chunks finished before).
HANGUP_SCRIPT = """
import multiprocessing, os, signal, sys, time
from wasserspiele.bots.runner import PoolBackend
from wasserspiele.cli.entry import take_sigterm_as_interrupt

def busy(chunk):
    end = time.monotonic() + 0.03 * len(chunk)
    while time.monotonic() < end:
        pass
    return chunk

if __name__ == "__main__":
    multiprocessing.set_start_method(sys.argv[1])
    take_sigterm_as_interrupt()
    with PoolBackend(2) as backend:
        backend.run(busy, list(range(2)))  # both workers started
        print("ready", flush=True)
        out, interrupted = backend.run(busy, list(range(2048)))  # chunks of 64, about 2 s each
        print("kept", len(out), "interrupted", interrupted, "died", backend.failure, flush=True)
"""


@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_a_hangup_leaves_the_games_under_way_to_the_workers_whatever_their_start_method(tmp_path, method):
    (tmp_path / "program.py").write_text(HANGUP_SCRIPT)
    proc = subprocess.Popen([sys.executable, "program.py", method], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, cwd=tmp_path, env=_environment(), start_new_session=True,
                            text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(0.5)  # a chunk under way in each worker, none finished
        os.killpg(proc.pid, signal.SIGHUP)  # the terminal closed: the whole group hears it
        output, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    # every chunk under way kept (one in each worker, and those the pool had queued to the
    # workers already), the rest not started; multiprocessing's own helper processes (the resource
    # tracker, the fork server) ignore the hangup too: no traceback of theirs
    kept = re.search(r"kept (\d+) interrupted True died None", output)
    assert kept and int(kept.group(1)) >= 128 and int(kept.group(1)) % 64 == 0, output  # whole chunks only
    assert "Traceback" not in output and "resource_tracker" not in output, output
