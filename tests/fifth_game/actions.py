"""Pebbles actions: `play N`, interned."""

from __future__ import annotations

from wasserspiele.core.errors import BadNotation

from .manifest import PEBBLES


class Play:
    """Place pebble `n` (PB-3.1)."""

    __slots__ = ("n",)

    def __init__(self, n: int):
        self.n = n

    def __str__(self) -> str:
        return f"play {self.n}"

    __repr__ = __str__

    def __reduce__(self):  # interned: a pickled or deep-copied state holds the same objects
        return (parse_action, (str(self),))


PLAYS = {n: Play(n) for n in range(1, PEBBLES + 1)}


def parse_action(text: str) -> Play:
    words = text.split() if isinstance(text, str) else []
    if len(words) != 2 or words[0].lower() != "play" or not words[1].isdigit() or int(words[1]) not in PLAYS:
        raise BadNotation(f"{text!r}: expected play N with N from 1 to {PEBBLES}")
    return PLAYS[int(words[1])]
