"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012) for any game.

Each iteration deals a world consistent with the bot's view (`Decision.sample`),
walks the one tree of the observer's information set with UCB over the actions
legal in that world (availability counts), expands one node, plays the rest
out, and backs up every seat's reward.  Chance is resolved inside the sampled
world by its own blind generator, so the tree is open-loop over dice and draws.

* Team games: rewards are `State.returns()`, where partners share a win.
* Simultaneous secret picks (Wildwasser): another seat's pick made in the same
  phase as ours is not a tree decision it could base on ours — it is drawn by
  the rollout policy, so the tree never lets an opponent "see" our pick.
* Multi-step turns (Seven Waters' extra actions) are ordinary consecutive nodes
  of the same seat.
* Rollouts in a compiled kernel: where the game's heuristic module offers
  `kernel_rollout` for the rollout policy, each rollout draws its choices from a kernel
  generator seeded by the search and is played by the game's kernel (numba), or by the
  engine drawing the same numbers (`KernelStream`) where numba is absent: its choices,
  and the world's chance (Wildwasser's die) for the rollout, as the kernel draws them.
  Both play the very same rollout, so a seeded search makes the same moves with or
  without numba (tests/bots/test_ismcts_kernel.py).

The bot never touches the true state: it sees the view, the legal actions and
worlds dealt from what it cannot see.
"""

from __future__ import annotations

import gc
import logging
import math
import numbers
import random
import threading
import time
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from ..core.errors import BadOption
from ..core.manifest import PluginMissing
from ..core.messages import Reason
from ..core.protocol import Action, Game, State
from .base import Bot, Decision, decision_for

log = logging.getLogger(__name__)


_pause_lock = threading.Lock()
_pauses = 0               # searches running with the collector paused (threads may overlap)
_resume = False           # whether the first of them found the collector enabled


@contextmanager
def collector_paused():
    """The cyclic garbage collector paused while searches run.

    A search allocates nodes that all live until it ends, so the collector keeps being
    triggered, and each full collection walks the whole heap — numba's compiled kernels
    alone hold about 100,000 objects: 0.1-0.3 s pauses inside a 50 ms search were
    measured, and under load they tripped the 2 s safety net.  Nothing a search makes
    forms a cycle (nodes point only to their children; worlds hold none), so reference
    counting frees it all.  Overlapping searches (threads) share one pause; the
    collector resumes as the last ends.  `timeit` pauses it the same way."""
    global _pauses, _resume
    with _pause_lock:
        if _pauses == 0:
            _resume = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _pause_lock:
            _pauses -= 1
            if _pauses == 0 and _resume:
                gc.enable()


def search_defaults(game: Game) -> dict[str, Any]:
    """The search settings the game's manifest tunes (empty for an untuned game)."""
    return dict(game.manifest.search.ismcts)


class Node:
    """A node of the search tree.  Nodes point to their children only (an iteration backs
    up along the path it walked), so a tree holds no reference cycles: reference counting
    frees it as the search ends, with the cyclic collector paused (`collector_paused`)."""

    __slots__ = ("action", "seat", "children", "visits", "avail", "reward", "priors")

    def __init__(self, action: Action | None, seat: int):
        self.action = action
        self.seat = seat          # who took `action` (whose reward this node accumulates)
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.priors: dict[Any, float] | None = None  # a guide's prior per action (guided search)

    def mean(self) -> float:
        return self.reward / self.visits if self.visits else 0.0


@dataclass(frozen=True)
class Choice:
    """An action the search considered, with what it learned about it."""

    action: Action
    visits: int
    value: float  # mean reward for the deciding seat, 0..1


# At the end of a game the reward is mostly the result, a little the margin,
# so that the search still prefers a big win to a narrow one.
MARGIN_WEIGHT = 0.2


def score_leads(state: State) -> list[float]:
    """Per seat, a logistic in [0, 1] of its score lead over the best seat of another team."""
    return _leads(state.game, state.scores())


