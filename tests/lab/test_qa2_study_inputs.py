"""QA round 2: what `make_study` and `lab tune` take from a Python caller and the command line.

A bot class, a numpy integer or None given where a list was expected failed with Python's
"object is not iterable"; an empty entry in a comma list (`2,,3`, `heuristic,`) was dropped
without a word; and `lab tune`'s reading showed the plain 95 % interval beside the words
"interval over all 3 seats at once (Bonferroni)"."""

from __future__ import annotations

import re

import numpy as np
import pytest

from wasserspiele.bots.base import Bot
from wasserspiele.core.errors import BadOption
from wasserspiele.core.stats import normal_quantile, wilson
from wasserspiele.lab import make_study
from wasserspiele.lab.tune import largest_gap, plan_tune


class First(Bot):
    def choose(self, decision):
        return decision.legal[0]


def make_first(game, seed):
    return First(seed)


@pytest.mark.parametrize("bot", [First, make_first], ids=["class", "function"])
def test_a_bot_class_or_function_itself_is_refused_naming_the_spec_form(bot):
    # docs/bots.md: "A bot class or function itself is refused naming the spec form", as `bots=[First]` is;
    # alone it failed as "'ABCMeta' object is not iterable"
    with pytest.raises(BadOption, match=r"python:module:factory") as alone:
        make_study("wasserloch", bots=bot, games=2)
    with pytest.raises(BadOption) as listed:
        make_study("wasserloch", bots=[bot], games=2)
    assert str(alone.value) == str(listed.value) and bot.__qualname__ in str(alone.value)


@pytest.mark.parametrize("flag", ["bots", "players", "options", "compare"])
def test_none_for_a_list_is_refused_in_words(flag):
    with pytest.raises(BadOption, match=rf"^{flag}: None names nothing; leave {flag} out"):
        make_study("wasserloch", games=2, **{flag: None})


def test_a_numpy_integer_is_one_player_count_as_games_takes_one():
    study = make_study("wasserloch", players=np.int64(2), games=np.int64(2), options={"rounds": 1})
    assert [c.label for c in study.conditions] == ["players=2"]
    assert study.conditions[0].options == (("rounds", 1), ("players", 2))
    assert type(dict(study.conditions[0].options)["players"]) is int  # JSON and the checks take it
    both = make_study("wasserloch", players=np.array([2, 3]), games=2, options={"rounds": 1})
    assert [c.label for c in both.conditions] == ["players=2", "players=3"]


@pytest.mark.parametrize("kwargs, flag, entry", [
    ({"players": "2,,3"}, "--players", 2),
    ({"players": "2,"}, "--players", 2),
    ({"players": ["2,3,"]}, "--players", 3),
    ({"bots": "heuristic,,random"}, "--bots", 2),
    ({"bots": ",random"}, "--bots", 1),
    ({"bots": "heuristic,"}, "--bots", 2),
    # the place counts specs: a NAME=VALUE piece continues the spec before it
    ({"bots": "ismcts:iterations=5,exploration=0.5,,random"}, "--bots", 2),
    ({"compare": ["chase=nearest,,adjacent"]}, "--compare chase", 2),
    ({"compare": {"rounds": [1, "", 2]}}, "--compare rounds", 2),
])
def test_an_empty_entry_of_a_comma_list_is_refused_naming_its_place(kwargs, flag, entry):
    # it was dropped without a word: `--compare rounds=1,,2` compared two values, `--players 2,,3` two counts
    with pytest.raises(BadOption) as refused:
        make_study("wasserloch", games=2, **kwargs)
    said = str(refused.value)
    assert said.startswith(f"{flag}: entry {entry} of ") and "is empty" in said, said


def test_an_empty_value_among_others_is_refused():
    with pytest.raises(BadOption, match=r"^--bots: value 2 of .* is empty"):
        make_study("wasserloch", games=2, bots=["heuristic", ""])


def test_lists_without_an_empty_entry_are_taken_as_before():
    study = make_study("wasserloch", players="2, 3", bots="heuristic random; random", games=2,
                       compare={"chase": ["nearest", "adjacent"]}, options=["rounds=1"])
    assert len(study.conditions) == 4 and [b.text for b in study.bots] == ["heuristic", "random", "random"]


