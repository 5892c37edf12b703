"""Seven Waters rules (shared/spec/seven-waters.md), in the order of the rulebook."""

from __future__ import annotations

import random
from bisect import insort
from operator import attrgetter
from typing import Any, Mapping

from ...core.cards import ALL_CARDS, SUITS, Card, card
from ...core.chance import Chance
from ...core.errors import BadNotation, BadRecord
from ...core.inline import inline_tail_calls
from ...core.messages import Reason
from ...core.protocol import Game, State
from . import view as _view
from .manifest import MANIFEST
from .actions import (
    COVERED_BY, COVERS, DISCARD_ONE, FACE_UP_ROW, HAND_LIMIT, PASS, PLAIN, POOL_JOKER, POOL_ONE,
    PYRAMID_SIZE, RIVER_JOKER, RIVER_ONE, SLIDE_JOKER, SLIDE_ONE, TAKES, THEMES, VALUE, Action, Discard, Pass,
    Piece, Pool, River, Slide, Take, Theme, parse_action, piece_rank, piece_suit, piece_value, rank_text,
)
from .state import SevenWatersData, position_name

# -- SW-3 / SW-4 constants ---------------------------------------------------------
DECK_SIZE = 54
LINE_SIZES = (1, 2, 3, 4)           # SW-3.3
LINE_CARDS = sum(LINE_SIZES)        # 10 per seat
START_HAND = 3                      # SW-3.4
FINAL_TURNS = {"both": 2, "opponent_only": 1, "none": 0}  # SW-5.1 and its option

# -- SW-5.2: the scoring table, the ONE place that holds the point values ------------
# Inferred from the seed's worked example (14 + 6 + 5 + 10 - 1 - 2 = 32); a correction
# of the original rulebook is a one-line change here.
SCORING: dict[str, int] = {
    "slides": 2,      # per card in your slides (line cards do not count)
    "river": 1,       # per card in your lazy river
    "pool": 5,        # once, for the strictly larger wave pool
    "theme": 1,       # per card of your theme suit in your park (jokers never)
    "hand": -1,       # per card left in hand (jokers too)
    "discards": -2,   # per discarded card
}


_WEIGHTS = tuple(SCORING.values())
_THEME = list(SCORING).index("theme")  # the category a secret theme scores in
_CARD_INDEX = attrgetter("index")
DECK_NAMES = tuple(c.name for c in ALL_CARDS)
BY_NAME = {c.name: c for c in ALL_CARDS}


class SevenWaters(Game):
    """Seven Waters: two rival water parks built from a 28-card pyramid (54 cards)."""

    manifest = MANIFEST  # name, title, options and seat count

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def validate_setup(self, setup: Mapping[str, Any]) -> None:
        """`{"deck": [54 card names]}`: all 54 cards once each, in dealing order (SW-3.4).
        Refusals are `seven_waters.setup.*` codes, said in the reader's language; the field
        path (`setup.deck[5]`) and the card names as a record spells them (`TH`, `X1`,
        records.md) are data, and a value the file holds is quoted as the language quotes
        (text) or shown as JSON writes it (`null`, not Python's `None`)."""
        self._setup_keys(setup, ("deck",))
        deck = setup.get("deck")
        if not isinstance(deck, list):
            raise BadRecord(Reason("seven_waters.setup.deck_not_list", field="setup.deck", total=DECK_SIZE))
        seen: dict[str, int] = {}
        for i, name in enumerate(deck):
            field = f"setup.deck[{i}]"
            if not isinstance(name, str):
                raise BadRecord(Reason("seven_waters.setup.not_card_name", field=field, value=name,
                                       example="TH", joker="X1"))
            c = _card_or_none(name)
            if c is None:
                raise BadRecord(Reason("seven_waters.setup.not_card", field=field, value=name))
            if c.name in seen:
                raise BadRecord(Reason("seven_waters.setup.card_twice", field=field, card=c.name,
                                       first=f"setup.deck[{seen[c.name]}]"))
            seen[c.name] = i
        if len(deck) != DECK_SIZE:  # a longer deck repeats a card, refused above: here cards are missing
            missing = [c.name for c in ALL_CARDS if c.name not in seen]
            raise BadRecord(Reason("seven_waters.setup.deck_size", field="setup.deck", n=len(deck), total=DECK_SIZE,
                                   missing=" ".join(missing[:8]) + (" …" if len(missing) > 8 else "")))

    def _initial_state(self, chance: Chance) -> "SevenWatersState":
        """SW-3.2, SW-3.3, SW-3.4: deal the pyramid row by row, each seat's lines 1-4 (their
        sums by SW-2.1, a joker 10 by SW-2.2), then 3 cards to each hand."""
        chance.respell("deck", _canonical_name)  # a record may spell 'TH' as '10h' (records.md)
        names = chance.draw_order("deck", DECK_NAMES, "card")
        deck = [BY_NAME[n] for n in names]  # canonical names (respelt above)
        s = object.__new__(SevenWatersState)
        s.game = self
        s.chance = chance
        s.history = []
        s.pyramid = deck[:PYRAMID_SIZE]
        s.left = PYRAMID_SIZE
        s.free = _STALE  # the free cards are found on first use (free_takes)
        pos = PYRAMID_SIZE
        lines = []
        for _seat in (0, 1):
            seat_lines = []
            for size in LINE_SIZES:
                seat_lines.append(tuple(deck[pos:pos + size]))
                pos += size
            lines.append(tuple(seat_lines))
        s.lines = tuple(lines)
        s.line_sums = tuple(tuple(sum(VALUE[c.index] for c in line) for line in seat) for seat in s.lines)
        s.hands = []
        for _seat in (0, 1):
            s.hands.append(sorted(deck[pos:pos + START_HAND], key=_CARD_INDEX))
            pos += START_HAND
        s.discards = [[], []]
        s.slides = [[None] * 4, [None] * 4]
        s.river = [[], []]
        s.pool = [[], []]
        s.theme = [None, None]
        s.slides_built = 0
        limit = self.options["slide_limit"]
        s.slide_limit = 1 << 30 if limit is None else limit
        s.turn = self.options["first_player"]
        s.extra = False
        s.final_left = -1
        s.over = False
        s.log = None
        return s


