"""The fields the lean engine keeps instead of working them out per action (issue 17):
`current_seat`, `led` and its `follows` table always say what the position itself says."""

from __future__ import annotations

import random

import pytest

from wasserspiele import load
from wasserspiele.games.watten.state import OVER


def _check(state) -> None:
    assert state.current_seat == (None if state.phase == OVER else state.turn)
    assert state.current_seat == (state.to_move()[0] if state.to_move() else None)
    assert state.led == state._follow_duty()
    if state.led < 0:
        assert state.follows is None
    else:
        eff = state.game.eff[state.trump]
        assert state.follows == tuple(eff[c] == state.led for c in range(32))


@pytest.mark.parametrize("options", [{}, {"follow": "trump_only", "raising": True, "signal_detection_p": 0.3},
                                     {"signals": "off", "jack_order": "first_played", "target": 5}])
@pytest.mark.parametrize("trusted", [False, True])
def test_kept_fields_match_the_position_at_every_step(options, trusted):
    game = load("watten", **options)
    for seed in range(8):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            _check(state)
            seat = state.current_seat
            legal = state.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            if trusted:
                state.apply_legal(action, seat)
            else:
                state.apply(action, seat)
            copy = state.clone()
            assert copy.current_seat == state.current_seat and copy.follows is state.follows
        _check(state)
        assert state.current_seat is None and state.legal_actions() == ()


def test_a_hand_built_position_sets_the_follow_duty_from_its_trick():
    """Code that builds a position field by field calls _set_follow_duty (test_vector does)."""
    state = load("watten").new_game(seed=2)
    rng = random.Random(0)
    while not (state.phase == 2 and len(state.trick) == 2):
        state.apply(rng.choice(state.legal_actions()))
    led, follows = state.led, state.follows
    state.led, state.follows = -1, None
    state._set_follow_duty()
    assert (state.led, state.follows) == (led, follows) and led >= 0


def test_the_deck_shuffles_as_random_shuffle_does():
    """WA-1.2's deck draws what random.shuffle draws and deals its order (core.chance
    shuffle_like_random, with each position's bit count from a table); it is drawn as card
    numbers, card k being CARD_NAMES[k] (written as names in records: DECK.to_record)."""
    from wasserspiele.games.watten.actions import CARD_NAMES
    from wasserspiele.games.watten.rules import DECK
    for seed in range(300):
        mine, theirs = random.Random(seed), random.Random(seed)
        expected = list(CARD_NAMES)
        theirs.shuffle(expected)
        drawn = DECK.sample(mine)
        assert [CARD_NAMES[c] for c in drawn] == expected == DECK.to_record(drawn)
        assert mine.getstate() == theirs.getstate()
