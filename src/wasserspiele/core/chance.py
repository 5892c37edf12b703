"""Chance as explicit outcomes: read from a record's setup, or drawn from a seeded
generator and written into the setup, so a record replays with no generator at all.

Every draw declares its distribution (`Shuffle`, `Uniform`, `UnitInterval`), so
adapters and search can enumerate or sample outcomes without knowing how a game
shuffles and without touching `random`'s internals (OpenSpiel's `chance_outcomes`)."""

from __future__ import annotations

import _random
import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, Callable, Iterator, Sequence

from .errors import BadOption, ChanceExhausted
from .messages import Reason

# An elementary chance node: given the probabilities of its outcomes, the index chosen.
# A chooser may also have `announce(dist)`, called before each draw it answers, to see
# the draw's nodes ahead (`Distribution.node_plan`).
Chooser = Callable[[Sequence[float]], int]


class Distribution(ABC):
    """What one chance draw draws.

    `sample(rng)` is how the engines draw from a seeded generator (it consumes the
    generator exactly as the games always have, so a seed deals what it always dealt);
    `build(choose)` makes the same distribution out of elementary nodes, each a choice
    among a few weighted outcomes, for callers that pick outcomes themselves."""

    __slots__ = ()
    what: str = "outcome"  # how error messages name one outcome

    @abstractmethod
    def sample(self, rng: random.Random) -> Any:
        """An outcome drawn from `rng`."""

    @abstractmethod
    def build(self, choose: Chooser) -> Any:
        """An outcome assembled from elementary chance nodes answered by `choose`."""

    def largest_node(self) -> int:
        """The most outcomes any elementary node of `build` has."""
        return 0

    def to_record(self, outcome: Any) -> Any:
        """`outcome` as a record writes it (records.md); the outcome itself unless the
        distribution draws its outcomes in a game's own form (`Shuffle(..., indices=True)`)."""
        return outcome

    def from_record(self, written: Any) -> Any:
        """An outcome as a record writes it, in the form `sample` and `build` give."""
        return written

    def node_plan(self) -> list[list[float]]:
        """The probabilities of every elementary node `build` asks, in order.  A chooser
        can read a whole draw ahead (OpenSpiel's adapter answers a 64-card shuffle's 63
        nodes without re-running the game after each); every distribution here asks the
        same nodes whatever the answers, as any new one must."""
        nodes: list[list[float]] = []

        def record(probabilities) -> int:
            nodes.append(list(probabilities))
            return next(k for k, p in enumerate(probabilities) if p > 0)

        self.build(record)
        return nodes


class Shuffle(Distribution):
    """A uniformly random order of `items` (a shuffled deck).

    With `indices=True` (distinct, hashable items) an outcome is that order as positions
    in `items`, a permutation of `range(len(items))` drawn exactly as the items would be:
    a game that works with card numbers gets them from the draw instead of turning names
    into numbers at every deal, and a chance stream it declares with `Chance.record_as`
    is written with the items themselves wherever its setup is read (records hold names)."""

    __slots__ = ("items", "what", "indices", "_start", "_position", "_shuffle")

    def __init__(self, items: Sequence[Any], what: str = "deck", indices: bool = False):
        self.items = tuple(items)
        self.what = what
        self.indices = indices
        self._start = tuple(range(len(self.items))) if indices else self.items  # what is shuffled
        self._position: dict[Any, int] | None = None
        if indices:
            self._position = {x: i for i, x in enumerate(self.items)}
            if len(self._position) != len(self.items):
                raise ValueError("a shuffle of indices needs distinct items (a position must name one item)")
        # the deck's shuffle written out now, not in a deal, and kept: a deal calls it
        # directly (shuffle_like_random's look-up was a Python call more per deal)
        self._shuffle = _unrolled(len(self.items)) if len(self.items) <= _MAX_UNROLLED else None

    def __reduce__(self):
        # made again from what it was made of (a pickled game's chance names its Shuffle in
        # `recorded`; the written-out shuffle is a function of no module, made anew)
        return (Shuffle, (self.items, self.what, self.indices))

    def sample(self, rng: random.Random) -> list[Any]:
        deck = list(self._start)
        shuffle = self._shuffle
        if shuffle is not None and type(rng) is random.Random:
            shuffle(deck, rng.getrandbits)  # shuffle_like_random: random.shuffle's draws
        else:  # a generator of its own kind shuffles its own way; a longer deck as random.shuffle
            rng.shuffle(deck)
        return deck

    def build(self, choose: Chooser) -> list[Any]:
        # Fisher-Yates from the end, as random.shuffle: node k chooses among k + 1
        deck = list(self._start)
        for i in reversed(range(1, len(deck))):
            j = choose([1.0 / (i + 1)] * (i + 1))
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    def largest_node(self) -> int:
        return len(self.items)

    def to_record(self, outcome: list[Any]) -> list[Any]:
        if not self.indices:
            return outcome
        items = self.items
        return [items[i] for i in outcome]

    def from_record(self, written: Sequence[Any]) -> list[Any]:
        if not self.indices:
            return written
        position = self._position
        try:
            return [position[x] for x in written]
        except (KeyError, TypeError):  # a game's validate_setup refuses these first, in words
            raise ValueError(f"not an order of the {self.what}'s items: {written!r}") from None


