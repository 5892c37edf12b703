"""The thirteenth lean pass (docs/performance.md): the current round's loot row is a slot of
its own (`round_loot`, which every drive-off adds to: `loot[-1]` is an index CPython 3.11 does
not specialise), and a deal keeps the chance stream's own list of draws as the pile (no tuple
copy).  Same games: the golden traces; these pin the two mechanisms and what they must keep."""

from __future__ import annotations

import pickle
import random

import pytest

from wasserspiele import load
from wasserspiele.core.errors import ChanceExhausted
from wasserspiele.games.wasserloch.actions import PLAYS, VALUES

V = {c: i for i, c in enumerate(VALUES)}


def _position(hands, hole, loot):
    """A one-round state set up by hand: hands and waterhole as strings of values, an empty
    pile (a play that empties a hand ends the match)."""
    state = load("wasserloch", players=len(hands), rounds=1).new_game(seed=0)
    rows = []
    for text in hands:
        row = [0] * 8
        for ch in text:
            row[V[ch]] += 1
        rows.append(row)
    state.hands = rows
    hole_row = [0] * 8
    for ch in hole:
        hole_row[V[ch]] += 1
    state.hole = hole_row
    state.pile = ()
    state.pile_pos = 0
    state.gone = [0] * 8
    state.loot = loot
    state.current = 0
    return state


def test_wl_5_3_round_loot_is_the_last_loot_row_at_every_action():
    """`round_loot` is `loot[-1]` itself (not a copy) after the deal, after every action of
    seeded three-round matches on both paths (each round's deal adds a row), and in clones."""
    game = load("wasserloch", players=3, rounds=3)
    rng = random.Random(7)
    for seed in range(6):
        state = game.new_game(seed=seed)
        assert state.round_loot is state.loot[-1] and len(state.loot) == 1
        checked = seed % 2 == 0
        while not state.is_terminal():
            seat = state.current_seat
            action = rng.choice(state.legal_actions(seat))
            state.apply(action, seat) if checked else state.apply_legal(action, seat)
            assert state.round_loot is state.loot[-1]
            assert len(state.loot) == state.round + 1
            c = state.clone()
            assert c.round_loot is c.loot[-1] and c.round_loot is not state.round_loot
        assert len(state.loot) == 3
        assert state.scores() == [sum(r[s] for r in state.loot) for s in range(3)]


def test_wl_4_2_a_clone_drives_off_into_its_own_loot():
    """A drive-off in a clone credits the clone's row; the original's loot is unchanged
    (a clone sharing the row would credit both)."""
    state = _position(["55", "7", "8"], hole="5544", loot=[[0, 0, 0]])
    c = state.clone()
    c.apply_legal(PLAYS[V["5"]][1], 0)  # three 5s: the 4s (two cards) are driven off
    assert c.loot == [[2, 0, 0]]
    assert state.loot == [[0, 0, 0]]
    c2 = state.clone()
    c2.apply(PLAYS[V["5"]][2], 0)  # checked path: the same drive-off with two 5s (`_apply`)
    assert c2.loot == [[2, 0, 0]]
    assert state.loot == [[0, 0, 0]]


def test_wl_5_3_loot_set_by_hand_is_credited_on_its_last_row():
    """Assigning `loot` (a position set up by hand) makes its last row the one a drive-off
    adds to, on both paths and through `_apply` (the play that empties a hand)."""
    for via in ("apply_legal", "apply", "ends"):
        hands = ["5", "7", "8"] if via == "ends" else ["55", "7", "8"]
        state = _position(hands, hole="5544", loot=[[1, 2, 3], [4, 0, 0]])
        old = state.loot
        getattr(state, "apply" if via == "apply" else "apply_legal")(PLAYS[V["5"]][1], 0)
        assert state.loot is old
        assert state.loot == [[1, 2, 3], [6, 0, 0]]
        assert state.is_terminal() == (via == "ends")


def test_wl_5_3_round_loot_survives_pickle_and_a_refused_strict_replay():
    """A pickled state and a strict replay's transaction (State.apply's restore after the
    next deal is missing) keep `round_loot` as the last row."""
    game = load("wasserloch", players=3, rounds=2)
    state = game.new_game(seed=3)
    rng = random.Random(1)
    while state.round == 0:
        seat = state.current_seat
        state.apply_legal(rng.choice(state.legal_actions(seat)), seat)
    back = pickle.loads(pickle.dumps(state))
    assert back.round_loot is back.loot[-1]
    assert back.loot == state.loot
    # a strict replay with the first deck only: the play that ends round 1 is refused, undone
    strict = game.new_game(setup={"decks": state.chance.used_setup()["decks"][:1]})
    for seat, action, _ in state.history[:-1]:
        strict.apply(action, seat)
    before = [row.copy() for row in strict.loot]
    seat, action, _ = state.history[-1]
    with pytest.raises(ChanceExhausted):
        strict.apply(action, seat)
    assert strict.loot == before
    assert strict.round_loot is strict.loot[-1]


def test_wl_2_the_pile_is_the_chance_streams_draw_and_stays_unchanged():
    """A deal keeps the drawn list itself as the pile (no copy); nothing changes it: after
    a whole match played in a clone and in the state itself, the pile and the record's
    decks are what was dealt."""
    game = load("wasserloch", players=4, rounds=2)
    rng = random.Random(5)
    for seed in range(4):
        state = game.new_game(seed=seed)
        assert state.pile is state.chance.streams["decks"][0]
        dealt = list(state.pile)
        names = list(state.chance.used_setup()["decks"][0])
        assert names == [VALUES[v] for v in dealt]
        c = state.clone()
        for s in (c, state):
            while not s.is_terminal() and s.round == 0:
                seat = s.current_seat
                s.apply_legal(rng.choice(s.legal_actions(seat)), seat)
        assert list(state.chance.streams["decks"][0]) == dealt
        assert state.chance.used_setup()["decks"][0] == names
        if not state.is_terminal():  # the second round's pile is its own draw
            assert state.pile is state.chance.streams["decks"][1]