def _leads(game: Game, scores: Sequence[float]) -> list[float]:
    # a score difference of about this size decides a game (the manifest's search hint)
    scale = game.manifest.search.score_scale
    out = []
    for mine, others in zip(scores, _rivals(game)):
        best_other = max((scores[t] for t in others), default=mine)
        out.append(1.0 / (1.0 + math.exp(-(mine - best_other) / scale)))
    return out


_RIVALS: "weakref.WeakKeyDictionary[Game, tuple]" = weakref.WeakKeyDictionary()


def _rivals(game: Game) -> tuple[tuple[int, ...], ...]:
    """Per seat, the seats of the other teams (asked once per game: every rollout's value needs them)."""
    found = _RIVALS.get(game)
    if found is None:
        teams = game.teams
        found = _RIVALS[game] = tuple(tuple(t for t in range(game.players) if t not in teams[game.team_of(s)])
                                      for s in range(game.players))
    return found


# A game's estimate of each seat's final score in an unfinished position (its heuristic
# module's `estimated_scores`, the search's `estimate=true`): what a rollout cut off at
# `rollout_depth` is valued by in place of the scores so far, where those say little
# until near the end (Wildwasser: podium points, mostly 0 after 30 actions).
ScoreEstimate = Callable[[State], Sequence[float]]


def evaluate(state: State, estimate: ScoreEstimate | None = None) -> list[float]:
    """Per-seat value in [0, 1]: the result (and margin) when over, else the score lead,
    of the scores so far or, given a game's `estimate`, of the final scores it expects."""
    if state.is_terminal():
        return rewards(state.game, state.scores(), state.returns())
    return rewards(state.game, state.scores() if estimate is None else estimate(state), None)


def rewards(game: Game, scores: Sequence[float], returns: Sequence[float] | None) -> list[float]:
    """`evaluate` of a position with these scores and, once the game is over, these returns
    (`State.returns`); None while it goes on."""
    leads = _leads(game, scores)
    if returns is None:
        return leads
    return [(1 - MARGIN_WEIGHT) * r + MARGIN_WEIGHT * m for r, m in zip(returns, leads)]


def returns_of(game: Game, winners: Sequence[int]) -> list[float]:
    """`State.returns` of a finished game with these winners (a kernel rollout's result)."""
    if not winners:
        return [0.0] * game.players
    share = 1.0 / len({game.team_of(s) for s in winners})
    return [share if s in winners else 0.0 for s in range(game.players)]


# A rollout policy returns one of `world.legal_actions(seat)`: search applies it unchecked.
RolloutPolicy = Callable[[State, int, random.Random], Action]


class Guide(Protocol):
    """What a guided search asks a learned model (PUCT prior and leaf value, as in
    AlphaZero): the model reads views of the sampled world, never the true state."""

    def priors(self, world: State, seat: int, legal: Sequence[Action]) -> Sequence[float]:
        """A probability per legal action of `seat` in `world` (summing to 1)."""

    def values(self, world: State) -> Sequence[float]:
        """Per seat, the expected reward (0..1) of the position in `world`."""

BELIEF_TRIES = 20


def _heuristic_hook(game, name: str, feature: str):
    """A function the game's heuristic module offers to the search (e.g. `rollout_policy`)
    for the setting `feature` (belief, conventions, policy or solve: the catalogue's
    term `bot.ismcts.feature` names it in the reader's language)."""
    if game is None:
        raise BadOption(Reason("bot.ismcts.hook_needs_game", feature=feature))
    try:
        module = game.manifest.plugin_module("heuristic")
    except PluginMissing:
        raise BadOption(Reason("bot.ismcts.hook_no_heuristic", feature=feature, game=game.name)) from None
    hook = getattr(module, name, None)
    if hook is None:
        raise BadOption(Reason("bot.ismcts.hook_missing", feature=feature, game=game.name, name=name))
    return hook