class Uniform(Distribution):
    """One of `items`, each equally likely (the next card of a deck, a die face)."""

    __slots__ = ("items", "what", "n", "bits")

    def __init__(self, items: Sequence[Any], what: str = "outcome"):
        if not items:
            raise ValueError("a uniform draw needs at least one outcome")
        self.items = items
        self.what = what
        # `Chance.draw_uniform` draws as randrange(n) does, getrandbits(bits) until below n
        # (kept, not worked out at each roll; the items are not changed once drawn from)
        self.n = n = len(items)
        self.bits = n.bit_length()

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        """(`n` and `bits` follow the items: a pickle made before they were kept lacks them.)"""
        slots = state[1]
        self.__init__(slots["items"], slots["what"])

    def sample(self, rng: random.Random) -> Any:
        return self.items[rng.randrange(len(self.items))]

    def build(self, choose: Chooser) -> Any:
        n = len(self.items)
        return self.items[choose([1.0 / n] * n)]

    def largest_node(self) -> int:
        return len(self.items)


class UnitInterval(Distribution):
    """A uniform number in [0, 1) that the game only compares with `cuts` (a check
    `x < p`): `build` chooses an interval between cuts with its length as probability
    and answers its midpoint, which every comparison treats like any point of it."""

    __slots__ = ("cuts", "what")

    def __init__(self, cuts: Sequence[float], what: str = "number"):
        self.cuts = tuple(sorted(c for c in cuts if 0.0 < c < 1.0))
        self.what = what

    def _intervals(self) -> list[tuple[float, float]]:
        points = (0.0, *self.cuts, 1.0)
        return list(zip(points, points[1:]))

    def sample(self, rng: random.Random) -> float:
        return rng.random()

    def build(self, choose: Chooser) -> float:
        intervals = self._intervals()
        a, b = intervals[choose([b - a for a, b in intervals])]
        return (a + b) / 2

    def largest_node(self) -> int:
        return len(self.cuts) + 1


