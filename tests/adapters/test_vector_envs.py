"""What every game's batched kernel environment (adapters/vector.KernelVectorEnv) does
alike; each game's own tests are in tests/games/<game>/test_vector.py."""

from __future__ import annotations

import numpy as np
import pytest

from wasserspiele.games.seven_waters.vector import SevenWatersVectorEnv
from wasserspiele.games.wasserloch.vector import WasserlochVectorEnv
from wasserspiele.games.watten.vector import WattenVectorEnv
from wasserspiele.games.wildwasser.vector import WildwasserVectorEnv

ENVS = {
    "seven_waters": lambda: SevenWatersVectorEnv(4, seed=1),
    "wasserloch": lambda: WasserlochVectorEnv(4, players=2, seed=1),
    "watten": lambda: WattenVectorEnv(4, seed=1),
    "wildwasser": lambda: WildwasserVectorEnv(4, players=3, seed=1),
}


@pytest.mark.parametrize("name", ENVS)
def test_an_illegal_index_ends_the_episode_and_the_table_is_dealt_anew(name):
    envs = ENVS[name]()
    _obs, info = envs.reset()
    bad = [int(np.flatnonzero(m == 0)[0]) for m in info["action_mask"]]
    _obs, rewards, terminated, _t, info = envs.step(bad)
    assert terminated.all() and (rewards == -1.0).all() and info["illegal_action"].all()
    _obs, rewards, terminated, _t, info = envs.step(bad)  # next-step autoreset: actions ignored
    assert not terminated.any() and (rewards == 0).all() and info["action_mask"].any(axis=1).all()


@pytest.mark.parametrize("bad", [0, -1, True, 2.0, "4"])
def test_a_table_count_that_is_not_a_positive_integer_is_refused(bad):
    for make in (SevenWatersVectorEnv, WasserlochVectorEnv, WattenVectorEnv, WildwasserVectorEnv):
        with pytest.raises(ValueError, match="num_envs must be a positive integer"):
            make(bad)


@pytest.mark.parametrize("name", ENVS)
def test_unseeded_resets_go_on_to_new_deals_that_the_seed_fixes(name):
    envs, again = ENVS[name](), ENVS[name]()  # constructed with seed=1
    first = [envs.reset()[0] for _ in range(3)]
    assert not np.array_equal(first[0], first[1]) and not np.array_equal(first[1], first[2])
    assert all(np.array_equal(a, b) for a, b in zip(first, [again.reset()[0] for _ in range(3)]))
    assert np.array_equal(envs.reset(seed=1)[0], first[0])  # reset(seed=1) is the constructor's seed
    assert np.array_equal(envs.reset()[0], first[1])        # and the sequence goes on from it


@pytest.mark.parametrize("name", ENVS)
def test_step_before_reset_is_refused(name):
    envs = ENVS[name]()
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        envs.step(np.zeros(envs.num_envs, np.int64))


@pytest.mark.parametrize("name", ENVS)
def test_actions_that_are_not_integers_are_refused(name):
    envs = ENVS[name]()
    _obs, info = envs.reset(seed=3)
    legal = np.array([np.flatnonzero(m)[0] for m in info["action_mask"]])
    for bad in (legal + 0.5, np.where(np.arange(envs.num_envs) == 0, np.nan, legal),
                np.ones(envs.num_envs, bool), np.array(["0"] * envs.num_envs), [0.7] + [0] * (envs.num_envs - 1)):
        with pytest.raises(ValueError, match="actions must be integer indices; table 0"):
            envs.step(bad)
    with pytest.raises(ValueError, match=f"one per table needed \\({envs.num_envs}\\), got 2"):
        envs.step([0, 0])
    _obs, rewards, terminated, _t, info = envs.step(legal.astype(np.float64))  # whole numbers are indices
    assert "illegal_action" not in info


def test_numpy_integers_are_accepted_as_counts_and_seats():
    for make, seat in ((WasserlochVectorEnv, 1), (WattenVectorEnv, 3), (WildwasserVectorEnv, 2),
                       (SevenWatersVectorEnv, 1)):
        envs = make(np.int64(2), seat=np.int64(seat), seed=np.int32(4))
        assert envs.num_envs == 2 and envs.seat == seat and type(envs.seat) is int
        envs.reset()
    envs = WasserlochVectorEnv(2, players=np.int64(4), seat=np.int64(3))  # a player count too
    assert envs.players == 4 and type(envs.players) is int
    for bad in (np.int64(7), True, 1.0):
        with pytest.raises(ValueError, match="seat must be"):
            WasserlochVectorEnv(2, seat=bad)
    with pytest.raises(ValueError, match="seat must be"):
        SevenWatersVectorEnv(2, seat=True)  # a bool is no seat (it passed `seat in (0, 1)`)


def _game_of(name):
    """The game a table of ENVS[name] plays (the game's defaults but the players)."""
    import wasserspiele
    return wasserspiele.load(name, **({"players": 2} if name == "wasserloch" else
                                      {"players": 3} if name == "wildwasser" else {}))


@pytest.mark.parametrize("name", ENVS)
def test_a_table_is_truncated_at_the_bound_and_dealt_anew(name):
    from wasserspiele.adapters.common import max_game_length
    envs = ENVS[name]()
    assert envs.max_game_length == max_game_length(_game_of(name))  # the manifest's, for the tables' options
    _obs, info = envs.reset(seed=2)
    envs.max_game_length = 2  # shortened so that every table reaches it
    ended = np.zeros(envs.num_envs, np.bool_)
    for _ in range(2):
        actions = np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in info["action_mask"]])
        _obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not (terminated & truncated).any()
        ended |= terminated
    assert (truncated | ended).all() and truncated.any()
    assert (rewards[truncated] == 0).all() and not info["action_mask"][truncated].any()
    actions = np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in info["action_mask"]])
    _obs, rewards, terminated, truncated, info = envs.step(actions)  # next-step autoreset
    assert not truncated.any() and info["action_mask"].any(axis=1).all()


def test_the_docstrings_give_the_real_shapes():
    """Each VectorEnv's docstring shows its example's shapes: they must be the real ones."""
    import re
    for make in (SevenWatersVectorEnv, WasserlochVectorEnv, WattenVectorEnv, WildwasserVectorEnv):
        doc = __import__(make.__module__, fromlist=["_"]).__doc__
        call = re.search(r"envs = \w+\((.*)\)\n", doc).group(1)
        envs = eval(f"make({call.replace('1024', '2')})", {"make": make})  # noqa: S307 - the docstring's example
        obs, masks = re.search(r"# obs \(1024, (\w+)\) float32, info\[\"action_mask\"\] \(1024, (\d+)\)", doc).groups()
        assert obs == "obs_size" or int(obs) == envs.single_observation_space.shape[0], make.__name__
        assert int(masks) == envs.single_action_space.n, make.__name__
