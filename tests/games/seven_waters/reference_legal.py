"""The Seven Waters legal-action generation as it was before subset-sum tables
(every subset of the hand enumerated): the reference the fast generation must equal,
action for action and in the same order."""

from __future__ import annotations

from wasserspiele.core.cards import SUITS, Card
from wasserspiele.games.seven_waters.actions import (
    HAND_LIMIT, PASS, PLAIN, POOL_JOKER, RIVER_JOKER, SLIDE_JOKER, THEMES, VALUE, Discard, Pool, River, Slide,
    piece_rank, piece_suit,
)

# -- the old generation, verbatim (with its cache) ------------------------------------------
# Every compound action depends only on the hand (≤ 7 cards, so ≤ 127 subsets) and one
# or two small numbers; the caches turn generation into dictionary look-ups during search.
_CACHE: dict[tuple, tuple] = {}
_CACHE_LIMIT = 300_000


def _cached(key: tuple, make) -> tuple:
    found = _CACHE.get(key)
    if found is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        found = _CACHE[key] = tuple(make())
    return found


def _high_first(c: Card) -> tuple[int, int]:
    return -c.rank, c.index


def _subsets(hand: tuple[Card, ...]) -> tuple:
    """Every non-empty subset of the hand as (cards, plain cards, jokers, sum of the plain
    cards' values, plain cards as pieces).  Cards are listed from the highest rank down,
    jokers last, as actions list them; subsets come in a fixed order."""
    def make():
        subs: list[tuple] = [((), (), 0)]
        for c in sorted((c for c in hand if c.rank), key=_high_first):
            piece, value = PLAIN[c.index], VALUE[c.index]
            subs += [(plain + (c,), pieces + (piece,), total + value) for plain, pieces, total in subs]
        joker_sets: list[tuple] = [()]
        for j in hand:
            if not j.rank:
                joker_sets += [js + (j,) for js in joker_sets]
        for jokers in joker_sets:
            for plain, pieces, total in subs:
                if plain or jokers:
                    yield plain + jokers, plain, jokers, total, pieces
    return _cached(("subsets", hand), make)


def _slide_options(hand: tuple[Card, ...], line: int, target: int) -> tuple:
    """SW-4.3a: subsets summing exactly to `target`.  A joker's value is fixed by the
    rest of the subset, so each subset gives at most one slide: with two jokers the
    remainder is split X1 = min(10, r - 1), X2 = r - X1 (any other split is legal too,
    but is the same play)."""
    def make():
        for _cards, _plain, jokers, total, pieces in _subsets(hand):
            r = target - total
            if not jokers:
                if r == 0:
                    yield Slide(line, pieces)
            elif len(jokers) == 1:
                if 1 <= r <= 10:
                    yield Slide(line, pieces + (SLIDE_JOKER[(jokers[0].index, r)],))
            elif 2 <= r <= 20:
                a = min(10, r - 1)
                yield Slide(line, pieces + (SLIDE_JOKER[(jokers[0].index, a)],
                                            SLIDE_JOKER[(jokers[1].index, r - a)]))
    return _cached(("slide", hand, line, target), make)


def _river_pieces(plain: tuple[Card, ...], jokers: tuple[Card, ...], start: int) -> tuple[Piece, ...] | None:
    """The run start..start+n-1 from these cards (jokers fill the gaps, X1 the lower), or None."""
    n = len(plain) + len(jokers)
    if start < 1 or start + n - 1 > 13:
        return None
    by_rank: dict[int, Card] = {}
    for c in plain:
        if not start <= c.rank < start + n or c.rank in by_rank:
            return None
        by_rank[c.rank] = c
    free = iter(jokers)
    out = []
    for r in range(start, start + n):
        c = by_rank.get(r)
        out.append(PLAIN[c.index] if c is not None else RIVER_JOKER[(next(free).index, r)])
    return tuple(out)


def _river_options(hand: tuple[Card, ...], lo: int, hi: int) -> tuple:
    """SW-4.3b: runs that start the river (lo = 0) or extend it at one end."""
    def make():
        for cards, plain, jokers, _total, _pieces in _subsets(hand):
            n = len(cards)
            if lo == 0:
                ranks = [c.rank for c in plain]
                first = max(1, max(ranks) - n + 1) if ranks else 1
                last = min(min(ranks), 14 - n) if ranks else 14 - n
                starts = range(first, last + 1)
            else:
                starts = (hi + 1, lo - n)
            for start in starts:
                pieces = _river_pieces(plain, jokers, start)
                if pieces is not None:
                    yield River(pieces)
    return _cached(("river", hand, lo, hi), make)


def _pool_options(hand: tuple[Card, ...], suit: str) -> tuple:
    """SW-4.3c: one-suit sets that start the pool (suit '') or join it."""
    def make():
        for _cards, plain, jokers, _total, pieces in _subsets(hand):
            suits = {c.suit for c in plain}
            if len(suits) > 1:
                continue
            if suits:
                (s,) = suits
                if suit and s != suit:
                    continue
                choices: tuple[str, ...] = (s,)
            else:
                choices = (suit,) if suit else SUITS
            for s in choices:
                yield Pool(pieces + tuple(POOL_JOKER[(j.index, s)] for j in jokers))
    return _cached(("pool", hand, suit), make)


def _theme_options(hand: tuple[Card, ...]) -> tuple:
    return _cached(("theme", hand), lambda: (THEMES[c.index] for c in hand if c.rank))


def _discard_options(hand: tuple[Card, ...]) -> tuple:
    return _cached(("discard", hand), lambda: (Discard(sub[0]) for sub in _subsets(hand)))



def reference_legal_actions(state, seat: int | None = None) -> list:
    """What SevenWatersState.legal_actions returned before (SW-4 order)."""
    if state.over or (seat is not None and seat != state.turn):
        return []
    s = state.turn
    hand = state.hands[s]
    out: list = []
    if len(hand) < HAND_LIMIT and state.left:
        out += state.free_takes()
    if not hand:
        return out or [PASS]
    key = tuple(hand)
    if state.slides_built < state.slide_limit:
        sums = state.line_sums[s]
        for k, slide in enumerate(state.slides[s]):
            if slide is None:
                out += _slide_options(key, k + 1, sums[k])
    river = state.river[s]
    out += _river_options(key, piece_rank(river[0]), piece_rank(river[-1])) if river \
        else _river_options(key, 0, 0)
    pool = state.pool[s]
    out += _pool_options(key, piece_suit(pool[0]) if pool else "")
    if state.theme[s] is None:
        out += _theme_options(key)
    out += _discard_options(key)
    return out
