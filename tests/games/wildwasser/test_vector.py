"""The batched Wildwasser VectorEnv: its observations and masks are the codec's for the
same positions, its rewards the zero-sum returns, and bad input is refused clearly."""

from __future__ import annotations

import numpy as np
import pytest

from wasserspiele import load
from wasserspiele.adapters import codec_for
from wasserspiele.adapters.common import zero_sum
from wasserspiele.games.wildwasser import kernel as K
from wasserspiele.games.wildwasser.vector import WildwasserVectorEnv


def _engine_state(envs: WildwasserVectorEnv, e: int, game):
    """The engine position of table e, made from the env's arrays."""
    row = [int(v) for v in envs.st[e]]
    p = envs.players
    n = K.N_SPECIES * p
    s = game.new_game(seed=0)
    s.pos = row[K.POS:K.POS + n]
    s.place = row[K.PLACE:K.PLACE + n]
    s.occ = row[row[K.OCC_AT]:row[K.OCC_AT] + game.board.fields + 2]
    s.podium_n = row[K.PODIUM_N:K.PODIUM_N + K.N_SPECIES]
    s.done = row[K.DONE:K.DONE + p]
    s.hand = row[K.HAND:K.HAND + p]
    s.revealed = row[K.REVEALED:K.REVEALED + p]
    s.pick = row[K.PICK:K.PICK + p]
    s.slots = row[row[K.SLOTS_AT]:row[K.SLOTS_AT] + game.board.slots]
    s.stack = row[row[K.STACK_AT]:row[K.STACK_AT] + row[K.NSTACK]]
    s.removed = s.removed[:envs.removed]
    s.discard = [1] * row[K.NDISCARD]
    s.gaps = -1 in s.slots
    s.last_round = bool(row[K.LAST_ROUND])
    s.marker, s.round, s.phase, s.turn, s.card = row[K.MARKER], row[K.ROUND], row[K.PHASE], row[K.TURN], row[K.CARD]
    s.order = tuple((row[K.FIRST] + i) % p for i in range(p))
    if s.phase == K.PICK_PHASE:
        s.waiting = tuple(t for t in range(p) if s.pick[t] < 0)
    else:
        s.waiting = () if s.phase == K.OVER else (row[K.WAIT],)
    s.current_seat = s.waiting[0] if s.waiting else None
    s.log, s.log_len = None, 0
    s.sync()  # the engine's kept fields, derived from the fields set above
    return s


@pytest.mark.parametrize("players, seat, first_player, river_flow", [
    (4, 0, 0, "forward"), (2, 1, 1, "forward"), (6, 3, 2, "back")])
def test_observations_masks_and_rewards_equal_the_codec_and_engine(players, seat, first_player, river_flow):
    game = load("wildwasser", players=players, first_player=first_player, river_flow=river_flow)
    codec = codec_for(game)
    envs = WildwasserVectorEnv(16, players=players, seat=seat, first_player=first_player, river_flow=river_flow)
    obs, info = envs.reset(seed=3)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        for e in range(envs.num_envs):
            state = _engine_state(envs, e, game)
            assert np.array_equal(obs[e], codec.observe_state(state, seat)), e
            expected = (np.zeros(codec.num_actions, np.int8) if state.is_terminal()
                        else codec.mask(state.legal_actions(seat), state.view(seat)))
            assert np.array_equal(info["action_mask"][e], expected)
        actions = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]]
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        for e in np.flatnonzero(terminated):
            assert rewards[e] == pytest.approx(zero_sum(_engine_state(envs, e, game))[seat])
            ended += 1
        assert (rewards[~terminated] == 0).all()
    assert ended > 0



def test_bad_settings_are_refused_naming_them():
    with pytest.raises(ValueError, match="num_envs"):
        WildwasserVectorEnv(0)
    with pytest.raises(ValueError, match="seat must be"):
        WildwasserVectorEnv(2, players=2, seat=2)
    with pytest.raises(Exception, match="river_flow"):
        WildwasserVectorEnv(2, river_flow="sideways")