def _card_or_none(name: str) -> Card | None:
    try:
        return card(name)
    except BadNotation:
        return None


def _canonical_name(name: Any) -> Any:
    """A record's card name as the engine writes it ('10h' -> 'TH', 'x1' -> 'X1'), so the
    deck is drawn by its canonical names; anything else as it is."""
    if not isinstance(name, str) or name in BY_NAME:
        return name
    c = _card_or_none(name)
    return name if c is None else c.name


# -- legal-action generation: subset tables per hand -----------------------------------
# A hand holds at most 7 cards.  Its plain cards, highest rank first, are numbered
# 0..n-1 and a subset of them is a bit mask m; its jokers are chosen separately.  Per
# mask the tables hold the sum of values, the ranks and the suits, each made from the
# mask without its lowest card (incremental subset sums), so a compound action is found
# by integer tests and only actions that exist are built: a slide looks its target up
# among the sums.  Actions come in the order (jokers chosen, mask), which is the listing
# order of RULES.md; tests/games/seven_waters check it against the enumeration of every
# subset.  Tables and the actions made from them are cached by hand.
_SUIT_BIT = {s: 1 << i for i, s in enumerate(SUITS)}
_BIT_SUIT = {1 << i: s for i, s in enumerate(SUITS)}
_RANK_MASK = (1 << 14) - 2  # bits of the ranks A (1) to K (13)
# Hands' tables, cached.  Hands of one or two cards (at most 1,485 of them) come back
# all the time and are kept for good; a larger hand rarely comes back in a random game
# (a card or two change every turn, and there are 25,000 hands of three cards), while
# every cached hand is a few dozen objects the garbage collector walks again and again
# (a sixth of a random game's instructions with every hand kept), so only the last few
# hundred larger hands are kept (search comes back to the hands of its root).
_TABLES: dict[tuple, "_HandTables"] = {}
_RECENT: dict[tuple, "_HandTables"] = {}
_SMALL_HAND = 2
_RECENT_LIMIT = 256


# SW-3.2: (card, the two cards on it, its take) for rows 1-6; (card, take) for row 7
TAKES_COVERED = tuple((i, *COVERED_BY[i], TAKES[i]) for i in range(PYRAMID_SIZE) if COVERED_BY[i])
TAKES_BOTTOM = tuple((i, TAKES[i]) for i in range(PYRAMID_SIZE) if not COVERED_BY[i])
# SW-3.2, per pyramid card i: for each card j it lies on, (j, the other card on j, j's
# bit, j lies face down): once i is taken, j is free when the other card is gone too.
_UNCOVERS = tuple(tuple((j, COVERED_BY[j][0] if COVERED_BY[j][1] == i else COVERED_BY[j][1], 1 << j,
                         not FACE_UP_ROW[j]) for j in COVERS[i]) for i in range(PYRAMID_SIZE))
_STALE = (-1, 0)  # `free` before it is first found (no pyramid count is -1)
# The takes of the free positions (bits), in pyramid order, read in four blocks of seven
# positions: _FREE_TAKES[k][b] are the takes of the bits b of positions 7k..7k+6.  The
# free cards differ from game to game and take to take, so no cache of whole sets hits.
_FREE_TAKES: tuple[tuple[tuple[Take, ...], ...], ...] = tuple(
    tuple(tuple(TAKES[7 * k + i] for i in range(7) if b >> i & 1) for b in range(128)) for k in range(4))


def _high_first(c: Card) -> tuple[int, int]:
    """Plain cards highest rank first, then by card index (codec.py orders blocks so)."""
    return -c.rank, c.index


# Sort keys and per-card facts read in C (`sorted`, `map`) rather than by Python calls:
# plain cards highest rank first (then by card index), jokers last (X1 before X2).
_HIGH_FIRST = {c: (13 - c.rank) * 64 + c.index if c.rank else 14 * 64 + c.index for c in ALL_CARDS}.__getitem__
_RANK_OF = attrgetter("rank")
_SUIT_BIT_OF = {c: _SUIT_BIT[c.suit] for c in ALL_CARDS if c.rank}.__getitem__
_THEME_OF = {c: THEMES[c.index] for c in ALL_CARDS}.__getitem__
# The joker subsets of a hand's jokers (in hand order), each in the order (), X1, X2, X1 X2.
_JOKER_SETS: dict[tuple[Card, ...], tuple[tuple[Card, ...], ...]] = {}
for _jokers in ((), ALL_CARDS[52:53], ALL_CARDS[53:54], ALL_CARDS[52:54]):
    _sets: list[tuple[Card, ...]] = [()]
    for _j in _jokers:
        _sets += [js + (_j,) for js in _sets]
    _JOKER_SETS[_jokers] = tuple(_sets)

