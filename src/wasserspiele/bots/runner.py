"""Many seeded games: seatings, a series of games, and the backends that play them.

One way to play many games serves the arena, the lab, the examples and the tests:

* a `Seating` says which bot sits where in game `i` and which seeds game `i` and
  its bots get — `RotatedSeating` (a new deal every game, the line-up rotated one
  seat on; the lab's default) or `DuplicateSeating` (every rotation of the line-up
  over the teams plays the same deal, so the luck of the deal cancels; the arena's);
* a `Series` is one game configuration, its bots, a seating and a master seed —
  plain picklable data — and `Series.play(i)` plays game `i` through the one loop
  (`bots.match.play_out`), with an optional observer (the lab's measures) hooked
  into every step;
* a `Backend` (in this process, a local process pool, or Ray) plays chunks of work
  and returns what finished; Ctrl-C stops handing out work and keeps every finished
  chunk, and the backend leaves no worker process behind.  A worker process that dies
  (the out-of-memory killer, `kill -9`, a crash in compiled code) cuts the run short the
  same way: the finished chunks are kept and `Backend.failure` says which death it was.

Everything about game `i` derives from the master seed and `i` alone, so results
never depend on the backend or on how games are split into chunks.
"""

from __future__ import annotations

import itertools
import logging
import multiprocessing
import os
import random
import re
import signal
import socket
import sys
import threading
import time
from contextlib import contextmanager
from concurrent.futures import FIRST_COMPLETED, CancelledError, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Protocol, Sequence

from ..core.chance import derive_seed
from ..core.errors import BadOption
from ..core.messages import Reason, shortened, term
from ..core.options import plain_int
from ..core.protocol import Game, State
from ..core.registry import load
from .base import Bot, decision_for, parts
from .limits import MAX_GAMES, MAX_JOBS
from .match import MAX_ACTIONS, play_out

BACKENDS = ("process", "ray")
SEATINGS = ("rotated", "duplicate")
MAX_ARRANGEMENTS = 50_000


class BotMaker(Protocol):
    """What a series seats: a label and a factory (a `BotSpec` is one)."""

    text: str

    def make(self, game: Game, seed: int | None) -> Bot: ...


@dataclass(frozen=True)
class FactoryBot:
    """A bot maker from a plain `make(seed)` callable (examples, tests)."""

    factory: Callable[[int], Bot]
    text: str = "bot"

    def make(self, game: Game, seed: int | None) -> Bot:
        return self.factory(seed)


class Observer(Protocol):
    """Watches one game: `step` after each action when `per_step`, `finish` at the end."""

    per_step: bool

    def step(self, state: State, action: Any, seat: int) -> None: ...

    def finish(self, state: State) -> dict[str, float]: ...


# ----------------------------------------------------------------------------- seatings
def team_rotations(game: Game, n_bots: int) -> list[tuple[int, ...]]:
    """Every rotation of the line-up over the teams: per seat, the index of its bot.

    Bots fill the teams in order (the last bot fills any team left over); each
    rotation moves every bot one team on, so each plays every position."""
    teams = game.teams
    base = [min(i, n_bots - 1) for i in range(len(teams))]
    out = []
    for r in range(len(teams)):
        seat_bot = [0] * game.players
        for t, team in enumerate(teams):
            for s in team:
                seat_bot[s] = base[(t + r) % len(teams)]
        out.append(tuple(seat_bot))
    return out


@dataclass(frozen=True)
class RotatedSeating:
    """A new deal every game; the line-up moves one seat on each game.

    With no more bots than seats the line-up (bots repeated to fill the table)
    rotates, so every bot plays every seat equally often; with more bots than seats
    the games cycle through every ordered choice of bots in a seeded order."""

    name = "rotated"

    def check(self, game: Game, n_bots: int) -> None:
        if n_bots > game.players:
            count = 1
            for k in range(n_bots - game.players + 1, n_bots + 1):
                count *= k
            if count > MAX_ARRANGEMENTS:
                raise BadOption(f"--bots: {n_bots} bots for {game.players} seats make {count} seatings; "
                                f"give at most a few more bots than seats")

    def group(self, game: Game, n_bots: int) -> int:
        return 1

    def lineup(self, game: Game, n_bots: int, index: int, seed: int) -> tuple[int, ...]:
        players = game.players
        if n_bots <= players:
            lineup = [s % n_bots for s in range(players)]
            r = index % players
            return tuple(lineup[(s + r) % players] for s in range(players))
        perms = _arrangements(n_bots, players, seed)
        return perms[index % len(perms)]

    def game_seed(self, seed: int, index: int, game: Game, n_bots: int) -> int:
        return derive_seed(seed, "game", index)

    def bot_seed(self, seed: int, index: int, seat: int) -> int:
        return derive_seed(seed, "bot", index, seat)


