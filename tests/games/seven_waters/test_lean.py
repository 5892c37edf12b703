"""What the lean engine keeps beside the position agrees with the position at every step:
the free pyramid cards `_take` keeps as bits, the subset tables shared by hands of one
composition, the actions made once (one-card discards, rivers, pools), the pieces' rank
and suit, and the trusted path (a take inline) against the checked one."""

from __future__ import annotations

import random

import pytest

from lockstep import play_checked_and_trusted
from wasserspiele import load
from wasserspiele.core.cards import ALL_CARDS
from wasserspiele.games.seven_waters import rules
from wasserspiele.games.seven_waters.actions import (
    DISCARD_ONE, PLAIN, POOL_JOKER, POOL_ONE, RIVER_JOKER, RIVER_ONE, SLIDE_JOKER, SLIDE_ONE, VALUE, Discard,
    Pool, River, Slide, Take,
)
from wasserspiele.games.seven_waters.rules import _SUIT_BIT, _high_first, hand_tables

GAME = load("seven_waters")


def _free_bits(state) -> int:
    """SW-3.2 from scratch: the cards still there with no card on them."""
    return sum(1 << i for i in state.free_positions())


def _played(seed: int, trusted: bool):
    """Every position of a seeded random game, played through apply or apply_legal."""
    state = GAME.new_game(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        yield state
        seat = state.current_seat
        legal = state.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        (state.apply_legal if trusted else state.apply)(action, seat)
    yield state


@pytest.mark.parametrize("trusted", [False, True])
def test_sw_3_2_kept_free_cards_are_the_free_cards(trusted):
    """Whenever `free` is valid (its pyramid count is the position's), its bits are the
    free positions, after `_take` and the inline take of `apply_legal` alike, in clones
    and in sampled worlds."""
    checked = 0
    for seed in range(12):
        for state in _played(seed, trusted):
            for s in (state, state.clone(), state.sample_world(0, random.Random(seed))):
                left, bits = s.free
                if left == s.left:
                    assert bits == _free_bits(s), (seed, s.history[-1:])
                    checked += 1
            assert [a.index for a in state.legal_actions() if type(a) is Take] == \
                ([i for i in state.free_positions()] if len(state.hands[state.turn]) < 7 and not state.over else [])
    assert checked > 1500


def test_sw_3_2_rulebook_take_keeps_the_free_cards():
    """A strict replay (no generator) plays every action through `_apply` and its `_take`
    (the rulebook's version, not the trusted path's inline take): the free cards found
    once at the start stay right to the end without being found anew."""
    for seed in range(8):
        *_, played = _played(seed, True)
        replay = GAME.new_game(setup=played.chance.used_setup())
        replay.free_takes()
        for seat, action, _together in played.history:
            replay.apply(action, seat)
            assert replay.free == (replay.left, _free_bits(replay)), (seed, str(action))
        assert replay.state_json() == played.state_json() and replay.log == played.log


def test_sw_3_2_free_cards_are_found_anew_when_the_pyramid_changes_another_way():
    """A position edited by hand (as tests and tools do) changes `left`, and the free
    cards are found from the pyramid again."""
    state = GAME.new_game(seed=5)
    state.legal_actions()
    assert state.free[0] == state.left
    for i in (27, 26, 20, 25):  # 7-7, 7-6, then 6-6 (which lay under both) and 7-5
        state.pyramid[i] = None
        state.left -= 1
    assert state.free[0] != state.left
    assert [a.index for a in state.free_takes()] == state.free_positions()
    assert 19 in state.free_positions() and 14 not in state.free_positions()  # 6-5 is free, 5-5 not yet
    assert state.free == (state.left, _free_bits(state))


def test_checked_and_trusted_paths_leave_the_same_game():
    def same(a, b):
        assert a.log == b.log and a.history == b.history and a.free == b.free
        assert a.state_json() == b.state_json()

    for seed in range(10):
        play_checked_and_trusted(GAME, seed, same)


def _doubled(hand):
    """The tables of a hand built from scratch by doubling over its own cards, the way
    every hand's tables were built before they were shared by composition."""
    plain = sorted((c for c in hand if c.rank), key=_high_first)
    sums, ranks, low, high, suits, count = [0], [0], [14], [0], [0], [0]
    for c in plain:
        v, r, bit, sb = VALUE[c.index], c.rank, 1 << c.rank, _SUIT_BIT[c.suit]
        sums += [x + v for x in sums]
        ranks += [-1 if x < 0 or x & bit else x | bit for x in ranks]
        low += [r] * len(low)
        high += [x or r for x in high]
        suits += [x | sb for x in suits]
        count += [x + 1 for x in count]
    jokers = len(hand) - len(plain)
    slide_bits = 0
    for total in sums:
        slide_bits |= 1 << total
    slide_bits &= ~1
    for n in range(1, jokers + 1):
        for total in sums:
            slide_bits |= ((1 << 9 * n + 1) - 1) << total + n
    return (tuple(plain), jokers, tuple(sums), tuple(ranks), tuple(low), tuple(high), tuple(suits), tuple(count),
            slide_bits)


def test_sw_4_tables_shared_by_composition_equal_each_hands_own_tables():
    rng = random.Random(7)
    hands = set()
    while len(hands) < 3000:
        size = rng.randint(1, 7)
        hands.add(tuple(sorted(rng.sample(ALL_CARDS, size), key=lambda c: c.index)))
    for hand in hands:
        t = hand_tables(hand)
        assert (t.plain, t.jokers, t.sums, t.ranks, t.low, t.high, t.suits, t.count, t.slide_bits) == \
            _doubled(hand), hand
        assert t.full == 1 << len(t.plain)
        assert t.joker_sets[-1] == tuple(c for c in hand if not c.rank)
        for m in range(t.full):
            assert t.cards(m) == tuple(c for i, c in enumerate(t.plain) if m >> i & 1)
            assert t.pieces(m) == tuple(PLAIN[c.index] for c in t.cards(m))


def test_hand_caches_keep_small_hands_for_good_and_few_large_ones():
    for seed in range(30):
        for _state in _played(seed, True):
            pass
    assert all(len(h) <= rules._SMALL_HAND for h in rules._TABLES)
    assert all(len(h) > rules._SMALL_HAND for h in rules._RECENT)
    assert len(rules._RECENT) <= rules._RECENT_LIMIT
    assert hand_tables(next(iter(rules._TABLES))) is rules._TABLES[next(iter(rules._TABLES))]


def test_actions_made_once_equal_the_actions_they_stand_for():
    for c in ALL_CARDS:
        assert DISCARD_ONE[c.index] == Discard((c,)) and str(DISCARD_ONE[c.index]) == f"discard {c.name}"
    for p in PLAIN:
        assert RIVER_ONE[p.card.index] == River((p,)) and str(RIVER_ONE[p.card.index]) == f"river {p}"
        assert POOL_ONE[p.card.index] == Pool((p,)) and str(POOL_ONE[p.card.index]) == f"pool {p}"
        for k in range(1, 5):
            assert SLIDE_ONE[k - 1][p.card.index] == Slide(k, (p,)) and str(SLIDE_ONE[k - 1][p.card.index]) == \
                f"slide {k} {p}"


def test_sw_4_a_hand_of_one_card_offers_what_its_tables_offer():
    """`_legal_one` (no tables) against the tables' answers (`_legal` for any hand) for
    every plain card against rivers, pools, lines and themes of random positions."""
    rng = random.Random(11)
    compared = 0
    for seed in range(40):
        for state in _played(seed, True):
            if state.over:
                continue
            w = state.clone()
            s = w.turn
            c = rng.choice(ALL_CARDS[:52])
            w.hands[s] = [c]
            t = hand_tables((c,))
            want = w.free_takes() if w.left else []
            if w.slides_built < w.slide_limit:
                want += w.slide_options(s, t)
            want += [*w.river_options(s, t), *w.pool_options(s, t), *w.theme_options(s, t),
                     *(t.discards or rules._discards(t))]
            assert w.legal_actions() == want, (c, w.river[s], w.pool[s])
            compared += 1
    assert compared > 1500


def test_sw_2_2_pieces_carry_their_rank_and_suit():
    """A plain card's own rank and suit; a joker's declaration."""
    for p in PLAIN[:52]:
        assert (p.rank, p.suit) == (p.card.rank, p.card.suit)
    for table in ({p.card.index: p for p in PLAIN[52:]}, SLIDE_JOKER, RIVER_JOKER, POOL_JOKER):
        for p in table.values():
            assert p.rank == p.decl and p.suit == p.decl


def test_sw_4_3_the_hands_composition_tables_stay_bounded_and_answer_alike_when_emptied(monkeypatch):
    # _RANK_SHAPES and _SUIT_SHAPES kept every composition a process met (3,277 after 5,000
    # random games, still growing): a server's bots or a long study grew without a bound
    def play(limit: int) -> list:
        monkeypatch.setattr(rules, "_SHAPES_LIMIT", limit, raising=False)
        for cache in (rules._RANK_SHAPES, rules._SUIT_SHAPES, rules._TABLES, rules._RECENT):
            cache.clear()
        rng, seen = random.Random(5), []
        for seed in range(12):
            state = load("seven_waters").new_game(seed=seed)
            while not state.is_terminal():
                legal = state.legal_actions(state.current_seat)
                seen.append([str(a) for a in legal])
                state.apply(rng.choice(legal), state.current_seat)
                assert len(rules._RANK_SHAPES) <= limit and len(rules._SUIT_SHAPES) <= limit
        return seen

    assert play(6) == play(10**6)
