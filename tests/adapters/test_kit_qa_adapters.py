"""The research kit's adapters (QA): `make_vec` refuses a misspelt game option in the
game's own words, OpenSpiel's utility bounds are the real extremes of the zero-sum
returns, and the parallel PettingZoo env renders the acting seat's view."""

from __future__ import annotations

import random

import numpy as np
import pytest

from wasserspiele.adapters import pettingzoo as wpz
from wasserspiele.adapters.common import render_text
from wasserspiele.core.errors import BadOption

from .helpers import FAST


# -- make_vec: the game's own refusal first --------------------------------------------------
@pytest.mark.parametrize("kwargs", [{"roundz": 1}, {"options": {"roundz": 1}}])
def test_make_vec_refuses_an_unknown_option_as_the_game_does(kwargs):
    gymnasium = pytest.importorskip("gymnasium")
    import wasserspiele.adapters.gymnasium  # noqa: F401  (registers the envs)
    with pytest.raises(BadOption) as single:
        gymnasium.make("wasserspiele/Wasserloch-v0", roundz=1)
    with pytest.raises(BadOption) as batched:  # was a ValueError sending the user to "sync"
        gymnasium.make_vec("wasserspiele/Wasserloch-v0", num_envs=2, **kwargs)
    assert str(batched.value) == str(single.value)
    assert "no option 'roundz' (options: " in str(batched.value)
    assert "vectorization_mode" not in str(batched.value)


def test_make_vec_still_takes_the_kernels_own_arguments_and_the_games_options():
    gymnasium = pytest.importorskip("gymnasium")
    import wasserspiele.adapters.gymnasium  # noqa: F401
    env = gymnasium.make_vec("wasserspiele/Wasserloch-v0", num_envs=2, rounds=1, seed=3, illegal_reward=-2)
    env.close()
    with pytest.raises(BadOption, match="option rounds: 0 is below the minimum 1"):
        gymnasium.make_vec("wasserspiele/Wasserloch-v0", num_envs=2, rounds=0)


# -- OpenSpiel: min_utility / max_utility -----------------------------------------------------
@pytest.mark.parametrize("name, params, low, high", [
    ("wasserloch", {"players": 2, "rounds": 1}, -1 / 2, 1 / 2),
    ("wasserloch", {"players": 3, "rounds": 1}, -1 / 3, 2 / 3),
    ("wasserloch", {"players": 4, "rounds": 1}, -1 / 4, 3 / 4),
    ("wildwasser", {"players": 3}, -1 / 3, 2 / 3),
    ("wildwasser", {"players": 6}, -1 / 6, 5 / 6),
    ("seven_waters", {}, -1 / 2, 1 / 2),
    ("watten", {"target": 3}, -0.5, 0.5),  # two teams of two: the partners win together
])
def test_openspiel_utility_bounds_are_the_zero_sum_extremes(name, params, low, high):
    pyspiel = pytest.importorskip("pyspiel")
    import wasserspiele.adapters.openspiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game(f"wasserspiele_{name}", params)
    # -1/n … (n-1)/n for n seats, ±0.5 for two sides (was ±1 for every game)
    assert game.min_utility() == pytest.approx(low) and game.max_utility() == pytest.approx(high)
    assert game.utility_sum() == 0.0


@pytest.mark.parametrize("name", ["wasserloch", "watten", "wildwasser"])
def test_openspiel_returns_of_played_games_reach_the_bounds(name):
    pyspiel = pytest.importorskip("pyspiel")
    import wasserspiele.adapters.openspiel  # noqa: F401
    game = pyspiel.load_game(f"wasserspiele_{name}", FAST[name])
    rng = random.Random(7)
    seen = []
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        seen += state.returns()
        assert sum(state.returns()) == pytest.approx(game.utility_sum(), abs=1e-9)
    assert all(game.min_utility() - 1e-9 <= r <= game.max_utility() + 1e-9 for r in seen)
    # the bounds are reached, not merely respected: a single winner takes the top one
    assert max(seen) == pytest.approx(game.max_utility()) or min(seen) == pytest.approx(game.min_utility())


# -- PettingZoo parallel env: the acting seat's view -------------------------------------------
@pytest.mark.parametrize("name", ["wasserloch", "watten"])
def test_parallel_env_renders_as_the_acting_seat_sees_it(name):
    env = wpz.parallel_env(name, render_mode="ansi", **FAST[name])
    observations, _ = env.reset(seed=1)
    aec = wpz.raw_env(name, render_mode="ansi", **FAST[name])
    aec.reset(seed=1)
    for _ in range(4):
        state = env.game_state
        (seat,) = state.to_move()
        assert env.render() == render_text(state, seat) != render_text(state, None)
        assert env.render() == aec.render()  # as the AEC env renders its agent_selection's view
        agent = env.possible_agents[seat]
        index = int(np.flatnonzero(observations[agent]["action_mask"])[0])
        observations, *_ = env.step({agent: index})
        aec.step(index)


def test_parallel_env_renders_simultaneous_picks_as_a_spectator():
    env = wpz.parallel_env("wildwasser", render_mode="ansi", players=3)
    env.reset(seed=1)
    state = env.game_state
    assert len(state.to_move()) > 1  # the secret picks: every seat at once
    assert env.render() == render_text(state, None)
