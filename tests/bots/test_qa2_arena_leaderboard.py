"""QA round 2: `run_arena` takes options as the command line writes them (docs/bots.md), refuses an
empty bot entry, and the leaderboard's data file is refused in plain words naming the board and
the field (it was refused with Python's own words, or a board of an unknown game was shown)."""

from __future__ import annotations

import copy
import json

import pytest

from wasserspiele.bots.arena import run_arena
from wasserspiele.bots.leaderboard import packaged_data, read_boards
from wasserspiele.core.errors import BadOption


@pytest.mark.parametrize("options", [["rounds=1", "players=2"], "players=2,rounds=1".split(",")])
def test_run_arena_takes_options_as_key_value_texts_as_make_study_does(options):
    # docs/bots.md "From Python": `options=["rounds=1"]`, which run_arena refused as "not a dict"
    texts = run_arena("wasserloch", options, "random,random", games=2, seed=3, jobs=1)
    as_dict = run_arena("wasserloch", {"rounds": 1, "players": 2}, "random,random", games=2, seed=3, jobs=1)
    assert texts.game.players == 2 and len(texts.games) == 2
    assert [g.scores for g in texts.games] == [g.scores for g in as_dict.games]  # the same games


@pytest.mark.parametrize("options, says", [
    (["rounds"], "expected"), (["bogus=1"], "has no option 'bogus'"), (5, "neither a dict"), (None, "neither a dict"),
])
def test_run_arena_refuses_options_that_are_neither_in_words(options, says):
    with pytest.raises(BadOption, match=says):
        run_arena("wasserloch", options, "random,random", games=2, jobs=1)


@pytest.mark.parametrize("bots, entry", [("heuristic,", 2), (",random", 1), ("heuristic,,random", 2),
                                         (["ismcts:iterations=5,exploration=0.5,,random"], 2)])
def test_run_arena_refuses_an_empty_bot_entry_naming_its_place(bots, entry):
    with pytest.raises(BadOption, match=rf"^--bots '.*': entry {entry} is empty"):
        run_arena("wasserloch", {"rounds": 1}, bots, games=2, jobs=1)


def _board():
    data = json.loads(packaged_data().read_text())
    return data, next(iter(data["boards"]))


def _broken(change):
    data, name = _board()
    data = copy.deepcopy(data)
    change(data, name)
    return data


def _drop_mu(data, name):
    del data["boards"][name]["ratings"][0]["mu"]


def _chess(data, name):
    data["boards"]["chess"] = dict(data["boards"][name], game="chess")


def _pairing_number(data, name):
    data["boards"][name]["pairings"][1] = 3


def _text_mu(data, name):
    data["boards"][name]["ratings"][0]["mu"] = "high"


@pytest.mark.parametrize("data, says", [
    ({"version": 1, "boards": {"wasserloch": {}}}, "board 'wasserloch' has no 'game'"),
    ({"version": 1, "boards": {"wasserloch": {"game": "wasserloch", "ratings": []}}},
     "board 'wasserloch' has no 'pairings' (a list of pairings)"),
    ([], "not leaderboard data: a list, not an object"),
    ({"version": 1}, "no \"boards\""),
    ({"version": 1, "boards": []}, "\"boards\" is a list, not an object"),
    (_broken(_drop_mu), "rating 1 has no 'mu' (a number, the rating)"),
    (_broken(_text_mu), "rating 1: 'mu' is a text, expected a number"),
    (_broken(_pairing_number), "pairing 2 is a number, not an object"),
    (_broken(_chess), "board 'chess' is not a game (games: "),
])
def test_malformed_leaderboard_data_is_refused_naming_the_board_and_field(tmp_path, data, says):
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data))
    with pytest.raises(BadOption) as refused:
        read_boards(path)
    said = str(refused.value)
    assert said.startswith(f"{path}: not leaderboard data") and says in said, said
    # no Python internals: type names, attribute errors, constructor signatures
    for internal in ("object has no attribute", "__init__", "positional argument", "KeyError", "('"):
        assert internal not in said, said


def test_the_packaged_boards_still_read():
    assert set(read_boards(packaged_data())) == set(json.loads(packaged_data().read_text())["boards"])


def test_a_leaderboard_run_on_a_seed_already_saved_says_which_games_it_replaces(tmp_path):
    """Seeds 2 then 1 saved 12 games of random–heuristic; playing seed 1 again replaced them by
    its 6 without a word (the rule: a seed played again replays the same deals)."""
    from click.testing import CliRunner

    from wasserspiele.cli.main import main
    data = tmp_path / "lb.json"
    run = ["leaderboard", "wasserloch", "--bots", "random,heuristic", "--games", "6", "--jobs", "1",
           "--data", str(data)]
    for seed in ("1", "2"):
        res = CliRunner().invoke(main, [*run, "--seed", seed])
        assert res.exit_code == 0, res.output
        assert "replaced" not in res.stderr   # another seed adds its games
    res = CliRunner().invoke(main, [*run, "--seed", "1"])
    assert res.exit_code == 0, res.output
    assert ("wasserloch: random–heuristic: the 12 games saved before are replaced by this run's 6: it replayed "
            "deals they hold (a --seed played before); another --seed adds its games") in res.stderr, res.stderr
