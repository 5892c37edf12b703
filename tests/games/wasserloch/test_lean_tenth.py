"""The tenth lean pass (docs/performance.md): the checked `apply` reads a play's count in
the packed hand in place (`Play.field`), and the deal makes its packed hands in C and
turns them only when the start player is not seat 0 (the deck's shuffle written out:
tests/test_chance.py).  Same games: the golden traces; these pin the new parts."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from wasserspiele import load
from wasserspiele.core.errors import IllegalAction
from wasserspiele.games.wasserloch.actions import PLAYS, VALUES
from wasserspiele.games.wasserloch.state import hands_up_to, split

V = {c: i for i, c in enumerate(VALUES)}


def test_wl_4_1_play_field_says_whether_the_hand_holds_the_play():
    """`hand & play.field >= play.bits` exactly when the hand holds `count` cards of the
    value, for every hand of up to five cards (and a few larger ones) and every play."""
    hands = hands_up_to(5) + [sum(n << (3 * v) for v, n in enumerate(row))
                              for row in ([7] * 8, [6, 0, 7, 1, 0, 5, 3, 7], [0] * 7 + [7])]
    for key in hands:
        counts = split(key)
        for v in range(8):
            for n in range(1, 9):
                play = PLAYS[v][n]
                assert (key & play.field >= play.bits) == (counts[v] >= n), (counts, str(play))


def _position(hand: str, players: int = 3):
    """Seat 0 to move holding `hand` (values), the others five 8s each, a full pile."""
    state = load("wasserloch", players=players, rounds=1).new_game(seed=4)
    row = [0] * 8
    for ch in hand:
        row[V[ch]] += 1
    state.hands = [row] + [[0] * 7 + [5]] * (players - 1)
    state.current = 0
    return state


@pytest.mark.parametrize("hand, play, code, n", [
    ("77A23", "7x3", "wasserloch.holds_only", 2),
    ("77A23", "8x1", "wasserloch.holds_none", None),
    ("AAAA2", "Ax5", "wasserloch.holds_only", 4),
    ("55555", "4x1", "wasserloch.holds_none", None),
])
def test_wl_4_1_checked_apply_refuses_a_play_the_hand_lacks(hand, play, code, n):
    state = _position(hand)
    before = state.state_json()
    with pytest.raises(IllegalAction) as refused:
        state.apply(state.game.parse_action(play), 0)
    assert refused.value.reason.code == code
    if n is not None:
        assert refused.value.reason.params["n"] == n
    assert state.state_json() == before and state.history == []


@pytest.mark.parametrize("hand, play", [("77A23", "7x2"), ("77A23", "7x1"), ("AAAA2", "Ax4"),
                                        ("55555", "5x5"), ("A2345", "3x1")])
def test_wl_4_1_checked_apply_plays_what_the_hand_holds_as_the_trusted_path(hand, play):
    checked, trusted = _position(hand), _position(hand)
    action = checked.game.parse_action(play)
    assert action in checked.legal_actions(0)
    checked.apply(action, 0)
    trusted.apply_legal(action, 0)
    assert checked.state_json() == trusted.state_json() and checked.history == trusted.history


@pytest.mark.parametrize("players, first_player", [(p, f) for p in (2, 3, 4) for f in range(p)])
def test_wl_3_2_each_round_deals_blocks_of_five_from_its_start_player(players, first_player):
    """WL-3.2, WL-5.5: the round's start player (first_player, one seat on per round) gets
    the deck's first five cards, the next seat clockwise the next five, and so on."""
    game = load("wasserloch", players=players, rounds=4, first_player=first_player)
    state = game.new_game(seed=17 + players)
    rng = random.Random(first_player)
    for r in range(4):
        assert state.round == r
        start = (first_player + r) % players
        deck = state.chance.setup["decks"][r]
        for block in range(players):
            seat = (start + block) % players
            cards = Counter(deck[5 * block:5 * block + 5])
            assert state.hand(seat) == tuple(cards[v] for v in VALUES), (r, seat)
        while state.round == r and not state.is_terminal():
            seat = state.current_seat
            state.apply(rng.choice(state.legal_actions(seat)), seat)