@dataclass(frozen=True)
class DuplicateSeating:
    """Duplicate deals: the rotations of the line-up over the teams share one deal.

    (The seed derivations differ from `RotatedSeating`'s only so that the arena's
    published results repeat.)"""

    name = "duplicate"

    def check(self, game: Game, n_bots: int) -> None:
        """One bot a team (a seat where each plays alone; fewer bots fill the teams in
        turn): no bot, or more bots than teams, is refused naming --bots, as a Reason so
        the arena says it in its language."""
        teams = len(game.teams)
        if n_bots == 0:
            raise BadOption(Reason("bot.arena.no_bots"))
        if n_bots > teams:
            code = "bot.arena.bots_for_seats" if teams == game.players else "bot.arena.bots_for_teams"
            raise BadOption(Reason(code, n=n_bots, seats=teams, game=game.title))

    def group(self, game: Game, n_bots: int) -> int:
        return len(game.teams)

    def lineup(self, game: Game, n_bots: int, index: int, seed: int) -> tuple[int, ...]:
        rotations = team_rotations(game, n_bots)
        return rotations[index % len(rotations)]

    def game_seed(self, seed: int, index: int, game: Game, n_bots: int) -> int:
        return derive_seed(seed, index // len(game.teams))

    def bot_seed(self, seed: int, index: int, seat: int) -> int:
        return derive_seed(seed, index, seat)


Seating = RotatedSeating | DuplicateSeating


def seating(name: str) -> Seating:
    """The seating scheme called `name` (rotated | duplicate)."""
    if name == "rotated":
        return RotatedSeating()
    if name == "duplicate":
        return DuplicateSeating()
    # quoted as the project's English quotes a typed value ('x'), not as Python's repr: the
    # tools that take --seating are English-only (cli/language.py), and bots/ does not import cli/
    raise BadOption(f"--seating: {term(name, 'shown', 'en')} is not one of {', '.join(SEATINGS)}")


_perm_cache: dict[tuple[int, int, int], list[tuple[int, ...]]] = {}


def _arrangements(bots: int, players: int, seed: int) -> list[tuple[int, ...]]:
    key = (bots, players, seed)
    if key not in _perm_cache:
        perms = list(itertools.permutations(range(bots), players))
        random.Random(derive_seed(seed, "arrangements", bots, players)).shuffle(perms)
        _perm_cache[key] = perms
    return _perm_cache[key]


# ----------------------------------------------------------------------------- a series of games
@dataclass
class Played:
    """One finished game of a series."""

    index: int
    seed: int
    lineup: tuple[int, ...]     # bot index per seat
    scores: list[float]
    winners: list[int]
    returns: list[float]
    actions: int
    measures: dict[str, float] = field(default_factory=dict)
    state: State | None = field(default=None, repr=False)
    # per seat: the moves its bot made, and those of them a search's CPU safety net cut short
    # (`NetWatch`); empty where no bot searched (the lab's kernel and lockstep games).  How the
    # game was played, not what it was: a kernel's game equals the engine's without them
    bot_moves: tuple[int, ...] = field(default=(), compare=False, repr=False)
    cut_short: tuple[int, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Series:
    """Many games of one configuration: everything needed to play (and re-play) game `i`."""

    game: str
    options: tuple[tuple[str, Any], ...]
    bots: tuple[BotMaker, ...]
    seed: int
    seating: Seating = RotatedSeating()
    observer: Callable[[Game], Observer] | None = None  # a fresh observer per game (picklable)
    max_actions: int = MAX_ACTIONS
    # the caller says the CPU safety net's firings itself (`Played.cut_short`, `cut_short_by_bot`):
    # the search's log record is then kept from logging's last resort, which wrote it in English
    # on stderr through the run's progress display (`NetWatch.listening`)
    net_reported: bool = False

    def load(self) -> Game:
        return load(self.game, **dict(self.options))

    def check(self) -> Game:
        """Load the game and check the seating and every bot once, before any play."""
        if not self.bots:
            raise BadOption("name at least one bot")
        game = self.load()
        self.seating.check(game, len(self.bots))
        return game

    def play(self, index: int, keep_state: bool = False, game: Game | None = None) -> Played:
        game = game or self.load()
        n = len(self.bots)
        lineup = self.seating.lineup(game, n, index, self.seed)
        seed = self.seating.game_seed(self.seed, index, game, n)
        bots = [self.bots[b].make(game, self.seating.bot_seed(self.seed, index, s)) for s, b in enumerate(lineup)]
        observer = self.observer(game) if self.observer else None
        on_step = observer.step if observer is not None and observer.per_step else None
        watch = NetWatch(bots)
        with watch.listening(self.net_reported):
            state = play_out(game.new_game(seed=seed), watch.choose, on_step, self.max_actions, seed,
                             [self.bots[b].text for b in lineup])
        measures = observer.finish(state) if observer is not None else {}
        return Played(index, seed, lineup, list(state.scores()), list(state.winners()), list(state.returns()),
                      len(state.history), measures, state if keep_state else None, tuple(watch.moves),
                      watch.cut_short())

    def play_many(self, indices: Iterable[int]) -> list[Played]:
        game = self.load()
        return [self.play(i, game=game) for i in indices]


# ----------------------------------------------------------------------------- the CPU safety net
NET_LOGGER = "wasserspiele.bots.ismcts"  # where a search logs its safety net (ISMCTSBot `_net_fired`)


class NetWatch(logging.Handler):
    """One game's table of bots (`bots_choose`, counting): each seat's moves, and the moves a
    search's CPU safety net cut short.  A search counts its own (`cut_short`, found in the bot
    as `_searches` finds it); one out of reach (an outside policy's) by its log record, which
    carries a Reason (`record.reason`) and names no seat: it is the seat's that was choosing.
    The net logs only a bot's first firing, so a bot's count is the larger of the two."""

    def __init__(self, bots: Sequence[Any]):
        super().__init__(logging.WARNING)
        self.bots = bots
        self.seat: int | None = None
        self.moves = [0] * len(bots)
        self.logged = [0] * len(bots)
        # a search a bot keeps from game to game (none does now) would bring its earlier counts
        self.before = [_cut_in(bot) for bot in bots]

    def choose(self, state: State, seat: int) -> Any:
        self.seat = seat
        action = self.bots[seat].choose(decision_for(state, seat))
        self.moves[seat] += 1
        return action

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(record, "reason", None) is not None and self.seat is not None:
            self.logged[self.seat] += 1

    @contextmanager
    def listening(self, quiet: bool):
        """With `quiet`, the searches' log records come here during the game and so not to
        logging's last resort (a handler of the user's still gets them: they propagate)."""
        if not quiet:
            yield self
            return
        logger = logging.getLogger(NET_LOGGER)
        logger.addHandler(self)
        try:
            yield self
        finally:
            logger.removeHandler(self)

    def cut_short(self) -> tuple[int, ...]:
        return tuple(max(_cut_in(bot) - before, logged)
                     for bot, before, logged in zip(self.bots, self.before, self.logged))


def _cut_in(bot: Any) -> int:
    return sum(search.cut_short for search in _searches(bot))


def _searches(bot: Any) -> list[Any]:
    """The searches a bot holds (anything counting `cut_short`, as ISMCTSBot does): itself, a
    level's or a learned bot's search, a wrapper's bot (the leaderboard's timing one, a
    level's blundering one): `bots.base.parts`."""
    return [p for p in parts(bot) if isinstance(getattr(p, "cut_short", None), int) and hasattr(p, "last_stop")]


def cut_short_by_bot(played: Iterable[Played], bots: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Per bot (its text in `bots`, indexed as the games' line-ups): the moves the CPU safety
    net cut short and the moves it made, over `played`; only the bots it cut a move of."""
    cut: dict[str, list[int]] = {}
    for p in played:
        for seat, (moves, short) in enumerate(zip(p.bot_moves, p.cut_short)):
            tally = cut.setdefault(bots[p.lineup[seat]], [0, 0])
            tally[0] += short
            tally[1] += moves
    return {bot: (short, moves) for bot, (short, moves) in cut.items() if short}


def add_cut_short(into: dict[str, tuple[int, int]], more: dict[str, tuple[int, int]]) -> None:
    """`cut_short_by_bot`'s counts (or the lab's `take_cut_short`) of another part of the same
    run (a batch, a line-up), added."""
    for bot, (short, moves) in more.items():
        had = into.get(bot, (0, 0))
        into[bot] = (had[0] + short, had[1] + moves)


def cut_short_reasons(cut: dict[str, tuple[int, int]]) -> list[Reason]:
    """`cut_short_by_bot`'s counts as the run's report says them, one a bot: "bot 'expert': 12 of
    its 3,400 moves were cut short by its search's CPU safety net, …" (a Reason: said in the
    command's language)."""
    return [Reason("bot.runner.cut_short", bot=bot, n=short, moves=moves) for bot, (short, moves) in cut.items()]


# ----------------------------------------------------------------------------- backends
def default_jobs() -> int:
    """The local cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def chunked(tasks: Sequence[Any], jobs: int, most: int = 64, least: int = 1) -> list[list[Any]]:
    """Split tasks into chunks: about 16 per worker so the load balances, but at most
    `most` games each so progress stays lively and an interrupt loses little, and at
    least `least` (work that plays a chunk's games together gains from a few more)."""
    size = max(1, least, min(most, len(tasks) // max(1, jobs * 16)))
    return [list(tasks[k:k + size]) for k in range(0, len(tasks), size)]


Work = Callable[[list[Any]], list[Any]]   # plays one chunk of tasks; picklable for pools and Ray
Progress = Callable[[int], None]


@dataclass(frozen=True)
class WorkerDied:
    """A worker process died under a run (the kernel's out-of-memory killer, `kill -9`, a crash
    in a compiled kernel): the run stopped handing out work and kept the finished chunks.

    `exitcode` as `multiprocessing` keeps it: -N for signal N, else the process's exit code;
    None where it is not known (a Ray worker)."""

    exitcode: int | None = None

    def reason(self) -> Reason:
        """What happened, in words for the user: "a worker process died, killed by signal SIGKILL"."""
        if self.exitcode is None:
            return Reason("bot.runner.worker_died")
        if self.exitcode < 0:
            try:
                name = signal.Signals(-self.exitcode).name
            except ValueError:  # a real-time signal has no name
                name = str(-self.exitcode)
            return Reason("bot.runner.worker_killed", signal=name)
        return Reason("bot.runner.worker_exited", status=self.exitcode)


class WorkerDiedError(Exception):
    """Raised by a caller that cannot use a run a worker's death cut short (a leaderboard's
    pairing): `died` says which death it was."""

    def __init__(self, died: WorkerDied):
        super().__init__(died.reason())
        self.died = died


class Backend:
    """Plays chunks of work and collects the results; a context manager that frees its workers."""

    name = "serial"

    def __init__(self, jobs: int = 1):
        self.jobs = jobs
        # why the last run was cut short if not by an interrupt: a worker process died (the run
        # then returns as an interrupted one, with every finished chunk, so that every caller
        # keeps and reports them; the command says which it was, and exits with its own status)
        self.failure: WorkerDied | None = None

    def __enter__(self) -> "Backend":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Free the workers (a backend can run several batches before)."""

    def run(self, work: Work, tasks: Sequence[Any], progress: Progress | None = None,
            least: int = 1) -> tuple[list, bool]:
        """Results of every finished chunk (in no set order) and whether the run was cut short (by
        Ctrl-C or SIGTERM, or by a worker process's death: then `failure` says which); chunks of at
        least `least` tasks."""
        progress = progress or (lambda n: None)
        out: list[Any] = []
        try:
            for chunk in chunked(tasks, 1, least=least):
                out.extend(work(chunk))
                progress(len(chunk))
        except KeyboardInterrupt:
            return out, True
        return out, False


def ignore_interrupts() -> None:
    """A worker's: Ctrl-C, and the hangup of a closed terminal, go to the whole process group;
    only the parent decides what to keep (cli/entry.py takes both as an interrupt and keeps the
    games its workers finish).  A worker forked from the command inherited the command's
    hangup handler, but one started by "spawn" or a fork server began with the default action
    and died of the hangup, its games under way lost.  One whose parent dies of it ends all
    the same (exit_with_parent)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):  # (not on Windows)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)


PARENT_WATCH_EVERY = 0.5  # seconds between a worker's looks at its parent


def exit_with_parent(parent: int | None = None) -> None:
    """End this worker process within about a second of the process that started it.

    A command killed without a chance to stop its pool (SIGKILL, the out-of-memory killer, a crash)
    left its workers orphaned, playing the chunk they held and whatever the pool's call queue had,
    both cores busy for minutes.  A thread of the worker watches two signs, as the start method
    gives them: its parent's pid `parent` (by default its parent now), which changes as an orphan is
    handed to another parent (init, a subreaper) — a forked worker's sign; and multiprocessing's
    sentinel of the starting process, a pipe that ends with it — a spawned worker's, and the only one
    under "forkserver", whose server stays alive as long as its workers do.  (A forked worker's
    sentinel is shared with the workers forked after it, so it ends only after them.)
    Not prctl(PR_SET_PDEATHSIG): Linux only, and it fires when the *thread* that started the worker
    ends, not its process."""
    if parent is None:
        parent = os.getppid()
    starter = multiprocessing.parent_process()
    sentinel = getattr(starter, "sentinel", None)
    threading.Thread(target=_watch_parent, args=(parent, sentinel), daemon=True, name="parent-watch").start()


def _watch_parent(parent: int, sentinel: int | None) -> None:
    from multiprocessing.connection import wait as ready
    while os.getppid() == parent:
        if sentinel is None:
            time.sleep(PARENT_WATCH_EVERY)
        elif ready([sentinel], PARENT_WATCH_EVERY):
            break
    # at once: nobody takes the results, and the interpreter's exit would wait for the games
    os._exit(1)


def _start_pool_worker(parent: int | None) -> None:
    ignore_interrupts()
    exit_with_parent(parent)


def _start_helpers_deaf_to_hangups(method: str) -> None:
    """Start multiprocessing's helper processes — the resource tracker ("spawn", "forkserver")
    and the fork server, the workers' parent — ignoring SIGHUP, as the workers do
    (ignore_interrupts): a new program starts with the default action of a signal its starter
    handles, and a closed terminal's hangup killed them.  The fork server's death broke the
    pool (every chunk under way lost, its workers ended with it); the resource tracker's
    printed a traceback as it was started again.  They end when this process ends (their pipes
    close), so ignoring the hangup keeps nothing alive.  Only the main thread sets handlers;
    elsewhere they start as before."""
    if method == "fork" or not hasattr(signal, "SIGHUP") or threading.current_thread() is not threading.main_thread():
        return
    from multiprocessing import forkserver, resource_tracker

    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        resource_tracker.ensure_running()
        if method == "forkserver":
            forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGHUP, previous)


class PoolBackend(Backend):
    """A local process pool with a window of chunks in flight; its workers end with this process
    (also when it is killed without the chance to stop them)."""

    name = "process"

    def __init__(self, jobs: int):
        super().__init__(jobs)
        # the workers' parent is this process, except under "forkserver", whose server starts them
        # and outlives this process while they live (there the sentinel tells: exit_with_parent);
        # given here, not read in the worker, so that one started as this process died is not
        # taken for ours
        context = multiprocessing.get_context()
        parent = None if context.get_start_method() == "forkserver" else os.getpid()
        _start_helpers_deaf_to_hangups(context.get_start_method())
        self.pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_start_pool_worker,
                                        initargs=(parent,))
        # every worker process the pool started, by pid: the pool forgets them as it shuts down,
        # and a dead worker's exit code is read from them after it has
        self.workers: dict[int, Any] = {}

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)

    def _submit(self, work: Work, chunk: list[Any]):
        fut = self.pool.submit(work, chunk)
        self.workers.update(getattr(self.pool, "_processes", None) or {})
        return fut

    def run(self, work: Work, tasks: Sequence[Any], progress: Progress | None = None,
            least: int = 1) -> tuple[list, bool]:
        progress = progress or (lambda n: None)
        out: list[Any] = []
        if self.failure is not None:  # a pool a dead worker broke plays nothing more
            return out, True
        pending: set = set()  # submitted and not yet taken into `out`
        chunks = iter(chunked(tasks, self.jobs, least=least))
        window = 2 * self.jobs + 1  # keeps every worker busy, and Ctrl-C has little to wait for
        try:
            try:
                for chunk in itertools.islice(chunks, window):
                    pending.add(self._submit(work, chunk))
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in done:
                        part = fut.result()
                        pending.discard(fut)
                        out.extend(part)
                        progress(len(part))
                        nxt = next(chunks, None)
                        if nxt is not None:
                            pending.add(self._submit(work, nxt))
            except BrokenProcessPool:
                # a worker died (the out-of-memory killer, kill -9, a crash in compiled code): the
                # pool failed every chunk under way and takes no more, where its traceback lost every
                # finished game; the chunks that finished before are kept, the run ends cut short
                self._keep_finished(pending, out, progress)
                self.failure = WorkerDied(self._dead_worker_exitcode())
                return out, True
        except KeyboardInterrupt:
            # stop handing out work; keep what the workers (which ignore SIGINT) are finishing
            self.failure = None  # the user stopped it (also while a worker death was being taken in)
            processes = list((getattr(self.pool, "_processes", None) or {}).values())
            manager = getattr(self.pool, "_executor_manager_thread", None)
            # the pool's manager thread cancels the chunks not yet started, on its own thread: one
            # cancelled from here that the pool then failed (its workers killed) raised
            # InvalidStateError in that thread (Python 3.11), a traceback after the interrupt's line
            self.pool.shutdown(wait=False, cancel_futures=True)
            try:
                for fut in pending:
                    try:
                        out.extend(fut.result())
                    except (CancelledError, BrokenProcessPool):
                        # BrokenProcessPool: the interrupt was a SIGTERM to the whole process
                        # group (`kill -- -PGID`, a service manager), which ended the workers
                        # too (they ignore SIGINT only); their games under way are lost, the
                        # finished ones kept, where the pool's traceback lost them all
                        pass
            except KeyboardInterrupt:  # a second Ctrl-C: stop our own workers now
                for proc in processes:
                    proc.kill()  # at once: SIGTERM waits for the worker's Python to take it
            # the manager thread ends quickly now (no work left, or no worker); left running, it
            # closed its wake-up pipe as the interpreter's exit wrote to it, an "Exception
            # ignored … Bad file descriptor" traceback after the interrupt's line
            if manager is not None:
                manager.join()
            return out, True
        return out, False

    @staticmethod
    def _keep_finished(pending: set, out: list[Any], progress: Progress) -> None:
        """Take into `out` every chunk of `pending` that finished before the pool broke (the
        pool failed the others with BrokenProcessPool)."""
        for fut in list(pending):
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                part = fut.result()
                pending.discard(fut)
                out.extend(part)
                progress(len(part))

    def _dead_worker_exitcode(self) -> int | None:
        """The exit code of the worker whose death broke the pool (-N: signal N), None if unknown.

        The pool ends the workers left with SIGTERM once one has died, so a code other than
        SIGTERM's is the dead worker's; when every worker ended by SIGTERM, the dead one did too.
        The pool is shut down first: it has then reaped every worker, and each has its code."""
        self.pool.shutdown(wait=True, cancel_futures=True)
        codes = [proc.exitcode for proc in self.workers.values()]
        own = [code for code in codes if code not in (None, 0, -signal.SIGTERM)]
        if own:
            return own[0]
        return -signal.SIGTERM if -signal.SIGTERM in codes else None


def _call(work: Work, chunk: list[Any]) -> list[Any]:
    return work(chunk)


class RayBackend(Backend):
    """A Ray cluster: joins `address`, or starts a local Ray instance that `close` stops.

    A local instance is started with its processes in their own session, so a Ctrl-C
    at the terminal reaches this process only: the run stops handing out work, keeps
    the finished chunks, and `close` shuts Ray down with nothing left running."""

    name = "ray"

    def __init__(self, jobs: int, address: str | None = None, quiet: bool = False):
        super().__init__(jobs)
        try:
            import ray
        except ImportError:
            raise BadOption("--backend ray: ray is not installed (pip install 'wasserspiele[ray]')") from None
        self.ray = ray
        self.started_here = False
        if address == "local":  # Ray's word for "start a local instance", as without --address
            address = None
        if not ray.is_initialized():
            if address:
                _reachable(address, _bootstrap_address(ray, address))
            # the raylet, GCS and workers inherit SIGINT ignored: the terminal's Ctrl-C
            # (sent to the whole process group) must not crash them under our feet
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
            # quiet: Ray's own start-up lines ("Started a local Ray instance", its token
            # warning) are held back as the caller's progress is; its errors still show
            settings = {"log_to_driver": False, "logging_level": logging.ERROR if quiet else logging.INFO}
            try:
                if address:
                    ray.init(address=address, **settings)
                else:
                    ray.init(num_cpus=jobs, include_dashboard=False, **settings)
            except Exception as exc:
                # Ray says why in its own words (a ValueError, ConnectionError or RuntimeError
                # with a traceback): the user gets one line naming what they gave, and no half
                # joined or half started Ray is left behind
                if ray.is_initialized():
                    ray.shutdown()
                raise BadOption(_ray_failure(address, exc)) from None
            finally:
                signal.signal(signal.SIGINT, previous)
            self.started_here = True
        self.workers = max(jobs, int(ray.cluster_resources().get("CPU", jobs)))
        self.remote = ray.remote(_call)

    def close(self) -> None:
        if self.started_here and self.ray.is_initialized():
            self.ray.shutdown()

    def run(self, work: Work, tasks: Sequence[Any], progress: Progress | None = None,
            least: int = 1) -> tuple[list, bool]:
        ray = self.ray
        progress = progress or (lambda n: None)
        out: list[Any] = []
        work_ref = ray.put(work)
        pending = [self.remote.remote(work_ref, chunk) for chunk in chunked(tasks, self.workers, most=256, least=least)]
        # a worker process that died: Ray plays its task again in a new worker (3 times, Ray's
        # max_retries); one that dies every time (the out-of-memory killer again) ends the run as
        # the process pool's dead worker does, the finished chunks kept
        died = tuple(getattr(ray.exceptions, name) for name in ("WorkerCrashedError", "OutOfMemoryError")
                     if hasattr(ray.exceptions, name))
        self.failure = None
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                try:
                    parts = ray.get(done)
                except died:
                    for ref in pending:
                        ray.cancel(ref, force=True)
                    self.failure = WorkerDied(None)
                    return out, True
                except (ray.exceptions.TaskCancelledError, ray.exceptions.RayTaskError) as exc:
                    # a worker that caught the terminal's SIGINT itself: an interrupt, not a failure
                    if isinstance(exc, ray.exceptions.RayTaskError) and not isinstance(exc.cause, KeyboardInterrupt):
                        raise
                    raise KeyboardInterrupt from exc
                for part in parts:
                    out.extend(part)
                    progress(len(part))
        except KeyboardInterrupt:
            for ref in pending:
                ray.cancel(ref, force=True)
            return out, True
        return out, False


def open_backend(backend: str = "process", jobs: int | None = None, address: str | None = None,
                 quiet: bool = False) -> Backend:
    """The backend called `backend` with `jobs` workers (process with one job: this process);
    `quiet`: it starts without lines of its own (Ray's start-up log)."""
    if backend not in BACKENDS:
        raise BadOption(f"--backend: {term(backend, 'shown', 'en')} is not one of {', '.join(BACKENDS)}")
    jobs = default_jobs() if jobs is None else plain_int(jobs)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise BadOption(f"--jobs: {jobs!r} is not a positive number of processes")
    if jobs > MAX_JOBS:
        raise BadOption(f"--jobs: {Reason('cli.flags.jobs_too_many', jobs=jobs, most=MAX_JOBS)}")
    problem = address_problem(backend, address)
    if problem:
        raise BadOption(problem)
    if backend == "ray":
        return RayBackend(jobs, address, quiet)
    return Backend(1) if jobs == 1 else PoolBackend(jobs)


def address_problem(backend: str, address: str | None) -> str | None:
    """Why `--address` cannot be used with `backend` (None if it can): it belongs to the Ray
    backend only, in a form Ray reads.  The lab's command line asks it before any game."""
    if address is None:
        return None
    if backend != "ray":
        return "--address needs --backend ray"
    return ray_address_problem(address)


# ----------------------------------------------------------------------------- what workers can be sent
def _main_importable(backend: str) -> bool:
    """Whether worker processes of `backend` can import this program's `__main__`: a forked
    worker has it already, a spawned one (macOS, Windows, "spawn" or "forkserver") runs its
    file again, and an interactive session's (a notebook's, `python -c`) has no file; Ray's
    workers never run it."""
    if backend == "ray":
        return False
    if multiprocessing.get_start_method() == "fork":
        return True
    return getattr(sys.modules.get("__main__"), "__file__", None) is not None


def workers_problem(makers: Sequence[Any], backend: Backend) -> Reason | None:
    """Why the bots `makers` cannot be played by `backend`'s worker processes, or None: an
    outside policy named in `__main__` (`python:__main__:make`, a notebook's own factory)
    reaches a spawned worker (macOS, Windows) or a Ray one as a name its `__main__` lacks;
    found before the first game, where the first chunk's traceback came from a worker."""
    if isinstance(backend, PoolBackend):
        kind = "process"
    elif backend.name == "ray":
        kind = "ray"
    else:
        return None  # this process plays every game
    if _main_importable(kind):
        return None
    for maker in makers:
        if getattr(maker, "kind", "") != "python":
            continue
        module, _, name = str(dict(maker.params).get("factory", "")).rpartition(":")
        if module.strip() == "__main__":
            return Reason("bot.runner.in_main", bot=maker.text, name=name, how=_how(kind))
    return None


def _how(kind: str) -> str:
    return "Ray" if kind == "ray" else repr(multiprocessing.get_start_method())


# ----------------------------------------------------------------------------- joining a Ray cluster
RAY_ADDRESS_FORMS = "auto, HOST:PORT (the head node's, e.g. 10.0.0.5:6379) or ray://HOST:PORT (Ray Client)"
# how long a cluster's head may take to accept a connection: Ray itself retries an address
# nobody answers at for about 14 minutes (20 attempts of some 40 s) before it gives up
RAY_CONNECT_TIMEOUT = 10.0
_HOST = re.compile(r"\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?")


def _host_port(address: str) -> tuple[str, int] | None:
    """HOST and PORT of `HOST:PORT` or `ray://HOST:PORT` (an IPv6 host in brackets); None
    if `address` is neither."""
    rest = address.removeprefix("ray://")
    host, sep, port = rest.rpartition(":")
    if not sep or not _HOST.fullmatch(host) or not (port.isascii() and port.isdigit()) \
            or not 0 < int(port) < 65536:
        return None
    return host.strip("[]"), int(port)


def ray_address_problem(address: str) -> str | None:
    """Why `address` is no address `--address` can join (None if it is one): Ray's forms
    `auto`, `local`, `HOST:PORT` and `ray://HOST:PORT`, checked before Ray starts, where
    Ray met "nonsense" with a ValueError traceback and "host:x" with worse."""
    if address in ("auto", "local") or _host_port(address) is not None:
        return None
    return (f"--address: {term(address, 'shown', 'en')} is not a Ray cluster address; expected "
            f"{RAY_ADDRESS_FORMS}, or no --address to start a local Ray instance")


def _bootstrap_address(ray: Any, address: str) -> str | None:
    """The HOST:PORT that Ray would connect to for `address`: `auto` the cluster Ray finds
    (RAY_ADDRESS, then the last one started on this machine), a local host this machine's
    own address as Ray's cluster listens there; None if unknown."""
    if address.startswith("ray://"):
        return address
    try:
        return ray._private.services.canonicalize_bootstrap_address(address)
    except Exception:  # no cluster for `auto`, or a Ray whose internals moved: ray.init says which
        return None if address == "auto" else address


def _reachable(address: str, bootstrap: str | None) -> None:
    """Refuse, within RAY_CONNECT_TIMEOUT, an address where nothing accepts a connection:
    Ray would retry it for about 14 minutes, printing warnings, before its traceback."""
    where = _host_port(bootstrap) if bootstrap else None
    if where is None:
        return
    try:
        socket.create_connection(where, timeout=RAY_CONNECT_TIMEOUT).close()
    except socket.gaierror:
        raise BadOption(f"--address {term(address, 'shown', 'en')}: there is no host {where[0]}") from None
    except OSError as exc:
        why = (f"nothing answered within {RAY_CONNECT_TIMEOUT:g} s" if isinstance(exc, TimeoutError)
               else exc.strerror or str(exc))
        raise BadOption(f"--address {term(address, 'shown', 'en')}: no Ray cluster to join there ({why}); is "
                        f"the head node running (ray start --head)?") from None


def _ray_failure(address: str | None, exc: Exception) -> str:
    """Ray's reason for not starting or joining, as one line naming what the user gave."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    if "ray[client]" in text:  # a minimal `pip install ray`: no Ray Client
        return (f"--address {term(address, 'shown', 'en')}: joining through Ray Client needs "
                f"pip install 'ray[client]'")
    text = shortened(text, 200)
    if address is None:
        return f"--backend ray: Ray did not start a local instance: {text}"
    return f"--address {term(address, 'shown', 'en')}: could not join the Ray cluster: {text}"


# ----------------------------------------------------------------------------- convenience
def games_problem(games: Any) -> str | None:
    """Why `games` is no number of games a run plays (None if it is one), in the command line's
    words: a whole number from 1 to MAX_GAMES."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        return f"--games: {games!r} is not a positive number of games"
    if games > MAX_GAMES:
        return f"--games: {Reason('cli.flags.games_too_many', n=games, most=MAX_GAMES)}"
    return None


def whole_groups(games: int, group: int) -> int:
    """`games` rounded up to whole groups: duplicate deals play one group per deal."""
    return -(-games // group) * group


def run_series(series: Series, games: int, *, jobs: int | None = 1, backend: str = "process",
               progress: Progress | None = None, runner: Backend | None = None) -> tuple[list[Played], bool]:
    """Play games 0..games-1 of `series` (rounded up to whole duplicate groups); sorted by index, and
    whether the run was cut short.  `runner`: an open backend to use (and leave open), whose `failure`
    then says whether a worker's death cut it short; otherwise one is opened and closed here."""
    game = series.check()
    total = whole_groups(games, series.seating.group(game, len(series.bots)))
    if runner is not None:
        played, interrupted = runner.run(series.play_many, list(range(total)), progress)
    else:
        with open_backend(backend, jobs) as runner:
            played, interrupted = runner.run(series.play_many, list(range(total)), progress)
    return sorted(played, key=lambda p: p.index), interrupted


def seat_rotated_win_rate(game: Game, make_a: Callable[[int], Bot], make_b: Callable[[int], Bot], games: int,
                          seed: int = 0) -> tuple[float, int]:
    """Share of the available win credit taken by bot A, seated in every team in turn on
    duplicate deals against B bots in the other seats (team games: A plays one team).

    Returns (A's mean share of wins, games played).  make_a/make_b take a seed."""
    series = Series(game.name, tuple(game.options.items()), (FactoryBot(make_a, "A"), FactoryBot(make_b, "B")),
                    seed, DuplicateSeating())
    series.seating.check(game, len(series.bots))
    total = 0.0
    for i in range(games):
        p = series.play(i, game=game)
        team = [s for s, b in enumerate(p.lineup) if b == 0]
        total += sum(p.returns[s] for s in team) / len(team)
    return total / games, games
