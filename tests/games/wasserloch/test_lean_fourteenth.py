"""The fourteenth lean pass (docs/performance.md): a hand's size is read from its packed hand
(no list of sizes kept beside the hands, so a play once the pile is empty changes one number,
and a hand that empties is the one whose cards are exactly the play's), the deal written
out per player count, the start player moved on from the last round's.  Same games: the
golden traces; these pin what the mechanisms must keep."""

from __future__ import annotations

import pickle
import random

import pytest

from wasserspiele import load
from wasserspiele.games.wasserloch.actions import PLAYS, VALUES
from wasserspiele.games.wasserloch.rules import _DEALS, _PAIRS
from wasserspiele.games.wasserloch.state import UNIT, hand_size, pack

V = {c: i for i, c in enumerate(VALUES)}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("path", ["apply", "apply_legal"])
def test_wl_4_4_wl_5_2_sizes_are_the_hands_and_a_round_ends_exactly_when_a_hand_empties(players, path):
    """At every action of seeded random matches: `hand_sizes` is what each hand holds, a
    hand holds 5 while the pile lasts (WL-4.4), once the pile is empty the mover's hand
    shrinks by the play (WL-5.1), and the round ends with exactly the play that empties a
    hand (WL-5.2), in the state and in its clone alike."""
    game = load("wasserloch", players=players, rounds=3)
    rng = random.Random(players)
    emptied = 0
    for seed in range(8):
        state = game.new_game(seed=seed)
        while not state.is_terminal():
            assert state.hand_sizes == [sum(h) for h in state.hands]
            if state.pile_size:
                assert state.hand_sizes == [5] * players
            seat = state.current_seat
            action = rng.choice(state.legal_actions(seat))
            size, pile, ends = state.hand_sizes[seat], state.pile_size, len(state.round_ends)
            twin = state.clone()
            getattr(state, path)(action, seat)
            getattr(twin, path)(action, seat)
            empties = pile == 0 and size == action.count
            assert twin.hand_sizes == [sum(h) for h in twin.hands]
            if not empties:  # (a clone deals the next round from chance of its own)
                assert twin.hand_sizes == state.hand_sizes and twin.state_json() == state.state_json()
            assert (len(state.round_ends) == ends + 1) == empties, (seed, len(state.history))
            emptied += empties
            if pile == 0 and not empties:
                assert state.hand_sizes[seat] == size - action.count
    assert emptied == 8 * 3  # every round ends so (with the pile empty: a hand draws while it lasts)


def test_wl_5_2_a_hand_set_up_of_exactly_the_play_ends_the_round_on_either_path():
    """Pile empty, seat 0 holds two 7s and plays both: its hand is empty, the round ends (the
    next is dealt); holding a third card, the round goes on and its size is 1."""
    for path in ("apply", "apply_legal"):
        for hand, ends in ((["77", "A2345"], True), (["778", "A2345"], False)):
            state = load("wasserloch", players=2, rounds=2).new_game(seed=3)
            state.hands = [[hand[s].count(v) for v in VALUES] for s in range(2)]
            state.hole = [0] * 8
            state.pile, state.pile_pos = (), 0
            state.current = 0
            getattr(state, path)(PLAYS[V["7"]][2], 0)
            assert (state.round == 1) == ends, (path, hand)
            if not ends:
                assert state.hand_sizes == [1, 5] and state.current_seat == 1


def test_wl_4_4_a_short_hand_set_up_by_hand_makes_the_draw_the_rulebook_s():
    """Setting the hands is what tells the engine that a hand holds fewer than 5 while the
    pile has cards (the one-for-one draw would then be wrong): `fast_end` follows the hands,
    as it follows the pile."""
    state = load("wasserloch", players=2).new_game(seed=0)
    assert state.fast_end == len(state.pile)
    state.hands = [[1, 0, 2, 0, 0, 0, 0, 1], [0, 0, 0, 0, 5, 0, 0, 0]]
    assert state.fast_end == -1 and state.hand_sizes == [4, 5]
    state.hands = [[1, 0, 2, 0, 0, 0, 0, 2], [0, 0, 0, 0, 5, 0, 0, 0]]
    assert state.fast_end == len(state.pile)


def test_wl_4_4_hand_size_of_every_packed_hand():
    """`hand_size` for every hand a deal makes (its table) and for hands no deal makes."""
    rng = random.Random(0)
    for _ in range(2000):
        counts = [0] * 8
        for _ in range(rng.randrange(0, 12)):
            v = rng.randrange(8)
            if counts[v] < 7:
                counts[v] += 1
        assert hand_size(pack(counts)) == sum(counts)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_wl_3_2_the_written_out_deal_packs_blocks_of_five_in_order(players):
    """`_DEALS[players](deck)`: block b is the packed hand of deck[5b:5b+5], for random decks."""
    rng = random.Random(players)
    for _ in range(200):
        deck = [v for v in range(8) for _ in range(8)]
        rng.shuffle(deck)
        want = [sum(UNIT[c] for c in deck[5 * b:5 * b + 5]) for b in range(players)]
        assert _DEALS[players](deck) == want
        assert _DEALS[players](deck, _PAIRS, UNIT) == want


@pytest.mark.parametrize("players", [2, 3, 4])
def test_wl_5_5_the_start_player_moves_one_seat_on_each_round(players):
    """Round r's start player is (first_player + r) mod players (WL-5.5), over 7 rounds, for
    every first player; a state pickled mid-match keeps counting from its own."""
    rng = random.Random(1)
    for first in range(players):
        state = load("wasserloch", players=players, rounds=7, first_player=first).new_game(seed=first)
        seen = []
        while not state.is_terminal():
            if not seen or seen[-1][0] != state.round:
                seen.append((state.round, state.start_player))
                if state.round == 3:
                    state = pickle.loads(pickle.dumps(state))
            seat = state.current_seat
            state.apply_legal(rng.choice(state.legal_actions(seat)), seat)
        assert seen == [(r, (first + r) % players) for r in range(7)]
