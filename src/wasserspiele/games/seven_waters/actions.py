"""Seven Waters actions and their notation (shared/spec/seven-waters.md, "Notation").

Every action is a small immutable, hashable object whose `str()` is the canonical
notation.  Cards inside an action are `Piece`s: a card plus, for a joker being
placed, its declaration (a value in a slide, a rank in the river, a suit in the
pool).  Pieces and takes are interned; compound actions are cached by the rules.
"""

from __future__ import annotations

from ...core.cards import ALL_CARDS, RANKS, SUITS, Card, card
from ...core.errors import BadNotation
from ...core.messages import Reason
from ...core.notation import ascii_number

# -- SW-3.2: pyramid geometry ---------------------------------------------------
ROWS = 7
PYRAMID_SIZE = ROWS * (ROWS + 1) // 2  # 28
# POS[i] = (row, column), both 1-based; INDEX[(row, column)] = i; rows top to bottom, left to right.
POS: tuple[tuple[int, int], ...] = tuple((r, c) for r in range(1, ROWS + 1) for c in range(1, r + 1))
INDEX: dict[tuple[int, int], int] = {rc: i for i, rc in enumerate(POS)}
# COVERED_BY[i]: the two cards lying on card i (row r+1, columns c and c+1); () for row 7.
COVERED_BY: tuple[tuple[int, ...], ...] = tuple(
    (INDEX[(r + 1, c)], INDEX[(r + 1, c + 1)]) if r < ROWS else () for r, c in POS)
# COVERS[i]: the (at most two) cards that card i lies on, in row r-1.
COVERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX[rc] for rc in ((r - 1, c - 1), (r - 1, c)) if rc in INDEX) for r, c in POS)
FACE_UP_ROW: tuple[bool, ...] = tuple(r % 2 == 1 for r, _ in POS)  # rows 1, 3, 5, 7 lie face up

# -- SW-2.1: values --------------------------------------------------------------
# VALUE[card.index]: A = 1, 2-10 as printed, J Q K = 10; jokers 10 (their worth in a line, SW-2.2).
VALUE: tuple[int, ...] = tuple(min(c.rank, 10) if c.rank else 10 for c in ALL_CARDS)
SLIDE_VALUES = range(1, 11)  # SW-2.2: a joker in a slide stands for any value 1-10
HAND_LIMIT = 7  # SW-4.1: no take while holding 7 cards


def rank_text(rank: int) -> str:
    """1 → 'A', 10 → 'T', 13 → 'K'."""
    return RANKS[rank - 1]


class Piece:
    """A card being placed; a joker carries its declaration `decl` (int value/rank or suit letter).

    `rank` and `suit` are what `piece_rank` and `piece_suit` read (the declaration for a
    joker), kept on the interned piece so the legal-action generation reads a river's
    ends and a pool's suit without a call."""

    __slots__ = ("card", "decl", "kind", "_text", "rank", "suit")

    def __init__(self, c: Card, decl: int | str | None, text: str, kind: str = ""):
        self.card = c
        self.decl = decl
        self.kind = kind  # "" for a plain card, else "slide" / "river" / "pool"
        self._text = text
        self.rank = decl if c.rank == 0 else c.rank
        self.suit = decl if c.rank == 0 else c.suit

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Piece({self._text})"

    def __reduce__(self):
        return (_interned_piece, (self.kind, self.card.index, self.decl))


# Interned pieces: PLAIN[card.index]; joker pieces by (kind, card.index, declaration).
PLAIN: tuple[Piece, ...] = tuple(Piece(c, None, c.name) for c in ALL_CARDS)
JOKERS = ALL_CARDS[52:]
SLIDE_JOKER: dict[tuple[int, int], Piece] = {
    (j.index, v): Piece(j, v, f"{j.name}={v}", "slide") for j in JOKERS for v in SLIDE_VALUES}
RIVER_JOKER: dict[tuple[int, int], Piece] = {
    (j.index, r): Piece(j, r, f"{j.name}={rank_text(r)}", "river") for j in JOKERS for r in range(1, 14)}
POOL_JOKER: dict[tuple[int, str], Piece] = {
    (j.index, s): Piece(j, s, f"{j.name}={s}", "pool") for j in JOKERS for s in SUITS}
_TABLES = {"slide": SLIDE_JOKER, "river": RIVER_JOKER, "pool": POOL_JOKER}


def _interned_piece(kind: str, index: int, decl) -> Piece:
    return _TABLES[kind][(index, decl)] if kind else PLAIN[index]


def piece_rank(p: Piece) -> int:
    """SW-2.1, SW-2.2: a river piece's rank, A = 1 … K = 13 (declared for a joker)."""
    return p.rank  # type: ignore[return-value]


