"""A terminal that goes away under a long run (its window closed, an ssh connection dropped):
the run gets SIGHUP and its terminal hangs up (every write to it fails with EIO), or its output
pipe loses its reader (`… | tee log`: EPIPE).  The study stops as on Ctrl-C and writes the report
of the games that finished, the arena its table; a game at the prompt ends quietly with its save.

SIGHUP's default action ended the process on the spot and the study's games, held in memory
until the report, were lost; a write to the dead terminal (the progress bar's last drawing, the
"stopping" line) ended it with an OSError, and one to a pipe without a reader with rich's
SystemExit(1), before the report was written.

The command runs in a pseudo-terminal that is its controlling terminal, as a terminal window or
sshd gives one: either as the session's leader itself (`ssh -t host wasserspiele …`), or under a
shell that leads the session (a window's shell: the kernel hangs the shell up, and the command
when the shell has ended).  The terminal is closed once the run has shown progress.
"""

from __future__ import annotations

import csv
import fcntl
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from .test_interrupts import SCRIPT, entry_point, environment

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="pseudo-terminals as controlling terminals, processes found through /proc")

INTERRUPTED = 130


def _controlling_terminal() -> None:
    """In the child: a session of its own, whose controlling terminal is the pty on its stdin."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def _alive(pid: int) -> bool:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return text[text.rindex(")") + 2:].split()[0] != "Z"  # an orphan pid 1 does not reap stays a zombie


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                text = Path(f"/proc/{entry}/stat").read_text()
            except (FileNotFoundError, ProcessLookupError):
                continue
            if int(text[text.rindex(")") + 2:].split()[1]) == pid:
                found.append(int(entry))
    return found


class Window:
    """The command in a pseudo-terminal that is its controlling terminal; `shell`: under `sh`,
    which leads the session as a terminal window's shell does.  `stdout`, `stderr`: a path to
    write that stream to instead of the terminal."""

    def __init__(self, args: list[str], cwd: Path, shell: bool = False, stdout: Path | None = None,
                 stderr: Path | None = None):
        self.master, slave = pty.openpty()
        command = [sys.executable, "-c", SCRIPT, entry_point(), *args]
        if shell:
            # `; :` keeps sh from exec-ing the command: sh stays the session's leader
            command = ["sh", "-c", " ".join(_quote(w) for w in command) + "; :"]
        out = stdout.open("wb") if stdout else slave
        err = out if stderr == stdout and stdout else stderr.open("wb") if stderr else slave  # `> log 2>&1`
        self.proc = subprocess.Popen(command, stdin=slave, stdout=out, stderr=err, cwd=cwd, env=environment(),
                                     preexec_fn=_controlling_terminal)
        for f in {id(out): out, id(err): err}.values():
            if f is not slave:
                f.close()
        os.close(slave)
        self.out = b""
        self.command_pid = self.proc.pid
        if shell:
            end = time.monotonic() + 30
            while not (found := _children(self.proc.pid)):
                assert time.monotonic() < end, "sh started no command"
                time.sleep(0.05)
            self.command_pid = found[0]

    @property
    def text(self) -> str:
        return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", self.out.decode("utf-8", "replace")).replace("\r", "")

    def wait_for(self, pattern: str, timeout: float = 120) -> None:
        end = time.monotonic() + timeout
        while not re.search(pattern, self.text):
            if time.monotonic() > end or self.proc.poll() is not None:
                self.kill()
                pytest.fail(f"never said {pattern!r}:\n{self.text[-3000:]}")
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    self.out += os.read(self.master, 65536)
                except OSError:
                    pass

    def type(self, text: str) -> None:
        os.write(self.master, text.encode())

    def close(self, timeout: float = 120) -> int | None:
        """Close the terminal (the window, the connection); the command's exit status once it has
        ended (None under a shell, whose command is not this process's child)."""
        os.close(self.master)
        end = time.monotonic() + timeout
        while _alive(self.command_pid) or self.proc.poll() is None:
            if time.monotonic() > end:
                self.kill()
                pytest.fail("still running after its terminal was closed")
            time.sleep(0.1)
        status = self.proc.wait()
        return status if self.command_pid == self.proc.pid else None

    def kill(self) -> None:
        for pid in {self.command_pid, self.proc.pid}:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        self.proc.wait()


def _quote(word: str) -> str:
    import shlex
    return shlex.quote(word)


def _study_is_whole(folder: Path) -> int:
    """The games of the study in `folder`, checked to be a whole, interrupted report: each
    file there, results.csv's rows the games report.md counts, and a record for each."""
    for name in ("report.md", "report.html", "results.csv", "study.json"):
        assert (folder / name).is_file(), f"{name} missing: {sorted(p.name for p in folder.iterdir())}"
    with (folder / "results.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    report = (folder / "report.md").read_text()
    assert "**Interrupted**" in report
    said = re.search(r"only the ([\d,]+) games? that had finished", report)
    assert said and int(said.group(1).replace(",", "")) == len(rows) > 0, report[:2000]
    assert "</html>" in (folder / "report.html").read_text()[-200:]
    json.loads((folder / "study.json").read_text())
    return len(rows)


# 600 games: chunks of 18 (runner.chunked), so the games under way when the terminal closes
# end soon (as in tests/cli/test_interrupts.py); with 100000 they were 64 each, a worker's
# second of play after the hangup in every test, and the run still outlasts the hangup by seconds
STUDY = ["lab", "wasserloch", "--bots", "heuristic,random", "--games", "600", "--jobs", "2", "--out", "study"]


@pytest.mark.parametrize("shell", [False, True], ids=["session-leader", "under-a-shell"])
def test_a_study_whose_terminal_is_closed_writes_the_report_of_its_finished_games(tmp_path, shell):
    window = Window(STUDY, tmp_path, shell=shell)
    window.wait_for(r"\b[1-9][\d,]*/[\d,]+\b")  # the bar has counted finished games
    status = window.close()
    if status is not None:
        assert status == INTERRUPTED
    _study_is_whole(tmp_path / "study")


def test_a_study_logging_to_a_file_says_what_it_kept_when_its_terminal_is_closed(tmp_path):
    # stdout and stderr to a log (`> log 2>&1`), the terminal its controlling one: the log holds
    # the stopping line and the summary, no traceback, and the report is whole
    log = tmp_path / "log.txt"
    window = Window(STUDY, tmp_path, stdout=log, stderr=log)
    end = time.monotonic() + 120
    while not re.search(r"\b[1-9]\d*/\d+ games finished", log.read_text()):
        assert time.monotonic() < end and window.proc.poll() is None, log.read_text()
        time.sleep(0.1)
    assert window.close() == INTERRUPTED
    games = _study_is_whole(tmp_path / "study")
    text = log.read_text()
    assert "Traceback" not in text, text[-3000:]
    assert f"interrupted: reported the {games} games that finished" in text, text[-3000:]


def test_a_study_whose_progress_pipe_loses_its_reader_plays_on_to_its_report(tmp_path):
    # `wasserspiele lab … 2>&1 | head -3`, a `| tee log` that ended: the next progress line
    # failed with EPIPE (an OSError through the study, or rich's SystemExit(1)) and lost the games
    read, write = os.pipe()
    # 100 games: a progress line every 10, and the summary after the report, all written after the
    # reader has gone (400 played three seconds more to the same end)
    args = ["lab", "wasserloch", "--bots", "heuristic,random", "--games", "100", "--jobs", "1", "--out", "study"]
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, entry_point(), *args], stdin=subprocess.DEVNULL,
                            stdout=write, stderr=write, cwd=tmp_path, env=environment())
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        pipe.readline()  # the header: the study has started
    status = proc.wait(timeout=300)
    assert status == 0
    with (tmp_path / "study" / "results.csv").open(newline="") as f:
        assert len(list(csv.DictReader(f))) == 100  # every game, not an interrupted report
    assert "**Interrupted**" not in (tmp_path / "study" / "report.md").read_text()


