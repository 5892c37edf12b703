"""Chance as explicit outcomes: read from a record's setup, or drawn from a seeded
generator and written into the setup, so a record replays with no generator at all."""

from __future__ import annotations

import hashlib
import random
from typing import Any, Callable

from .errors import ChanceExhausted


def make_rng(seed: int | None) -> random.Random:
    """A private generator; `None` seeds it from the operating system."""
    return random.Random(seed)


class Chance:
    """Streams of chance outcomes keyed by the setup field they belong to.

    Each stream (`"decks"`, `"dice"`, …) is a list in `setup`.  `draw(key, make)`
    returns the next unread outcome of that stream; when the stream is used up it
    calls `make(rng)` and appends the result, so `setup` always holds every
    outcome the game has seen.  Without a generator an exhausted stream is an
    error: a strict replay must not invent outcomes.
    """

    __slots__ = ("setup", "_read", "rng")

    def __init__(self, setup: dict[str, list[Any]] | None = None, rng: random.Random | None = None):
        self.setup: dict[str, list[Any]] = {k: list(v) for k, v in (setup or {}).items()}
        self._read: dict[str, int] = {}
        self.rng = rng

    def draw(self, key: str, make: Callable[[random.Random], Any], what: str = "outcome") -> Any:
        """The next outcome of stream `key`."""
        stream = self.setup.setdefault(key, [])
        i = self._read.get(key, 0)
        if i >= len(stream):
            if self.rng is None:
                raise ChanceExhausted(
                    f"setup.{key} has {len(stream)} {what}(s) but the game needs {what} number {i + 1}"
                )
            stream.append(make(self.rng))
        self._read[key] = i + 1
        return stream[i]

    def used(self, key: str) -> int:
        """How many outcomes of stream `key` have been drawn."""
        return self._read.get(key, 0)

    def used_setup(self) -> dict[str, list[Any]]:
        """The outcomes drawn so far, stream by stream (what a record must hold)."""
        return {k: list(v[: self._read.get(k, 0)]) for k, v in self.setup.items()}

    def clone(self) -> "Chance":
        """An independent copy sharing the generator (clones in search reseat it)."""
        c = Chance.__new__(Chance)
        c.setup = {k: list(v) for k, v in self.setup.items()}
        c._read = dict(self._read)
        c.rng = self.rng
        return c

    def blind(self, rng: random.Random) -> "Chance":
        """A copy that knows how many outcomes were drawn but not which, and invents
        every future outcome from `rng`.

        A sampled world (sample_world) uses it, so searching in it can neither read
        the true deck order nor the true future dice.
        """
        c = Chance.__new__(Chance)
        c.setup = {k: [None] * self._read.get(k, 0) for k in self.setup}
        c._read = dict(self._read)
        c.rng = rng
        return c


def shuffle_fast(items: list, rng: random.Random) -> None:
    """Shuffle `items` in place uniformly: sorting by random keys runs in C and is
    about twice as fast as `random.shuffle` in CPython (search deals worlds often)."""
    items.sort(key=lambda _, r=rng.random: r())


def derive_seed(master: int, *parts: object) -> int:
    """A 63-bit seed from a master seed and a path of parts (stable across runs,
    processes and Python versions), so every game of a study or arena has its own."""
    text = ":".join(str(p) for p in (master, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1