def make_rng(seed: int | None) -> random.Random:
    """A private generator; `None` seeds it from the operating system.

    A seed is a whole number from 0 up.  random.Random seeds with an integer's absolute
    value, so seed -5 would deal seed 5's game: a negative seed is refused (BadOption,
    in the reader's language) rather than mapped to a game of its own, because any
    mapping would take the game of some seed from 0 up, and those deal what they always
    dealt (saved games, the committed traces and reports name them).  numpy's
    generators, Gymnasium and the kernels' `fast.mt_seed` take no negative seed either;
    `derive_seed` tells a negative master seed from its positive twin and gives seeds
    from 0 up."""
    if isinstance(seed, int) and seed < 0:
        raise BadOption(Reason("seed.negative", seed=seed))
    if type(seed) is not int:
        return random.Random(seed)
    # random.Random(seed) without its two Python frames (__init__, seed): for an int,
    # Random.seed hands it to the C generator's seed as it is and clears gauss_next, so
    # the generator is the same (tests/test_chance.py); a new game is dealt about 10k
    # times a second in random playouts
    rng = _new_random(random.Random)
    _seed_random(rng, seed)
    rng.gauss_next = None
    return rng


_new_random = random.Random.__new__
_seed_random = _random.Random.seed  # the C generator's own seed, which Random.seed calls


