"""OpenSpiel registrations of the four games as Python games:
`pyspiel.load_game("wasserspiele_watten", {"target": 5})` after `import wasserspiele.adapters.openspiel`.

Chance.  The engine draws every chance outcome through `Chance.draw(key, dist)`, and
each draw declares its distribution (`core.chance`: `Shuffle`, `Uniform`,
`UnitInterval`), which can build its outcome from elementary chance nodes.  The
adapter sets the engine's chance `chooser` to a `Script` that answers those nodes with
the outcomes OpenSpiel chose; when it has none yet, the engine's step is abandoned (it
ran on a clone, and `apply` is a transaction) and the state becomes that chance node
with the probabilities the distribution declared.  The later nodes of the same draw
are known ahead (`Distribution.node_plan`: a shuffle's 63 nodes do not depend on the
answers), so the adapter offers them one by one without the engine; once the draw's
last outcome is picked, the step is run again from the start with them all scripted
(one re-run per draw, not per node).  Hence:

* a shuffled deck (Wasserloch, Watten) is the Fisher-Yates sequence of `Shuffle.build`
  (63 nodes of 64, 63, … 2 outcomes for 64 cards);
* Seven Waters and Wildwasser draw cards and tiles one at a time (`Uniform` over what
  is left), so each node is "which of the remaining cards/tiles";
* a die (Wildwasser) is one node over its faces;
* Watten's signal check (`UnitInterval` with the cut p) is one node with two outcomes,
  caught (probability p) and not caught (1 - p).

The distribution is exactly the engine's; no game code knows about OpenSpiel.

Players' actions use the codec of `adapters.codecs` (the same indices as the
PettingZoo and Gymnasium environments); observation and information-state tensors
are the codec's encoding of the player's view (the observer's `dict` names its
slices); `resample_from_infostate` deals a world with the engine's `sample_world`, so
OpenSpiel's ISMCTS can play.  Returns are the zero-sum transform of `state.returns()`.

Length.  The game declares the manifest's `max_game_length` (decisions and chance nodes)
and keeps to it: a state whose history has reached it is terminal, returns 0 for every
player (an unfinished game's returns), and has no legal actions.  The environments cut
their episodes at the same count (`common.game_length`).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..core.registry import game_class, load, manifests
from .codecs import codec_for
from .common import utility_range, zero_sum

PREFIX = "wasserspiele_"


class NeedChance(BaseException):
    """Raised inside the engine when a chance outcome has not been chosen yet.
    A BaseException, so that no `except Exception` on the way can swallow it.
    `ahead` holds the probabilities of the draw's later nodes, which the adapter can
    answer without running the engine again."""

    def __init__(self, outcomes: list[tuple[int, float]], what: str, ahead: list[list[float]]):
        super().__init__(what)
        self.outcomes = outcomes
        self.what = what
        self.ahead = ahead


class Script:
    """A chance chooser (`Chance.chooser`) that answers elementary chance nodes from a
    script of outcomes, and raises NeedChance at the first node it has no answer for."""

    __slots__ = ("outcomes", "pos", "limit", "draw", "draw_start")

    def __init__(self, limit: int, outcomes: list[int] | None = None):
        self.outcomes: list[int] = outcomes if outcomes is not None else []
        self.pos = 0
        self.limit = limit
        self.draw = None      # the draw being answered (Chance announces each one)
        self.draw_start = 0   # the script position of its first node

    def announce(self, dist) -> None:
        self.draw, self.draw_start = dist, self.pos

    def __call__(self, probabilities) -> int:
        n = len(probabilities)
        if n > self.limit:
            raise ValueError(f"a chance node with {n} outcomes, more than the declared {self.limit}")
        if self.pos == len(self.outcomes):
            ahead = self.draw.node_plan()[self.pos - self.draw_start + 1:] if self.draw is not None else []
            raise NeedChance(list(enumerate(probabilities)), f"a node of {n} outcomes", ahead)
        k = self.outcomes[self.pos]
        if not 0 <= k < n or probabilities[k] <= 0:
            raise ValueError(f"chance outcome {k} is not a possible outcome of this node (0..{n - 1})")
        self.pos += 1
        return k


class _Core:
    """All of a state's Python data in one attribute, cloned by hand (OpenSpiel's
    PyState::Clone deep-copies each attribute; this makes that a fast engine clone)."""

    __slots__ = ("game", "codec", "limit", "engine", "pending", "outcomes", "need", "ahead", "own", "views",
                 "recall")

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
        c.game, c.codec, c.limit = self.game, self.codec, self.limit
        c.engine = self.engine.clone() if self.engine is not None else None
        c.pending = self.pending
        c.outcomes = list(self.outcomes)
        c.need = self.need
        c.ahead = list(self.ahead)  # its node lists are never changed, only popped off
        c.own = [list(x) for x in self.own]
        c.recall = self.recall  # shared: a history only grows at its end
        return c

    def __reduce__(self):
        """Pickled (OpenSpiel's serialization) without the codec, which is rebuilt, and
        with the recall digests rather than the positions they are made from."""
        recall = None if self.recall is None else _Seen(None, None, recall_digests(self.recall, self.game.players))
        return (_restore_core, (self.game, self.limit, self.engine, self.pending, self.outcomes, self.need, self.own,
                                self.ahead, recall))


def _restore_core(game, limit, engine, pending, outcomes, need, own, ahead=(), recall=None) -> _Core:
    c = _Core.__new__(_Core)
    c.game, c.codec, c.limit = game, codec_for(game), limit
    c.engine, c.pending, c.outcomes, c.need, c.own = engine, pending, outcomes, need, own
    c.ahead = list(ahead)
    c.recall = recall
    return c


class _Seen:
    """One engine position of a state's history, newest last: what perfect recall is made of.

    OpenSpiel's information states must be perfect recall (spiel.h): two histories a
    seat can tell apart need different strings.  A view holds only the present (e.g.
    Wasserloch's last play), so the information-state string carries a digest of the
    sequence of views the seat has had, one per engine position: it tells apart exactly
    what the seat saw differently and holds nothing the views do not.  The digests are
    made only when an information-state string is asked for (most play never asks), then
    kept, and the position dropped; clones share the chain."""

    __slots__ = ("engine", "parent", "digests")

    def __init__(self, engine, parent: "_Seen | None", digests: tuple[bytes, ...] | None = None):
        self.engine = engine
        self.parent = parent
        self.digests = digests


def recall_digests(node: _Seen | None, players: int) -> tuple[bytes, ...]:
    """Per seat, the digest of the views it has had up to `node` (b"" before the deal)."""
    fresh = []
    while node is not None and node.digests is None:
        fresh.append(node)
        node = node.parent
    digests = node.digests if node is not None else (b"",) * players
    for n in reversed(fresh):
        digests = tuple(
            hashlib.blake2b(prev + json.dumps(n.engine.view(seat), sort_keys=True, separators=(",", ":")).encode(),
                            digest_size=16).digest()
            for seat, prev in enumerate(digests))
        n.digests, n.engine = digests, None
    return digests


class WasserspieleState(pyspiel.State):
    """An OpenSpiel state wrapping an engine state (plus a step waiting for chance)."""

    def __init__(self, game: pyspiel.Game):
        super().__init__(game)
        self._max_length = game.max_game_length()
        c = self._core = _Core()
        c.game, c.codec = game.engine_game, game.codec
        c.limit = c.game.manifest.limits.max_chance_outcomes
        c.engine = None
        c.pending = None  # None: the deal of a new game; else (action, seat)
        c.outcomes = []
        c.need = None
        c.ahead = []  # the current draw's later nodes, last first (answered without the engine)
        c.own = [[] for _ in range(c.game.players)]  # each seat's own actions (information states)
        c.recall = None  # the engine positions so far, for the perfect-recall digests (`_Seen`)
        # Every game starts at the same first chance node: find it once per game (OpenSpiel
        # creates a fresh initial state for every clone).
        if game.first_need is not None:
            c.need, ahead = game.first_need
            c.ahead = list(ahead)
        else:
            self._settle()
            if c.engine is None:
                game.first_need = (c.need, tuple(c.ahead))

    def _settle(self) -> None:
        """Run the pending step with the outcomes chosen so far; stop at the next chance node."""
        c = self._core
        script = Script(c.limit, c.outcomes)
        try:
            if c.engine is None:
                engine = c.game.new_game(chooser=script)
            else:
                engine = c.engine.clone()
                engine.chance.chooser = script
                action, seat = c.pending
                engine.apply(action, seat)
        except NeedChance as need:
            c.need = need.outcomes
            c.ahead = need.ahead[::-1]
            return
        if script.pos != len(c.outcomes):
            raise RuntimeError("chance outcomes were left unused")  # cannot happen: one is added per node
        engine.chance.chooser = None  # spent; the next step gets a script of its own
        c.engine, c.pending, c.outcomes, c.need = engine, None, [], None
        c.recall = _Seen(engine, c.recall)  # never changed from here on: each step clones

    # -- OpenSpiel API -----------------------------------------------------------
    def _cut_off(self) -> bool:
        # move_number() counts every action applied, chance outcomes included: the
        # quantity max_game_length bounds
        return self.move_number() >= self._max_length

    def current_player(self) -> int:
        c = self._core
        if self._cut_off():
            return pyspiel.PlayerId.TERMINAL
        if c.need is not None:
            return pyspiel.PlayerId.CHANCE
        if c.engine.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return c.engine.current_seat

    def _legal_actions(self, player: int) -> list[int]:
        c = self._core
        e = c.engine
        if c.need is not None or self._cut_off() or player not in e.to_move():
            return []
        return sorted(c.codec.legal_map(e.legal_actions(player), c.view_of(player)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        need = self._core.need
        if need is None:
            raise ValueError("chance_outcomes() asked at a player node")
        return [(k, p) for k, p in need if p > 0]

    def _apply_action(self, action: int) -> None:
        c = self._core
        if self._cut_off():
            raise ValueError(f"the game is over: it has reached its max_game_length of {self._max_length} actions")
        if c.need is not None:
            if action not in {k for k, p in c.need if p > 0}:
                raise ValueError(f"chance outcome {action} is not one of 0..{len(c.need) - 1}")
            c.outcomes = c.outcomes + [action]
            if c.ahead:  # the same draw's next node: known without running the step again
                c.need = list(enumerate(c.ahead.pop()))
                return
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
        # refused outside the space: action_names[-2] would name another action without a
        # word, and 10**6 failed as "tuple index out of range"
        action = c.codec.check_index(action)
        e = c.engine
        if e is not None and c.need is None and player in e.to_move():
            found = c.codec.legal_map(e.legal_actions(player), c.view_of(player)).get(action)
            if found is not None:
                return str(found)
        return c.codec.action_names[action]

    def is_terminal(self) -> bool:
        c = self._core
        return (c.need is None and c.engine.is_terminal()) or self._cut_off()

    def returns(self) -> list[float]:
        c = self._core
        if c.need is not None or not c.engine.is_terminal():  # running, or cut off unfinished
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
        world.chance.rng = None  # every future outcome is a chance node of OpenSpiel's
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


_SAME = object()  # `private_part`: nothing private here


def private_part(mine: Any, public: Any) -> Any:
    """What a seat's view `mine` shows that the spectator's view `public` does not: the
    keys whose values differ (dicts compared key by key, lists of dicts item by item,
    None standing for an item with nothing private), or `_SAME` when nothing does."""
    if isinstance(mine, dict) and isinstance(public, dict):
        out = {}
        for key, value in mine.items():
            part = private_part(value, public.get(key, _SAME))
            if part is not _SAME:
                out[key] = part
        return out if out else _SAME
    if (isinstance(mine, list) and isinstance(public, list) and len(mine) == len(public)
            and any(isinstance(item, dict) for item in mine)):
        parts = [private_part(a, b) for a, b in zip(mine, public)]
        return _SAME if all(p is _SAME for p in parts) else [None if p is _SAME else p for p in parts]
    return _SAME if mine == public else mine


class WasserspieleObserver:
    """Observation / information-state tensors and strings: the codec's view encoding.

    The kinds of observation are OpenSpiel's `IIGObservationType` (observer.h): public and
    the player's private information (the default observation; with perfect recall the
    information state), public only (a spectator's view, `view(None)`), private only
    (what the player's view shows that the spectator's does not: in the tensor the
    player's values where they differ from the spectator's, else 0; the string "" when
    nothing is private), or neither (zeros and "").  Every player's private information
    at once is refused (the games hide it), and so is perfect recall of anything but
    the information state."""

    def __init__(self, codec, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.codec = codec
        types = pyspiel.PrivateInfoType
        private = iig_obs_type.private_info if iig_obs_type is not None else types.SINGLE_PLAYER
        public = bool(iig_obs_type.public_info) if iig_obs_type is not None else True
        if private == types.ALL_PLAYERS:
            raise ValueError("wasserspiele games have hidden information: no observation shows every "
                             "player's private information (use SINGLE_PLAYER or NONE)")
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if self.perfect_recall and not (public and private == types.SINGLE_PLAYER):
            # the recall digest is of the player's whole views; silently leaving it out would
            # hand a perfect-recall algorithm strings that merge histories
            raise ValueError("perfect recall is provided for the information state only "
                             "(public_info=True, private_info=SINGLE_PLAYER)")
        # NONE: the public observation, i.e. a spectator's view (`view(None)`).
        self.public_only = public and private == types.NONE
        # public_info=False: only what the player's view adds to the spectator's
        self.private_only = not public and private == types.SINGLE_PLAYER
        self.nothing = not public and private == types.NONE
        self.tensor = np.zeros(codec.obs_size, np.float32)
        self.dict = {name: self.tensor[start:start + size] for name, start, size, _ in codec.layout}

    def set_from(self, state: WasserspieleState, player: int) -> None:
        core = state._core
        if core.engine is None or self.nothing:
            self.tensor.fill(0)
            return
        mine = self.codec.observe(core.view_of(None if self.public_only else player))
        if self.private_only:
            public = self.codec.observe(core.view_of(None))
            mine[mine == public] = 0
        self.tensor[:] = mine

    def string_from(self, state: WasserspieleState, player: int) -> str:
        core = state._core
        if self.nothing or (self.private_only and core.engine is None):
            return ""
        if self.private_only:
            part = private_part(core.view_of(player), core.view_of(None))
            return "" if part is _SAME else json.dumps(part, sort_keys=True, separators=(",", ":"))
        view = None if core.engine is None else core.view_of(None if self.public_only else player)
        text = "" if view is None else json.dumps(view, sort_keys=True, separators=(",", ":"))
        if self.perfect_recall:
            # the seat's own actions and a digest of every view it has had (perfect recall)
            seen = recall_digests(core.recall, core.game.players)[player]
            text += " own:" + ",".join(map(str, core.own[player])) + " seen:" + seen.hex()
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
        # public (the spectator's view) and private (what a seat's view adds to it)
        # observations, as WasserspieleObserver makes them
        provides_factored_observation_string=True,
    )


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
            # the first chance node of every game and the rest of its draw
            self.first_need: tuple[list[tuple[int, float]], tuple[list[float], ...]] | None = None
            self.codec = codec_for(self.engine_game)
            g = self.engine_game
            limits = g.manifest.limits
            if limits.distinct_actions(g.options) != self.codec.num_actions:
                raise ValueError(f"{name}: the manifest declares {limits.distinct_actions(g.options)} distinct "
                                 f"actions, its codec has {self.codec.num_actions}")
            low, high = utility_range(g)
            info = pyspiel.GameInfo(
                num_distinct_actions=self.codec.num_actions,
                max_chance_outcomes=limits.max_chance_outcomes,
                num_players=g.players,
                # the real extremes of `returns()` (zero-sum: -1/n … (n-1)/n, Watten ±0.5), which
                # algorithms that scale by the range (CFR's bounds, MCTS's) read
                min_utility=low,
                max_utility=high,
                utility_sum=0.0,
                max_game_length=limits.game_length(g.options),
            )
            super().__init__(gtype, info, values)

        def new_initial_state(self) -> WasserspieleState:
            return WasserspieleState(self)

        def make_py_observer(self, iig_obs_type=None, params=None) -> WasserspieleObserver:
            return WasserspieleObserver(self.codec, iig_obs_type, params)

        def __reduce__(self):
            # the class is made here, not a module attribute: pickled as how to load it
            return _load_game, (gtype.short_name, self.get_parameters())

    Game.__name__ = Game.__qualname__ = f"{game_class(name).__name__}OpenSpielGame"
    return Game


def _load_game(short_name: str, params: dict[str, Any]) -> pyspiel.Game:
    """A game as it was pickled (importing this module registered the games)."""
    return pyspiel.load_game(short_name, params)


GAME_CLASSES: dict[str, type] = {}


def register() -> list[str]:
    """Register every game with a codec with pyspiel (idempotent); returns the short names.
    A game registered later is added by calling this again."""
    names = []
    registered = set(pyspiel.registered_names())
    for name in (m.name for m in manifests() if m.plugins.codec is not None):
        short = PREFIX + name
        if name not in GAME_CLASSES:
            GAME_CLASSES[name] = _make_game_class(name)
        if short not in registered:
            pyspiel.register_game(game_type(name), GAME_CLASSES[name])
        names.append(short)
    return names


GAME_NAMES = register()
