"""What the three environments share: loading a game with its codec, zero-sum rewards,
text rendering, seeding, the length bound and the argument checks."""

from __future__ import annotations

import copy
import difflib
import inspect
import itertools
import json
import math
import numbers
import pickle
import random
import warnings
from collections.abc import Iterable, Mapping, Sequence
from contextlib import contextmanager
from importlib.util import find_spec
from typing import Any, Iterator

import numpy as np

from ..core.chance import Chance, Distribution, Shuffle, Uniform, UnitInterval, make_rng
from ..core.errors import BadOption
from ..core.manifest import GameManifest as Manifest
from ..core.messages import shown
from ..core.options import plain_int
from ..core.protocol import Game, State, win_shares
from ..core.registry import load
from .codecs import Codec, codec_for



def merged_options(options: Any, keywords: dict[str, Any]) -> dict[str, Any]:
    """A game's options given as `options={...}` and as keyword arguments, in one dict.  An
    option given both ways with different values is refused (the keyword silently won:
    `options={"players": 3}, players=4` played with 4), as is an `options` that is no dict
    of names."""
    if options is None:
        return dict(keywords)
    if not isinstance(options, Mapping):
        raise ValueError(f"options must be a dict of the game's options, e.g. {{'players': 3}}, "
                         f"not {shown_arg(options)}")
    for key in options:
        if not isinstance(key, str):
            raise ValueError(f"options: the keys are the options' names, e.g. 'players', not {key!r}")
    clash = sorted(k for k in set(options) & set(keywords) if options[k] != keywords[k])
    if clash:  # (the same value both ways is taken, as `opponent_options` takes it)
        raise ValueError("; ".join(f"option {k!r} is {shown_arg(options[k])} in options= but {shown_arg(keywords[k])} "
                                   f"as a keyword argument" for k in clash) + ": give it once")
    return {**options, **keywords}


def load_with_codec(game: str | Game, options: dict[str, Any], own: Iterable[str] = ()) -> tuple[Game, Codec]:
    """The game with `options` and its codec.  `own`: the environment's own keyword
    arguments, named when an option the game lacks is one of them misspelt (`near_miss`)."""
    if isinstance(game, Game):
        if options:
            raise ValueError("pass options either to wasserspiele.load or here, not both")
        g = game
    else:
        with near_miss(own):
            g = load(game, **options)
    return g, codec_for(g)


def own_keywords(fn: Any) -> list[str]:
    """The keyword arguments `fn` (an environment's constructor or maker) names itself."""
    return [name for name, p in inspect.signature(fn).parameters.items()
            if name not in ("self", "game") and p.kind is not inspect.Parameter.VAR_KEYWORD]


@contextmanager
def near_miss(own: Iterable[str]):
    """An option the game lacks that is close to one of an environment's own keyword
    arguments (`opponent=` for `opponents=`, `illegal_actions=`) is refused as Python
    refuses an unexpected keyword, with the one meant: the game's refusal listed its own
    options only, and sent the caller looking among them."""
    try:
        yield
    except BadOption as exc:
        key = exc.reason.params.get("key") if exc.reason.code == "option.unknown" else None
        meant = difflib.get_close_matches(key, list(own), n=1) if isinstance(key, str) else []
        if meant:
            raise TypeError(f"unexpected keyword argument {key!r}: did you mean {meant[0]!r}? ({exc})") from None
        raise


def kernel_module(manifest: Manifest) -> str | None:
    """The module of a game's batched kernel env (`adapters.vector.KernelVectorEnv`),
    `vector.py` beside its codec, or None where the game has none; found without
    importing it (nor numba), so that registering the Gymnasium ids stays cheap."""
    ref = manifest.plugins.codec
    package = ref.partition(":")[0].rpartition(".")[0] if ref else ""
    if not package:
        return None
    try:
        return f"{package}.vector" if find_spec(f"{package}.vector") is not None else None
    except ModuleNotFoundError:
        return None


def shown_arg(value: Any) -> str:
    """A value a caller passed, as the project's English shows it in a refusal: text
    quoted ('x'), anything else as JSON writes it (2.5, true, ["random"]), the catalogue's
    term `shown` rather than Python's repr ("it's", np.float64(2.5)); a numpy scalar as
    the Python value it holds.  English: the adapters are a programmer's API."""
    return shown(value.item() if isinstance(value, np.generic) else value)