def test_an_arena_whose_terminal_is_closed_writes_its_table_to_its_file(tmp_path):
    # `wasserspiele arena … > table.txt`, the bar on the terminal: the table of the games that
    # finished is written, as on Ctrl-C
    table = tmp_path / "table.txt"
    # 600 games: chunks of 6 groups (18 games), not 64 (192), to finish after the hangup
    window = Window(["arena", "wasserloch", "--bots", "heuristic,random", "--games", "600", "--jobs", "2"],
                    tmp_path, stdout=table)
    window.wait_for(r"\b[1-9][\d,]*/[\d,]+\b")
    assert window.close() == INTERRUPTED
    text = table.read_text()
    assert re.search(r"Wasserloch: [1-9][\d,]* games", text), text
    assert "heuristic" in text and "random" in text, text


@pytest.mark.parametrize("shell", [False, True], ids=["session-leader", "under-a-shell"])
def test_a_game_at_the_prompt_ends_quietly_with_its_save_when_its_terminal_is_closed(tmp_path, shell):
    errors = tmp_path / "errors.txt"  # what it said after the terminal went: to see a traceback
    window = Window(["play", "wasserloch", "--seed", "1", "--save", "g.json"], tmp_path, shell=shell,
                    stderr=errors)
    window.wait_for(r"> $")
    window.type("Ax1\n")  # one move, then the bots', then this seat's prompt again
    window.wait_for(r"Ax1[\s\S]*> $")
    status = window.close()
    if status is not None:
        assert status == INTERRUPTED
    assert errors.read_text() == ""
    record = json.loads((tmp_path / "g.json").read_text())
    assert len(record["actions"]) >= 3  # the human's move and both bots'


