"""The shared machinery of the per-game codecs: a fixed-size action space and a
float32 observation vector of one seat's view, with a layout that documents itself.

A codec's reference encoding reads only what the public protocol gives: the acting
seat's `view` (JSON data), the legal actions and their notation (`str(action)`), so the
same encoding serves environments, bots and recorded games alike.  The environments
take a faster path where a codec has one: `observe_state` and `legal_map_state` read
the engine's state directly and give the same vectors and maps.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from ...core.errors import BadNotation
from ...core.protocol import Action, Game


class EncodingError(ValueError):
    """A view or an action the codec cannot encode; the message says what was wrong."""


# The range assumed for a multi-hot or scalar segment whose codec declares none (the
# four games' codecs declare every one; a new game's codec may start without): every
# such value is a count or a number scaled to about [0, 1], never near these.  One-hots,
# flags and padding always have their exact range.
LOOSE_LOW, LOOSE_HIGH = -1.0, 100.0


class Vec:
    """Builds one observation vector segment by segment; optionally records the layout."""

    __slots__ = ("data", "segments", "ranges")

    def __init__(self, record: bool = False):
        self.data: list[float] = []
        self.segments: list[tuple[str, int, int, str]] | None = [] if record else None
        # per recorded segment, the (low, high) its values can take
        self.ranges: list[tuple[float, float]] | None = [] if record else None

    def _segment(self, name: str, size: int, meaning: str, low: float = LOOSE_LOW, high: float = LOOSE_HIGH) -> None:
        if self.segments is not None:
            self.segments.append((name, len(self.data), size, meaning))
            self.ranges.append((low, high))

    def onehot(self, name: str, value: Any, choices: Mapping[Any, int], meaning: str = "") -> None:
        """A one-hot over `choices` (value → position); a value outside them is an error."""
        if self.segments is not None:
            self._segment(name, len(choices), meaning or f"one-hot: {', '.join(map(str, choices))}", 0.0, 1.0)
        block = [0.0] * len(choices)
        i = choices.get(value)
        if i is None:
            raise EncodingError(f"{name}: {value!r} is not one of {', '.join(map(str, choices))}")
        block[i] = 1.0
        self.data += block

    def multihot(self, name: str, values: Iterable[Any], choices: Mapping[Any, int], meaning: str = "",
                 most: float | None = None) -> None:
        """1 for every value present (counts add up when a value repeats).  `most`: the
        highest count one value can reach (1 where the values are distinct items: an
        exact [0, 1] multi-hot); undeclared, the loose range."""
        if self.segments is not None:
            self._segment(name, len(choices), meaning or "multi-hot", *_declared(0.0, most, 1.0))
        block = [0.0] * len(choices)
        for v in values:
            i = choices.get(v)
            if i is None:
                raise EncodingError(f"{name}: {v!r} is not one of {', '.join(map(str, choices))}")
            block[i] += 1.0
        self.data += block

    def scalar(self, name: str, x: float | None, scale: float = 1.0, meaning: str = "",
               span: tuple[float, float] | None = None) -> None:
        """`x / scale` (0 for None).  `span`: the lowest and highest `x` the game allows,
        before scaling (the segment's bounds are span / scale); undeclared, the loose range."""
        if self.segments is not None:
            self._segment(name, 1, meaning or (f"value / {scale:g}" if scale != 1 else "value"),
                          *_declared(*(span or (None, None)), scale))
        self.data.append(0.0 if x is None else float(x) / scale)

    def scalars(self, name: str, xs: Sequence[float | None], scale: float = 1.0, meaning: str = "",
                span: tuple[float, float] | None = None) -> None:
        """`scalar` for several values of one kind (one `span` for them all)."""
        if self.segments is not None:
            self._segment(name, len(xs), meaning or (f"values / {scale:g}" if scale != 1 else "values"),
                          *_declared(*(span or (None, None)), scale))
        self.data += [0.0 if x is None else float(x) / scale for x in xs]

    def flag(self, name: str, x: Any, meaning: str = "") -> None:
        if self.segments is not None:
            self._segment(name, 1, meaning or "1 if true", 0.0, 1.0)
        self.data.append(1.0 if x else 0.0)

    def zeros(self, name: str, size: int, meaning: str) -> None:
        self._segment(name, size, meaning, 0.0, 0.0)
        self.data += [0.0] * size


def _declared(low: float | None, high: float | None, scale: float) -> tuple[float, float]:
    """A segment's (low, high): the raw range its codec declares over the scale, widened
    to hold 0 (what a None or an absent value encodes); the loose range if undeclared."""
    if high is None:
        return LOOSE_LOW, LOOSE_HIGH
    low, high = float(low or 0.0) / scale, float(high) / scale
    return min(low, 0.0, high), max(high, 0.0, low)  # a None (encoded 0) stays inside


def _seat(view: Mapping[str, Any]) -> list[int]:
    """[the observing seat], or [] for a spectator's view."""
    return [] if view["seat"] is None else [view["seat"]]


def index_of(items: Iterable[Any]) -> dict[Any, int]:
    """{item: position} for one-hot choices."""
    return {v: i for i, v in enumerate(items)}


def sparse(size: int, ones: list[int], at: list[int], values: list[float]) -> np.ndarray:
    """A float32 vector of zeros with 1 at `ones` and `values` at `at` (the direct
    encoders' output: most of a large observation is zeros, and filling a zero array
    beats converting a long list).  An index in `ones` must not repeat."""
    out = np.zeros(size, dtype=np.float32)
    out.put(ones, 1.0)  # put: about a third faster than indexing with lists
    out.put(at, values)
    return out


class Codec(ABC):
    """A game's fixed action space and observation encoding (one instance per Game)."""

    def __init__(self, game: Game):
        self.game = game
        self.players = game.players
        names = self._action_names()
        self.action_names: tuple[str, ...] = tuple(names)
        self.num_actions = len(self.action_names)
        probe = Vec(record=True)
        self._fill(game.new_game(seed=0).view(0), probe)
        self.obs_size = len(probe.data)
        self.layout: tuple[tuple[str, int, int, str], ...] = tuple(probe.segments or ())
        self._ranges = tuple(probe.ranges or ())

    # -- actions -------------------------------------------------------------
    @abstractmethod
    def _action_names(self) -> list[str]:
        """A name per index: the notation itself, or a pattern for hand-relative actions."""

    @abstractmethod
    def action_index(self, action: Action | str, view: Mapping[str, Any]) -> int:
        """The index of an action (or its notation) taken by the seat whose view this is."""

    def legal_map(self, legal: Sequence[Action], view: Mapping[str, Any]) -> dict[int, Action]:
        """{index: action} for the legal actions; two actions on one index is an error."""
        out: dict[int, Action] = {}
        for a in legal:
            i = self.action_index(a, view)
            if i in out:
                raise EncodingError(f"{self.game.name}: actions {out[i]} and {a} share index {i} "
                                    f"({self.action_names[i]})")
            out[i] = a
        return out

    def legal_map_state(self, state: Any, seat: int) -> dict[int, Action]:
        """`legal_map` of `seat`'s legal actions in `state`, without building a view
        where the codec's indices need none (the environments' path)."""
        view = state.view(seat) if self.actions_need_view else None
        return self.legal_map(state.legal_actions(seat), view)

    def mask_of(self, legal: Mapping[int, Action]) -> np.ndarray:
        """The int8 mask of a legal map's indices (`legal_map`, `legal_map_state`); a map
        with an `indices` array (the kernel's) gives it directly."""
        m = np.zeros(self.num_actions, dtype=np.int8)
        if legal:
            indices = getattr(legal, "indices", None)
            m[np.fromiter(legal, np.intp, len(legal)) if indices is None else indices] = 1  # a third of a list's time
        return m

    def mask(self, legal: Sequence[Action], view: Mapping[str, Any]) -> np.ndarray:
        """An int8 vector with 1 exactly at the indices of the legal actions."""
        m = np.zeros(self.num_actions, dtype=np.int8)
        for i in self.legal_map(legal, view):
            m[i] = 1
        return m

    def decode(self, index: int, legal: Sequence[Action], view: Mapping[str, Any]) -> Action:
        """The legal action an index stands for now; a clear error if none."""
        index = self.check_index(index)
        found = self.legal_map(legal, view).get(index)
        if found is None:
            allowed = ", ".join(str(a) for a in legal) or "none"
            raise EncodingError(f"{self.game.name}: action {index} ({self.action_names[index]}) is not "
                                f"legal now (legal: {allowed})")
        return found

    def _not_integer(self, index: Any) -> str:
        return f"{self.game.name}: {index!r} is not an action index: not an integer ({type(index).__name__})"

    def check_index(self, index: Any) -> int:
        """`index` as an int, refused unless it is an integer (Python's or numpy's, or a
        float with an integer value) in 0..num_actions-1."""
        # int() would take "3" and True, and quietly cut 1.5 to 1: none of them is an index
        if isinstance(index, (str, bytes, bool, np.bool_)) or getattr(index, "dtype", None) == np.bool_:
            raise EncodingError(self._not_integer(index))
        try:
            i = int(index)
        except (TypeError, ValueError, OverflowError):  # None, arrays, nan, inf
            raise EncodingError(self._not_integer(index)) from None
        if i != index:
            raise EncodingError(self._not_integer(index))
        if not 0 <= i < self.num_actions:
            raise EncodingError(f"{self.game.name}: action index {index!r} is outside 0..{self.num_actions - 1}")
        return i

    # -- observations --------------------------------------------------------
    @abstractmethod
    def _fill(self, view: Mapping[str, Any], vec: Vec) -> None:
        """Append the encoding of a view (always the same length for this game)."""

    def observe(self, view: Mapping[str, Any]) -> np.ndarray:
        """The view as a float32 vector of length `obs_size`.  A view of another game, or
        one lacking a part of this game's, is refused with an EncodingError, as the docs
        say of bad input: it was a KeyError (`'target'`), which `except ValueError` missed."""
        game = view.get("game") if isinstance(view, Mapping) else None
        if game != self.game.name:
            raise EncodingError(f"{self.game.name}: not a view of this game (its 'game' is {game!r})")
        vec = Vec()
        try:
            self._fill(view, vec)
        except (KeyError, IndexError, TypeError) as exc:
            raise EncodingError(f"{self.game.name}: the view is not one this game gives "
                                f"({type(exc).__name__}: {exc})") from exc
        if len(vec.data) != self.obs_size:
            raise EncodingError(f"{self.game.name}: encoding has {len(vec.data)} values, expected {self.obs_size}")
        return np.asarray(vec.data, dtype=np.float32)

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per value of the observation vector, the lowest and highest it can take: exact
        for one-hots, flags and padding, from the range each multi-hot (`most`) and scalar
        (`span`) segment declares, else the loose LOOSE_LOW…LOOSE_HIGH."""
        low = np.full(self.obs_size, LOOSE_LOW, dtype=np.float32)
        high = np.full(self.obs_size, LOOSE_HIGH, dtype=np.float32)
        for (_name, start, size, _meaning), (lo, hi) in zip(self.layout, self._ranges):
            low[start:start + size] = lo
            high[start:start + size] = hi
        return low, high

    # The environments' path.  A codec that can encode straight from a state (no JSON
    # view in between) overrides `observe_state` (or `_fill_state`); one that can find
    # its indices from the state overrides `legal_map_state`, and one whose indices do
    # not depend on the view (NotationCodec) sets `actions_need_view = False`.  Both
    # paths give equal vectors and maps (tests/adapters/test_codecs.py).
    actions_need_view = True

    def _fill_state(self, state: Any, seat: int, vec: Vec) -> None:
        self._fill(state.view(seat), vec)

    def observe_state(self, state: Any, seat: int) -> np.ndarray:
        """`observe(state.view(seat))`, encoded from the state where the codec can."""
        vec = Vec()
        self._fill_state(state, seat, vec)
        if len(vec.data) != self.obs_size:
            raise EncodingError(f"{self.game.name}: encoding has {len(vec.data)} values, expected {self.obs_size}")
        return np.asarray(vec.data, dtype=np.float32)

    def observe_states(self, state: Any, seats: Sequence[int]) -> list[np.ndarray]:
        """`observe_state` for several seats of one position (the parallel env's every
        step); a codec may encode what all of them see only once."""
        return [self.observe_state(state, seat) for seat in seats]

    def describe(self) -> str:
        """The observation layout as a Markdown table (docs/encodings.md).  A block of
        segments repeated for each field, slot or seat is one row per member: `a:b + s·j`
        (j = 0 … r-1) means slices a+s·j : b+s·j, and `N` in a name stands for the number."""
        segs = self.layout
        keys = [(re.sub(r"\d+", "N", name), size, meaning) for name, _start, size, meaning in segs]
        rows = ["| slice | name | meaning |", "|---|---|---|"]
        i = 0
        while i < len(segs):
            period, reps = 1, 1
            for k in range(1, 41):  # the repeated block covering the most segments
                r = 1
                while i + (r + 1) * k <= len(segs) and keys[i + r * k:i + (r + 1) * k] == keys[i:i + k]:
                    r += 1
                if r > 1 and k * r > period * reps:
                    period, reps = k, r
            step = segs[i + period][1] - segs[i][1] if reps > 1 else 0
            for name, start, size, meaning in segs[i:i + period]:
                if reps > 1:
                    label = re.sub(r"\d+", "N", name)
                    rows.append(f"| {start}:{start + size} + {step}·j (j = 0…{reps - 1}) | {label} | {meaning} |")
                else:
                    rows.append(f"| {start}:{start + size} | {name} | {meaning} |")
            i += period * reps
        return "\n".join(rows)


class NotationCodec(Codec):
    """A codec whose indices are the game's notation strings themselves (every action
    the game can ever have is in a small fixed list)."""

    actions_need_view = False

    def __init__(self, game: Game):
        super().__init__(game)
        self._index = {name: i for i, name in enumerate(self.action_names)}
        self._by_action: dict[Action, int] = {}  # the engine's action objects, met so far

    def legal_map(self, legal: Sequence[Action], view: Mapping[str, Any] | None = None) -> dict[int, Action]:
        # an action object's index is found once: the space is small and fixed
        by_action = self._by_action
        out: dict[int, Action] = {}
        for a in legal:
            i = by_action.get(a)
            if i is None:
                i = by_action[a] = self.action_index(a)
            if i in out:
                raise EncodingError(f"{self.game.name}: actions {out[i]} and {a} share index {i} "
                                    f"({self.action_names[i]})")
            out[i] = a
        return out

    def action_index(self, action: Action | str, view: Mapping[str, Any] | None = None) -> int:
        text = action if isinstance(action, str) else str(action)
        i = self._index.get(text)
        if i is None:
            try:
                text = str(self.game.parse_action(text))  # canonical notation
            except BadNotation as exc:  # (the codec's own error, as the docs promise)
                raise EncodingError(f"{self.game.name}: {text!r} is not an action: {exc}") from exc
            i = self._index.get(text)
        if i is None:
            raise EncodingError(f"{self.game.name}: {text!r} is not in the action codec")
        return i
