"""The lab from Python (a script or a notebook), as docs/bots.md "From Python" shows it:
arguments given the Python way, refusals that say what was wrong, results read without
files, a bot of the notebook's own under worker processes, Ctrl-C in a pooled run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from wasserspiele.bots.base import Bot
from wasserspiele.bots.specs import parse_bot_spec
from wasserspiele.core.errors import BadOption
from wasserspiele.lab import make_study, run_study, write_report

ROOT = Path(__file__).resolve().parents[2]
PARENT = os.getpid()
SMALL = dict(players=["2"], options=["rounds=1"], games=4, seed=1)


class First(Bot):
    """Plays the first legal action (a bot a user writes in a cell)."""

    def choose(self, decision):
        return decision.legal[0]


def make_first(game, seed):
    return First(seed)


class DiesInWorker(First):
    def choose(self, decision):
        if os.getpid() != PARENT:  # a worker process killed under the run (the out-of-memory killer)
            os.kill(os.getpid(), signal.SIGKILL)
        return super().choose(decision)


def make_dying(game, seed):
    return DiesInWorker(seed)


def test_make_study_takes_one_text_a_dict_and_an_int_as_the_command_line_lists():
    # one text was read letter by letter ("bot spec 'h'"), players=2 raised TypeError, a dict of options
    # was "option 'rounds': expected key=value"
    as_cli = make_study("wasserloch", players=["2"], bots=["heuristic", "random"], options=["rounds=1"], games=4)
    assert make_study("wasserloch", players=2, bots="heuristic,random", options="rounds=1", games=4) == as_cli
    assert make_study("wasserloch", players=[2], bots=["heuristic", "random"], options={"rounds": 1},
                      games=4) == as_cli
    assert make_study("wasserloch", players=["2"], bots=[parse_bot_spec("heuristic"), "random"],
                      options=["rounds=1"], games=4) == as_cli


def test_compare_takes_a_dict_of_values_as_options_takes_a_dict():
    # a dict was read as its keys: "--compare rounds: expected KEY=VALUE1,VALUE2"
    as_cli = make_study("wasserloch", players=["2"], compare=["rounds=1,2", "chase=nearest,adjacent"], games=4)
    assert make_study("wasserloch", players=2, compare={"rounds": [1, 2], "chase": ("nearest", "adjacent")},
                      games=4) == as_cli
    assert make_study("wasserloch", players=2, compare={"rounds": "1,2", "chase": "nearest,adjacent"},
                      games=4) == as_cli
    # a value is spelt as the command line spells it (true, not True)
    assert make_study("watten", compare={"raising": [False, True]}, games=4) == make_study(
        "watten", compare="raising=false,true", games=4)


def test_a_compared_key_with_one_value_that_is_no_list_is_refused_saying_how():
    with pytest.raises(BadOption, match=r"compare: 'rounds' takes the values to compare, e.g. \{'rounds': \[a, b\]\}"):
        make_study("wasserloch", compare={"rounds": 3}, games=4)


@pytest.mark.parametrize("bot", [First, make_first, First(0)])
def test_a_bot_object_is_refused_naming_the_spec_that_seats_it(bot):
    with pytest.raises(BadOption, match=r"not .*First|not .*make_first.*python:module:factory"):
        make_study("wasserloch", bots=[bot], **SMALL)


@pytest.mark.parametrize("games", ["10", 2.5, True, 0, -1])
def test_games_that_are_no_positive_whole_number_are_refused(games):
    with pytest.raises(BadOption, match="--games: .* is not a positive number of games"):
        make_study("wasserloch", games=games)


@pytest.mark.parametrize("seed", ["x", 1.5, None])
def test_a_seed_that_is_no_whole_number_is_refused_before_play(seed):
    with pytest.raises(BadOption, match="--seed: .* is not a whole number"):
        make_study("wasserloch", seed=seed, games=2)


def test_a_negative_seed_is_a_seed_as_on_the_command_line():
    result = run_study(make_study("wasserloch", **{**SMALL, "seed": -3}), jobs=1)
    assert len(result.rows) == 4


def test_run_study_of_a_game_name_says_to_make_a_study():
    with pytest.raises(BadOption, match=r"run_study: 'wasserloch' is no study; make one with make_study"):
        run_study("wasserloch")


@pytest.mark.parametrize("jobs", [0, -2])
def test_jobs_below_one_are_refused_as_the_cli_refuses_them(jobs):
    with pytest.raises(BadOption, match=f"--jobs: {jobs} is not a positive number of processes"):
        run_study(make_study("wasserloch", **SMALL), jobs=jobs)


def test_a_result_shows_a_short_repr_not_every_row():
    result = run_study(make_study("wasserloch", **{**SMALL, "games": 30}), jobs=1)
    text = repr(result)
    assert text == "<StudyResult wasserloch: 30 of 30 games, 1 condition(s), finished>"


def test_a_worker_death_is_said_in_the_result_of_a_pooled_run():
    # run_study with its own pool returned `interrupted` and no reason: a script saw a Ctrl-C it never gave
    study = make_study("wasserloch", bots=["python:lab.test_python_api:make_dying", "random"], **SMALL)
    result = run_study(study, jobs=2)
    assert result.interrupted
    assert result.died == "a worker process died, killed by signal SIGKILL"


def _children() -> list[str]:
    out = subprocess.run(["pgrep", "-P", str(os.getpid())], capture_output=True, text=True).stdout
    return out.split()


def test_ctrl_c_in_a_pooled_run_leaves_no_worker_and_the_next_run_plays():
    study = make_study("wasserloch", bots=["random"], players=["2"], games=200, seed=1)
    seen = []

    def interrupt(n):  # the notebook's Ctrl-C: a KeyboardInterrupt in the main thread mid-run
        seen.append(n)
        raise KeyboardInterrupt

    result = run_study(study, jobs=2, progress=interrupt)
    assert result.interrupted and not result.died
    assert 0 < len(result.rows) < 200
    assert _children() == []
    again = run_study(make_study("wasserloch", **SMALL), jobs=2)
    assert not again.interrupted and len(again.rows) == 4
    assert _children() == []


CELL = """
import multiprocessing, sys
from wasserspiele.bots.base import Bot
from wasserspiele.core.errors import BadOption
from wasserspiele.lab import make_study, run_study, write_report
multiprocessing.set_start_method(sys.argv[1])
class First(Bot):
    def choose(self, decision):
        return decision.legal[0]