HELD = """
import os, signal, sys, time
from wasserspiele.cli import entry

entry.take_sigterm_as_interrupt()
written = []

def write():
    os.kill(os.getpid(), signal.SIGHUP)  # the terminal closes while the report is written
    time.sleep(0.2)
    written.append("whole")
    return "report"

try:
    entry.uninterrupted(write)
except KeyboardInterrupt:
    print("interrupted after", written)
else:
    print("not interrupted", written)
"""


def test_a_hangup_while_a_report_is_written_is_taken_once_it_is_written(tmp_path):
    # held off as Ctrl-C and SIGTERM are (a half-written report helps nobody), then taken: not
    # dropped, which left the run going on a terminal that is gone, nor the end of the process
    proc = subprocess.run([sys.executable, "-c", HELD], capture_output=True, text=True, cwd=tmp_path,
                          env=environment(), timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "interrupted after ['whole']"


class LostTerminal:
    """The command writing to a pseudo-terminal that is not its controlling terminal (a session
    of its own without one): closing the terminal hangs it up (every write fails with EIO) and no
    SIGHUP ever comes.  The moment between a terminal's hangup and the delivery of its SIGHUP,
    in which a closed window's command still writes, made to last."""

    def __init__(self, args: list[str], cwd: Path):
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([sys.executable, "-c", SCRIPT, entry_point(), *args], stdin=subprocess.DEVNULL,
                                     stdout=slave, stderr=slave, cwd=cwd, env=environment(), start_new_session=True)
        os.close(slave)
        self.out = b""

    def wait_until(self, done, timeout: float = 120) -> None:
        end = time.monotonic() + timeout
        while not done(self.out.decode("utf-8", "replace")):
            if time.monotonic() > end or self.proc.poll() is not None:
                self.proc.kill()
                pytest.fail(f"never got there:\n{self.out.decode('utf-8', 'replace')[-3000:]}")
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    self.out += os.read(self.master, 65536)
                except OSError:
                    pass

    def hang_up(self, timeout: float = 300) -> int:
        """Close the terminal while the command runs; its exit status once it has ended."""
        assert self.proc.poll() is None, "ended before its terminal was closed"
        os.close(self.master)
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise


def test_a_training_whose_terminal_hangs_up_before_the_sighup_writes_every_generation(tmp_path):
    # the next log line to the hung-up terminal ("generation 1: ..."), written before the SIGHUP
    # was delivered, ended the training with an OSError (EIO), its later generations never made
    # two generations: the second, its log line and the closing lines all come after the hangup
    # (each generation is about a CPU-second)
    terminal = LostTerminal(["train", "wasserloch", "--games", "2", "--generations", "2", "--iterations", "10",
                             "--epochs", "1", "--jobs", "1", "--out", "w.npz"], tmp_path)
    terminal.wait_until(lambda text: "generation 0:" in text)
    assert terminal.hang_up() == 0  # no SIGHUP came: it trains on, as a study plays on (lab)
    sidecar = json.loads((tmp_path / "w.json").read_text())
    assert [g["generation"] for g in sidecar["generations"]] == [0, 1]


def test_a_corpus_whose_terminal_hangs_up_before_the_sighup_writes_every_game(tmp_path):
    # its closing line to the hung-up terminal ended the corpus with an OSError (EIO) and status 1
    terminal = LostTerminal(["corpus", "wasserloch", "--games", "3", "--iterations", "20", "--out", "corpus"],
                            tmp_path)
    terminal.wait_until(lambda text: (tmp_path / "corpus" / "game-0000.json").exists())
    assert terminal.hang_up() == 0
    records = sorted(p.name for p in (tmp_path / "corpus").glob("game-*.json"))
    lines = [json.loads(line)["record"] for line in (tmp_path / "corpus" / "visits.jsonl").read_text().splitlines()]
    assert records == lines == ["game-0000.json", "game-0001.json", "game-0002.json"]


def test_a_training_whose_terminal_is_closed_keeps_its_last_generation(tmp_path):
    # the closed window's SIGHUP: an interrupt, the weights of the generations that finished kept
    errors = tmp_path / "errors.txt"
    window = Window(["train", "wasserloch", "--games", "2", "--generations", "50", "--iterations", "10",
                     "--epochs", "1", "--jobs", "1", "--out", "w.npz"], tmp_path, stderr=errors)
    end = time.monotonic() + 120
    while "generation 0:" not in errors.read_text():
        assert time.monotonic() < end and window.proc.poll() is None, errors.read_text()
        time.sleep(0.05)
    assert window.close() == INTERRUPTED
    text = errors.read_text()
    assert "Traceback" not in text, text[-3000:]
    assert re.search(r"interrupted: w.npz and w.json hold generation \d+, the last that finished", text), text
    assert json.loads((tmp_path / "w.json").read_text())["generations"]


def test_a_hangup_inside_a_callback_from_compiled_code_comes_again_outside_it(monkeypatch):
    # numba compiling a kernel calls back into llvmlite's Python through ctypes, which prints
    # and drops an exception raised there: the KeyboardInterrupt of the closed window's only
    # SIGHUP was lost and `train` went on to its last generation (exit 0, one run in four of
    # test_a_training_whose_terminal_is_closed_keeps_its_last_generation).  Inside such a
    # callback the signal is sent again a moment later, and the hangup not yet taken
    from wasserspiele.cli import entry
    sent = []
    monkeypatch.setattr(entry, "_owner", os.getpid())
    monkeypatch.setattr(entry, "_hung_up", False)
    monkeypatch.setattr(entry, "detach_lost_output", lambda: False)
    monkeypatch.setattr(entry.os, "kill", lambda pid, signum: sent.append((pid, signum)))
    callback = {"__name__": "llvmlite.binding.executionengine", "sys": sys}
    exec(f"def notify(handler):\n    handler({int(signal.SIGHUP)}, sys._getframe())", callback)
    callback["notify"](entry._sighup)   # no KeyboardInterrupt for ctypes to drop
    end = time.monotonic() + 10
    while not sent and time.monotonic() < end:
        time.sleep(0.01)
    assert sent == [(os.getpid(), signal.SIGHUP)] and entry._hung_up is False
    with pytest.raises(KeyboardInterrupt):   # sent again: raised where the program is
        entry._sighup(signal.SIGHUP, sys._getframe())
    assert entry._hung_up is True
