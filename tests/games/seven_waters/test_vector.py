"""The batched Seven Waters VectorEnv: its observations and masks are the codec's for the
same positions (each table's game replayed in the engine), its rewards the zero-sum
returns, and bad input is refused clearly."""

from __future__ import annotations

import numpy as np
import pytest

from wasserspiele import load
from wasserspiele.adapters import codec_for
from wasserspiele.adapters.common import zero_sum
from wasserspiele.games.seven_waters.vector import SevenWatersVectorEnv

from .kernel_codes import code, engine_game


def _engine_state(envs: SevenWatersVectorEnv, e: int, game, cache: dict):
    """The engine position of table e: its deal and its actions so far, replayed (on from
    the position cached for the same deal)."""
    deck = envs.decks[e].tolist()
    state, done = cache.get(e, (None, 0))
    if state is None or deck != cache[e, "deck"] or done > envs.steps[e]:
        state, done = engine_game(game, envs.decks[e]), 0
        cache[e, "deck"] = deck
    for played in envs.plays[e, done:envs.steps[e]]:
        seat = state.current_seat
        legal = state.legal_actions(seat)
        state.apply(legal[[code(a, state.hands[seat]) for a in legal].index(int(played))], seat)
    cache[e] = state, int(envs.steps[e])
    return state


@pytest.mark.parametrize("seat, opponent, options", [
    (0, "random", {}), (1, "heuristic", {"slide_limit": 2, "final_turns": "none"}),
    (0, "heuristic", {"first_player": 1, "slide_limit": None})])
def test_observations_masks_and_rewards_equal_the_codec_and_engine(seat, opponent, options):
    game = load("seven_waters", **options)
    codec = codec_for(game)
    envs = SevenWatersVectorEnv(6, seat=seat, opponents=opponent, seed=4, **options)
    obs, info = envs.reset()
    rng = np.random.default_rng(0)
    ended, cache = 0, {}
    for _ in range(90):
        for e in range(envs.num_envs):
            state = _engine_state(envs, e, game, cache)
            view = state.view(seat)
            assert np.array_equal(obs[e], codec.observe(view)), e
            acting = seat in state.to_move()
            expected = codec.mask(state.legal_actions(seat), view) if acting else np.zeros(codec.num_actions, np.int8)
            assert np.array_equal(info["action_mask"][e], expected), e
        actions = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]]
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        for e in np.flatnonzero(terminated):
            state = _engine_state(envs, e, game, cache)
            assert state.is_terminal()
            assert rewards[e] == pytest.approx(zero_sum(state)[seat])
            ended += 1
        assert (rewards[~terminated] == 0).all()
    assert ended >= envs.num_envs



def test_bad_settings_are_refused_naming_them():
    with pytest.raises(ValueError, match="num_envs"):
        SevenWatersVectorEnv(0)
    with pytest.raises(ValueError, match="seat must be"):
        SevenWatersVectorEnv(2, seat=2)
    with pytest.raises(ValueError, match="opponents must be"):
        SevenWatersVectorEnv(2, opponents="clever")
    with pytest.raises(Exception, match="final_turns"):
        SevenWatersVectorEnv(2, final_turns="many")
