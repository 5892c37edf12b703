"""QA round 2 on the command line: the arena says when it rounds --games up to whole duplicate
groups (as `lab` and `leaderboard` do), the designer tools refuse an empty entry of a comma
list naming it, and `replay --json` writes whole scores as integers (records.md)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from wasserspiele.cli.main import main

ARENA = ["arena", "wasserloch", "--bots", "random,random", "--jobs", "1", "--option", "rounds=1"]


@pytest.mark.parametrize("lang, says", [
    ("en", "--games 4 rounded up to 6: whole groups of 3 games"),
    ("de", "--games 4 aufgerundet auf 6: ganze Gruppen von 3 Partien"),
])
def test_the_arena_says_when_it_rounds_games_up_to_whole_groups(lang, says):
    # three seats: every rotation of the line-up plays the deal, so 4 games are 6; it played 6 without a word
    result = CliRunner().invoke(main, [*ARENA, "--games", "4", "--lang", lang])
    assert result.exit_code == 0, result.output
    assert says in result.stderr and says not in result.stdout
    assert ("6 games" if lang == "en" else "6 Partien") in result.stdout  # the table counts what was played


def test_the_arena_says_nothing_of_rounding_when_the_count_is_whole_or_with_quiet():
    result = CliRunner().invoke(main, [*ARENA, "--games", "6"])
    assert result.exit_code == 0, result.output
    assert "rounded up" not in result.stderr
    quiet = CliRunner().invoke(main, [*ARENA, "--games", "4", "--quiet"])
    assert quiet.exit_code == 0 and quiet.stderr == "", quiet.output


@pytest.mark.parametrize("args, says", [
    (["arena", "wasserloch", "--bots", "heuristic,", "--games", "2", "--jobs", "1"],
     "--bots 'heuristic,': entry 2 is empty"),
    (["arena", "wasserloch", "--bots", ",random", "--games", "2", "--jobs", "1"], "--bots ',random': entry 1 is empty"),
    (["lab", "wasserloch", "--compare", "rounds=1,,2"], "--compare rounds: entry 2 of '1,,2' is empty"),
    (["lab", "wasserloch", "--players", "2,,3"], "--players: entry 2 of '2,,3' is empty"),
    (["lab", "wasserloch", "--players", "2,"], "--players: entry 2 of '2,' is empty"),
    (["lab", "wasserloch", "--bots", "heuristic,,random"], "--bots: entry 2 of 'heuristic,,random' is empty"),
    (["lab", "tune", "wasserloch", "--vary", "rounds=1,,2", "--goal", "shorter"],
     "--vary rounds: entry 2 of '1,,2' is empty"),
    (["lab", "tune", "wasserloch", "--vary", "rounds=1,2", "--goal", "shorter", "--bots", "heuristic,"],
     "--bots: entry 2 of 'heuristic,' is empty"),
])
def test_an_empty_entry_of_a_comma_list_is_refused_before_any_game(tmp_path, args, says):
    if args[0] == "lab":
        args = [*args, "--games", "2", "--jobs", "1", "--out", str(tmp_path / "out")]
    result = CliRunner().invoke(main, args)
    assert result.exit_code != 0 and says in " ".join(result.output.split()), result.output
    assert not (tmp_path / "out").exists()  # refused before anything was played or written


def test_an_empty_bot_entry_is_refused_in_german_too():
    result = CliRunner().invoke(main, ["arena", "wasserloch", "--bots", "heuristic,,random", "--games", "2",
                                       "--jobs", "1", "--lang", "de"])
    assert result.exit_code != 0 and "Eintrag 2 ist leer" in result.output, result.output


def test_replay_json_writes_whole_scores_as_integers(tmp_path):
    # Wildwasser keeps its scores as floats: `[0.0, 0.0]` where records.md and results.csv write `[0, 0]`
    path = tmp_path / "ww.json"
    path.write_text(json.dumps({"format": "wasserspiele-record/1", "game": "wildwasser", "players": 2, "seed": 1}))
    result = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert '"scores": [0, 0]' in result.output
    assert all(type(x) is int for x in json.loads(result.output)["scores"])