# Subset tables by composition: the sums, ranks, lowest and highest rank and counts of
# every mask depend only on the ranks of the plain cards (highest first), the suits
# only on their suits.  A random game's hands are mostly new (a card or two change
# every turn) but their compositions repeat: a few hundred rank tuples cover every hand
# of one to three cards, and they keep growing ever more slowly (3,277 after 5,000
# random games).  Emptied when full, as a process that plays for weeks (a server's bots,
# a long study) would otherwise keep every composition it met (tens of thousands of
# multisets of ≤ 7 ranks, up to 5 KiB each).
_RANK_SHAPES: dict[tuple[int, ...], tuple] = {}
_SUIT_SHAPES: dict[tuple[int, ...], tuple] = {}
_SHAPES_LIMIT = 4096


def _rank_shape(ranks_high_first: tuple[int, ...]) -> tuple:
    """(sums, ranks, low, high, count, rank_bits, slide bits with 0, 1, 2 jokers) of the
    masks of plain cards of these ranks (highest first), made by doubling: adding card i
    appends, for every mask so far, the mask with bit i, so the tables stay in mask
    order, and card i is the lowest rank of every new mask."""
    sums, ranks, high, count = [0], [0], [0], [0]
    low = [14]
    rank_bits = 0
    for r in ranks_high_first:
        v, bit = min(r, 10), 1 << r
        sums += [x + v for x in sums]
        ranks += [-1 if x < 0 or x & bit else x | bit for x in ranks]  # -1: a rank twice
        low += [r] * len(low)
        high += [x or r for x in high]
        count += [x + 1 for x in count]
        rank_bits |= bit
    # bit T: some slide sums to T (SW-4.3a): the plain cards of a non-empty mask alone,
    # or any mask with n jokers standing for n..10n between them (SW-2.2)
    every = 0
    for total in sums:
        every |= 1 << total
    none = one = every & ~1
    for v in range(1, 11):
        one |= every << v
    two = one
    for v in range(2, 21):
        two |= every << v
    # tuples of ints: the garbage collector stops walking them after its first look
    if len(_RANK_SHAPES) >= _SHAPES_LIMIT:
        _RANK_SHAPES.clear()
    found = _RANK_SHAPES[ranks_high_first] = (
        tuple(sums), tuple(ranks), tuple(low), tuple(high), tuple(count), rank_bits, (none, one, two))
    return found


def _suit_shape(suit_bits_high_first: tuple[int, ...]) -> tuple:
    """(suits of every mask, all the suits) of plain cards with these suit bits."""
    suits = [0]
    every = 0
    for sb in suit_bits_high_first:
        suits += [x | sb for x in suits]
        every |= sb
    if len(_SUIT_SHAPES) >= _SHAPES_LIMIT:
        _SUIT_SHAPES.clear()
    found = _SUIT_SHAPES[suit_bits_high_first] = (tuple(suits), every)
    return found


class _HandTables:
    """Subset tables of one hand, and the actions already made from them.

    Per mask of the plain cards the tables hold the sum of values, the ranks (-1 when a
    rank repeats), the lowest and highest rank, the suits and the count (shared by all
    hands of the same composition), and `slide_bits` has bit T set when some slide of
    the hand sums to T; a random game's hands hold one to three cards and most of its
    questions (a slide for this line? a card for this river end or pool suit?
    `rank_bits`, `suit_bits`) have no answer, which these bits give without a look-up.
    The actions a hand makes are built on first use: its themes and discards, and per
    question its slides, rivers and pools (`made`)."""

    __slots__ = ("hand", "plain", "jokers", "joker_sets", "full", "rank_bits", "suit_bits", "made",
                 "sums", "ranks", "low", "high", "suits", "count", "slide_bits", "themes", "discards",
                 "card_table", "piece_table", "memo")

    def __init__(self, hand: tuple[Card, ...]):
        self.hand = hand
        n = len(hand)
        order = sorted(hand, key=_HIGH_FIRST)
        nj = n and (order[-1].rank == 0) + (n > 1 and order[-2].rank == 0)
        plain = self.plain = tuple(order[:n - nj]) if nj else tuple(order)
        self.jokers = nj
        self.joker_sets = _JOKER_SETS[tuple(order[n - nj:])] if nj else _NO_JOKERS
        self.full = 1 << len(plain)
        ranks = tuple(map(_RANK_OF, plain))
        (self.sums, self.ranks, self.low, self.high, self.count, self.rank_bits,
         slide_bits) = _RANK_SHAPES.get(ranks) or _rank_shape(ranks)
        self.slide_bits = slide_bits[nj]
        suits = tuple(map(_SUIT_BIT_OF, plain))
        self.suits, self.suit_bits = _SUIT_SHAPES.get(suits) or _suit_shape(suits)
        self.made: dict[tuple, tuple] = {}
        # made on first use (the rollout policy never asks for discards, a one-card
        # hand never for a mask's pieces): `_themes`, `_discards`, `cards`, `pieces`
        self.themes = self.discards = self.card_table = self.piece_table = None

    def __getattr__(self, name: str):
        """The rollout policy's memo, made on first use."""
        if name == "memo":
            self.memo = {}
            return self.memo
        raise AttributeError(name)

    def cards(self, m: int) -> tuple[Card, ...]:
        """The plain cards of mask m, highest rank first."""
        table = self.card_table
        if table is None:
            table = self.card_table = [()]
            for c in self.plain:
                table += [x + (c,) for x in table]
        return table[m]

    def pieces(self, m: int) -> tuple[Piece, ...]:
        """The plain cards of mask m as pieces, highest rank first."""
        table = self.piece_table
        if table is None:
            table = self.piece_table = [()]
            for c in self.plain:
                p = PLAIN[c.index]
                table += [x + (p,) for x in table]
        return table[m]


