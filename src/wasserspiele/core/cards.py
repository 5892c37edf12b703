"""French playing cards and jokers, with the notation shared by the card games (records.md)."""

from __future__ import annotations

from typing import Iterable

from .errors import BadNotation
from .messages import Reason

RANKS = "A23456789TJQK"  # rank number = index + 1: A=1 … T=10, J=11, Q=12, K=13
SUITS = "CDHS"  # clubs, diamonds, hearts, spades
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
JOKERS = ("X1", "X2")


class Card:
    """A card: rank 1..13 and suit letter, or a joker (rank 0, suit '', name X1/X2).

    Instances are interned (one object per card), so identity and equality agree
    and cards are cheap to hash and copy.
    """

    __slots__ = ("rank", "suit", "name", "index")

    def __init__(self, rank: int, suit: str, name: str, index: int):
        self.rank = rank
        self.suit = suit
        self.name = name
        self.index = index  # 0..53: suit-major for the 52, then jokers

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    @property
    def rank_char(self) -> str:
        return RANKS[self.rank - 1] if self.rank else ""

    def pretty(self) -> str:
        """The card with a suit symbol: 'T♥', 'Joker 1'."""
        if self.is_joker:
            return "Jk" + self.name[1]
        return self.rank_char + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Card({self.name})"

    def __lt__(self, other: "Card") -> bool:
        return self.index < other.index

    def __reduce__(self):  # keep interning through pickling (process pools)
        return (card, (self.name,))


ALL_CARDS: tuple[Card, ...] = tuple(
    [Card(r + 1, s, RANKS[r] + s, i * 13 + r) for i, s in enumerate(SUITS) for r in range(13)]
    + [Card(0, "", j, 52 + k) for k, j in enumerate(JOKERS)]
)
_BY_NAME = {c.name: c for c in ALL_CARDS}


_SYMBOL_SUITS = str.maketrans({sym: letter for letter, sym in SUIT_SYMBOLS.items()})


def card(text: str) -> Card:
    """Parse a card: rank then suit ('TH', '10h', 'jc', 'T♥' as the board shows it), or a
    joker ('X1', or 'Jk1' as the board shows it); case-insensitive."""
    t = text.strip().upper().translate(_SYMBOL_SUITS)
    if t.startswith("10"):
        t = "T" + t[2:]
    elif t.startswith("JK"):
        t = "X" + t[2:]
    found = _BY_NAME.get(t)
    if found is None:
        raise BadNotation(Reason("cards.not_a_card", text=text))
    return found


def cards(texts: Iterable[str]) -> list[Card]:
    """Parse several cards."""
    return [card(t) for t in texts]


def deck(ranks: str = RANKS, jokers: int = 0) -> list[Card]:
    """A sorted deck of the given ranks in all four suits, plus `jokers` jokers."""
    return [c for c in ALL_CARDS if c.rank and c.rank_char in ranks] + list(ALL_CARDS[52:52 + jokers])