# Bounds of the search's numeric settings, each refused beyond them naming the range
# (`bot.setting_*` codes).  `ismcts:iterations=1e9` was taken and searched for hours a
# move with no safety net; NaN and inf were taken too (`iterations=nan` never ended,
# `exploration=nan` crashed) and fractions where a count is meant (`rollout_depth=1.5`
# crashed mid-game).  Bounds are far beyond any budget used: the levels search 200-5,000
# iterations and docs/learned.md's largest measured budget is 10,000; the fastest game
# (Wasserloch, about 20,000 iterations a CPU-second) needs about DEFAULT_CPU_SECONDS for
# MAX_ITERATIONS, so a larger budget could only ever end at the safety net.
MAX_ITERATIONS = 1_000_000
MAX_COUNT = 1_000_000     # rollout_depth, root_candidates: every game ends far sooner
MAX_SECONDS = 3600        # seconds, cpu_seconds: an hour a move
# The CPU safety net of a search whose spec names none (issue 17 item 5): a budget in
# iterations with a CPU-time net that is reported when it fires.  It is far above what any
# budget costs (the largest above, 0.5 s), so it never changes a normal search's moves; it
# ends a budget that would run for minutes a move, and says so (`last_stop`, a warning).
DEFAULT_CPU_SECONDS = 60.0


def _is_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _as_typed(value):
    """A value for a refusal: a whole float as the spec reads it back (`1e9` is
    1000000000, not 1000000000.0); anything else as given (`{value:shown}` quotes text and
    writes anything else as JSON does: `true`, `NaN`)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def check_number(name: str, value, positive: bool) -> None:
    """Refuse a real-valued search setting (`exploration`, `widening`) that is no number,
    or negative, or zero where it must be `positive`, or not finite (NaN, inf): the one
    check of the setting, for a bot spec and a constructor call alike
    (registry.check_settings checks names only)."""
    if not _is_number(value) or value < 0 or (positive and value == 0):
        raise BadOption(Reason("bot.ismcts.positive" if positive else "bot.ismcts.non_negative", name=name,
                               value=_as_typed(value)))
    try:
        finite = math.isfinite(value)
    except OverflowError:  # an int past a float's range, which the search computes in
        finite = False
    if not finite:
        raise BadOption(Reason("bot.setting_not_finite", name=name, value=value))


def check_seconds(name: str, value) -> None:
    """Refuse a time (`seconds`, `cpu_seconds`) that is no number of seconds above 0 and
    at most MAX_SECONDS (NaN passed every check before and switched the net off)."""
    if not _is_number(value) or not 0 < value <= MAX_SECONDS:
        raise BadOption(Reason("bot.setting_seconds", name=name, value=_as_typed(value), most=MAX_SECONDS))


def whole_number(name: str, value, least: int, most: int, code: str = "bot.setting_whole") -> int:
    """`value` as an int, or the refusal `code` naming the range if it is no whole number
    from `least` to `most` (`iterations`, `rollout_depth`, `root_candidates`,
    `learned:search`).  A whole float is taken as the count it spells (`iterations=1e3`).
    The range is asked first: NaN and the infinities fail it, and so does an int too large
    for `math.isfinite` (past 1e308), which raised OverflowError there."""
    if not (_is_number(value) and least <= value <= most and value == int(value)):
        raise BadOption(Reason(code, name=name, value=_as_typed(value), least=least, most=most))
    return int(value)


def check_switch(name: str, value, kind: str = "ismcts") -> None:
    """Refuse an on/off setting (`belief`, `conventions`) that is not true or false: any
    text would otherwise switch it on (`belief=maybe`)."""
    if not isinstance(value, bool):
        raise BadOption(Reason("bot.setting_not_bool", kind=kind, name=name, value=value))


def _optional_hook(game, name: str):
    """A search hook of the game's heuristic module, or None when it offers none."""
    if game is None:
        return None
    try:
        module = game.manifest.plugin_module("heuristic")
    except PluginMissing:
        return None
    return getattr(module, name, None)


def random_policy(world: State, seat: int, rng: random.Random) -> Action:
    """A uniformly random legal action."""
    legal = world.legal_actions(seat)
    return legal[rng.randrange(len(legal))]