class Chance:
    """Streams of chance outcomes keyed by the setup field they belong to.

    Each stream (`"decks"`, `"dice"`, …) is a list in `streams`.  `draw(key, dist)`
    returns the next unread outcome of that stream; when the stream is used up it
    draws one from `dist` and appends it, so the streams always hold every outcome the
    game has seen.  New outcomes come from `chooser` when one is set (a caller that
    picks chance outcomes itself, as OpenSpiel does), else from the generator `rng`.
    With neither, an exhausted stream is an error: a strict replay must not invent
    outcomes.

    A stream holds its outcomes in one form, the one its draws return.  `setup` and
    `used_setup()` are the streams as a record holds them (records.md): the same, except
    for a stream the game declared with `record_as` (outcomes drawn as card numbers,
    written as card names), which they write in the record's form as they are read.
    """

    __slots__ = ("streams", "_read", "rng", "chooser", "recorded")

    def __init__(self, setup: dict[str, list[Any]] | None = None, rng: random.Random | None = None):
        self.streams: dict[str, list[Any]] = {k: list(v) for k, v in setup.items()} if setup else {}
        self._read: dict[str, int] = {}
        self.rng = rng
        self.chooser: Chooser | None = None
        # per stream declared with record_as, the distribution that writes its outcomes as a
        # record does; replaced, never changed in place, so clones share it
        self.recorded: dict[str, Distribution] = {}

    @property
    def setup(self) -> Mapping[str, list[Any]]:
        """Every stream's outcomes as a record holds them, drawn or not yet drawn (what a
        record of an unfinished game writes, `core.records`).  Without `record_as` streams
        this is `streams` itself; with them, a read-only view of `streams` that writes the
        declared streams in the record's form each time one is read (a blind copy's None
        stays None)."""
        if not self.recorded:
            return self.streams
        return _RecordedSetup(self.streams, self.recorded)

    @property
    def strict(self) -> bool:
        """True when an exhausted stream is an error (nothing can invent outcomes)."""
        return self.rng is None and self.chooser is None

    def draw(self, key: str, dist: Distribution) -> Any:
        """The next outcome of stream `key`, distributed as `dist`."""
        stream = self.streams.setdefault(key, [])
        i = self._read.get(key, 0)
        if i >= len(stream):
            if self.chooser is not None:
                announce = getattr(self.chooser, "announce", None)
                if announce is not None:  # a chooser that reads a whole draw ahead
                    announce(dist)
                stream.append(dist.build(self.chooser))
            elif self.rng is not None:
                stream.append(dist.sample(self.rng))
            else:
                what = dist.what
                # records.md: a malformed document is refused in the reader's language; the
                # word for one outcome is a catalogue term (`record.what.die_roll`)
                raise ChanceExhausted(Reason("record.chance_exhausted", stream=key, n=len(stream),
                                             what=what.replace(" ", "_"), number=i + 1))
        self._read[key] = i + 1
        return stream[i]

    def draw_uniform(self, key: str, dist: Uniform) -> Any:
        """`draw(key, dist)` for a `Uniform` (a die roll), its commonest case taken here: a
        new outcome from a plain `random.Random` (no chooser, no outcome of the stream
        unread), drawn as `Uniform.sample`'s `randrange` draws it (the same `getrandbits`
        calls, as `draw_order` does) without `draw`'s generic path and the three Python
        calls under it; a game rolls a die about twenty times a playout.  Anything else
        (a record's outcomes, a chooser, another generator, a stream not begun, a chance
        of a kind of its own, whose `draw` may do more: the environments' counting one)
        goes through `draw`."""
        stream = self.streams.get(key)
        rng = self.rng
        if stream is not None and type(rng) is random.Random and type(self) is Chance \
                and self.chooser is None:
            read = self._read
            i = read.get(key, 0)
            if i == len(stream):
                n = dist.n
                k = dist.bits  # random._randbelow_with_getrandbits, as randrange(n) calls it
                r = rng.getrandbits(k)
                while r >= n:
                    r = rng.getrandbits(k)
                x = dist.items[r]
                stream.append(x)
                read[key] = i + 1
                return x
        return self.draw(key, dist)

    def draw_order(self, key: str, items: Sequence[Any], what: str = "outcome") -> list[Any]:
        """All of `items` (distinct) in the order of successive draws from stream `key`,
        each one outcome of the stream drawn uniformly from the items not drawn yet: what
        `draw(key, Uniform(remaining, what))` item by item gives (a dealt deck, WW-2.1's
        tiles).  A fresh stream drawn from a plain `random.Random` is drawn here in one
        loop, consuming the generator exactly as `randrange` would: a fifth of setting
        up a Seven Waters game went into the calls of the item-by-item draw."""
        rng = self.rng
        if type(rng) is random.Random and self.chooser is None and not self.streams.get(key) \
                and not self._read.get(key):
            remaining = list(items)
            n = len(remaining)
            if n <= _MAX_UNROLLED:
                out = (_UNROLLED_ORDER.get(n) or _unrolled_order(n))(remaining, rng.getrandbits)
            else:
                out = []
                getrandbits = rng.getrandbits
                for n in range(n, 0, -1):
                    k = n.bit_length()  # random._randbelow_with_getrandbits, as randrange(n) calls it
                    r = getrandbits(k)
                    while r >= n:
                        r = getrandbits(k)
                    out.append(remaining.pop(r))
            self.streams[key] = out.copy()
            self._read[key] = len(out)
            return out
        remaining = list(items)
        out = []
        for _ in range(len(remaining)):
            x = self.draw(key, Uniform(remaining, what))
            remaining.remove(x)
            out.append(x)
        return out

    def respell(self, key: str, canonical: Callable[[Any], Any]) -> None:
        """Write every outcome of stream `key` as `canonical(outcome)` says: a game whose
        setup accepts other spellings of an outcome (records.md: a record may write `TH`
        as `10h`) calls it once as it sets up, so its draws see and the setup written back
        holds the canonical names.  `canonical` must return an outcome it does not know
        (a blind copy's None) unchanged.  A stream declared with `record_as` is respelt
        before the declaration (`canonical` reads the record's form)."""
        if key in self.recorded:
            raise ValueError(f"stream {key!r} is held in the game's form: respell it before record_as")
        stream = self.streams.get(key)
        if stream:
            self.streams[key] = [canonical(x) for x in stream]

    def record_as(self, key: str, dist: Distribution) -> None:
        """Stream `key` holds `dist`'s outcomes in the form its draws give (a
        `Shuffle(names, indices=True)`: card numbers) and is written in a record's form
        (`dist.to_record`: the names) wherever the setup is read (`setup`, `used_setup`).
        A game declares it as it sets up, before the stream's first draw: the outcomes a
        record gave (validate_setup accepted them) are turned into the draws' form here,
        once, so the stream holds one form and no draw converts.  Declaring the same
        distribution again does nothing (clones and blind copies keep the declaration)."""
        recorded = self.recorded
        if not recorded and key not in self.streams:  # a game setting up without a record: nothing to convert
            self.recorded = {key: dist}
            return
        known = recorded.get(key)
        if known is dist:
            return
        if known is not None:
            raise ValueError(f"stream {key!r} is already recorded by another distribution")
        stream = self.streams.get(key)
        if stream:
            from_record = dist.from_record
            self.streams[key] = [None if x is None else from_record(x) for x in stream]
        self.recorded = {**recorded, key: dist}

    def used(self, key: str) -> int:
        """How many outcomes of stream `key` have been drawn."""
        return self._read.get(key, 0)

    def used_setup(self) -> dict[str, list[Any]]:
        """The outcomes drawn so far, stream by stream (what a record must hold), in the
        record's form."""
        read = self._read
        out = {k: list(v[: read.get(k, 0)]) for k, v in self.streams.items()}
        for key, dist in self.recorded.items():
            drawn = out.get(key)
            if drawn:
                out[key] = _written(dist, drawn)
        return out

    def unread(self) -> dict[str, int]:
        """Per stream that holds outcomes not drawn yet, how many: the outcomes of a record's
        setup still ahead of the game (what a generator or chooser adds is drawn at once, so
        only a setup given to the game can leave any)."""
        return {k: len(v) - self._read.get(k, 0) for k, v in self.streams.items()
                if len(v) > self._read.get(k, 0)}

    def clone(self) -> "Chance":
        """An independent copy sharing the generator (clones in search reseat it)."""
        c = Chance.__new__(Chance)
        c.streams = {k: list(v) for k, v in self.streams.items()}
        c._read = dict(self._read)
        c.rng = self.rng
        c.chooser = self.chooser
        c.recorded = self.recorded
        return c

    def blind(self, rng: random.Random) -> "Chance":
        """A copy that knows how many outcomes were drawn but not which, and invents
        every future outcome from `rng`.

        A sampled world (sample_world) uses it, so searching in it can neither read
        the true deck order nor the true future dice.
        """
        c = Chance.__new__(Chance)
        c.streams = {k: [None] * self._read.get(k, 0) for k in self.streams}
        c._read = dict(self._read)
        c.rng = rng
        c.chooser = None
        c.recorded = self.recorded
        return c