def _themes(t: _HandTables) -> tuple[Theme, ...]:
    """SW-4.3d: any plain hand card, in hand order."""
    found = t.themes = tuple(map(_THEME_OF, filter(_RANK_OF, t.hand)))
    return found


def _discards(t: _HandTables) -> tuple[Discard, ...]:
    """SW-4.2: every non-empty subset, in the order (jokers chosen, mask); the masks of
    card i come after all masks of the cards before it, the card alone first (a discard
    made once, DISCARD_ONE)."""
    table: list[tuple[Card, ...]] = [()]
    out: list[Discard] = []
    for c in t.plain:
        new = [x + (c,) for x in table]
        out.append(DISCARD_ONE[c.index])
        out += map(Discard, new[1:])
        table += new
    for jokers in t.joker_sets[1:]:
        out += [Discard(x + jokers) for x in table]
    t.card_table = table
    found = t.discards = tuple(out)
    return found


_NO_JOKERS: tuple[tuple[Card, ...], ...] = ((),)


def hand_tables(hand: tuple[Card, ...]) -> _HandTables:
    """The subset tables of a hand (a tuple in hand order), cached (`_TABLES`, `_RECENT`)."""
    if len(hand) <= _SMALL_HAND:
        found = _TABLES.get(hand)
        if found is None:
            found = _TABLES[hand] = _HandTables(hand)
        return found
    found = _RECENT.get(hand)
    if found is None:
        if len(_RECENT) >= _RECENT_LIMIT:
            _RECENT.clear()
        found = _RECENT[hand] = _HandTables(hand)
    return found


# A hand's answers are kept in `made` by question: a slide by (line, target), a river
# by lo * 16 + hi (0 to start it), a pool by its suit ("" to start it).
def _slides(t: _HandTables, line: int, target: int) -> tuple[Slide, ...]:
    found = t.made.get((line, target))
    if found is None:
        found = t.made[(line, target)] = tuple(_slide_options(t, line, target))
    return found


def _rivers(t: _HandTables, lo: int, hi: int) -> tuple[River, ...]:
    found = t.made[lo * 16 + hi] = tuple(_river_options(t, lo, hi))
    return found


def _pools(t: _HandTables, suit: str) -> tuple[Pool, ...]:
    found = t.made[suit] = tuple(_pool_options(t, suit))
    return found


def _slide_options(t: _HandTables, line: int, target: int):
    """SW-4.3a: subsets summing exactly to `target`.  A joker's value is fixed by the
    rest of the subset, so each subset gives at most one slide: with two jokers the
    remainder is split X1 = min(10, r - 1), X2 = r - X1 (any other split is legal too,
    but is the same play)."""
    sums = t.sums
    for jokers in t.joker_sets:
        if not jokers:
            for m in [m for m in range(1, t.full) if sums[m] == target]:
                yield Slide(line, t.pieces(m))
        else:
            n = len(jokers)
            for m in [m for m in range(t.full) if n <= target - sums[m] <= 10 * n]:
                yield Slide(line, t.pieces(m) + slide_jokers(jokers, target - sums[m]))


def slide_jokers(jokers: tuple[Card, ...], rest: int) -> tuple[Piece, ...]:
    """SW-4.3a, SW-2.2: the pieces of the (one or two) jokers of a slide whose plain cards
    leave `rest` to make up: one joker stands for all of it; two split it X1 = min(10,
    rest - 1), X2 = the remainder (any other split is the same play)."""
    if len(jokers) == 1:
        return (SLIDE_JOKER[(jokers[0].index, rest)],)
    a = min(10, rest - 1)
    return (SLIDE_JOKER[(jokers[0].index, a)], SLIDE_JOKER[(jokers[1].index, rest - a)])


def _river_pieces(cards: tuple[Card, ...], jokers: tuple[Card, ...], start: int, n: int) -> tuple[Piece, ...]:
    """The run start..start+n-1 from these cards of distinct ranks inside it (jokers fill
    the gaps, X1 the lower)."""
    by_rank = {c.rank: c for c in cards}
    free = iter(jokers)
    out = []
    for r in range(start, start + n):
        c = by_rank.get(r)
        out.append(PLAIN[c.index] if c is not None else RIVER_JOKER[(next(free).index, r)])
    return tuple(out)


def _river_options(t: _HandTables, lo: int, hi: int):
    """SW-4.3b: runs that start the river (lo = 0) or extend it at one end."""
    ranks, low, high, count = t.ranks, t.low, t.high, t.count
    if not t.jokers:
        # without a joker a run is its cards' ranks in a row, lowest first, and it fits in
        # one place only: anywhere to start the river, else right above or below it
        plain = t.plain
        for m in range(1, t.full):
            if ranks[m] >= 0 and high[m] - low[m] == count[m] - 1 and (
                    lo == 0 or low[m] == hi + 1 or high[m] == lo - 1):
                if count[m] == 1:  # one card: its river is made once (RIVER_ONE)
                    yield RIVER_ONE[plain[m.bit_length() - 1].index]
                else:
                    yield River(t.pieces(m)[::-1])
        return
    for jokers in t.joker_sets:
        nj = len(jokers)
        first = 0 if nj else 1
        if lo == 0:
            # plain ranks distinct and within a window of n = cards + jokers ranks
            masks = [m for m in range(first, t.full) if ranks[m] >= 0 and high[m] - low[m] < count[m] + nj]
        else:
            # entirely above the river's top or entirely below its bottom
            masks = [m for m in range(first, t.full) if ranks[m] >= 0 and (not m or low[m] > hi or high[m] < lo)]
        for m in masks:
            n = count[m] + nj
            if lo == 0:
                starts = range(max(1, high[m] - n + 1), min(low[m], 14 - n) + 1) if m else range(1, 15 - n)
            else:
                starts = (hi + 1, lo - n)
            for start in starts:
                if start >= 1 and start + n <= 14 and (not m or start <= low[m] and high[m] < start + n):
                    yield River(_river_pieces(t.cards(m), jokers, start, n))


