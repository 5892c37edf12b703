"""A worker process of the lab's and the arena's process pool that dies in the middle of a run
(the kernel's out-of-memory killer, `kill -9`, a crash in a compiled kernel).

The pool raised BrokenProcessPool: the command ended in a Python traceback and every game
already finished was lost (a study holds them in memory until its report).  Now the run stops
handing out work, keeps every finished game, and the command ends with one line saying that a
worker process died (its signal or exit code), how many games it kept, and exit status 3
(cli/main.py, Exit status), not an interrupt's 130.

The commands run as installed, in a pseudo-terminal (tests/cli/test_interrupts.py); a worker
is killed with SIGKILL once the command's progress shows finished games, never after a sleep.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
from pathlib import Path

import pytest

from wasserspiele.bots.runner import PoolBackend, WorkerDied

from .test_interrupts import Terminal, no_traceback

WORKER_DIED = 3

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads worker pids from Linux's /proc")


def workers(pid: int) -> list[int]:
    """The pool's worker processes of the command `pid`: its children forked from it (the same
    command line), not a helper it started (multiprocessing's resource tracker)."""
    cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            children = (task / "children").read_text().split()
        except OSError:  # a thread that ended meanwhile
            continue
        for child in map(int, children):
            try:
                if Path(f"/proc/{child}/cmdline").read_bytes() == cmdline:
                    found.append(child)
            except OSError:
                pass
    return sorted(set(found))


def kill_a_worker(term: Terminal) -> int:
    pids = workers(term.proc.pid)
    assert pids, term.text
    os.kill(pids[0], signal.SIGKILL)
    return pids[0]


def run_and_kill_a_worker(args: list[str], tmp_path: Path, shown: str) -> tuple[int, str]:
    """Run the command, kill one of its pool's workers once it has shown `shown` and the pool
    has started them, and return its exit status and all it showed."""
    term = Terminal(args, tmp_path)
    term.wait_for(shown)
    deadline = time.monotonic() + 60
    while not workers(term.proc.pid):  # a pool starts its workers as its run begins
        assert time.monotonic() < deadline, term.text
        time.sleep(0.05)
    kill_a_worker(term)
    return term.ending()


# ------------------------------------------------------------------------- the lab
# 600 games, not 30000: chunks of 18 (runner.chunked), not 64, so the first count shows (and the
# worker is killed) after fewer games; the run still has seconds to go when the worker dies
STUDY = ["lab", "wasserloch", "--games", "600", "--jobs", "2", "--out", "study"]


@pytest.fixture(scope="module")
def killed_study(tmp_path_factory) -> tuple[Path, int, str]:
    """The study whose worker was killed, run once for the tests that read it: (its folder's
    parent, exit status, all it showed)."""
    where = tmp_path_factory.mktemp("killed_study")
    status, text = run_and_kill_a_worker(STUDY, where, r"[1-9]\d*/600")
    return where, status, text


def test_a_study_whose_worker_is_killed_reports_the_finished_games_as_cut_short(killed_study):
    tmp_path, status, text = killed_study
    no_traceback(text)
    assert "BrokenProcessPool" not in text
    assert status == WORKER_DIED, text
    last = text.strip().splitlines()[-1]
    said = re.fullmatch(r"a worker process died, killed by signal SIGKILL; the run stopped: reported the (\d+) "
                        r"games that finished; running the command again plays the study from its first game "
                        r"\(the same seed, the same games\)", last)
    assert said, text
    reported = int(said.group(1))
    assert 0 < reported < 600
    rows = (tmp_path / "study" / "results.csv").read_text().splitlines()
    assert len(rows) == reported + 1  # the header and one whole line a game
    settings = json.loads((tmp_path / "study" / "study.json").read_text())
    assert settings["interrupted"] is True
    assert settings["died"] == "a worker process died, killed by signal SIGKILL"
    assert settings["stopped"] == ""  # the precision rule's, which this study did not use
    report = (tmp_path / "study" / "report.md").read_text()
    assert (f"**Cut short**: a worker process died, killed by signal SIGKILL; only the {reported} games that had "
            f"finished are reported.") in report
    assert (f"a worker process died, killed by signal SIGKILL, which stopped the run after {reported} of the 600 "
            f"planned games") in report
    assert "Ctrl-C" not in report and "**Interrupted**" not in report


def test_a_study_rendered_again_still_says_a_worker_died(killed_study, tmp_path):
    # study.json keeps why the run stopped: `lab render` must not turn the dead worker into a Ctrl-C
    # (the killed study's folder copied: the other test reads it as the run left it)
    import shutil

    where, status, text = killed_study
    assert status == WORKER_DIED, text
    shutil.copytree(where / "study", tmp_path / "study")
    first = (tmp_path / "study" / "report.md").read_text()
    again = Terminal(["lab", "render", "study"], tmp_path)
    status, text = again.ending()
    assert status == 0, text
    assert (tmp_path / "study" / "report.md").read_text() == first


def test_a_precision_study_whose_worker_is_killed_names_the_death_not_ctrl_c(tmp_path):
    # --precision says why its run stopped (lab/precision.py): it knew only Ctrl-C to cut it short
    command = ["lab", "wasserloch", "--precision", "0.1pp", "--jobs", "2", "--out", "study"]
    status, text = run_and_kill_a_worker(command, tmp_path, r" [1-9]\d*/\d+")
    no_traceback(text)
    assert status == WORKER_DIED, text
    assert re.search(r"a worker process died, killed by signal SIGKILL; the run stopped: reported the \d+ games",
                     text), text
    report = (tmp_path / "study" / "report.md").read_text()
    assert ("a worker process died, killed by signal SIGKILL, which stopped it before every headline interval was "
            "within ±0.1 pp") in report
    assert "Not reached: a worker process died, killed by signal SIGKILL, which stopped the run (" in report
    assert "Ctrl-C" not in report


def test_a_tuning_whose_worker_is_killed_ranks_the_finished_games_and_says_why(tmp_path):
    # 2 × 300 games: chunks of 18, not 64 (as the study's)
    command = ["lab", "tune", "wasserloch", "--vary", "rounds=1,3", "--goal", "shorter", "--games", "300",
               "--jobs", "2", "--out", "tuning"]
    status, text = run_and_kill_a_worker(command, tmp_path, r"[1-9]\d*/600")
    no_traceback(text)
    assert status == WORKER_DIED, text
    said = re.search(r"a worker process died, killed by signal SIGKILL; the run stopped: tuning/tune.md ranks the "
                     r"(\d+) games that finished", text)
    assert said and 0 < int(said.group(1)) < 600, text
    # the report says so too (it said "**Interrupted**", as after Ctrl-C)
    report = (tmp_path / "tuning" / "tune.md").read_text()
    assert "**Cut short**: a worker process died, killed by signal SIGKILL; the ranking is of the games that " \
           "finished." in report and "**Interrupted**" not in report


# ------------------------------------------------------------------------- the arena
@pytest.mark.parametrize("lang, said", [
    ("en", r"a worker process died, killed by signal SIGKILL; the run stopped: the table counts the (\d+) games "
           r"of whole groups \(the same cards and dice in every seat\) that finished, of 600"),
    ("de", r"ein Arbeitsprozess ist durch das Signal SIGKILL beendet worden; der Lauf wurde angehalten: die "
           r"Tabelle zählt die (\d+) fertigen Partien ganzer Gruppen \(dieselben Karten und Würfe auf jedem "
           r"Platz\), von 600")])
def test_an_arena_whose_worker_is_killed_shows_the_finished_whole_groups(tmp_path, lang, said):
    # 600 games: chunks of 6 groups (18 games), not 64 (192 games) before the first count
    command = ["arena", "wasserloch", "--bots", "heuristic,random", "--games", "600", "--jobs", "2", "--lang", lang]
    status, text = run_and_kill_a_worker(command, tmp_path, r"[1-9]\d*/600")
    no_traceback(text)
    assert "BrokenProcessPool" not in text
    assert status == WORKER_DIED, text
    last = text.strip().splitlines()[-1]
    games = int(re.fullmatch(said, last).group(1)) if re.fullmatch(said, last) else pytest.fail(text)
    title = re.search(r"Wasserloch: (\d+) (games|Partien)", text)
    assert title and int(title.group(1)) == games
    assert 0 < games < 600 and games % 3 == 0  # whole groups: the deal in each of the 3 seats


# ------------------------------------------------------------------------- the pool itself
def _dies_at_30(chunk: list[int]) -> list[int]:
    """A chunk's work that kills its worker at task 30, as the environment says (in the worker:
    the test's process forked it)."""
    if 30 in chunk:
        how = os.environ["WS_TEST_DEATH"]
        if how == "exit":
            os._exit(7)  # a compiled kernel's exit(7)
        os.kill(os.getpid(), getattr(signal, how))
    return list(chunk)


@pytest.mark.parametrize("how, code, en, de", [
    ("SIGKILL", -9, "a worker process died, killed by signal SIGKILL",
     "ein Arbeitsprozess ist durch das Signal SIGKILL beendet worden"),
    # the pool ends the other workers with SIGTERM: a worker that died of it is told apart by none
    ("SIGTERM", -15, "a worker process died, killed by signal SIGTERM",
     "ein Arbeitsprozess ist durch das Signal SIGTERM beendet worden"),
    ("exit", 7, "a worker process died with exit code 7",
     "ein Arbeitsprozess ist unerwartet mit dem Exit-Code 7 beendet worden")])
def test_the_pool_keeps_the_chunks_that_finished_and_names_the_dead_workers_end(monkeypatch, how, code, en, de):
    if sys.platform == "win32":
        pytest.skip("POSIX signals")
    monkeypatch.setenv("WS_TEST_DEATH", how)
    seen = []
    with PoolBackend(2) as pool:
        out, cut_short = pool.run(_dies_at_30, list(range(40)), seen.append)
        # chunks of one task, 5 in flight: task 30 is handed out once 26 chunks have been taken in
        assert cut_short is True
        assert pool.failure == WorkerDied(code)
        assert 26 <= len(out) < 40 and 30 not in out and len(set(out)) == len(out)
        assert sum(seen) == len(out)  # the progress counted every kept game, and only those
        assert pool.failure.reason().render("en") == en
        assert pool.failure.reason().render("de") == de
        # a broken pool plays nothing more, and says why again rather than raising
        assert pool.run(_dies_at_30, [1, 2], seen.append) == ([], True)
        assert pool.failure == WorkerDied(code)
        workers_left = [p for p in pool.workers.values() if p.is_alive()]
    assert workers_left == []


# ------------------------------------------------------------------------- the leaderboard
def test_a_leaderboard_whose_worker_is_killed_keeps_the_boards_played_whole_and_says_why(tmp_path):
    # a dead worker's pairing was taken for an interrupt: "interrupted: …", exit 130
    command = ["leaderboard", "wasserloch", "seven_waters", "--bots", "random,heuristic", "--games", "600",
               "--far-games", "0", "--jobs", "2", "--data", "boards.json"]
    status, text = run_and_kill_a_worker(command, tmp_path, r"wrote boards.json \(wasserloch\)[\s\S]*seven_waters:")
    no_traceback(text)
    assert "BrokenProcessPool" not in text
    assert status == WORKER_DIED, text
    assert text.strip().splitlines()[-1] == ("a worker process died, killed by signal SIGKILL; the run stopped: "
                                             "boards.json holds the boards of wasserloch, the games played to the end")
    assert list(json.loads((tmp_path / "boards.json").read_text())["boards"]) == ["wasserloch"]


# ------------------------------------------------------------------------- Ray
def _dies_at_30_once(chunk: list[int]) -> list[int]:
    """Kills its worker at task 30 the first time only (a marker file says it did)."""
    mark = Path(os.environ["WS_TEST_DEATH_MARK"])
    if 30 in chunk and not mark.exists():
        mark.write_text("died once")
        os.kill(os.getpid(), signal.SIGKILL)
    return list(chunk)


def _dies_at_30_always(chunk: list[int]) -> list[int]:
    if 30 in chunk:
        os.kill(os.getpid(), signal.SIGKILL)
    return list(chunk)


def test_ray_plays_a_dead_workers_chunk_again_and_stops_when_it_dies_every_time(tmp_path, monkeypatch):
    # Ray gives a dead worker's task to a new one (its max_retries, 3): a death once loses nothing; a
    # chunk whose worker dies every time (the out-of-memory killer again) raised WorkerCrashedError
    # with a traceback that lost the finished chunks: now it cuts the run short as the pool's does
    ray = pytest.importorskip("ray", reason="ray is not installed (optional extra: pip install 'wasserspiele[ray]')")
    import cloudpickle

    from wasserspiele.bots.runner import RayBackend

    if ray.is_initialized():
        pytest.skip("a Ray instance another test started is running")
    monkeypatch.setenv("WS_TEST_DEATH_MARK", str(tmp_path / "died"))
    # Ray's workers import this module to unpickle its functions (cloudpickle still names it
    # by its package, `cli`): the local instance RayBackend starts inherits this environment,
    # and pytest put tests/ on this process's path only
    tests = str(Path(__file__).resolve().parents[1])
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [tests, os.environ.get("PYTHONPATH")])))
    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    try:
        with RayBackend(2) as backend:
            out, cut_short = backend.run(_dies_at_30_once, list(range(40)))
            assert (sorted(out), cut_short, backend.failure) == (list(range(40)), False, None)
            assert (tmp_path / "died").exists()
            out, cut_short = backend.run(_dies_at_30_always, list(range(40)))
            assert cut_short is True and backend.failure == WorkerDied(None)
            assert out and set(out) <= set(range(40)) - {30} and len(set(out)) == len(out)  # the finished ones kept
            assert backend.failure.reason().render("en") == "a worker process died"
    finally:
        cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
