"""Wasserloch actions: play `count` cards of one value (notation `7x2`, `Ax3`)."""

from __future__ import annotations

from ...core.errors import BadNotation
from ...core.messages import Reason
from ...core.notation import ascii_number

VALUES = "A2345678"  # value index 0..7: ace (1, weakest) … 8 (strongest)
HAND_LIMIT = 5
MAX_COUNT = 8  # eight cards of each value exist
MAX_SEATS = 4
# A hand is one int (state.py): the count of value index v in bits 3v … 3v+2 (a hand holds
# at most 5 cards, so no count reaches 8 and the whole hand stays below 2**24)
VALUE_BITS = 3
VALUE_MASK = (1 << VALUE_BITS) - 1  # one value's count, once shifted down


class Play:
    """Play `count` cards of value index `value` (0 = ace … 7 = eight); interned."""

    __slots__ = ("value", "count", "_text", "index", "entries", "shift", "bits", "field", "swaps", "swaps2")

    def __init__(self, value: int, count: int):
        self.value = value
        self.count = count
        self._text = f"{VALUES[value]}x{count}"
        self.index = value * (MAX_COUNT + 1) + count  # PLAYS[value][count], flattened
        # where the value's count lies in a packed hand, and what the play takes from it
        self.shift = VALUE_BITS * value
        self.bits = count << self.shift
        # the value's whole count in a packed hand: the hand holds the play's cards exactly
        # when `hand & field >= bits` (no shift back down: the checked `apply` asks it every play)
        self.field = VALUE_MASK << self.shift
        # swaps[w]: the change of a packed hand that plays this and draws one card of value
        # index w (WL-4.4), made once: a play of one card from a full hand is one addition
        self.swaps = tuple((1 << (VALUE_BITS * w)) - self.bits for w in range(len(VALUES)))
        # swaps2[w][x]: the same for a play that draws two cards, of value indices w and x (a
        # play of two from a full hand: a fifth of a round's plays)
        self.swaps2 = tuple(tuple((1 << (VALUE_BITS * w)) + (1 << (VALUE_BITS * x)) - self.bits
                                  for x in range(len(VALUES))) for w in range(len(VALUES)))
        # the history entry (seat, play, False) of this play by seat 0 … 3, made once:
        # the engine appends one per action
        self.entries = tuple((seat, self, False) for seat in range(MAX_SEATS))

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Play({self._text})"

    def __reduce__(self):
        return (play, (self.value, self.count))


# PLAYS[value][count]: every play that can ever exist, built once (no allocation on the hot path).
PLAYS: tuple[tuple[Play | None, ...], ...] = tuple(
    (None,) + tuple(Play(v, n) for n in range(1, MAX_COUNT + 1)) for v in range(len(VALUES))
)


def play(value: int, count: int) -> Play:
    """The interned play of `count` cards of value index `value`."""
    return PLAYS[value][count]


def value_index(text: str) -> int:
    """'A'/'1' … '8' → 0 … 7."""
    t = text.strip().upper()
    if t == "1":
        t = "A"
    if len(t) != 1 or t not in VALUES:
        raise BadNotation(Reason("wasserloch.notation.value", text=text))
    return VALUES.index(t)


def parse_action(text: str) -> Play:
    """Parse `7x2` (case-insensitive, spaces tolerated; `1` means ace)."""
    if not isinstance(text, str):
        raise BadNotation(Reason("wasserloch.notation.not_text", text=repr(text)))
    t = "".join(text.split()).upper()
    value, sep, count = t.partition("X")
    if not sep or not value or not count:
        raise BadNotation(Reason("wasserloch.notation.form", text=text))
    v = value_index(value)
    n = ascii_number(count)
    if n is None or not 1 <= n <= MAX_COUNT:
        raise BadNotation(Reason("wasserloch.notation.count", text=text, most=MAX_COUNT))
    return PLAYS[v][n]