def _pool_options(t: _HandTables, suit: str):
    """SW-4.3c: one-suit sets that start the pool (suit '') or join it."""
    suits = t.suits
    allowed = {0, _SUIT_BIT[suit]} if suit else {0, 1, 2, 4, 8}  # jokers only, or one suit
    if not t.jokers:  # each one-suit set of plain cards is one pool action
        plain = t.plain
        for m in range(1, t.full):
            if suits[m] in allowed:
                if m & (m - 1):
                    yield Pool(t.pieces(m))
                else:  # one card: its pool is made once (POOL_ONE)
                    yield POOL_ONE[plain[m.bit_length() - 1].index]
        return
    for jokers in t.joker_sets:
        for m in [m for m in range(0 if jokers else 1, t.full) if suits[m] in allowed]:
            bits = suits[m]
            choices = (_BIT_SUIT[bits],) if bits else (suit,) if suit else SUITS
            for s in choices:
                yield Pool(t.pieces(m) + tuple(POOL_JOKER[(j.index, s)] for j in jokers))


@inline_tail_calls("apply", "apply_legal")  # the checked path without a second call (core.inline)
class SevenWatersState(SevenWatersData, State):
    """A Seven Waters position with the rules as methods."""

    __slots__ = ()  # the data's slots only (core.protocol.State)

    # -- SW-4: whose turn ------------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        """SW-4: players alternate; after a completed slide the same seat stays (SW-4.3a)."""
        return () if self.over else (self.turn,)

    def is_terminal(self) -> bool:
        return self.over

    @property
    def current_seat(self) -> int | None:
        return None if self.over else self.turn

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """The protocol's checked `apply` with its common case inlined: the seat to move
        (or none named) takes an action `_why_illegal` allows, chance drawn from a
        generator, and `apply_legal` plays it.  Anything else (a refusal and its reason,
        notation, a strict replay applied as a transaction) takes the protocol's own way."""
        if not self.over and action.__class__ is not str and self.chance.rng is not None:
            if seat is None:
                seat = self.turn
            if seat == self.turn:
                if action.__class__ is Take:
                    # SW-4.1: a free card (SW-3.2) while the hand holds fewer than 7,
                    # read from the free positions `_take` keeps (while they are valid)
                    left, bits = self.free
                    if left == self.left and bits >> action.index & 1 and len(self.hands[seat]) < HAND_LIMIT:
                        self.apply_legal(action, seat)
                        return
                if self._why_illegal(action, seat) is None:
                    self.apply_legal(action, seat)
                    return
        State.apply(self, action, seat)

    def apply_legal(self, action: Action, seat: int) -> None:
        """The protocol's trusted path (an action from `legal_actions(seat)`).  A take,
        half of a game's actions, is played inline while the pyramid keeps a card after
        it: `_take` and `_end_turn` without their calls (SW-4.1, SW-3.2: the card goes to
        the hand, the cards it lay on may become free and turn face up; the turn passes).
        Everything else, and the last take with the end of SW-5.1, is `_apply`'s."""
        if self.chance.rng is None:
            State.apply_legal(self, action, seat)
            return
        if action.__class__ is Take and self.left > 1:
            i = action.index
            p = self.pyramid
            c = p[i]
            p[i] = None
            left, bits = self.free
            bits &= ~(1 << i)
            revealed: tuple[Card, ...] = ()
            for j, other, bit, face_down in _UNCOVERS[i]:
                if p[other] is None and p[j] is not None:
                    bits |= bit
                    if face_down:
                        revealed += (p[j],)
            self.free = (self.left - 1, bits) if left == self.left else _STALE
            self.left -= 1
            insort(self.hands[seat], c, key=_CARD_INDEX)
            self.log = (seat, action, c, revealed, self.extra, self.log)
            self.extra = False
            self.turn ^= 1
        else:
            self._apply(action, seat)
        self.history.append((seat, action, False))

    # -- SW-4: the actions ------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """SW-4: takes (pyramid order), slides (line 1-4), river, pool, theme, discards;
        pass only when none of these exists (SW-4.5)."""
        return self._legal(seat, True)

    def legal_actions_but_discards(self, seat: int | None = None) -> list[Action]:
        """`legal_actions` without the discards (for rollout policies that weigh discards
        of single cards themselves); [PASS] when nothing but pass is legal."""
        return self._legal(seat, False)

    def _legal(self, seat: int | None, discards: bool) -> list[Action]:
        """The parts of `legal_actions` in its order, each read from the hand's tables
        (`slide_options`, `river_options`, `pool_options`, `theme_options` inlined: a
        random game asks them at every action)."""
        if self.over or (seat is not None and seat != self.turn):
            return []
        s = self.turn
        hand = self.hands[s]
        out: list[Action] = self.free_takes() if len(hand) < HAND_LIMIT and self.left else []
        if not hand:
            return out or [PASS]
        if len(hand) == 1 and hand[0].rank:
            return self._legal_one(s, hand[0], out, discards)
        key = tuple(hand)
        t = _TABLES.get(key) or hand_tables(key)
        made = t.made
        if self.slides_built < self.slide_limit:  # SW-4.3a, SW-4.4
            sums = self.line_sums[s]
            bits = t.slide_bits
            k = 0
            for slide in self.slides[s]:
                if slide is None and bits >> sums[k] & 1:
                    out += _slides(t, k + 1, sums[k])
                k += 1
        river = self.river[s]  # SW-4.3b
        if not river:
            found = made.get(0)
            out += found if found is not None else _rivers(t, 0, 0)
        else:
            lo, hi = river[0].rank, river[-1].rank
            if t.jokers or t.rank_bits & (1 << hi + 1 | 1 << lo - 1) & _RANK_MASK:
                found = made.get(lo * 16 + hi)
                out += found if found is not None else _rivers(t, lo, hi)
        pool = self.pool[s]  # SW-4.3c
        if not pool:
            found = made.get("")
            out += found if found is not None else _pools(t, "")
        else:
            suit = pool[0].suit
            if t.jokers or t.suit_bits & _SUIT_BIT[suit]:
                found = made.get(suit)
                out += found if found is not None else _pools(t, suit)
        if self.theme[s] is None:  # SW-4.3d
            found = t.themes
            out += found if found is not None else _themes(t)
        if discards:  # SW-4.2
            found = t.discards
            out += found if found is not None else _discards(t)
        return out

    def _legal_one(self, s: int, c: Card, out: list[Action], discards: bool) -> list[Action]:
        """`_legal` for a hand of one plain card (a third of a random game's turns): every
        build is the card alone, made once (SLIDE_ONE, RIVER_ONE, POOL_ONE, THEMES,
        DISCARD_ONE), so no tables are needed."""
        i = c.index
        if self.slides_built < self.slide_limit:  # SW-4.3a, SW-4.4: its value is the line's sum
            sums = self.line_sums[s]
            v = VALUE[i]
            k = 0
            for slide in self.slides[s]:
                if slide is None and sums[k] == v:
                    out.append(SLIDE_ONE[k][i])
                k += 1
        river = self.river[s]  # SW-4.3b: it starts the river or extends it at one end
        if not river or c.rank == river[-1].rank + 1 or c.rank == river[0].rank - 1:
            out.append(RIVER_ONE[i])
        pool = self.pool[s]  # SW-4.3c: it starts the pool or is of its suit
        if not pool or c.suit == pool[0].suit:
            out.append(POOL_ONE[i])
        if self.theme[s] is None:  # SW-4.3d
            out.append(THEMES[i])
        if discards:  # SW-4.2
            out.append(DISCARD_ONE[i])
        return out

    def slide_options(self, s: int, t: "_HandTables") -> list[Slide]:
        """SW-4.3a: the slides of seat s's hand (tables t) on its lines without one, line 1
        to 4 (the caller checks the limit of SW-4.4)."""
        sums = self.line_sums[s]
        bits = t.slide_bits
        out: list[Slide] = []
        for k, slide in enumerate(self.slides[s]):
            if slide is None and bits >> sums[k] & 1:
                out += _slides(t, k + 1, sums[k])
        return out

    def river_options(self, s: int, t: "_HandTables") -> tuple[River, ...]:
        """SW-4.3b: runs of the hand that start seat s's river or extend it at one end
        (without a joker, a run above the river starts with its top rank + 1, one below
        it ends with its bottom rank - 1)."""
        river = self.river[s]
        lo, hi = (river[0].rank, river[-1].rank) if river else (0, 0)
        if river and not t.jokers and not t.rank_bits & (1 << hi + 1 | 1 << lo - 1) & _RANK_MASK:
            return ()
        found = t.made.get(lo * 16 + hi)
        return found if found is not None else _rivers(t, lo, hi)

    def pool_options(self, s: int, t: "_HandTables") -> tuple[Pool, ...]:
        """SW-4.3c: one-suit sets of the hand that start seat s's pool or join it."""
        pool = self.pool[s]
        suit = pool[0].suit if pool else ""
        if pool and not t.jokers and not t.suit_bits & _SUIT_BIT[suit]:
            return ()
        found = t.made.get(suit)
        return found if found is not None else _pools(t, suit)

    def theme_options(self, s: int, t: "_HandTables") -> tuple[Theme, ...]:
        """SW-4.3d: the hand's plain cards, while seat s has no theme."""
        if self.theme[s] is not None:
            return ()
        found = t.themes
        return found if found is not None else _themes(t)

    def free_takes(self) -> list[Take]:
        """SW-4.1 / SW-3.2: one take per free pyramid card, in pyramid order.  The free
        cards are kept as bits with the pyramid count they are valid for (`free`): `_take`
        updates them (a card taken is gone, the cards it lay on may become free); a
        position changed any other way changes `left` too, and they are found anew."""
        left, bits = self.free
        if left != self.left:
            p = self.pyramid
            bits = 0
            for i, a, b, _take in TAKES_COVERED:
                if p[a] is None and p[b] is None and p[i] is not None:
                    bits |= 1 << i
            for i, _take in TAKES_BOTTOM:
                if p[i] is not None:
                    bits |= 1 << i
            self.free = (self.left, bits)
        a, b, c, d = _FREE_TAKES
        return [*a[bits & 127], *b[bits >> 7 & 127], *c[bits >> 14 & 127], *d[bits >> 21]]

    def _why_illegal(self, action: Any, seat: int) -> Reason | None:
        t = type(action)
        if t is Take:
            return self._why_not_take(action, seat)
        if t is Slide:
            return self._why_not_slide(action, seat)
        if t is River:
            return self._why_not_river(action, seat)
        if t is Pool:
            return self._why_not_pool(action, seat)
        if t is Theme:
            return self._why_not_theme(action, seat)
        if t is Discard:
            return self._not_in_hand(action.cards, seat)
        if t is Pass:
            return self._why_not_pass(seat)
        return Reason("not_an_action", action=repr(action), game=self.game.title)

    def _not_in_hand(self, cards, seat: int) -> Reason | None:
        """The cards of an action must all be in the hand, each once."""
        hand = self.hands[seat]
        for i, c in enumerate(cards):
            if c not in hand:
                if not hand:
                    return Reason("seven_waters.hand_empty", card=c.name)
                return Reason("seven_waters.not_held", card=c.name)
            if c in cards[:i]:
                return Reason("seven_waters.named_twice", card=c.name)
        return None

    def _why_not_take(self, action: Take, seat: int) -> Reason | None:
        """SW-4.1: take one free pyramid card; not while holding 7 cards."""
        if len(self.hands[seat]) >= HAND_LIMIT:
            return Reason("seven_waters.hand_full", n=HAND_LIMIT)
        i = action.index
        p = self.pyramid
        if p[i] is None:
            return Reason("seven_waters.already_taken", position=position_name(i))
        for j in COVERED_BY[i]:
            if p[j] is not None:  # SW-3.2: only a free card (nothing on it) can be taken
                covering = [position_name(j) for j in COVERED_BY[i] if p[j] is not None]
                return Reason("seven_waters.covered", position=position_name(i), covering=covering,
                              n=len(covering))
        return None

    def _why_not_slide(self, action: Slide, seat: int) -> Reason | None:
        """SW-4.3a, SW-4.4: a slide on a line without one, summing exactly, within the limit
        (no limit in the competition edition, SW-7.1)."""
        if self.slides_built >= self.slide_limit:
            return Reason("seven_waters.no_more_slides", n=self.slides_built)
        k = action.line
        if self.slides[seat][k - 1] is not None:
            return Reason("seven_waters.line_has_slide", line=k)
        problem = self._not_in_hand([p.card for p in action.pieces], seat)
        if problem:
            return problem
        total = sum(piece_value(p) for p in action.pieces)
        target = self.line_sums[seat][k - 1]
        if total != target:
            return Reason("seven_waters.slide_sum", total=total, line=k, target=target,
                          cards=[c.name for c in self.lines[seat][k - 1]])
        return None

    def _why_not_river(self, action: River, seat: int) -> Reason | None:
        """SW-4.3b: a run of consecutive ranks (A low, no wrap) that starts the river or
        extends it at one end."""
        problem = self._not_in_hand([p.card for p in action.pieces], seat)
        if problem:
            return problem
        ranks = [piece_rank(p) for p in action.pieces]
        for a, b in zip(ranks, ranks[1:]):
            if b != a + 1:
                return Reason("seven_waters.not_a_run", ranks=[rank_text(r) for r in ranks])
        river = self.river[seat]
        if river:
            lo, hi = piece_rank(river[0]), piece_rank(river[-1])
            if ranks[0] != hi + 1 and ranks[-1] != lo - 1:
                if lo == 1 and hi == 13:
                    return Reason("seven_waters.river_full")
                code = ("seven_waters.river_ends_both" if lo > 1 and hi < 13 else
                        "seven_waters.river_ends_low" if lo > 1 else "seven_waters.river_ends_high")
                return Reason(code, low=rank_text(lo), high=rank_text(hi),
                              below=rank_text(max(lo - 1, 1)), above=rank_text(min(hi + 1, 13)))
        return None

    def _why_not_pool(self, action: Pool, seat: int) -> Reason | None:
        """SW-4.3c: cards of one suit, the pool's suit once it is started."""
        problem = self._not_in_hand([p.card for p in action.pieces], seat)
        if problem:
            return problem
        suits = [piece_suit(p) for p in action.pieces]
        pool = self.pool[seat]
        want = piece_suit(pool[0]) if pool else suits[0]
        for p, s in zip(action.pieces, suits):
            if s != want:
                if pool:
                    return Reason("seven_waters.pool_suit", suit=want, card=str(p))
                return Reason("seven_waters.pool_mixed", first=str(action.pieces[0]), card=str(p))
        return None

    def _why_not_theme(self, action: Theme, seat: int) -> Reason | None:
        """SW-4.3d: once per game, a non-joker hand card."""
        if self.theme[seat] is not None:
            return Reason("seven_waters.theme_placed")
        if action.card.is_joker:
            return Reason("seven_waters.joker_theme")
        return self._not_in_hand((action.card,), seat)

    def _why_not_pass(self, seat: int) -> Reason | None:
        """SW-4.5: pass only when no other action is legal."""
        hand = self.hands[seat]
        if hand:
            return Reason("seven_waters.pass_can_discard", n=len(hand))
        if self.left:
            return Reason("seven_waters.pass_can_take")
        return None

    def _apply(self, action: Action, seat: int) -> None:
        """SW-4, SW-4.1, SW-4.2, SW-4.3 (a-d): carry out a legal action on one attraction,
        then end the turn unless a slide was completed (its extra action, SW-4.3a)."""
        t = type(action)
        hand = self.hands[seat]
        taken = None
        revealed: tuple[Card, ...] = ()
        if t is Take:
            taken, revealed = self._take(action.index)
            insort(hand, taken, key=_CARD_INDEX)  # the hand stays sorted (Card.__lt__ without its calls)
        elif t is Discard:
            for c in action.cards:
                hand.remove(c)
            self.discards[seat].extend(action.cards)
        elif t is Slide:
            for p in action.pieces:
                hand.remove(p.card)
            self.slides[seat][action.line - 1] = action.pieces
            self.slides_built += 1
        elif t is River:
            self._build_river(action.pieces, seat)
        elif t is Pool:
            for p in action.pieces:
                hand.remove(p.card)
            self.pool[seat].extend(action.pieces)
        elif t is Theme:
            hand.remove(action.card)
            self.theme[seat] = action.card
        self.log = (seat, action, taken, revealed, self.extra, self.log)
        if t is Slide:
            self.extra = True  # SW-4.3a: an immediate extra action, same seat
        else:
            self._end_turn()

    def _take(self, i: int) -> tuple[Card, tuple[Card, ...]]:
        """SW-4.1, SW-3.2: remove card i; the cards it lay on become free once both cards
        on them are gone, and a face-down one turns face up (kept in `free`, as bits,
        while it is valid: see free_takes)."""
        p = self.pyramid
        c = p[i]
        p[i] = None
        left, bits = self.free
        bits &= ~(1 << i)
        revealed: tuple[Card, ...] = ()
        for j in COVERS[i]:
            if self.is_free(j):
                bits |= 1 << j
                if not FACE_UP_ROW[j]:
                    revealed += (p[j],)
        self.free = (self.left - 1, bits) if left == self.left else _STALE
        self.left -= 1
        return c, revealed  # type: ignore[return-value]

    def _build_river(self, pieces: tuple[Piece, ...], seat: int) -> None:
        """SW-4.3b: start the river, or add the run at the end it continues."""
        hand = self.hands[seat]
        for p in pieces:
            hand.remove(p.card)
        river = self.river[seat]
        if river and piece_rank(pieces[0]) != piece_rank(river[-1]) + 1:
            river[:0] = pieces
        else:
            river.extend(pieces)

    def _end_turn(self) -> None:
        """SW-5.1: after the turn that took the last pyramid card each player has one more
        turn (option final_turns), the opponent first; then the game ends."""
        self.extra = False
        if self.left == 0:
            if self.final_left < 0:
                self.final_left = FINAL_TURNS[self.game.options["final_turns"]]
            if self.final_left == 0:
                self.over = True
                return
            self.final_left -= 1
        self.turn ^= 1

    # -- SW-5.2 / SW-5.3: scoring -------------------------------------------------------
    def breakdown(self, seat: int) -> dict[str, int]:
        """SW-5.2: points per category (SCORING), for the park as it stands."""
        return {name: SCORING[name] * n for name, n in zip(SCORING, self._counted(seat))}

    def _counted(self, seat: int) -> tuple[int, int, int, int, int, int]:
        """SW-5.2: what each SCORING category counts, in its order: slide cards, river
        cards, a larger pool (1 or 0), park cards of the theme's suit, hand cards, discards."""
        slide_cards = 0
        for sl in self.slides[seat]:
            if sl:
                slide_cards += len(sl)
        pool = self.pool[seat]
        theme = self.theme[seat]
        theme_cards = 0
        if theme is not None:
            suit = theme.suit  # jokers never count, whatever they were declared as
            for c in self.park_cards(seat):
                if c.suit == suit:
                    theme_cards += 1
        return (slide_cards, len(self.river[seat]), len(pool) > len(self.pool[seat ^ 1]), theme_cards,
                len(self.hands[seat]), len(self.discards[seat]))

    def scores(self) -> list[float]:
        """SW-5.2: each seat's total (so far, while the game runs)."""
        weights = _WEIGHTS
        return [sum(w * n for w, n in zip(weights, self._counted(s))) for s in (0, 1)]

    def scores_seen_by(self, seat: int | None) -> list[float]:
        """SW-4.3d, SW-5.2 as `seat` can know them: a theme lies face down until the end,
        so while the game runs another seat's total leaves out its theme points (with
        them, the difference to the public parts named the secret suit)."""
        out = self.scores()
        if not self.over:
            for s in (0, 1):
                if s != seat:
                    out[s] -= _WEIGHTS[_THEME] * self._counted(s)[_THEME]
        return out

    def decision(self) -> tuple[list[int], str | None]:
        """SW-5.3, the one place that decides the game: (winners, how) where how is
        "points" (the higher total), "pool" (equal totals, the larger pool) or "draw"
        (both equal: both win); ([], None) while the game runs.  Renderers read `how`
        from the final view instead of working the tie-break out again."""
        if not self.over:
            return [], None
        how = "points"
        a, b = self.scores()
        if a == b:
            how = "pool"
            a, b = len(self.pool[0]), len(self.pool[1])
        if a == b:
            return [0, 1], "draw"
        return ([0] if a > b else [1]), how

    def winners(self) -> list[int]:
        """SW-5.3: the higher total wins; then the larger pool; then a draw (both win)."""
        return self.decision()[0]

    # -- information -----------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        return _view.view(self, seat)

    def sample_world(self, seat: int, rng: random.Random) -> "SevenWatersState":
        return _view.sample_world(self, seat, rng)
