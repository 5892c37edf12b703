"""The fast paths of Seven Waters equal their references: legal actions from subset
tables equal the enumeration of every subset (same actions, same order), and the search's
rollout policy, reading a sampled world, chooses what the view-reading heuristic would."""

from __future__ import annotations

import itertools
import random

from wasserspiele import load
from wasserspiele.games.seven_waters.heuristic import HeuristicBot, _hand_facts, rollout_policy, score, state_context
from wasserspiele.core.cards import ALL_CARDS, SUITS
from wasserspiele.games.seven_waters.actions import PLAIN, VALUE, Discard

from .reference_legal import reference_legal_actions
from .reference_rollout import reference_rollout_policy

GAME = load("seven_waters")


def _random_positions(games: int, seed: int):
    """Positions of random games (each seat's turn, every action)."""
    rng = random.Random(seed)
    for g in range(games):
        state = load("seven_waters", slide_limit=rng.choice([7, None, 2])).new_game(seed=seed * 1000 + g)
        while not state.is_terminal():
            yield state, rng
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


def _dealt_positions(count: int, seed: int):
    """Positions with hands of 1-7 cards drawn from all 54 (jokers often), and a river,
    a pool and open lines set at random: the corners random games rarely reach."""
    rng = random.Random(seed)
    jokers = ALL_CARDS[52:]
    for _ in range(count):
        state = GAME.new_game(seed=rng.randrange(10**6))
        seat = state.turn
        size = rng.randint(1, 7)
        hand = set(rng.sample(jokers, rng.randint(0, 2)))
        while len(hand) < size:
            hand.add(rng.choice(ALL_CARDS[:52]))
        state.hands[seat] = sorted(hand, key=lambda c: c.index)
        lo = rng.randint(1, 13)
        hi = rng.randint(lo, 13)
        suit = rng.choice(SUITS)
        state.river[seat] = [PLAIN[(c.index)] for c in ALL_CARDS[:52] if c.suit == suit and lo <= c.rank <= hi] \
            if rng.random() < 0.6 else []
        state.pool[seat] = [PLAIN[ALL_CARDS[SUITS.index(suit) * 13].index]] if rng.random() < 0.5 else []
        state.line_sums = tuple(tuple(rng.randint(1, 40) for _ in range(4)) for _ in range(2))
        state.slides[seat] = [None if rng.random() < 0.7 else () for _ in range(4)]
        yield state, rng


def test_sw_4_legal_actions_from_subset_tables_equal_every_subset_enumerated():
    n = 0
    for state, _rng in _random_positions(60, seed=3):
        assert state.legal_actions() == reference_legal_actions(state)
        n += 1
    for state, _rng in _dealt_positions(3000, seed=4):
        assert state.legal_actions() == reference_legal_actions(state), state.hands[state.turn]
        n += 1
    assert n > 5000


def test_sw_4_legal_actions_but_discards_is_legal_actions_without_discards():
    for state, _rng in _dealt_positions(300, seed=5):
        legal = state.legal_actions()
        assert state.legal_actions_but_discards() == [a for a in legal if type(a) is not Discard]


def test_rollout_policy_reads_the_world_as_the_heuristic_reads_the_view():
    checked = 0
    for state, rng in _random_positions(40, seed=6):
        seat = state.turn
        from_view = HeuristicBot._context(state.view(seat), seat)
        from_state = state_context(state, seat)
        assert [from_view["cell"](i) for i in range(28)] == [from_state["cell"](i) for i in range(28)]
        for key in from_view.keys() - {"cell", "use"}:
            assert from_view[key] == from_state[key], key
        scores = {a: score(a, from_view) for a in state.legal_actions()}
        chosen = rollout_policy(state, seat, rng)
        assert abs(scores[chosen] - max(scores.values())) < 1e-9, (chosen, scores[chosen], max(scores.values()))
        checked += 1
    assert checked > 1000


def test_rollout_policy_chooses_exactly_as_scoring_every_action_did():
    """The fast policy (slides first, takes from the pyramid, builds bounded before they
    are made) picks the action the reference picks and draws the same random numbers."""
    checked = 0
    positions = itertools.chain(_random_positions(80, seed=7), _dealt_positions(2000, seed=8))
    for k, (state, _rng) in enumerate(positions):
        seat = state.turn
        for world in (state, state.sample_world(seat, random.Random(k))):
            fast, slow = random.Random(k), random.Random(k)
            assert rollout_policy(world, seat, fast) == reference_rollout_policy(world, seat, slow)
            assert fast.random() == slow.random()
            checked += 1
    assert checked > 8000


def _reference_sums(cards) -> set[int]:
    """Every subset sum up to 40, by sets (the heuristic's code before the bits)."""
    sums = {0}
    for c in cards:
        options = range(1, 11) if c.is_joker else (VALUE[c.index],)
        sums |= {s + x for s in sums for x in options if s + x <= 40}
    return sums


def test_sw_2_2_hand_facts_from_sum_bits_equal_the_sets_of_subset_sums():
    for state, rng in _dealt_positions(1500, seed=9):
        hand = tuple(state.hands[state.turn])
        targets = tuple(rng.sample(range(1, 41), rng.randint(0, 4)))
        sums = _reference_sums(hand)
        bits, helpful, keep = _hand_facts(hand, targets)
        assert {s for s in range(41) if bits >> s & 1} == sums
        assert helpful == {t - s for t in targets for s in sums if 1 <= t - s <= 10}
        assert keep == {c for c in hand if targets and any(
            t - v in _reference_sums([x for x in hand if x is not c])
            for t in targets for v in (range(1, 11) if c.is_joker else (VALUE[c.index],)))}
