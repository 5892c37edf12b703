"""The eleventh lean pass (docs/performance.md): a play of two cards from a full hand draws
its two cards with one addition (`Play.swaps2`), the deal makes each block of five from two
pairs (`rules._PAIRS`) and a card, and the deck's names become value indices through a byte
table.  Same games: the golden traces; these pin the new tables and the paths they serve."""

from __future__ import annotations

import random

import pytest

from wasserspiele import load
from wasserspiele.games.wasserloch import rules
from wasserspiele.games.wasserloch.actions import PLAYS, VALUES
from wasserspiele.games.wasserloch.state import UNIT, pack, split


def test_wl_4_4_swaps2_is_the_play_and_a_draw_of_two():
    """`hand + play.swaps2[w][x]` is the hand less the play's cards plus one card of value
    index w and one of x, for every full hand that holds the play (WL-4.1, WL-4.4)."""
    hands = [key for key in rules.LEGAL if sum(split(key)) == 5]
    assert len(hands) == 792  # every hand of five from eight values
    for key in hands:
        counts = split(key)
        for v in range(8):
            for n in range(1, counts[v] + 1):
                play = PLAYS[v][n]
                for w in range(8):
                    for x in range(8):
                        after = list(counts)
                        after[v] -= n
                        after[w] += 1
                        after[x] += 1
                        assert key + play.swaps2[w][x] == pack(after), (counts, str(play), w, x)


def test_wl_3_2_pairs_table_packs_two_cards():
    for a in range(8):
        for b in range(8):
            row = [0] * 8
            row[a] += 1
            row[b] += 1
            assert rules._PAIRS[a][b] == pack(row) == UNIT[a] + UNIT[b]


def test_wl_2_deck_names_become_value_indices():
    """The pile holds the drawn deck as value indices, in order (WL-2: "A" … "8" -> 0 … 7)."""
    game = load("wasserloch", players=3, rounds=2)
    for seed in range(5):
        state = game.new_game(seed=seed)
        names = state.chance.used_setup()["decks"][0]
        assert list(state.pile) == [VALUES.index(c) for c in names]
        assert sorted(state.pile) == [v for v in range(8) for _ in range(8)]


def _rulebook(state, action, seat):
    """`action` played through the rulebook's `_apply` (WL-4.1 … WL-5.2) on a clone, with a
    copy of the generator (a clone shares it): a play that ends a round deals the same deck."""
    ref = state.clone()
    ref.chance.rng = random.Random()
    ref.chance.rng.setstate(state.chance.rng.getstate())
    ref._apply(action, seat)
    ref.history.append((seat, action, False))
    return ref


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("chase", ["nearest", "adjacent"])
def test_wl_4_4_trusted_plays_of_two_draw_as_the_rulebook(players, chase):
    """At every action of seeded random games the trusted path leaves the position the
    rulebook's `_apply` leaves (hands, pile, waterhole, loot, history); every play of two from
    a full hand with two or more cards on the pile (the new path) draws the pile's next two."""
    game = load("wasserloch", players=players, rounds=2, chase=chase)
    rng = random.Random(players)
    twos = 0
    for seed in range(12):
        state = game.new_game(seed=seed)
        while not state.is_terminal():
            seat = state.current_seat
            action = rng.choice(state.legal_actions(seat))
            full = state.hand_sizes == [5] * players and state.pile_size >= 2
            before = list(state.hand(seat))
            top = state.pile[state.pile_pos:state.pile_pos + 2]
            ref = _rulebook(state, action, seat)
            state.apply_legal(action, seat)
            assert state.state_json() == ref.state_json() and state.history == ref.history
            assert state.keys == ref.keys and state.pile_pos == ref.pile_pos
            if full and action.count == 2 and state.round == ref.round:
                twos += 1
                before[action.value] -= 2
                for card in top:
                    before[card] += 1
                assert list(state.hand(seat)) == before
    assert twos > 20  # the path is exercised