def piece_suit(p: Piece) -> str:
    """SW-2.2: a pool piece's suit (declared for a joker)."""
    return p.suit  # type: ignore[return-value]


def piece_value(p: Piece) -> int:
    """SW-2.1, SW-2.2: a slide piece's value, A = 1, J Q K = 10 (declared 1-10 for a joker)."""
    return p.decl if p.card.rank == 0 else VALUE[p.card.index]  # type: ignore[return-value]


# -- actions ---------------------------------------------------------------------
class Action:
    """Base of the Seven Waters actions: equality by type and payload, hash by payload.

    The payload is the key itself where it is one object (a discard's cards, a
    river's pieces), so an action adds no tuple of its own: the subset tables keep
    thousands of them, and every object they keep is one more for the garbage
    collector to walk.  The notation text is made on first use: legal-action
    generation builds many actions that are never printed.  Each `__init__` sets its
    slots itself (one Python call per action made, not two)."""

    __slots__ = ("_key", "_text")
    kind = ""

    def _notation(self) -> str:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._key == self._key  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._key)

    def __str__(self) -> str:
        if self._text is None:
            self._text = self._notation()
        return self._text

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __reduce__(self):
        return (parse_action, (str(self),))


class Take(Action):
    """SW-4.1: take the free pyramid card at `index` (notation `take R-C`)."""

    __slots__ = ("index",)
    kind = "take"

    def __init__(self, index: int):
        self.index = self._key = index
        self._text = None

    def _notation(self) -> str:
        r, c = POS[self.index]
        return f"take {r}-{c}"


class Discard(Action):
    """SW-4.2: discard hand cards face down (notation `discard 4S X2`)."""

    __slots__ = ("cards",)
    kind = "discard"

    def __init__(self, cards: tuple[Card, ...]):
        self.cards = self._key = cards
        self._text = None

    def _notation(self) -> str:
        return "discard " + " ".join(c.name for c in self.cards)


class Slide(Action):
    """SW-4.3a: build the slide of line `line` (1-4) from `pieces` (notation `slide 2 KD X1=1`)."""

    __slots__ = ("line", "pieces")
    kind = "slide"

    def __init__(self, line: int, pieces: tuple[Piece, ...]):
        self.line = line
        self.pieces = pieces
        self._key = (line, pieces)
        self._text = None

    def _notation(self) -> str:
        return f"slide {self.line} " + " ".join(p._text for p in self.pieces)


class River(Action):
    """SW-4.3b: start or extend the lazy river; pieces in ascending rank (notation `river 8S 9S X1=T`)."""

    __slots__ = ("pieces",)
    kind = "river"

    def __init__(self, pieces: tuple[Piece, ...]):
        self.pieces = self._key = pieces
        self._text = None

    def _notation(self) -> str:
        return "river " + " ".join(p._text for p in self.pieces)


class Pool(Action):
    """SW-4.3c: start or extend the wave pool (notation `pool 7H 2H X1=H`)."""

    __slots__ = ("pieces",)
    kind = "pool"

    def __init__(self, pieces: tuple[Piece, ...]):
        self.pieces = self._key = pieces
        self._text = None

    def _notation(self) -> str:
        return "pool " + " ".join(p._text for p in self.pieces)


class Theme(Action):
    """SW-4.3d: place a hand card face down as the theme (notation `theme 3H`)."""

    __slots__ = ("card",)
    kind = "theme"

    def __init__(self, c: Card):
        self.card = self._key = c
        self._text = None

    def _notation(self) -> str:
        return f"theme {self.card.name}"


class Pass(Action):
    """SW-4.5: pass (only when nothing else is legal)."""

    __slots__ = ()
    kind = "pass"

    def __init__(self):
        self._key = ()
        self._text = None

    def _notation(self) -> str:
        return "pass"


TAKES: tuple[Take, ...] = tuple(Take(i) for i in range(PYRAMID_SIZE))
THEMES: tuple[Theme, ...] = tuple(Theme(c) for c in ALL_CARDS)
PASS = Pass()
# The one-card discards, rivers and pools, made once: a random game's hands hold one to
# three cards, so most of the actions its hands offer are of one card.
DISCARD_ONE: tuple[Discard, ...] = tuple(Discard((c,)) for c in ALL_CARDS)
RIVER_ONE: tuple[River, ...] = tuple(River((p,)) for p in PLAIN)
POOL_ONE: tuple[Pool, ...] = tuple(Pool((p,)) for p in PLAIN)
SLIDE_ONE: tuple[tuple[Slide, ...], ...] = tuple(tuple(Slide(k, (p,)) for p in PLAIN) for k in range(1, 5))


