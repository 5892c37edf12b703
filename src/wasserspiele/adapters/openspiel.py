"""OpenSpiel registrations of the four games as Python games:
`pyspiel.load_game("wasserspiele_watten", {"target": 5})` after `import wasserspiele.adapters.openspiel`.

Chance.  The engine draws every chance outcome through `Chance.draw(key, make)`, and
every `make` of the four games uses only `randrange`, `choice` and `shuffle` (plus
one `random()` in Watten's signal check).  All of these reduce to `_randbelow(n)`:
a uniform choice among n.  So the adapter drives the engine with a `ScriptedRandom`
whose `_randbelow(n)` returns the next outcome OpenSpiel chose at a chance node of n
equally likely outcomes; when there is none yet, the engine's step is abandoned (it
ran on a clone) and the state becomes that chance node.  Once OpenSpiel picks the
outcome the step is run again from the start with one more outcome scripted.  Hence:

* a shuffled deck (Wasserloch, Watten) is the sequence of the Fisher-Yates choices of
  Python's own `shuffle` (63 nodes of 64, 63, … 2 outcomes for 64 cards);
* Seven Waters and Wildwasser draw cards and tiles one at a time (`randrange` over
  what is left), so each node is "which of the remaining cards/tiles";
* a die (Wildwasser) is one node over its faces;
* Watten's signal check `random() < p` is one node with two outcomes, caught
  (probability p) and not caught (1 - p).

The distribution is exactly the engine's; no game code knows about OpenSpiel.

Players' actions use the codec of `adapters.codecs` (the same indices as the
PettingZoo and Gymnasium environments); observation and information-state tensors
are the codec's encoding of the player's view (the observer's `dict` names its
slices); `resample_from_infostate` deals a world with the engine's `sample_world`, so
OpenSpiel's ISMCTS can play.  Returns are the zero-sum transform of `state.returns()`.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..core.registry import game_class, game_names, load
from .codecs import codec_for
from .common import zero_sum

PREFIX = "wasserspiele_"
# The largest `n` any chance node of the game can have (cards in a deck, tiles, die faces).
MAX_CHANCE_OUTCOMES = {"wasserloch": 64, "seven_waters": 54, "watten": 32, "wildwasser": 25}


class NeedChance(BaseException):
    """Raised inside the engine when a chance outcome has not been chosen yet.
    A BaseException, so that no `except Exception` on the way can swallow it."""

    def __init__(self, outcomes: list[tuple[int, float]], what: str):
        super().__init__(what)
        self.outcomes = outcomes
        self.what = what


class ScriptedRandom(random.Random):
    """A `random.Random` whose choices come from a script of chance outcomes."""

    def __init__(self, limit: int, cuts: tuple[float, ...] | None = None):
        super().__init__(0)
        self.script: list[int] = []
        self.pos = 0
        self.limit = limit
        # random() is one node whose outcomes are the intervals between the cuts: exact
        # for a game that only compares random() with those cuts.  None: not allowed.
        self.intervals = None
        if cuts is not None:
            points = [0.0] + sorted(c for c in cuts if 0.0 < c < 1.0) + [1.0]
            self.intervals = [(a, b) for a, b in zip(points, points[1:])]

    def _next(self) -> int | None:
        if self.pos < len(self.script):
            self.pos += 1
            return self.script[self.pos - 1]
        return None

    def _randbelow(self, n: int) -> int:
        if n > self.limit:
            raise ValueError(f"a chance node with {n} outcomes, more than the declared {self.limit}")
        k = self._next()
        if k is None:
            raise NeedChance([(i, 1.0 / n) for i in range(n)], f"uniform of {n}")
        if not 0 <= k < n:
            raise ValueError(f"chance outcome {k} outside 0..{n - 1}")
        return k

    def random(self) -> float:
        if self.intervals is None:
            raise NotImplementedError("this game draws random() but declares no cut points for it "
                                      "(see _cuts in adapters/openspiel.py)")
        k = self._next()
        if k is None:
            raise NeedChance([(i, b - a) for i, (a, b) in enumerate(self.intervals)], "interval")
        a, b = self.intervals[k]
        return (a + b) / 2

    def getrandbits(self, k: int) -> int:
        raise NotImplementedError("the OpenSpiel adapter models chance through _randbelow and random() only")

    def __reduce__(self):
        return (_scripted, (self.limit, self.intervals, self.script, self.pos))


def _scripted(limit, intervals, script, pos) -> ScriptedRandom:
    r = ScriptedRandom(limit)
    r.intervals, r.script, r.pos = intervals, list(script), pos
    return r


def _cuts(game) -> tuple[float, ...] | None:
    """The values a game compares `random()` with (Watten: `x < signal_detection_p`)."""
    if game.name == "watten":
        return (float(game.options["signal_detection_p"]),)
    return None


class _Core:
    """All of a state's Python data in one attribute, cloned by hand (OpenSpiel's
    PyState::Clone deep-copies each attribute; this makes that a fast engine clone)."""

    __slots__ = ("game", "codec", "rng", "engine", "pending", "outcomes", "need", "own", "views")

    def view_of(self, player: int | None) -> dict[str, Any]:
        """The engine's view of `player`, built once per engine position: a step asks for
        it up to three times (legal actions, decoding the action, the observation).
        Callers only read it; `WasserspieleState.view` hands out a fresh one."""
        e = self.engine
        cache = getattr(self, "views", None)
        if cache is None or cache[0] is not e:
            cache = self.views = (e, {})
        found = cache[1].get(player)
        if found is None:
            found = cache[1][player] = e.view(player)
        return found

    def __deepcopy__(self, memo) -> "_Core":
        c = _Core.__new__(_Core)
        c.game, c.codec = self.game, self.codec
        c.rng = ScriptedRandom(self.rng.limit)
        c.rng.intervals = self.rng.intervals
        c.engine = self.engine.clone() if self.engine is not None else None
        c.pending = self.pending
        c.outcomes = list(self.outcomes)
        c.need = self.need
        c.own = [list(x) for x in self.own]
        return c

    def __reduce__(self):
        """Pickled (OpenSpiel's serialization) without the codec, which is rebuilt."""
        return (_restore_core, (self.game, self.rng, self.engine, self.pending, self.outcomes, self.need, self.own))


def _restore_core(game, rng, engine, pending, outcomes, need, own) -> _Core:
    c = _Core.__new__(_Core)
    c.game, c.codec, c.rng = game, codec_for(game), rng
    if engine is not None:
        engine.chance.rng = rng
    c.engine, c.pending, c.outcomes, c.need, c.own = engine, pending, outcomes, need, own
    return c


class WasserspieleState(pyspiel.State):
    """An OpenSpiel state wrapping an engine state (plus a step waiting for chance)."""

    def __init__(self, game: pyspiel.Game):
        super().__init__(game)
        c = self._core = _Core()
        c.game, c.codec = game.engine_game, game.codec
        c.rng = ScriptedRandom(MAX_CHANCE_OUTCOMES[c.game.name], _cuts(c.game))
        c.engine = None
        c.pending = None  # None: the deal of a new game; else (action, seat)
        c.outcomes = []
        c.need = None
        c.own = [[] for _ in range(c.game.players)]  # each seat's own actions (information states)
        # Every game starts at the same first chance node: find it once per game (OpenSpiel
        # creates a fresh initial state for every clone).
        if game.first_need is not None:
            c.need = game.first_need
        else:
            self._settle()
            if c.engine is None:
                game.first_need = c.need

    def _settle(self) -> None:
        """Run the pending step with the outcomes chosen so far; stop at the next chance node."""
        c = self._core
        c.rng.script = c.outcomes
        c.rng.pos = 0
        try:
            if c.engine is None:
                engine = c.game.new_game(rng=c.rng)
            else:
                engine = c.engine.clone()
                engine.chance.rng = c.rng
                action, seat = c.pending
                engine.apply(action, seat)
        except NeedChance as need:
            c.need = need.outcomes
            return
        if c.rng.pos != len(c.outcomes):
            raise RuntimeError("chance outcomes were left unused")  # cannot happen: one is added per node
        c.engine, c.pending, c.outcomes, c.need = engine, None, [], None

    # -- OpenSpiel API -----------------------------------------------------------
    def current_player(self) -> int:
        c = self._core
        if c.need is not None:
            return pyspiel.PlayerId.CHANCE
        if c.engine.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return c.engine.current_seat

    def _legal_actions(self, player: int) -> list[int]:
        c = self._core
        e = c.engine
        if c.need is not None or player not in e.to_move():
            return []
        return sorted(c.codec.legal_map(e.legal_actions(player), c.view_of(player)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        need = self._core.need
        if need is None:
            raise ValueError("chance_outcomes() asked at a player node")
        return [(k, p) for k, p in need if p > 0]

    def _apply_action(self, action: int) -> None:
        c = self._core
        if c.need is not None:
            if action not in {k for k, p in c.need if p > 0}:
                raise ValueError(f"chance outcome {action} is not one of 0..{len(c.need) - 1}")
            c.outcomes = c.outcomes + [action]
        else:
            seat = c.engine.current_seat
            move = c.codec.decode(action, c.engine.legal_actions(seat), c.view_of(seat))
            c.own[seat].append(action)
            c.pending = (move, seat)
            c.outcomes = []
        self._settle()

    def _action_to_string(self, player: int, action: int) -> str:
        c = self._core
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance {action}"
        e = c.engine
        if e is not None and c.need is None and player in e.to_move():
            found = c.codec.legal_map(e.legal_actions(player), c.view_of(player)).get(action)
            if found is not None:
                return str(found)
        return c.codec.action_names[action]

    def is_terminal(self) -> bool:
        c = self._core
        return c.need is None and c.engine.is_terminal()

    def returns(self) -> list[float]:
        c = self._core
        if not self.is_terminal():
            return [0.0] * c.game.players
        return zero_sum(c.engine)

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "WasserspieleState":
        """A state `player_id` cannot tell from this one: hidden cards dealt anew
        (the engine's `sample_world`), every future chance outcome still a chance node."""
        c = self._core
        if c.need is not None:
            raise ValueError("resample_from_infostate at a chance node: resample at a decision")
        if not callable(probability_sampler):
            raise TypeError("probability_sampler must be callable (OpenSpiel passes a UniformProbabilitySampler)")
        u = probability_sampler()
        world = c.engine.sample_world(player_id, random.Random(int(u * 2**53)))
        new = self.clone()
        world.chance.rng = new._core.rng
        new._core.engine = world
        return new

    def view(self, player: int | None) -> dict[str, Any] | None:
        """The engine's view of `player` (None before the first deal is complete)."""
        e = self._core.engine
        return None if e is None else e.view(player)

    def engine_state(self):
        """The wrapped engine state (a copy), e.g. for `record()`."""
        e = self._core.engine
        return None if e is None else e.clone()

    def __str__(self) -> str:
        c = self._core
        if c.engine is None:
            return f"dealing ({len(c.outcomes)} chance outcomes chosen)"
        text = json.dumps(c.engine.state_json(), sort_keys=True)
        if c.need is not None:
            text += f" | waiting for chance after {c.pending[0]} ({len(c.outcomes)} outcomes chosen)"
        return text


class WasserspieleObserver:
    """Observation / information-state tensors and strings: the codec's view encoding."""

    def __init__(self, codec, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.codec = codec
        private = iig_obs_type.private_info if iig_obs_type is not None else pyspiel.PrivateInfoType.SINGLE_PLAYER
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("wasserspiele games have hidden information: no observation shows every "
                             "player's private information (use SINGLE_PLAYER or NONE)")
        # NONE: the public observation, i.e. a spectator's view (`view(None)`).
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(codec.obs_size, np.float32)
        self.dict = {name: self.tensor[start:start + size] for name, start, size, _ in codec.layout}

    def set_from(self, state: WasserspieleState, player: int) -> None:
        core = state._core
        view = None if core.engine is None else core.view_of(None if self.public_only else player)
        if view is None:
            self.tensor.fill(0)
        else:
            self.tensor[:] = self.codec.observe(view)

    def string_from(self, state: WasserspieleState, player: int) -> str:
        core = state._core
        view = None if core.engine is None else core.view_of(None if self.public_only else player)
        text = "" if view is None else json.dumps(view, sort_keys=True, separators=(",", ":"))
        if self.perfect_recall and not self.public_only:
            text += " own:" + ",".join(map(str, state._core.own[player]))
        return text


def _param_value(option) -> Any:
    d = option.default
    return -1 if d is None else d


def game_type(name: str) -> pyspiel.GameType:
    cls = game_class(name)
    default = cls()
    params = {o.name: _param_value(o) for o in cls.option_list}
    players = [o for o in cls.option_list if o.name == "players"]
    lo = players[0].minimum if players else default.players
    hi = players[0].maximum if players else default.players
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"wasserspiele {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=hi,
        min_num_players=lo,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _max_length(game) -> int:
    """A bound on the number of actions (chance included) in one game."""
    o = game.options
    if game.name == "wasserloch":
        return o["rounds"] * (64 + 64)
    if game.name == "seven_waters":
        return 54 + 600
    if game.name == "watten":
        return (2 * o["target"] // o["hand_value"] + 2) * (31 + 4 + 4 + 20 + 40)
    return 5000


def _make_game_class(name: str) -> type:
    gtype = game_type(name)

    class Game(pyspiel.Game):
        def __init__(self, params: dict[str, Any] | None = None):
            values = dict(params or {})
            options = {}
            for o in game_class(name).option_list:
                if o.name in values:
                    v = values[o.name]
                    options[o.name] = None if (o.default is None or getattr(o, "nullable", False)) and v == -1 else v
            self.engine_game = load(name, **options)
            self.first_need: list[tuple[int, float]] | None = None
            self.codec = codec_for(self.engine_game)
            g = self.engine_game
            info = pyspiel.GameInfo(
                num_distinct_actions=self.codec.num_actions,
                max_chance_outcomes=MAX_CHANCE_OUTCOMES[name],
                num_players=g.players,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=_max_length(g),
            )
            super().__init__(gtype, info, values)

        def new_initial_state(self) -> WasserspieleState:
            return WasserspieleState(self)

        def make_py_observer(self, iig_obs_type=None, params=None) -> WasserspieleObserver:
            return WasserspieleObserver(self.codec, iig_obs_type, params)

    Game.__name__ = Game.__qualname__ = f"{game_class(name).__name__}OpenSpielGame"
    return Game


GAME_CLASSES: dict[str, type] = {}


def register() -> list[str]:
    """Register every game with pyspiel (idempotent); returns the short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for name in game_names():
        short = PREFIX + name
        if name not in GAME_CLASSES:
            GAME_CLASSES[name] = _make_game_class(name)
        if short not in registered:
            pyspiel.register_game(game_type(name), GAME_CLASSES[name])
        names.append(short)
    return names


GAME_NAMES = register()
