"""What the three environments share: loading a game with its codec, zero-sum rewards,
text rendering and seeding."""

from __future__ import annotations

import json
from typing import Any

from ..core.protocol import Game, State
from ..core.registry import load
from .codecs import Codec, codec_for



def load_with_codec(game: str | Game, options: dict[str, Any]) -> tuple[Game, Codec]:
    if isinstance(game, Game):
        if options:
            raise ValueError("pass options either to wasserspiele.load or here, not both")
        g = game
    else:
        g = load(game, **options)
    return g, codec_for(g)


def zero_sum(state: State) -> list[float]:
    """Each seat's return minus the mean return: 0 for everybody while the game runs,
    and a sum of 0 at the end (a 3-player win: +2/3, -1/3, -1/3; Watten: ±0.5 per partner)."""
    r = state.returns()
    mean = sum(r) / len(r)
    return [x - mean for x in r]


def agent_info(state: State, seat: int, acting: bool, view: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the environments put in a seat's `info`: the notation of its legal actions
    (empty while it waits) and the raw view its observation encodes (`view` if the
    caller has it already)."""
    legal = [str(a) for a in state.legal_actions(seat)] if acting else []
    return {"legal_actions": legal, "view": state.view(seat) if view is None else view}


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