def _written(dist: Distribution, outcomes: list[Any]) -> list[Any]:
    """A stream's outcomes in the record's form (an unknown outcome, None, as it is)."""
    to_record = dist.to_record
    return [None if x is None else to_record(x) for x in outcomes]


class _WrittenStream(Sequence):
    """A declared stream as a record writes it, read-only: each outcome converted as it is
    read, the length without converting (the environments' counting chance reads a
    stream's length before and after every draw: converting the whole stream there made
    a counted Watten game's chance cost grow with the square of its deals)."""

    __slots__ = ("_stream", "_dist")

    def __init__(self, stream: list[Any], dist: Distribution):
        self._stream = stream
        self._dist = dist

    def __len__(self) -> int:
        return len(self._stream)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return _written(self._dist, self._stream[i])
        x = self._stream[i]
        return None if x is None else self._dist.to_record(x)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))


class _RecordedSetup(Mapping):
    """`Chance.setup` of a chance with `record_as` streams: its streams, read-only, each
    declared one written in the record's form as it is read (only the stream asked for is
    converted: the environments' counting chance reads a stream's length at every draw)."""

    __slots__ = ("_streams", "_recorded")

    def __init__(self, streams: dict[str, list[Any]], recorded: dict[str, Distribution]):
        self._streams = streams
        self._recorded = recorded

    def __getitem__(self, key: str) -> Sequence[Any]:
        stream = self._streams[key]
        dist = self._recorded.get(key)
        return list(stream) if dist is None else _WrittenStream(stream, dist)

    def __iter__(self) -> Iterator[str]:
        return iter(self._streams)

    def __len__(self) -> int:
        return len(self._streams)

    def __repr__(self) -> str:
        return repr(dict(self.items()))


