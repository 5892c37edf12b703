"""The checked `apply` takes an action `legal_actions` offered a moment ago for this very
position without checking it again (the state keeps the offer in `offered`, issue 17);
anything else goes through the protocol's own checks.  The offer must never outlive
its position, and the shortcut must play exactly what the protocol's way plays."""

from __future__ import annotations

import copy
import json
import pickle
import random

import pytest

from wasserspiele import load
from wasserspiele.core.errors import IllegalAction
from wasserspiele.core.protocol import State
from wasserspiele.games.watten import actions as A
from wasserspiele.games.watten.state import PLAY_PHASE, log_window

OPTION_SETS = [{}, {"follow": "trump_only", "raising": True, "signal_detection_p": 0.3},
               {"signals": "public", "jack_order": "first_played", "target": 5}]


def _snapshot(state) -> str:
    """Everything a position says; of the log, the events so far and the tail the views
    show (the inlined play trims the log once per trick, `_play` at every card)."""
    events = state.log_cut + len(state.log)
    tail = state.log[len(state.log) - log_window(events):]
    return json.dumps([state.state_json(), [str(a) for a in state.actions()], events, tail,
                       state.signal_log, state.voids, state.views([None, 0, 1, 2, 3])])


@pytest.mark.parametrize("options", OPTION_SETS)
def test_the_shortcut_plays_what_the_protocols_own_apply_plays(options):
    """WA-3.2 and the rest, twice: `apply` of an offered action (the trusted path, plays
    inlined) and `State.apply` (the protocol's checks, `_why_illegal`, then `_apply` with
    `_play`, the plain twin) leave equal positions, records and views at every step."""
    game = load("watten", **options)
    for seed in range(6):
        fast, plain = game.new_game(seed=seed), game.new_game(seed=seed)
        rng = random.Random(seed)
        while not fast.is_terminal():
            seat = fast.current_seat
            legal = fast.legal_actions(seat)
            assert list(legal) == list(plain.legal_actions(seat))
            action = rng.choice(legal)
            fast.apply(action, seat)
            State.apply(plain, action, seat)
            assert _snapshot(fast) == _snapshot(plain)
        assert fast.record() == plain.record()


@pytest.mark.parametrize("options", OPTION_SETS)
def test_every_action_forgets_the_offer_and_a_clone_starts_without_one(options):
    game = load("watten", **options)
    state = game.new_game(seed=3)
    rng = random.Random(3)
    step = 0
    while not state.is_terminal():
        seat = state.current_seat
        legal = state.legal_actions(seat)
        assert state.offered is legal
        assert state.clone().offered == ()
        assert state.legal_actions((seat + 1) % 4) == () and state.offered is legal  # another seat's question
        action = rng.choice(legal)
        (state.apply_legal if step % 3 else state.apply)(action, seat)
        assert state.offered == ()
        step += 1


def _mid_trick(seed: int):
    """A position in the play phase where the seat to move holds at least two cards."""
    state = load("watten").new_game(seed=seed)
    rng = random.Random(seed)
    while not (state.phase == PLAY_PHASE and len(state.hands[state.turn]) >= 2):
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_an_offer_is_not_taken_after_the_position_changed():
    """Seat A is offered its cards and plays one; another of A's cards is then refused
    for the next seat (not held), as the protocol says, not taken from the old offer."""
    for seed in range(10):
        state = _mid_trick(seed)
        seat = state.turn
        hand = list(state.hands[seat])
        offer = state.legal_actions(seat)
        state.apply_legal(offer[0], seat)
        other = next(A.PLAYS[c] for c in hand if A.PLAYS[c] is not offer[0])
        before = _snapshot(state)
        with pytest.raises(IllegalAction) as err:
            state.apply(other)
        assert err.value.reason.code == state.why_illegal(other).code
        assert _snapshot(state) == before


def test_an_offer_to_one_seat_is_not_taken_for_another():
    state = _mid_trick(1)
    seat = state.turn
    offer = state.legal_actions(seat)
    with pytest.raises(IllegalAction):
        state.apply(offer[0], (seat + 1) % 4)  # not that seat's turn
    state.apply(offer[0], seat)


def test_a_world_built_from_a_clone_checks_its_own_cards():
    """sample_world re-deals the hidden hands of a clone: an action offered in the true
    position is checked again there (the clone starts without the offer)."""
    for seed in range(10):
        state = _mid_trick(seed)
        seat = state.turn
        state.legal_actions(seat)
        world = state.sample_world(seat, random.Random(seed))
        assert world.offered == ()
        other = (seat + 1) % 4
        card = A.PLAYS[state.hands[other][0]]
        if state.hands[other][0] not in world.hands[seat]:
            with pytest.raises(IllegalAction):
                world.apply(card, seat)


def test_actions_are_interned_so_equality_is_identity():
    """Every action exists once: notation, copying and pickling give the very object,
    so object's own equality (identity, in C) is value equality; hashes stay the
    (kind, arg) ones."""
    everything = [*A.PLAYS, *A.TRUMPS, *A.SIGNALS, A.RAISE_ACTION, A.ACCEPT_ACTION, A.CONCEDE_ACTION]
    assert len({(a.kind, a.arg) for a in everything}) == len(everything)
    for a in everything:
        assert A.parse_action(str(a)) is a
        assert A.parse_action(str(a).upper()) is a
        assert copy.copy(a) is a and copy.deepcopy(a) is a
        assert pickle.loads(pickle.dumps(a)) is a
        assert hash(a) == hash((a.kind, a.arg))
        assert [b for b in everything if b == a] == [a]
        assert a != str(a)