@pytest.mark.parametrize("vary, players, flag", [
    (["rounds=1,,2"], (), "--vary rounds"),
    (["rounds=1..2,"], (), "--vary rounds"),
    (["rounds=1,2"], ("3,",), "--players"),
])
def test_tune_refuses_an_empty_entry_too(vary, players, flag):
    with pytest.raises(BadOption) as refused:
        plan_tune("wasserloch", vary, "fair-seats", players=players)
    assert str(refused.value).startswith(f"{flag}: entry 2 of ") and "is empty" in str(refused.value)


def test_fair_seats_reading_shows_the_bonferroni_interval_it_names():
    # seat 1 wins 8 of 32, seats 0 and 2 share the rest: seat 1 is the furthest from a fair third
    rows = ([{"returns": [1.0, 0.0, 0.0]}] * 12 + [{"returns": [0.0, 1.0, 0.0]}] * 8
            + [{"returns": [0.0, 0.0, 1.0]}] * 12)
    goal, reading = largest_gap([[0], [1], [2]], rows, list(range(len(rows))))
    assert "seat 1 wins 25.0 %" in reading and "Bonferroni" in reading
    low, high = map(float, re.search(r"\[([\d.]+), ([\d.]+)\]", reading).groups())
    bonferroni = wilson(8, 32, normal_quantile(1 - 0.025 / 3))
    assert (low, high) == (round(100 * bonferroni.low, 1), round(100 * bonferroni.high, 1)) == (11.5, 46.1)
    assert "98.3 % interval" in reading
    # the goal's interval comes from the same intervals: its upper end is the farthest of their ends
    assert goal.high >= max(abs(bonferroni.low - 1 / 3), abs(bonferroni.high - 1 / 3)) - 1e-12


def test_fair_seats_reading_with_two_seats_keeps_the_plain_interval():
    rows = [{"returns": [1.0, 0.0]}] * 8 + [{"returns": [0.0, 1.0]}] * 24
    _, reading = largest_gap([[0], [1]], rows, list(range(len(rows))))
    plain = wilson(8, 32)
    assert f"[{100 * plain.low:.1f}, {100 * plain.high:.1f}]" in reading and "Bonferroni" not in reading


@pytest.mark.parametrize("games, share", [(20, 7 / 20), (4, 1 / 4), (60, 0.5)])
def test_the_games_said_to_narrow_a_share_to_the_goal_do_narrow_it(games, share):
    """"About 890 games would narrow every seat to ±3 pp" after 20 games: `--precision 3pp` then
    stopped at 1,086.  Scaling the half-width by 1/√n underestimates where Wilson's interval is
    narrower than that at few games; the estimate now inverts Wilson's interval at the share."""
    from wasserspiele.core.stats import wilson
    from wasserspiele.lab.report import _games_needed

    def half(m: float) -> float:
        w = wilson(share * m, m)
        return (w.high - w.low) / 2
    need = _games_needed(games, half(games), 0.03, share)
    assert half(need) <= 0.03 < half(0.9 * need)   # enough, and not much more (two digits rounded up)


@pytest.mark.parametrize("games, said", [(5, True), (6, False)])
def test_a_rotated_study_that_is_not_whole_turns_of_the_line_up_says_so(games, said):
    """The report said rotated seating lets seat and bot effects separate, where 20 games at 3 seats
    sat a bot in seats 0/1/2 in 7/7/6 games; whole turns of the line-up balance them."""
    from wasserspiele.lab import run_study
    from wasserspiele.lab.report import _rotation_note
    result = run_study(make_study("wasserloch", players=3, bots="random,heuristic", options={"rounds": 1},
                                  games=games, seed=1), jobs=1)
    note = _rotation_note(result)
    assert (f"the {games} games are not a multiple of the line-up's 3 seatings" in note) is said, note
    assert _rotation_note(run_study(make_study("wasserloch", players=3, bots="random", options={"rounds": 1},
                                               games=games, seed=1), jobs=1)) == ""  # one bot: nothing to balance
