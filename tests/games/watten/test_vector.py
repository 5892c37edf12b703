"""The batched Watten VectorEnv: its observations and masks are the codec's for the same
positions, its rewards the zero-sum returns, its spaces and data pass gymnasium's
checks, and bad input is refused clearly."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_space_limit, data_equivalence
from gymnasium.utils.passive_env_checker import check_obs

from wasserspiele import load
from wasserspiele.adapters import codec_for
from wasserspiele.adapters.common import zero_sum
from wasserspiele.games.watten import kernel as K
from wasserspiele.games.watten.vector import WattenVectorEnv


def _engine_state(table: np.ndarray, game):
    """The engine position of a kernel table (completed tricks as the cards they hold:
    all that the view shows of them beyond who led and won)."""
    s = game.new_game(seed=0)
    s.hands = [[int(c) for c in table[K.HANDS + 5 * p:K.HANDS + 5 * p + table[K.SIZES + p]]] for p in range(4)]
    s.trick = [int(c) for c in table[K.TRICK:K.TRICK + table[K.TRICK_N]]]
    played = [c for c in range(32) if int(table[K.PLAYED]) >> c & 1]
    assert len(played) == 4 * table[K.TRICKS_DONE]
    s.tricks = [(0, tuple(played[i:i + 4]), 0) for i in range(0, len(played), 4)]
    s.phase, s.dealer, s.caller, s.trump = (int(table[i]) for i in (K.PHASE, K.DEALER, K.CALLER, K.TRUMP))
    s.leader, s.turn, s.value = int(table[K.LEADER]), int(table[K.TURN]), int(table[K.VALUE])
    s.current_seat = None if s.phase == 4 else s.turn  # the engine keeps it as a field
    s.won = [int(x) for x in table[K.WON:K.WON + 2]]
    s.team_scores = [int(x) for x in table[K.SCORES:K.SCORES + 2]]
    s.last_raise_team, s.raiser = int(table[K.LAST_RAISE]), int(table[K.RAISER])
    s.signals = [int(x) for x in table[K.SIGNALS:K.SIGNALS + 4]]
    s.voids = [int(x) for x in table[K.VOIDS:K.VOIDS + 4]]
    s.winner_team, s.hand_no = int(table[K.WINNER]), int(table[K.HAND_NO])
    s.log, s.results = [], []
    s._set_follow_duty()  # the engine keeps the suit to follow per trick
    return s


@pytest.mark.parametrize("seat, opponents, options", [
    (0, "random", {}),
    (1, "greedy", {"raising": True, "target": 5}),
    (2, "random", {"raising": True, "signals": "public", "signal_detection_p": 0.3, "target": 4}),
    (3, "greedy", {"signals": "off", "follow": "trump_only", "jack_order": "first_played", "target": 3}),
])
def test_observations_masks_and_rewards_equal_the_codec_and_engine(seat, opponents, options):
    game = load("watten", **options)
    codec = codec_for(game)
    envs = WattenVectorEnv(16, seat=seat, opponents=opponents, seed=3, **options)
    obs, info = envs.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        for e in range(envs.num_envs):
            state = _engine_state(envs.tables[e], game)
            assert np.array_equal(obs[e], codec.observe_state(state, seat)), e
            acting = not state.is_terminal() and state.current_seat == seat
            expected = codec.mask(state.legal_actions(seat), None) if acting else np.zeros(43, np.int8)
            assert np.array_equal(info["action_mask"][e], expected), e
        actions = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]]
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        for e in np.flatnonzero(terminated):
            assert rewards[e] == pytest.approx(zero_sum(_engine_state(envs.tables[e], game))[seat])
            ended += 1
        assert (rewards[~terminated] == 0).all()
    assert ended >= 16


def test_gymnasium_checks_spaces_observations_and_seeded_determinism():
    envs = WattenVectorEnv(8, opponents="greedy", raising=True)
    check_space_limit(envs.single_observation_space, "observation")
    check_space_limit(envs.single_action_space, "action")
    obs, info = envs.reset(seed=11)
    check_obs(obs, envs.observation_space, "reset")
    again = WattenVectorEnv(8, opponents="greedy", raising=True)
    assert data_equivalence(again.reset(seed=11), (obs, info))
    rng = np.random.default_rng(1)
    for _ in range(300):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        assert envs.action_space.contains(actions)
        step = envs.step(actions)
        assert data_equivalence(again.step(actions), step)   # same seed, same actions: same data
        obs, _r, terminated, _tr, info = step
        check_obs(obs, envs.observation_space, "step")
        assert (info["action_mask"].any(axis=1) != terminated).all()  # a move unless the game just ended
    assert np.array_equal(envs.action_masks(), info["action_mask"].astype(bool))



def test_bad_settings_are_refused_naming_them():
    with pytest.raises(ValueError, match="num_envs"):
        WattenVectorEnv(0)
    with pytest.raises(ValueError, match="seat must be"):
        WattenVectorEnv(2, seat=4)
    with pytest.raises(ValueError, match="opponents"):
        WattenVectorEnv(2, opponents="clever")
    with pytest.raises(ValueError, match="target"):
        WattenVectorEnv(2, target=0)
