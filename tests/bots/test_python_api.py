"""The arena from Python (docs/bots.md "From Python"): spec texts or parsed specs, the
command line's refusals for bad arguments, and the page's own example run as written."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from wasserspiele.bots.arena import run_arena
from wasserspiele.bots.base import Bot
from wasserspiele.bots.specs import parse_bot_spec
from wasserspiele.core.errors import BadOption

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = {"players": 2, "rounds": 1}


class First(Bot):
    def choose(self, decision):
        return decision.legal[0]


def test_spec_texts_play_as_parsed_specs():
    # a text raised AttributeError: 'str' object has no attribute 'make'
    parsed = run_arena("wasserloch", OPTIONS, [parse_bot_spec("heuristic"), parse_bot_spec("random")], 4, seed=2)
    texts = run_arena("wasserloch", OPTIONS, "heuristic,random", 4, seed=2)
    assert [r.credits for r in texts.by_spec()] == [r.credits for r in parsed.by_spec()]
    assert [r.spec for r in texts.by_spec()] == ["heuristic", "random"]


@pytest.mark.parametrize("games", [0, -3, "4", 2.5])
def test_games_below_one_are_refused_not_played_as_an_empty_table(games):
    with pytest.raises(BadOption, match="--games: .* is not a positive number of games"):
        run_arena("wasserloch", OPTIONS, ["random"], games)


def test_a_seed_that_is_no_whole_number_is_refused():
    with pytest.raises(BadOption, match="--seed: 'x' is not a whole number"):
        run_arena("wasserloch", OPTIONS, ["random"], 2, seed="x")


def test_a_misspelt_spec_is_named_as_the_command_line_names_it():
    # a parsed spec was not checked: "unknown bot 'heuristc'" without the spec, from the first game
    with pytest.raises(BadOption, match=r"^bot spec 'heuristc': unknown bot 'heuristc' \(bots: .*levels: "):
        run_arena("wasserloch", OPTIONS, [parse_bot_spec("heuristc")], 2)


def test_a_bot_class_is_refused_naming_the_spec_that_seats_it():
    with pytest.raises(BadOption, match=r"not by an object \(First\); a bot of your own: .* python:module:factory"):
        run_arena("wasserloch", OPTIONS, [First, "random"], 2)


def test_options_that_are_neither_a_dict_nor_key_value_texts_are_refused():
    # KEY=VALUE texts are taken, as docs/bots.md lists them (tests/bots/test_qa2_arena_leaderboard.py)
    with pytest.raises(BadOption, match=r"options: 3 is neither a dict of game options"):
        run_arena("wasserloch", 3, ["random"], 2)


def _python_blocks() -> list[str]:
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    section = text.split("## From Python", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_the_docs_example_runs_as_written(tmp_path):
    blocks = _python_blocks()
    assert blocks, "docs/bots.md has no Python example under 'From Python'"
    # as a notebook runs a cell: the bot's factory lives in a `__main__` without a file (python -c)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", "\n".join(blocks)], capture_output=True, text=True, env=env,
                          cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^heuristic win rate \d+\.\d % \[", done.stdout, re.M)
    assert "<StudyResult wasserloch: 20 of 20 games, 1 condition(s), finished>" in done.stdout
    assert (tmp_path / "out" / "report.md").exists()


def test_games_above_the_command_lines_bound_are_refused_not_listed_into_a_memory_error():
    with pytest.raises(BadOption, match="--games: 1000000000000 games are more than the 10,000,000 a run may play"):
        run_arena("wasserloch", OPTIONS, ["random"], 10**12)


def test_results_show_short_reprs_with_the_win_rates():
    result = run_arena("wasserloch", OPTIONS, "heuristic,random", 4, seed=1)
    assert repr(result) == "<ArenaResult wasserloch: 4 games of heuristic, random, finished>"
    first = result.by_spec()[0]
    assert repr(first) == f"<SpecResult heuristic: win rate {first.win_rate().fmt(pct=True)} over 4 games>"


def test_ctrl_c_in_a_pooled_arena_keeps_whole_groups_leaves_no_worker_and_the_next_run_plays():
    def interrupt(n):  # a notebook's Ctrl-C: a KeyboardInterrupt in the main thread mid-run
        raise KeyboardInterrupt

    result = run_arena("wasserloch", OPTIONS, [parse_bot_spec("random")], 200, seed=1, jobs=2, on_progress=interrupt)
    assert result.interrupted and result.failure is None
    assert 0 < len(result.games) < 200 and len(result.games) % 2 == 0
    children = subprocess.run(["pgrep", "-P", str(os.getpid())], capture_output=True, text=True).stdout.split()
    assert children == []
    again = run_arena("wasserloch", OPTIONS, [parse_bot_spec("random")], 4, seed=1, jobs=2)
    assert not again.interrupted and len(again.games) == 4


CELL = """
import multiprocessing
from wasserspiele.bots.arena import run_arena
from wasserspiele.bots.base import Bot
from wasserspiele.bots.specs import parse_bot_spec
from wasserspiele.core.errors import BadOption
multiprocessing.set_start_method("spawn")
specs = [parse_bot_spec("python:__main__:make"), parse_bot_spec("random")]
class First(Bot):
    def choose(self, decision):
        return decision.legal[0]
def make(game, seed):
    return First(seed)
print(len(run_arena("wasserloch", {"players": 2, "rounds": 1}, specs, 4, jobs=1).games))
try:
    run_arena("wasserloch", {"players": 2, "rounds": 1}, specs, 4, jobs=2)
except BadOption as exc:
    print("refused:", exc)
"""


def test_a_notebook_bot_under_spawn_is_refused_before_the_arena_plays():
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", CELL], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("4\nrefused: bot 'python:__main__:make': make is defined in the notebook")
    assert "Traceback" not in done.stderr


def test_the_refusal_of_a_bot_object_is_said_in_german_too():
    with pytest.raises(BadOption) as refused:
        run_arena("wasserloch", OPTIONS, [First], 2)
    assert refused.value.reason.render("de").startswith(
        "ein Bot wird mit einer Bot-Angabe wie „heuristic“ (Text oder BotSpec) genannt, nicht mit einem Objekt (First);")
