"""The search's value of a rollout cut off before the end (`ismcts:estimate=true`).

Wildwasser's rollouts stop after the manifest's 30 actions; valued by the podium points
so far, which are mostly still 0 there, nearly every root action of a mid-game search
was a draw (0.5) and the search chose by tie-breaks.  The game's `estimated_scores`
(heuristic.py, kernel.race_estimate) values the race as it stands instead; the other
games keep their score leads."""

from __future__ import annotations

import random

import pytest

from wasserspiele import load
from wasserspiele.bots.base import decision_for
from wasserspiele.bots.ismcts import ISMCTSBot, evaluate
from wasserspiele.core.errors import BadOption
from wasserspiele.games.wildwasser import heuristic as ww_heuristic
from wasserspiele.games.wildwasser.board import SPECIES

TURTLE, CHEETAH = SPECIES.index("turtle"), SPECIES.index("cheetah")


def _put(state, seat: int, species: int, field: int) -> None:
    """Stand an animal on a bank field (a position built for the test)."""
    a = seat * len(SPECIES) + species
    if 0 < state.pos[a] <= state.board.fields:
        state.occ[state.pos[a]] = -1
    state.pos[a] = field
    state.occ[field] = a


def _finish(state, seat: int, species: int) -> None:
    """Put an animal on its species' next podium place (WW-4.2)."""
    a = seat * len(SPECIES) + species
    state.podium_n[species] += 1
    state.place[a] = state.podium_n[species]
    state.pos[a] = state.board.fields + 1


def test_ww_5_3_the_estimate_is_the_podium_the_race_would_give_weighted_by_progress():
    """Turtles on fields 36, 30 and 9 (finish 38) would take places 1, 2, 3 (10, 6, 3
    points), weighted by progress; a placed cheetah counts its podium points and pushes
    the next cheetah on the track to second place (2 points)."""
    game = load("wildwasser", players=3)
    state = game.new_game(seed=1)
    assert ww_heuristic.estimated_scores(state) == [0.0, 0.0, 0.0]
    _put(state, 0, TURTLE, 36)
    _put(state, 1, TURTLE, 30)
    _put(state, 2, TURTLE, 9)
    finish = state.board.fields + 1
    assert ww_heuristic.estimated_scores(state) == [10 * 36 / finish, 6 * 30 / finish, 3 * 9 / finish]
    _finish(state, 1, CHEETAH)
    _put(state, 2, CHEETAH, 21)
    assert ww_heuristic.estimated_scores(state) == [10 * 36 / finish, 6 * 30 / finish + 4,
                                                   3 * 9 / finish + 2 * 21 / finish]


def test_ww_the_estimate_is_the_same_compiled_and_in_python():
    """kernel.race_estimate counts in whole numbers: numba's and Python's agree exactly."""
    import numpy as np

    from wasserspiele.games.wildwasser import kernel as K

    if not hasattr(K.race_estimate, "py_func"):
        pytest.skip("numba is not installed: only the Python kernel runs")
    game = load("wildwasser", players=5, river_flow="back")
    rng = random.Random(9)
    compared = 0
    for seed in range(12):
        state = game.new_game(seed=seed)
        for _ in range(rng.randrange(20, 200)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        st, bd = K.from_state(state), K.BOARDS["back"]
        compiled, python = np.zeros(5, np.int64), np.zeros(5, np.int64)
        K.race_estimate(st, bd, compiled)
        K.race_estimate.py_func(st, bd, python)
        assert compiled.tolist() == python.tolist()
        compared += any(python)
    assert compared >= 8


def test_ww_5_3_a_clear_leader_is_valued_above_the_others_where_the_scores_say_draw():
    """Before: an unfinished race with no animal placed was a draw for every seat."""
    game = load("wildwasser", players=3)
    state = game.new_game(seed=2)
    for sp in range(len(SPECIES)):
        _put(state, 0, sp, 28 + sp)   # seat 0's animals near the finish, the others just started
    _put(state, 1, TURTLE, 2)
    _put(state, 2, CHEETAH, 3)
    assert evaluate(state) == [0.5, 0.5, 0.5]
    values = evaluate(state, ww_heuristic.estimated_scores)
    assert values[0] > 0.9 and values[1] < 0.5 and values[2] < 0.5


def _midgame(players: int, river_flow: str, seed: int):
    game = load("wildwasser", players=players, river_flow=river_flow)
    state = game.new_game(seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(40, 120)):
        state.apply(rng.choice(state.legal_actions()))
    return game, decision_for(state, state.current_seat)


@pytest.mark.parametrize("players, seed", [(3, 3), (4, 3)])
def test_ww_a_midgame_search_with_the_estimate_tells_its_actions_apart(players, seed):
    """With the backward river, 30-action rollouts 40-120 actions into a game rarely
    finish an animal: the default search found every root action worth 0.5; with the
    estimate its values differ, and a seeded search repeats itself exactly."""
    game, decision = _midgame(players, "back", seed)
    assert len(decision.legal) > 1
    settings = dict(game.manifest.search.ismcts)
    flat = ISMCTSBot(seed=1, iterations=200, game=game, **{**settings, "estimate": False}).search(decision)
    assert {c.value for c in flat} == {0.5}  # the finding: the scores so far value nothing
    runs = [[(str(c.action), c.visits, c.value) for c in
             ISMCTSBot(seed=1, iterations=200, game=game, **{**settings, "estimate": True}).search(decision)]
            for _ in range(2)]
    assert len({v for _, _, v in runs[0]}) > 1
    assert runs[0] == runs[1]


def test_a_game_without_an_estimate_refuses_the_setting_and_a_non_switch_is_refused():
    with pytest.raises(BadOption) as refused:
        ISMCTSBot(seed=1, game=load("wasserloch"), estimate=True)
    assert "estimated_scores" in str(refused.value)
    assert refused.value.reason.render("de")
    with pytest.raises(BadOption) as refused:
        ISMCTSBot(seed=1, game=load("wildwasser"), estimate="yes")
    assert "estimate" in str(refused.value)




@pytest.mark.parametrize("level", ["hard", "expert"])
def test_ww_the_levels_that_search_value_cut_off_rollouts_by_the_estimate(level):
    """The manifest turns the estimate on for Wildwasser's searching levels (it won at
    equal CPU, docs/bots.md); another game's search keeps its score leads."""
    from wasserspiele.bots.levels import bot_for_level

    assert bot_for_level(level, load("wildwasser", players=3), seed=1)._estimate is ww_heuristic.estimated_scores
    assert bot_for_level(level, load("wasserloch"), seed=1)._estimate is None
