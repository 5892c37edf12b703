"""The batched Wasserloch VectorEnv: its observations and masks are the codec's for the
same positions, its rewards the zero-sum returns, and bad input is refused clearly."""

from __future__ import annotations

import numpy as np
import pytest

from wasserspiele import load
from wasserspiele.adapters import codec_for
from wasserspiele.adapters.common import zero_sum
from wasserspiele.games.wasserloch.vector import WasserlochVectorEnv


def _engine_state(envs: WasserlochVectorEnv, e: int, game):
    """The engine position of table e, made from the env's arrays."""
    s = game.new_game(seed=0)
    p = envs.players
    s.hands = [[int(x) for x in envs.hands[e, 8 * k:8 * k + 8]] for k in range(p)]
    assert s.hand_sizes == [int(x) for x in envs.sizes[e]]  # the env's sizes are its hands'
    s.hole = [int(x) for x in envs.hole[e]]
    s.gone = [int(x) for x in envs.gone[e]]
    s.loot = [[int(x) for x in envs.loot[e]]]
    s.pile = tuple(int(x) for x in envs.decks[e])
    s.pile_pos = int(envs.pos[e])
    s.current = int(envs.current[e])
    s.over = bool(envs.over[e])
    return s


@pytest.mark.parametrize("players, seat, opponents, chase", [
    (3, 0, "random", "nearest"), (2, 1, "greedy", "nearest"), (4, 2, "greedy", "adjacent")])
def test_observations_masks_and_rewards_equal_the_codec_and_engine(players, seat, opponents, chase):
    game = load("wasserloch", players=players, rounds=1, chase=chase)
    codec = codec_for(game)
    envs = WasserlochVectorEnv(32, players=players, seat=seat, opponents=opponents, chase=chase, rounds=1)
    obs, info = envs.reset(seed=3)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(120):
        for e in range(envs.num_envs):
            state = _engine_state(envs, e, game)
            assert np.array_equal(obs[e], codec.observe_state(state, seat)), e
            expected = np.zeros(codec.num_actions, np.int8) if state.over else codec.mask(state.legal_actions(seat), None)
            assert np.array_equal(info["action_mask"][e], expected)
        actions = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]]
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        for e in np.flatnonzero(terminated):
            assert rewards[e] == pytest.approx(zero_sum(_engine_state(envs, e, game))[seat])
            ended += 1
        assert (rewards[~terminated] == 0).all()
    assert ended > 32



def test_bad_settings_are_refused_naming_them():
    with pytest.raises(ValueError, match="num_envs"):
        WasserlochVectorEnv(0)
    with pytest.raises(ValueError, match="seat must be"):
        WasserlochVectorEnv(2, players=2, seat=2)
    with pytest.raises(ValueError, match="opponents"):
        WasserlochVectorEnv(2, opponents="clever")