def make(game, seed):
    return First(seed)
study = make_study("wasserloch", bots=["python:__main__:make", "random"], players=["2"], options=["rounds=1"],
                   games=4, seed=1)
print("jobs=1", len(run_study(study, jobs=1).rows))
try:
    print("jobs=2", len(run_study(study, jobs=2).rows))
except BadOption as exc:
    print("refused:", exc)
    print("de:", exc.reason.render("de"))
"""


def _cell(method: str) -> str:
    """CELL run as a notebook runs it: `__main__` has no file (python -c)."""
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT / 'tests'}"}
    done = subprocess.run([sys.executable, "-c", CELL, method], capture_output=True, text=True, env=env,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_notebook_bot_plays_on_a_forked_pool():
    assert _cell("fork").split("\n")[:2] == ["jobs=1 4", "jobs=2 4"]


def test_a_notebook_bot_under_spawn_is_refused_before_play_naming_what_to_do():
    # the first chunk's worker raised "__main__ has no callable 'make'", a traceback from the pool
    out = _cell("spawn")
    assert out.startswith("jobs=1 4\nrefused: bot 'python:__main__:make': make is defined in the notebook or "
                          "interactive session (__main__), which the worker processes ('spawn') cannot import; "
                          "define it in an importable module")
    assert "\nde: Bot „python:__main__:make“: make ist im Notebook oder in der interaktiven Sitzung (__main__) " \
           "definiert, die die Arbeitsprozesse ('spawn') nicht importieren können" in out


class _NoPool:
    def __init__(self, *args, **kwargs):
        raise AssertionError("a worker pool was started")


@pytest.mark.parametrize("jobs", [1025, 100_000])
def test_jobs_above_the_command_lines_bound_are_refused_before_a_pool_starts(jobs, monkeypatch):
    # a pool under "fork" starts every worker at once: jobs=100000 forked 100000 processes
    import wasserspiele.bots.runner as runner
    monkeypatch.setattr(runner, "ProcessPoolExecutor", _NoPool)
    with pytest.raises(BadOption, match=f"--jobs: {jobs} processes are more than the 1024 a run may start"):
        run_study(make_study("wasserloch", **SMALL), jobs=jobs)


@pytest.mark.parametrize("jobs", ["2", 1.5])
def test_jobs_that_are_no_whole_number_are_refused(jobs):
    with pytest.raises(BadOption, match="--jobs: .* is not a positive number of processes"):
        run_study(make_study("wasserloch", **SMALL), jobs=jobs)


def test_games_above_the_command_lines_bound_are_refused():
    with pytest.raises(BadOption, match="--games: 1000000000000 games are more than the 10,000,000 a run may play"):
        make_study("wasserloch", games=10**12)


@pytest.fixture(scope="module")
def small_result():
    return run_study(make_study("wasserloch", **SMALL), jobs=1)


def test_write_report_into_a_folder_under_a_file_is_refused_naming_the_file(small_result, tmp_path):
    # NotADirectoryError from mkdir
    (tmp_path / "afile").write_text("x")
    with pytest.raises(BadOption, match=r"--out .*afile/report: nothing can be written there: .*afile is a file, "
                                        r"not a folder"):
        write_report(small_result, tmp_path / "afile" / "report")


@pytest.mark.parametrize("out", [None, 42])
def test_write_report_without_a_path_is_refused(small_result, out):
    with pytest.raises(BadOption, match=f"--out: {out} is no folder to write the report in"):
        write_report(small_result, out)


def test_write_report_from_python_returns_the_analysis_and_writes_the_report(small_result, tmp_path):
    done = write_report(small_result, str(tmp_path / "out"))
    assert (tmp_path / "out" / "report.md").is_file() and (tmp_path / "out" / "results.csv").is_file()
    assert done["summaries"][0].n == 4