def bot_policy(bot: Bot) -> RolloutPolicy:
    """Another bot (e.g. the game's heuristic) as a rollout policy, reading the sampled world's views."""
    return lambda world, seat, rng: bot.choose(decision_for(world, seat))


class KernelStream:
    """A rollout's `randrange` drawn from the compiled kernels' generator (`fast.xorshift32`,
    then `fast.below`), as the kernels draw their random and tied choices and their die:
    a rollout the engine plays in Python with it, as the rollout policy's generator and
    as the world's chance generator (a `Uniform` draw is one `randrange`), makes the same
    moves and rolls as the game's kernel playing the same world from the same state."""

    __slots__ = ("x",)

    def __init__(self, x: int):
        self.x = x

    def randrange(self, n: int) -> int:
        # fast.xorshift32 and fast.below written out: two calls fewer per draw (5-10 % of a
        # Wildwasser rollout in Python), and no call into numba's dispatcher where numba is
        # installed (tests/bots/test_ismcts_kernel.py checks it against them)
        x = self.x
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        self.x = x
        return (x * n) >> 32


# A game's kernel rollout (its heuristic module's `kernel_rollout`): play at most `depth`
# actions of a world by the named policy ("random" or "policy") from generator state x,
# returning (scores, winners or None while the game goes on), or None when the kernel
# does not cover the world's options or the policy.  A game that also offers
# `estimated_scores` takes `estimate=True` (the search's `estimate`): the scores of a
# rollout cut off before the end are then that estimate of where it stopped.  The kernel draws its choices and the
# chance it meets (a die) from x as the engine draws them from a `KernelStream(x)` (the
# policy's `randrange`, and each `Uniform` chance draw as one `randrange`), so that the
# engine in Python plays the same rollout.
KernelRollout = Callable[[State, str, int, int], "tuple[list[float], list[int] | None] | None"]


def rollout(world: State, policy: RolloutPolicy, rng: random.Random, depth: int) -> None:
    """Play `policy` in the sampled world for at most `depth` actions."""
    for _ in range(depth):
        pending = world.to_move()
        if not pending:
            return
        seat = pending[0]
        world.apply_legal(policy(world, seat, rng), seat)


