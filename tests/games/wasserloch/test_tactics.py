"""The codec's tactics (games/wasserloch/codec.py): what the drive-off rules make of a
waterhole, worked out by hand for small positions, and the same values in the vector."""

from __future__ import annotations

import numpy as np

from wasserspiele import load
from wasserspiele.adapters import codec_for
from wasserspiele.games.wasserloch.codec import tactics
from wasserspiele.games.wasserloch.rules import drive_targets

A, _2, _3, _4, _5, _6, _7, _8 = range(8)


def counts(**by_value: int) -> list[int]:
    """Counts per value index from keywords v0 … v7."""
    row = [0] * 8
    for name, n in by_value.items():
        row[int(name[1:])] = n
    return row


def test_wl_4_2_wl_4_3_prize_is_the_nearest_lower_occupied_place_and_aces_take_only_the_8s():
    # WL-4.2: a drive by a value takes the nearest lower occupied place, gaps skipped;
    # WL-4.3: aces take the 8s and nothing else takes them
    hole = counts(v0=1, v2=2, v7=4)
    assert drive_targets(hole, adjacent=False) == [_8, A, A, _3, _3, _3, _3, _3]
    assert drive_targets(hole, adjacent=True) == [_8, A, -1, _3, -1, -1, -1, -1]
    prize, *_ = tactics(hole, None, [0] * 8, adjacent=False)
    assert prize == [4, 1, 1, 2, 2, 2, 2, 2]
    # chase=adjacent: only the place directly below
    prize, *_ = tactics(hole, None, [0] * 8, adjacent=True)
    assert prize == [4, 1, 0, 2, 0, 0, 0, 0]


def test_wl_4_5_need_counts_the_cards_a_drive_takes_and_a_full_place_drives_again():
    # WL-4.2: three or more after the play; WL-4.5: a place at 3+ drives with one more card
    _, need, *_ = tactics(counts(v1=1, v2=2, v3=3, v4=5), None, [0] * 8, adjacent=False)
    assert need == [3, 2, 1, 1, 1, 3, 3, 3]


def test_unseen_is_what_neither_the_waterhole_nor_the_gone_cards_nor_the_hand_show():
    hand = counts(v3=2, v5=3)
    _, _, unseen, *_ = tactics(counts(v3=1), hand, counts(v0=4), adjacent=False)
    assert unseen == [4, 8, 8, 5, 8, 5, 8, 8]


def test_wl_4_2_gain_and_exposure_per_play():
    # waterhole: two 4s, one 2, three 8s; the hand: one 5, two 4s, one ace, one 3
    hole = counts(v1=1, v3=2, v7=3)
    hand = counts(v0=1, v2=1, v3=2, v4=1)
    _, _, _, gain, exposure = tactics(hole, hand, [0] * 8, adjacent=False)
    index = lambda v, n: v * 8 + n - 1  # noqa: E731 - the codec's action index
    playable = {index(A, 1), index(_3, 1), index(_4, 1), index(_4, 2), index(_5, 1)}
    assert {i for i in range(64) if gain[i] or exposure[i]} <= playable
    # one 4 makes three 4s: no 3s lie there, so they drive off the nearest lower occupied
    # place, the single 2 (WL-4.2, gaps skipped)
    assert gain[index(_4, 1)] == 1
    assert gain[index(_4, 2)] == 1
    # one ace does not reach three aces: nothing
    assert gain[index(A, 1)] == 0
    assert gain[index(_5, 1)] == 0 and gain[index(_3, 1)] == 0
    # after a quiet 5 the three 8s are still there: three aces (7 unseen) would take them
    assert exposure[index(_5, 1)] == 3
    # after the ace the 8s are as big, and an opponent needs two more aces (7 unseen)
    assert exposure[index(A, 1)] == 3


def test_a_spectator_sees_no_plays():
    _, _, unseen, gain, exposure = tactics(counts(v2=3), None, counts(v1=2), adjacent=False)
    assert unseen == [8, 6, 5, 8, 8, 8, 8, 8]
    assert not any(gain) and not any(exposure)


def test_the_vector_carries_the_tactics_scaled_after_the_view_counts():
    game = load("wasserloch")
    codec = codec_for(game)
    state = game.new_game(seed=5)
    for _ in range(12):
        state.apply(state.legal_actions()[0])
    seat = state.current_seat
    obs = codec.observe_state(state, seat)
    start = dict((name, (at, size)) for name, at, size, _ in codec.layout)
    prize, need, unseen, gain, exposure = tactics(state.hole, state.hands[seat], state.gone, False)
    for name, values, scale in (("drive_prize", prize, 8), ("drive_need", need, 3), ("unseen", unseen, 8),
                                ("play_gain", gain, 8), ("play_exposure", exposure, 8)):
        at, size = start[name]
        assert np.array_equal(obs[at:at + size], np.asarray(values, np.float32) / np.float32(scale)), name