# Per deck length n (up to 128), the shuffle with random.shuffle's steps written out as
# straight-line code, made once per length (a deck's when its `Shuffle` is made, as the
# game's module loads): a loop over the steps spent about a fifth of the shuffle's
# bytecodes on itself (the iteration, each step's unpacking, the jump back), and a new
# game shuffles its deck anew (a 64-card shuffle: 95k → 87k instructions)
_UNROLLED: dict[int, Callable[[list, Callable[[int], int]], None]] = {}
_MAX_UNROLLED = 128


def _unrolled(n: int) -> Callable[[list, Callable[[int], int]], None]:
    """`shuffle(x, getrandbits)`: Fisher-Yates of the `n` items of x from the end, as
    random.shuffle takes its steps: at position i, j = random._randbelow(i + 1), by
    rejection sampling from getrandbits((i + 1).bit_length()), then items i and j swap."""
    shuffle = _UNROLLED.get(n)
    if shuffle is None:
        lines = ["def shuffle(x, getrandbits):", " pass"]
        for i in range(n - 1, 0, -1):
            k = (i + 1).bit_length()
            lines += [f" j = getrandbits({k})", f" while j > {i}:", f"  j = getrandbits({k})",
                      f" x[{i}], x[j] = x[j], x[{i}]"]
        shuffle = _UNROLLED[n] = _compiled(lines, f"<shuffle of {n}>")
    return shuffle


def _compiled(lines: list[str], filename: str) -> Callable:
    """The one function the source `lines` define (the written-out draws above and below)."""
    namespace: dict[str, Any] = {}
    exec(compile("\n".join(lines), filename, "exec"), namespace)
    (function,) = (v for k, v in namespace.items() if k != "__builtins__")
    return function


# The same for `Chance.draw_order`: per number of items n, its draws written out (the loop
# spent half of a 24-tile draw on itself and on `bit_length`, once per new game)
_UNROLLED_ORDER: dict[int, Callable[[list, Callable[[int], int]], list]] = {}


def _unrolled_order(n: int) -> Callable[[list, Callable[[int], int]], list]:
    """`order(x, getrandbits)`: the n items of x in the order `draw_order` draws them, x
    emptied: for n, n - 1, …, 1 items left, r = random._randbelow(left) by rejection
    sampling from getrandbits(left.bit_length()), then the item at r is taken out."""
    order = _UNROLLED_ORDER.get(n)
    if order is None:
        lines = ["def order(x, getrandbits):", " take = x.pop"]
        for i, left in enumerate(range(n, 0, -1)):
            k = left.bit_length()
            lines += [f" r = getrandbits({k})", f" while r >= {left}:", f"  r = getrandbits({k})",
                      f" a{i} = take(r)"]
        lines.append(f" return [{', '.join(f'a{i}' for i in range(n))}]")
        order = _UNROLLED_ORDER[n] = _compiled(lines, f"<draw order of {n}>")
    return order


def shuffle_like_random(items: list, rng: random.Random) -> None:
    """`rng.shuffle(items)` exactly (the same draws from the generator, the same order),
    with CPython's per-card `_randbelow` call inlined and the steps written out
    (`_unrolled`); lists of more than 128 items (no game's deck) by random.shuffle itself."""
    n = len(items)
    shuffle = _UNROLLED.get(n)
    if shuffle is None:
        if n > _MAX_UNROLLED:
            rng.shuffle(items)
            return
        shuffle = _unrolled(n)
    shuffle(items, rng.getrandbits)


def shuffle_fast(items: list, rng: random.Random) -> None:
    """Shuffle `items` in place uniformly: sorting by random keys runs in C and is
    about twice as fast as `random.shuffle` in CPython (search deals worlds often)."""
    items.sort(key=lambda _, r=rng.random: r())


def derive_seed(master: int, *parts: object) -> int:
    """A 63-bit seed from a master seed and a path of parts (stable across runs,
    processes and Python versions), so every game of a study or arena has its own."""
    text = ":".join(str(p) for p in (master, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1
