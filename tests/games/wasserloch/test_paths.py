"""Wasserloch's fast paths against the rulebook's: the checked `apply` (which plays
`apply_legal`'s lines after its own check), the trusted `apply_legal` and `_apply` (the
rules clause by clause, through the protocol's `State.apply`) leave the same position at
every step; the packed hands, the legal-play table and the `recent` plays read from the
drive-off chain agree with plain reference computations (issue 17, the ninth pass)."""

from __future__ import annotations

import json
import random
from collections import deque

import pytest

from wasserspiele import load
from wasserspiele.core.protocol import State
from wasserspiele.games.wasserloch import rules
from wasserspiele.games.wasserloch.actions import PLAYS, VALUES
from wasserspiele.games.wasserloch.state import hands_up_to, pack, unpack

V = {c: i for i, c in enumerate(VALUES)}


def _position(state) -> str:
    return json.dumps([state.state_json(), [list(e) for e in state.history], state.scores(), state.winners(),
                       state.is_terminal(), state.current_seat], default=str)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("chase", ["nearest", "adjacent"])
def test_checked_trusted_and_rulebook_paths_leave_the_same_position_wl_4_1_to_5_5(players, chase):
    game = load("wasserloch", players=players, rounds=3, chase=chase)
    for seed in range(12):
        checked, trusted, rulebook = (game.new_game(seed=seed) for _ in range(3))
        rng = random.Random(seed)
        while not checked.is_terminal():
            seat = checked.current_seat
            legal = checked.legal_actions(seat)
            assert trusted.legal_actions(seat) == legal == rulebook.legal_actions(seat)
            assert checked.legal_actions() == legal and checked.legal_actions((seat + 1) % players) == ()
            action = rng.choice(legal)
            checked.apply(action, seat)
            trusted.apply_legal(action, seat)
            State.apply(rulebook, action, seat)  # the protocol's way: _why_illegal, then _apply
            assert _position(checked) == _position(trusted) == _position(rulebook)
            assert checked.is_terminal() == (checked.current_seat is None) == (checked.to_move() == ())
            assert checked.view(seat) == trusted.view(seat) == rulebook.view(seat)
        assert trusted.is_terminal() and rulebook.is_terminal() and checked.legal_actions() == ()


def test_the_legal_table_holds_every_play_of_every_hand_of_up_to_five_cards_wl_4_1():
    keys = hands_up_to(5)
    assert len(keys) == len(set(keys)) == 1287  # multisets of 0 … 5 cards over 8 values
    for key in keys:
        hand = unpack(key)
        assert pack(hand) == key and sum(hand) <= 5
        expected = tuple(PLAYS[v][n] for v in range(8) for n in range(1, hand[v] + 1))
        assert rules.LEGAL[key] == expected


def test_hands_pile_and_sizes_read_and_assigned_as_lists_wl_4_4():
    state = load("wasserloch", players=3).new_game(seed=5)
    dealt = state.hands
    assert [sum(h) for h in dealt] == [5, 5, 5] and all(type(h) is list for h in dealt)
    # every card is somewhere: hands, pile (WL-2)
    assert sum(map(sum, dealt)) + state.pile_size == 64
    state.hands = [[0, 1, 2, 0, 0, 0, 0, 1], [1] * 5 + [0] * 3, [0, 0, 0, 0, 0, 0, 0, 5]]
    assert state.hands[2] == [0, 0, 0, 0, 0, 0, 0, 5]
    assert state.legal_actions(state.current_seat) == rules.LEGAL[pack(state.hands[state.current_seat])]
    with pytest.raises(ValueError):
        state.hands = [[8, 0, 0, 0, 0, 0, 0, 0]] * 3


def test_a_short_hand_set_up_by_hand_still_draws_up_to_five_wl_4_4():
    """A position whose hand holds 4 while the pile has cards (a test's or an editor's, never
    a deal's) takes the rulebook's draw-up, not the full hands' one-for-one draw."""
    game = load("wasserloch", players=2)
    for path in ("apply", "apply_legal"):
        state = game.new_game(seed=0)
        state.hands = [[1, 0, 2, 0, 0, 0, 0, 1], [0, 0, 0, 0, 5, 0, 0, 0]]
        state.hole = [0] * 8
        state.pile = tuple(V[c] for c in "7777")
        state.pile_pos = 0
        state.current = 0
        getattr(state, path)(PLAYS[V["A"]][1], 0)
        assert state.hand_sizes[0] == 5 and state.hands[0] == [0, 0, 2, 0, 0, 0, 2, 1], path
        assert state.pile_size == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_recent_plays_read_from_the_drive_chain_as_a_replay_keeps_them_wl_3_3_wl_5_5(players):
    game = load("wasserloch", players=players, rounds=3)
    for seed in range(6):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        kept: deque = deque(maxlen=2 * players)
        while not state.is_terminal():
            seat = state.current_seat
            action = rng.choice(state.legal_actions(seat))
            r, loot, hole = state.round, state.loot[-1][seat], list(state.hole)
            state.apply_legal(action, seat)
            # WL-4.2, WL-4.3 (chase=nearest) worked out afresh: aces drive off the 8s only,
            # any other value the nearest lower occupied place
            v = action.value
            hole[v] += action.count
            driven = -1
            if hole[v] >= 3:
                lower = [7] if v == 0 else range(v - 1, -1, -1)
                driven = next((t for t in lower if hole[t]), -1)
            taken = hole[driven] if driven >= 0 else 0
            assert state.loot[r][seat] - loot == taken
            kept.append((str(action), driven, taken, r))
            assert state.recent == list(kept)
            clone = state.clone()
            assert clone.recent == state.recent and clone.view(None) == state.view(None)