# -- parsing ---------------------------------------------------------------------
def _parse_card(text: str, where: str) -> Card:
    try:
        return card(text)
    except BadNotation:
        raise BadNotation(Reason("seven_waters.notation.not_a_card", where=where, card=text)) from None


def _parse_piece(token: str, kind: str, where: str) -> Piece:
    """A card token of a building action; a joker needs `=declaration`, other cards none."""
    name, eq, decl = token.partition("=")
    c = _parse_card(name, where)
    if not c.is_joker:
        if eq:
            # the token as its card's canonical name, which every language can word as a card
            # (as a declared discard's refusal does)
            raise BadNotation(Reason("seven_waters.notation.declared_plain", where=where,
                                     token=f"{c.name}={decl.upper()}", card=c.name))
        return PLAIN[c.index]
    if not eq or not decl.strip():
        example = {"slide": "7", "river": "Q", "pool": "H"}[kind]
        raise BadNotation(Reason("seven_waters.notation.undeclared", where=where, card=c.name, example=example))
    d = decl.strip().upper()
    if kind == "slide":
        v = {"A": 1, "T": 10}.get(d) or ascii_number(d)
        if v is None or not 1 <= v <= 10:
            raise BadNotation(Reason("seven_waters.notation.slide_joker", where=where, decl=decl))
        return SLIDE_JOKER[(c.index, v)]
    if kind == "river":
        if d == "10":
            d = "T"
        if len(d) != 1 or d not in RANKS:
            raise BadNotation(Reason("seven_waters.notation.river_joker", where=where, decl=decl))
        return RIVER_JOKER[(c.index, RANKS.index(d) + 1)]
    if len(d) != 1 or d not in SUITS:
        raise BadNotation(Reason("seven_waters.notation.pool_joker", where=where, decl=decl))
    return POOL_JOKER[(c.index, d)]


def parse_action(text: str) -> Action:
    """Parse Seven Waters notation (case-insensitive, extra spaces tolerated); BadNotation if unparsable."""
    if not isinstance(text, str):
        raise BadNotation(Reason("seven_waters.notation.not_text", text=repr(text)))
    words = text.replace(",", " ").split()
    if not words:
        raise BadNotation(Reason("seven_waters.notation.empty"))
    verb, args = words[0].lower(), words[1:]
    if verb == "pass":
        if args:
            raise BadNotation(Reason("seven_waters.notation.pass_alone", text=text))
        return PASS
    if verb == "take":
        spot = "".join(args)
        r, dash, c = spot.partition("-")
        row, column = ascii_number(r), ascii_number(c)
        if not dash or row is None or column is None:
            raise BadNotation(Reason("seven_waters.notation.take", text=text))
        i = INDEX.get((row, column))
        if i is None:
            raise BadNotation(Reason("seven_waters.notation.take_where", text=text))
        return TAKES[i]
    if verb == "theme":
        if len(args) != 1:
            raise BadNotation(Reason("seven_waters.notation.theme", text=text))
        if "=" in args[0]:
            raise BadNotation(Reason("seven_waters.notation.theme_declared", text=text))
        return THEMES[_parse_card(args[0], text.strip()).index]
    if verb == "discard":
        if not args:
            raise BadNotation(Reason("seven_waters.notation.discard", text=text))
        cards = []
        for a in args:
            name, eq, decl = a.partition("=")
            c = _parse_card(name, text.strip())  # no card ('ZZ=3', '=3') is said so, as in a slide
            if eq:
                # the token as its card's canonical name, which every language can word as a
                # card (`{token:card}`: B♣=3 in German); the typed token may be no card name
                raise BadNotation(Reason("seven_waters.notation.discard_declared", text=text,
                                         token=f"{c.name}={decl.upper()}"))
            cards.append(c)
        return Discard(tuple(cards))
    if verb == "slide":
        line = ascii_number(args[0]) if args else None
        if len(args) < 2 or line is None or not 1 <= line <= 4:
            raise BadNotation(Reason("seven_waters.notation.slide", text=text))
        return Slide(line, tuple(_parse_piece(a, "slide", text.strip()) for a in args[1:]))
    if verb == "river":
        if not args:
            raise BadNotation(Reason("seven_waters.notation.river", text=text))
        pieces = [_parse_piece(a, "river", text.strip()) for a in args]
        pieces.sort(key=piece_rank)  # canonical: ascending rank (stable for equal ranks)
        return River(tuple(pieces))
    if verb == "pool":
        if not args:
            raise BadNotation(Reason("seven_waters.notation.pool", text=text))
        return Pool(tuple(_parse_piece(a, "pool", text.strip()) for a in args))
    raise BadNotation(Reason("seven_waters.notation.unknown", text=text, verb=words[0]))