class ISMCTSBot(Bot):
    """ISMCTS with an iteration and/or time budget; deterministic for a fixed seed and iteration budget.

    Budgets: `iterations`; `seconds` of wall-clock time (what a benchmark asks for; on a
    busy machine it cuts searches short, so a seeded bot stops being reproducible); and
    `cpu_seconds`, a safety net on the searching thread's CPU time for budgets given in
    iterations: it should never fire, and when it does the search says so (`last_stop`
    and a logged warning), as the move may then differ from run to run.  A search given
    no `cpu_seconds` (and no `seconds`) keeps DEFAULT_CPU_SECONDS as its net (`cpu_net`).
    Each numeric setting is checked against its range (MAX_ITERATIONS, MAX_COUNT,
    MAX_SECONDS; counts whole, every number finite).
    """

    kind = "ismcts"

    def __init__(self, seed: int | None = None, iterations: int | None = 1000, seconds: float | None = None,
                 cpu_seconds: float | None = None,
                 exploration: float = 0.7, rollout_depth: int = 200, rollout: str = "random",
                 root_candidates: int | None = None, widening: float = 2.0, belief: bool = False,
                 conventions: bool = False, others: str = "search", estimate: bool = False, game=None,
                 guide: Guide | None = None, compiled: bool | None = None):
        super().__init__(seed)
        # guide: a learned prior and value (bots/learned.py) in place of progressive
        # widening, UCB and rollouts: PUCT selection, the value at the new leaf
        self.guide = guide
        # belief: weigh each dealt world by the game heuristic's `plausibility` (what the
        # others' signals and calls say about their hands) instead of dealing uniformly.
        # conventions: let the heuristic's `convention` make the moves whose worth lies in
        # what the partner reads from them (signals), which rollouts cannot value.
        # estimate: value a rollout cut off at rollout_depth by the game heuristic's
        # `estimated_scores` (each seat's final score as the position stands) instead of
        # the scores so far, which in Wildwasser left most root values a flat 0.5
        for name, value in (("belief", belief), ("conventions", conventions), ("estimate", estimate)):
            check_switch(name, value)
        if compiled is not None:
            check_switch("compiled", compiled)
        self._plausibility = _heuristic_hook(game, "plausibility", "belief") if belief else None
        self._convention = _heuristic_hook(game, "convention", "conventions") if conventions else None
        self._estimate: ScoreEstimate | None = \
            _heuristic_hook(game, "estimated_scores", "estimate") if estimate else None
        # With root_candidates = k the search weighs only the game heuristic's k best
        # actions at the root: in games with hundreds of actions a second of search
        # cannot tell them all apart, but it can correct the heuristic's first choice.
        self.ranker = None
        if root_candidates is not None:
            root_candidates = whole_number("root_candidates", root_candidates, 0, MAX_COUNT)
        if root_candidates:
            if game is None:
                raise BadOption(Reason("bot.ismcts.root_candidates_need_game"))
            from .registry import make_bot
            self.ranker = make_bot("heuristic", game, seed)
            if not hasattr(self.ranker, "rank"):
                raise BadOption(Reason("bot.ismcts.cannot_rank", game=game.name))
        self.root_candidates = root_candidates
        self.widening = widening  # a node may have about widening·√visits children
        if iterations is None and seconds is None and cpu_seconds is None:
            raise BadOption(Reason("bot.ismcts.no_budget"))
        if iterations is not None:
            iterations = whole_number("iterations", iterations, 1, MAX_ITERATIONS)
        for name, value in (("seconds", seconds), ("cpu_seconds", cpu_seconds)):
            if value is not None:
                check_seconds(name, value)
        check_number("widening", widening, positive=True)
        check_number("exploration", exploration, positive=False)
        rollout_depth = whole_number("rollout_depth", rollout_depth, 0, MAX_COUNT)
        self.iterations = iterations
        self.seconds = seconds
        self.cpu_seconds = cpu_seconds  # as given: None when the default net applies
        # the net this search keeps: the given one, else the default where no wall clock
        # bounds the search already (a `seconds` budget ends it sooner on one thread)
        self.cpu_net = cpu_seconds if cpu_seconds is not None else None if seconds is not None \
            else DEFAULT_CPU_SECONDS
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        if rollout == "random":
            self._policy: RolloutPolicy = random_policy
        elif rollout == "policy":
            # a game's fast policy that reads the sampled world directly
            self._policy = _heuristic_hook(game, "rollout_policy", "policy")
        elif rollout == "heuristic":
            if game is None:
                raise BadOption(Reason("bot.ismcts.heuristic_rollouts_need_game"))
            from .registry import make_bot
            self._policy = bot_policy(make_bot("heuristic", game, seed))
        elif rollout == "solve":
            # the game's solver finishes the deal in progress with every hand open; its
            # policy plays what comes before the solver can start (a trump call, signals)
            self._solve = _heuristic_hook(game, "kernel_solve", "solve")
            self._policy = _heuristic_hook(game, "rollout_policy", "solve")
        else:
            raise BadOption(Reason("bot.ismcts.unknown_rollout", value=rollout))
        # Where the game's compiled kernel plays this rollout policy, rollouts draw their
        # choices from the kernel's generator, one seed per iteration, and so does the
        # chance they meet (Wildwasser's die; `_kernel_playout`): the kernel (with numba;
        # `compiled`) and the engine in Python (without) then play the same rollouts, and a
        # seeded search makes the same moves either way, on any machine.
        self.rollout_kind = rollout
        # others="policy": the tree branches on the searching seat's own moves only; the
        # other seats' moves in it are the rollout policy's in each walk's world (still
        # nodes, so our next decision knows what they played).  The plain search picks
        # their moves by UCB over statistics fused across worlds, as if each of them did
        # not know their own hand (in Watten 1,500 iterations of it were no step over 500;
        # docs/bots.md and docs/learned.md have what this setting measured).
        if others not in ("search", "policy"):
            raise BadOption(Reason("bot.ismcts.unknown_others", value=others))
        if others == "policy" and guide is not None:  # PUCT over the guide's priors walks every seat
            raise BadOption(Reason("bot.ismcts.others_guided"))
        self.others_by_policy = others == "policy"
        self._kernel_rollout: KernelRollout | None = None
        if rollout in ("random", "policy"):
            self._kernel_rollout = _optional_hook(game, "kernel_rollout")
        if self._kernel_rollout is not None and compiled is None:
            from ..fast import COMPILED as compiled
        self.compiled = bool(compiled) and self._kernel_rollout is not None
        # the compiled kernel (and the solver) to load before the first search starts its
        # clocks: about a CPU-second from numba's disk cache, once per process, a compilation
        # on a fresh install; not here, as a bot is also made only to check its settings (an
        # arena's or a study's parent process, which never plays)
        self._game_to_load = game if self.compiled or rollout == "solve" else None
        self.last_iterations = 0
        self.last_stop = ""  # what ended the last search: iterations, seconds or cpu_seconds
        self.cut_short = 0  # searches the CPU safety net ended, the first of them logged (`_net_fired`)

    def choose(self, decision: Decision) -> Action:
        # a move made without searching leaves no count and no stop behind it (the terminal
        # says when a search's safety net fired, reading `last_stop` after every move)
        self.last_iterations = 0
        self.last_stop = ""
        if len(decision.legal) == 1:
            return decision.legal[0]
        action = self.conventional(decision)
        if action is not None:
            return action
        return self.search(decision)[0].action

    def conventional(self, decision: Decision) -> Action | None:
        """The move the game's convention dictates here (with conventions on), else None."""
        return self._convention(decision) if self._convention is not None else None

    def _deal(self, decision: Decision, rng: random.Random) -> State:
        """A world consistent with the view; with a belief, kept with its plausibility
        (rejection sampling, at most BELIEF_TRIES deals so a surprising table stays cheap)."""
        world = decision.sample(rng)
        plausibility = self._plausibility
        if plausibility is None:
            return world
        seat = decision.seat
        for _ in range(BELIEF_TRIES - 1):
            if rng.random() < plausibility(world, seat):
                break
            world = decision.sample(rng)
        return world

    def search(self, decision: Decision) -> list[Choice]:
        """Run the search; the root's actions, most visited first."""
        with collector_paused():
            return self._search(decision)

    def load_compiled(self) -> None:
        """Load the compiled kernel and solver this bot's searches use (once per process;
        nothing where numba is missing or none is used): one rollout through the kernel and
        one solved deal (`rollout="solve"`), outside any search's time and safety net.  The
        first search calls it; a server's worker calls it ahead of the first decision."""
        game, self._game_to_load = self._game_to_load, None
        if game is None:
            return
        if self.compiled:
            self._run_kernel(game.new_game(seed=0), 1, 1)
        if self.rollout_kind == "solve":
            from ..fast import COMPILED
            if COMPILED:
                self._solved_playout(game.new_game(seed=0), random.Random(0))

    def _search(self, decision: Decision) -> list[Choice]:
        if self._game_to_load is not None:
            self.load_compiled()
        rng = self.rng
        root = Node(None, decision.seat)
        candidates = None
        if self.ranker is not None and len(decision.legal) > self.root_candidates:
            candidates = set(self.ranker.rank(decision)[:self.root_candidates])
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        cpu_deadline = time.thread_time() + self.cpu_net if self.cpu_net else None
        n = 0
        c = self.exploration
        me = decision.seat
        self.last_stop = "iterations"
        while True:
            if self.iterations is not None and n >= self.iterations:
                break
            if n and (n & 7) == 0:
                if deadline is not None and time.perf_counter() >= deadline:
                    self.last_stop = "seconds"
                    break
                if cpu_deadline is not None and time.thread_time() >= cpu_deadline:
                    self.last_stop = "cpu_seconds"
                    self._net_fired(n)
                    break
            if self.guide is not None:
                self._iterate_guided(root, self._deal(decision, rng), rng, c, me, candidates)
            else:
                self._iterate(root, self._deal(decision, rng), rng, c, me, candidates)
            root.visits += 1
            n += 1
        self.last_iterations = n
        legal_keys = set(decision.legal)
        choices = [Choice(ch.action, ch.visits, ch.mean()) for key, ch in root.children.items() if key in legal_keys]
        choices.sort(key=lambda ch: (-ch.visits, -ch.value))
        if not choices:  # budget too small to expand anything
            choices = [Choice(rng.choice(decision.legal), 0, 0.0)]
        return choices

    def _net_fired(self, done: int) -> None:
        """The CPU safety net ended a search after `done` iterations: logged for the bot's first
        such search only, the others counted (`cut_short`).  A bot plays one game (the terminal,
        the lab's and the arena's runners make one a game), and a slow machine's net fires at
        every move: a line a move in the middle of the game.  The record carries the message
        as a Reason (`record.reason`), for an interface to say in its user's language; the
        log's text is the English one."""
        self.cut_short += 1
        if self.cut_short > 1:
            return
        default = "" if self.cpu_seconds is not None else Reason("bot.ismcts.safety_net_default", most=MAX_SECONDS)
        if self.iterations is None:
            reason = Reason("bot.ismcts.safety_net_unbounded", seconds=self.cpu_net, done=done, default=default)
        else:
            reason = Reason("bot.ismcts.safety_net", seconds=self.cpu_net, done=done, iterations=self.iterations,
                            default=default)
        log.warning("%s", reason.render("en"), extra={"reason": reason})

    def _tree_decision(self, world: State, at_root: bool, me: int, rng: random.Random,
                       candidates: set | None) -> tuple[int, list] | None:
        """The next decision of the tree walk, (seat, legal actions), or None at the end.
        Other seats' simultaneous picks on the way are played by the policy: a secret pick
        cannot depend on ours, so it is not a tree decision."""
        while True:
            pending = world.to_move()
            if not pending:
                return None
            seat = pending[0]
            if seat != me and world.simultaneous():
                world.apply_legal(self._policy(world, seat, rng), seat)
                continue
            legal = world.legal_actions(seat)
            if candidates is not None and at_root:
                legal = [a for a in legal if a in candidates]
            return seat, legal

    def _iterate(self, root: Node, world: State, rng: random.Random, c: float, me: int,
                 candidates: set | None) -> None:
        node = root
        path = []
        while True:
            decision = self._tree_decision(world, node is root, me, rng, candidates)
            if decision is None:
                break
            seat, legal = decision
            children = node.children
            if seat != me and self.others_by_policy:
                a = self._policy(world, seat, rng)
                child = children.get(a)
                if child is None:
                    child = children[a] = Node(a, seat)
                world.apply_legal(a, seat)
                path.append(child)
                node = child
                continue
            present: list[Node] = []
            untried = []
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    present.append(child)
            if untried and len(present) < self.widening * math.sqrt(node.visits + 1):
                # progressive widening: the rollout policy's choice first, so a
                # node with a hundred actions is not judged by random replies
                a = self._policy(world, seat, rng)
                if a in children or a not in untried:
                    a = untried[rng.randrange(len(untried))]
                child = Node(a, seat)
                child.avail = 1
                children[a] = child
                world.apply_legal(a, seat)
                path.append(child)
                break
            best, best_ucb = None, -1.0
            for child in present:
                child.avail += 1
                ucb = child.reward / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if ucb > best_ucb:
                    best, best_ucb = child, ucb
            world.apply_legal(best.action, seat)
            path.append(best)
            node = best
        values = self.playout(world, rng)
        for visited in path:
            visited.visits += 1
            visited.reward += values[visited.seat]

    def playout(self, world: State, rng: random.Random) -> list[float]:
        """Each seat's value of a leaf `world`: its result when the game is over, else a
        rollout of the bot's policy (in the compiled kernel where the game has one) and the
        score lead.  Also the leaf value of a guided search that keeps the rollouts
        (`learned:search=N,value=rollout`), so its iterations cost what these do."""
        if not world.to_move():
            return evaluate(world)
        if self.rollout_kind == "solve":
            return self._solved_playout(world, rng)
        if self._kernel_rollout is not None:
            return self._kernel_playout(world, rng)
        rollout(world, self._policy, rng, self.rollout_depth)
        return evaluate(world, self._estimate)

    def _solved_playout(self, world: State, rng: random.Random) -> list[float]:
        """The values of a leaf `world` played out by the game's solver: the policy plays
        until the solver can take the world (at most `rollout_depth` actions), which
        then finishes the deal in progress with every hand open, as if each sampled
        world were the true one (perfect-information Monte Carlo at the leaves)."""
        game = world.game
        for _ in range(self.rollout_depth):
            pending = world.to_move()
            if not pending:
                break
            solved = self._solve(world)
            if solved is not None:
                scores, winners = solved
                return rewards(game, scores, None if winners is None else returns_of(game, winners))
            world.apply_legal(self._policy(world, pending[0], rng), pending[0])
        return evaluate(world, self._estimate)

    def _kernel_playout(self, world: State, rng: random.Random) -> list[float]:
        """The rollout's values, the rollout drawn from a kernel generator seeded by `rng`:
        played by the compiled kernel when it covers the world, else by the engine, whose
        world then draws its chance from that generator too, as the kernel does (the
        sampled world is the iteration's own and ends with this rollout)."""
        x = rng.getrandbits(32) or 1  # xorshift32 never leaves 0
        if self.compiled:
            result = self._run_kernel(world, self.rollout_depth, x)
            if result is not None:
                scores, winners = result
                game = world.game
                return rewards(game, scores, None if winners is None else returns_of(game, winners))
        stream = KernelStream(x)
        world.chance.rng = stream
        rollout(world, self._policy, stream, self.rollout_depth)
        return evaluate(world, self._estimate)

    def _run_kernel(self, world: State, depth: int, x: int):
        """The game's kernel rollout, asked for its score estimate where the search values
        cut-off rollouts by it (only then: other games' kernels take no such setting)."""
        if self._estimate is not None:
            return self._kernel_rollout(world, self.rollout_kind, depth, x, estimate=True)
        return self._kernel_rollout(world, self.rollout_kind, depth, x)


    def _iterate_guided(self, root: Node, world: State, rng: random.Random, c: float, me: int,
                        candidates: set | None) -> None:
        """One PUCT iteration: descend by value + c·prior·√N/(1+n) over the actions legal in
        this world, expand one new child, and back up the guide's value of its position.
        A node's priors come from the first world that reaches it; an action first legal
        in a later world gets the mean prior.  Unvisited actions count the parent's mean."""
        guide = self.guide
        node = root
        path = []
        while True:
            decision = self._tree_decision(world, node is root, me, rng, candidates)
            if decision is None:
                break
            seat, legal = decision
            if node.priors is None:
                node.priors = dict(zip(legal, guide.priors(world, seat, legal)))
            priors = node.priors
            fallback = 1.0 / len(legal)
            sqrt_n = math.sqrt(node.visits + 1)
            children = node.children
            visited = [ch for ch in children.values() if ch.visits]
            fpu = sum(ch.reward / ch.visits for ch in visited) / len(visited) if visited else 0.5
            best_action, best_score = None, -math.inf
            for a in legal:
                child = children.get(a)
                p = priors.get(a, fallback)
                if child is None:
                    score = fpu + c * p * sqrt_n
                else:
                    child.avail += 1
                    score = child.reward / child.visits + c * p * sqrt_n / (1 + child.visits)
                if score > best_score:
                    best_action, best_score = a, score
            child = children.get(best_action)
            world.apply_legal(best_action, seat)
            if child is None:
                child = Node(best_action, seat)
                child.avail = 1
                children[best_action] = child
                path.append(child)
                break
            path.append(child)
            node = child
        values = evaluate(world) if world.is_terminal() else guide.values(world)
        for visited in path:
            visited.visits += 1
            visited.reward += values[visited.seat]