def as_integer(value: Any) -> int | None:
    """`value` as an int if it is an integer of any kind (numpy's from an array or a
    sweep's config too; not a bool, nor numpy's), else None: the one test of the
    environments' integer arguments (seat, seed, table count)."""
    value = plain_int(value)
    return value if type(value) is int else None


def check_seat(seat: Any, game: Game) -> int:
    """`seat` as an int, refused unless it is an integer (numpy's too; not a bool) naming
    one of the game's seats."""
    players = game.players
    n = as_integer(seat)
    if n is None or not 0 <= n < players:
        raise ValueError(f"seat must be 0..{players - 1} (an integer) for {game.name} with {players} players, "
                         f"got {seat!r}")
    return n


def check_reward(value: Any, name: str = "illegal_reward") -> float:
    """`value` as a float, refused unless it is a finite real number (numpy's too; not a
    bool): a NaN or infinite reward would spread through a learner's returns without a
    word, and float("x")'s error would not say which argument it was."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, not {shown_arg(value)}")
    return float(value)


def check_seed(seed: Any) -> int | None:
    """A reset's `seed` as an int, or None: an integer of any kind (numpy's too, as a
    sweep's seeds often are; not a bool).  1.5, "x" or True were taken as seeds of their
    own by one environment and failed in another (np.int64 in random.Random): each is
    refused, the same way in every environment."""
    if seed is None:
        return None
    n = as_integer(seed)
    if n is None:
        raise ValueError(f"seed must be an integer or None, not {shown_arg(seed)}")
    return n


def check_seat_infos(value: Any) -> bool:
    """`seat_infos` as a bool, refused unless True or False (numpy's too): a string such
    as "false" is truthy and would silently keep the infos a caller meant to drop."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"seat_infos must be True or False, not {shown_arg(value)}")
    return bool(value)


def check_reset_options(options: Any, game: Game, refuse: bool = True) -> None:
    """Refuse `reset(options=…)` with anything in it: the environments take no reset
    options, and silently dropping one (`{"players": 3}`, a vector env's `reset_mask`)
    would play another game than the caller asked for.  None and {} are fine.

    PettingZoo's own `api_test` and `parallel_api_test` call `reset(options={"options": 1})`
    and expect it to pass, so its envs (`refuse=False`) warn instead of raising."""
    if options is None or (isinstance(options, Mapping) and not options):
        return
    got = ", ".join(repr(k) for k in options) if isinstance(options, Mapping) else repr(options)
    what = (f"the {game.name} environments take no reset options, got {got}; "
            f"game options go to the constructor (e.g. players=3), a seed to reset(seed=...)")
    if refuse:
        raise ValueError(f"reset(options=...): {what}")
    warnings.warn(f"reset(options=...) ignored: {what}", UserWarning, stacklevel=4)


# -- the length bound -------------------------------------------------------------
# A game's manifest bounds its length as OpenSpiel counts it (`Limits.max_game_length`):
# every decision and every elementary chance node, e.g. the 63 Fisher-Yates choices of
# a 64-card shuffle.  The environments see no chance nodes, so their games count the
# nodes each draw would have been in OpenSpiel (`CountingChance`), and every adapter
# ends a game at the same length.

def chance_nodes(dist: Distribution) -> int:
    """How many elementary chance nodes OpenSpiel asks for one draw of `dist` (its
    `node_plan`; the core distributions' counts without building the plan)."""
    kind = type(dist)
    if kind is Shuffle:
        return max(len(dist.items) - 1, 0)
    if kind is Uniform or kind is UnitInterval:
        return 1
    return len(dist.node_plan())


class CountingChance(Chance):
    """A game's chance that also counts the elementary chance nodes of the outcomes it
    makes, drawing exactly what a plain `Chance` with the same generator draws."""

    __slots__ = ("nodes",)

    def __init__(self, rng: random.Random):
        super().__init__({}, rng)
        self.nodes = 0

    def draw(self, key: str, dist: Distribution) -> Any:
        made = len(self.setup.get(key, ()))
        out = super().draw(key, dist)
        if len(self.setup[key]) > made:  # an outcome read back from the setup is no node
            self.nodes += chance_nodes(dist)
        return out

    def draw_order(self, key: str, items: Sequence[Any], what: str = "outcome") -> list[Any]:
        # one uniform node per item drawn, whether it took the fast path or `draw`
        nodes, made = self.nodes, len(self.setup.get(key, ()))
        out = super().draw_order(key, items, what)
        self.nodes = nodes + len(self.setup[key]) - made
        return out


def new_counted_game(game: Game, seed: int | None = None, rng: random.Random | None = None) -> State:
    """`game.new_game(seed=seed)` (or `rng=rng`), the same game, with a `CountingChance`
    so that `game_length` can count its chance nodes."""
    return game.new_game(chance=CountingChance(rng if rng is not None else make_rng(seed)))


def game_length(state: State) -> int:
    """The length of the game so far as the manifest's `max_game_length` counts it:
    decisions plus chance nodes (a state from `new_counted_game`)."""
    chance = state.chance
    if not isinstance(chance, CountingChance):
        raise TypeError("game_length needs a state made by new_counted_game (its chance counts nodes)")
    return len(state.history) + chance.nodes


def max_game_length(game: Game) -> int:
    """The manifest's bound on a game's length (decisions and chance nodes)."""
    return game.manifest.limits.game_length(game.options)


def zero_sum(state: State) -> list[float]:
    """Each seat's return minus the mean return: 0 for everybody while the game runs,
    and a sum of 0 at the end (a 3-player win: +2/3, -1/3, -1/3; Watten: ±0.5 per partner)."""
    return _centred(state.returns())


def _centred(returns: Sequence[float]) -> list[float]:
    mean = sum(returns) / len(returns)
    return [x - mean for x in returns]


def utility_range(game: Game) -> tuple[float, float]:
    """The least and the most a seat's `zero_sum` reward can be in `game`, over every way
    its game can end: each set of winning teams (a team wins whole, a shared win shares:
    `win_shares`, as `State.returns` deals them), and no winner at all (all 0, as a
    truncated game).  One winner of n seats: -1/n and (n-1)/n; two teams: ±0.5."""
    rewards = [0.0]
    teams = game.teams
    for k in range(1, len(teams) + 1):
        for won in itertools.combinations(teams, k):
            rewards += _centred(win_shares(game, [s for team in won for s in team]))
    return min(rewards), max(rewards)


def agent_info(state: State, seat: int, acting: bool, view: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the environments put in a seat's `info`: the notation of its legal actions
    (empty while it waits) and the raw view its observation encodes (`view` if the
    caller has it already)."""
    legal = [str(a) for a in state.legal_actions(seat)] if acting else []
    return {"legal_actions": legal, "view": state.view(seat) if view is None else view}


class InfoView(Mapping):
    """A seat's raw view as the Gymnasium env's `info["view"]`: a read-only mapping that
    compares equal to the view dict (`dict(info["view"])` is one, e.g. for `json.dumps`).

    Not a dict on purpose: Gymnasium's vectorisers (`SyncVectorEnv`, `AsyncVectorEnv`,
    `make_vec`) batch a dict in an info key by key into typed arrays, and a view's fields
    differ in type between tables (an int in one, None in another: a crash; an int in
    one, a float in another: silently cut).  Any other object is kept whole, one per
    table, in an object array: `infos["view"][i]` is table i's view.  Read-only so that
    the one object a vectoriser and the caller share is not changed under either.

    `InfoView.of(position, seat)` builds the view when first read (a vectoriser stores
    the object without reading it; most training loops never do): from the position the
    info was issued for, however late (`Position`).  A copy or deep copy of one not read
    yet is another such (the position's view never changes, and each builds its own
    dict), so SB3's `DummyVecEnv`, which deep-copies every info at every step, builds
    nothing.  Pickling (`AsyncVectorEnv`'s pipes) sends the view as one bytes object
    (`_wire_view`) that the receiving side decodes when first read, see `__reduce__`."""

    __slots__ = ("_view", "_position", "_seat", "_wire")

    def __init__(self, view: Mapping[str, Any]):
        self._view = view
        self._position: Position | None = None
        self._seat = 0
        self._wire: bytes | None = None

    @classmethod
    def of(cls, position: Position, seat: int) -> InfoView:
        """`seat`'s view of `position`, built when first read."""
        info = cls.__new__(cls)
        info._view, info._position, info._seat, info._wire = None, position, seat, None
        return info

    def _get(self) -> Mapping[str, Any]:
        if self._view is None:
            position = self._position
            if position is not None:
                self._view = position.get().view(self._seat)
                self._position = None  # the state may go: the view is all that is needed now
            else:
                self._view = pickle.loads(self._wire)
                self._wire = None
        return self._view

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return f"InfoView({self._get()!r})"

    def __copy__(self) -> InfoView:
        if self._position is not None:
            return InfoView.of(self._position, self._seat)
        if self._wire is not None:
            return _wire_view(self._wire)
        return InfoView(self._view)

    def __deepcopy__(self, memo: dict) -> InfoView:
        if self._position is not None or self._wire is not None:
            return self.__copy__()  # not read yet: another such, which builds its own dict
        return InfoView(copy.deepcopy(self._view, memo))

    def __reduce__(self):
        # AsyncVectorEnv sends every info through a pipe, and the main process unpickles
        # all of them, one table after another, whether the loop reads them or not: the
        # view goes as one bytes object, decoded when first read.  It is built here, in
        # the worker: the view is all the seat may know, while the inputs that would
        # rebuild it elsewhere (the seed, the moves) hold every hidden card, grow with the
        # episode and would replay it in the one main process at every read.
        return _wire_view, (_wire_of(self),)


def _wire_of(info: "InfoView | InfoList") -> bytes:
    """What a lazy info sends through a pipe: the bytes it came with if still unread, else
    its value (built here if need be) pickled."""
    return info._wire if info._wire is not None else pickle.dumps(info._get(), pickle.HIGHEST_PROTOCOL)


def _wire_view(wire: bytes) -> InfoView:
    """An `InfoView` whose view comes from `wire` (the pickled dict) when first read."""
    info = InfoView.__new__(InfoView)
    info._view, info._position, info._seat, info._wire = None, None, 0, wire
    return info


class InfoList(Sequence):
    """A seat's legal actions' notation as the Gymnasium env's `info["legal_actions"]`:
    a read-only sequence that compares equal to the list (`list(info["legal_actions"])`
    is one, e.g. for `json.dumps`), in the order of the engine's `legal_actions`, built
    when first read.  Gymnasium's vectorisers keep it whole in an object array without
    reading it (as they keep a list).  Copies and pickles as `InfoView` does.

    Built from the actions of the codec's legal map where the map holds them (a dict,
    made from `legal_actions` in its order), else from the engine at the position
    (Seven Waters' kernel map makes each action on demand, twice the engine's time)."""

    __slots__ = ("_items", "_source", "_seat", "_wire")

    def __init__(self, items: Sequence[str] = ()):
        self._items = list(items)
        self._source: Mapping[int, Any] | Position | None = None
        self._seat = 0
        self._wire: bytes | None = None

    @classmethod
    def of(cls, legal: Mapping[int, Any], position: Position, seat: int) -> InfoList:
        """The notation of `legal` (a codec's legal map of `seat` at `position`), built
        when first read; empty if the map is."""
        info = cls.__new__(cls)
        info._seat, info._wire = seat, None
        if not legal:
            info._items, info._source = [], None
        else:
            info._items, info._source = None, legal if type(legal) is dict else position
        return info

    def _get(self) -> list[str]:
        if self._items is None:
            source = self._source
            if source is None:
                self._items = pickle.loads(self._wire)
                self._wire = None
            else:
                if isinstance(source, Position):
                    actions = source.get().legal_actions(self._seat)
                else:
                    actions = source.values()
                self._items = [str(a) for a in actions]
                self._source = None
        return self._items

    def __getitem__(self, index: Any) -> Any:
        return self._get()[index]

    def __len__(self) -> int:
        return len(self._get())

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __contains__(self, value: object) -> bool:
        return value in self._get()

    def __reversed__(self) -> Iterator[str]:
        return reversed(self._get())

    def index(self, value: Any, *args: Any) -> int:
        return self._get().index(value, *args)

    def count(self, value: Any) -> int:
        return self._get().count(value)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, InfoList):
            other = other._get()
        elif not isinstance(other, list):
            return NotImplemented  # as a list: not equal to a tuple
        return self._get() == other

    __hash__ = None  # as a list

    def __add__(self, other: Any) -> list[str]:
        return self._get() + list(other) if isinstance(other, (list, InfoList)) else NotImplemented

    def __radd__(self, other: Any) -> list[str]:
        return other + self._get() if isinstance(other, list) else NotImplemented

    def __repr__(self) -> str:
        return f"InfoList({self._get()!r})"

    def __copy__(self) -> InfoList:
        if self._items is not None:
            return InfoList(self._items)
        if self._wire is not None:
            return _wire_list(self._wire)
        info = InfoList.__new__(InfoList)  # not read yet: another such, from the same actions
        info._items, info._source, info._seat, info._wire = None, self._source, self._seat, None
        return info

    def __deepcopy__(self, memo: dict) -> InfoList:
        return self.__copy__()  # the items are strings: a new list of them is a deep copy

    def __reduce__(self):  # one bytes object, decoded when first read, as InfoView (see there)
        return _wire_list, (_wire_of(self),)


def _wire_list(wire: bytes) -> InfoList:
    """An `InfoList` whose notation comes from `wire` (the pickled list) when first read."""
    info = InfoList.__new__(InfoList)
    info._items, info._source, info._seat, info._wire = None, None, 0, wire
    return info


class _Pending:
    """What a SeatInfo holds in place of a value not built yet (never seen through the
    dict's methods; code reading a dict's internals directly, such as orjson, meets it
    and fails loudly rather than getting wrong data)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<built when read>"


PENDING = _Pending()


class Position:
    """The position a step's infos were issued for: the environment's state while it is
    still there, else the episode replayed from its seed up to that point (built once,
    when an info is first read after the environment moved on).  Nothing is copied
    while the episode runs."""

    __slots__ = ("state", "moves", "seed", "_replayed")

    def __init__(self, state: State, seed: int):
        self.state = state  # made by game.new_game(seed=seed); it only ever grows
        self.moves = len(state.history)
        self.seed = seed
        self._replayed: State | None = None

    def get(self) -> State:
        state = self.state
        if len(state.history) == self.moves:
            return state
        if self._replayed is None:
            replayed = state.game.new_game(seed=self.seed)
            for seat, action, _together in state.history[:self.moves]:
                replayed.apply(action, seat)
            self._replayed = replayed
        return self._replayed


class SeatInfo(dict):
    """A seat's `info` as `agent_info` makes it, built when first read.

    Building every seat's view and legal actions' notation at every step costs more
    than the rest of a step (Wildwasser's views: five times a `connect_four_v3` step),
    and most training loops never read them.  The info is a real dict with the keys
    `legal_actions` and `view`; the first use of a value, of the keys, items, length,
    equality, copying or pickling builds both, from the position it was issued for
    (a `Position`), however late that is."""

    __slots__ = ("_position", "_seat", "_acting")

    def __init__(self, position: Position, seat: int, acting: bool):
        super().__init__(legal_actions=PENDING, view=PENDING)
        self._position: Position | None = position
        self._seat = seat
        self._acting = acting

    def _complete(self) -> None:
        position = self._position
        if position is not None:
            self._position = None
            for key, value in agent_info(position.get(), self._seat, self._acting).items():
                dict.__setitem__(self, key, value)

    def __reduce_ex__(self, protocol):  # copy, deepcopy and pickle give a plain dict
        self._complete()
        return dict, (dict(dict.items(self)),)


def _completing(name: str):
    method = getattr(dict, name)

    def complete_first(self, *args, **kwargs):
        if self._position is not None:
            self._complete()
        return method(self, *args, **kwargs)
    complete_first.__name__ = name
    complete_first.__doc__ = method.__doc__
    return complete_first


for _name in ("__getitem__", "__setitem__", "__delitem__", "__contains__", "__iter__", "__len__",
              "__reversed__", "__eq__", "__ne__", "__repr__", "__or__", "__ror__", "__ior__", "get",
              "keys", "values", "items", "copy", "pop", "popitem", "setdefault", "update", "clear"):
    setattr(SeatInfo, _name, _completing(_name))
SeatInfo.__hash__ = None  # a dict: unhashable (defining __eq__ keeps it so)


def render_text(state: State, seat: int | None) -> str:
    """The position as `seat` sees it, via the game's terminal renderer (markup stripped), or JSON."""
    view = state.view(seat)
    try:
        text = state.game.manifest.plugin("render").render_view(view)
    except Exception:  # a renderer that is missing or broken must not break training loops
        return json.dumps(view, indent=1)
    try:
        from rich.text import Text
        return Text.from_markup(text).plain
    except Exception:
        return text
