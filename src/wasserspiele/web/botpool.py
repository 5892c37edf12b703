"""Bots think in a bounded pool of worker processes, never on the event loop.

A search bot holds a core for as long as it thinks; in a thread it would also hold the
interpreter lock and delay every human's move on the same server.  In a worker process
it only takes its share of the CPUs — at a lower priority (nice 10), so that the server
process, where people's moves are handled, runs first when the machine is busy — and at
most `workers` bots think at once however many tables want one (the others wait their
turn in the pool's queue).

A worker gets the table's record (its setup stays in the server's processes, the bot
sees only `decision_for`'s view) and rebuilds the position by replay, so nothing but
JSON crosses the process boundary.  A fresh, seeded bot makes every decision (its
helpers have generators of their own), so a bot chooses the same after a restart, or in
another process, as without one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import contextlib
from concurrent.futures.process import BrokenProcessPool
import multiprocessing
import os
import random
import signal
import threading
import time
from typing import Any

from ..bots.base import decision_for
from ..bots.levels import bot_for_level
from ..bots.runner import exit_with_parent, ignore_interrupts
from ..core.messages import shown
from ..core.records import replay

def think(record: dict[str, Any], seat: int, level: str, bot_seed: int, decision_key: str) -> str:
    """The bot's choice for `seat` in the position after `record`'s actions (in a worker)."""
    # while the warm-up runs, never beside it (_building): at most one game's warm-up waited for
    with _building if _warming is not None and _warming.is_alive() else contextlib.nullcontext():
        state = replay(record)
        bot = bot_for_level(level, state.game, seed=bot_seed)
        bot.rng = random.Random(decision_key)
        return str(bot.choose(decision_for(state, seat)))


BOT_NICENESS = 10  # bot workers yield the CPU to the server process, where people's moves are handled


def _warm_bots() -> None:
    """Build every level's bot for every game once and load the compiled kernels its
    searches use, so that the first decision of a game in this worker does not pay for
    them (numba's import and its disk cache: Seven Waters' expert took 0.7 CPU-s at its
    first decision in a worker, 0.2 after, so a fresh server's first hint several times
    the next ones; docs/web-server.md); a game that fails here is built by its first
    decision, as before, and says why there.  Only what each bot holds for the process is
    kept (its kernels, its weights): no bot, no decision."""
    from ..bots.levels import level_names
    from ..core.registry import game_names, load
    for name in game_names():
        with _building:
            try:
                game = load(name)
                for level in level_names():
                    bot = bot_for_level(level, game, seed=0)
                    # a search bot loads them before its first search, not when it is built
                    if hasattr(bot, "load_compiled"):
                        bot.load_compiled()
            except Exception:  # pragma: no cover - a plugin's game or bot that cannot be built
                continue
            _warmed.append(name)


_warming: threading.Thread | None = None  # in a worker: the thread running `_warm_bots`
_warmed: list[str] = []                   # in a worker: the games `_warm_bots` has built
# In a worker: held by the warm-up while it builds one game's bots, and by a decision while
# the warm-up runs, so the two never run at once: two threads importing the modules of one
# package may each be handed the other's half-initialised module (Python's answer to an
# import deadlock), and a decision would share the CPU with the warm-up.
_building = threading.Lock()


def _warm_in_background() -> int:
    """Start `_warm_bots` in a thread of this worker (once): a decision arriving meanwhile
    waits for the game the warm-up is building (a fraction of a second), not for all of
    them, and then runs alone (`_building`): its bot chooses as it would have without."""
    global _warming
    if _warming is None:
        _warming = threading.Thread(target=_warm_bots, name="warm-bots", daemon=True)
        _warming.start()
    return os.getpid()


def warmed_games(timeout: float) -> list[str]:
    """In a worker: the games whose bots the warm-up built, once it has ended (`timeout`
    seconds at the most); [] without a warm-up (a pool not warmed)."""
    if _warming is not None:
        _warming.join(timeout)
    return list(_warmed)


def _worker_start(server_pid: int, warm: bool = False) -> None:
    # A terminal's Ctrl-C reaches the whole process group, the workers too: the server stops
    # them itself (close), and a worker ending on the KeyboardInterrupt printed its traceback
    # (and broke the pool).  Blocked since its spawn (`_spawning`), it is ignored from now on.
    ignore_interrupts()
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        os.nice(BOT_NICENESS)
    except OSError:  # not permitted here: the pool still bounds how many bots think at once
        pass
    # A server that dies without closing its pool (kill -9, a crash, an interpreter exit that
    # skips the pool's shutdown) must not leave its bots behind, idle forever on the queue.
    exit_with_parent(server_pid)
    if warm:  # a server's pool (BotPool.warm): every worker, a replacement for one that died too
        _warm_in_background()


@contextlib.contextmanager
def _spawning():
    """SIGINT blocked in this thread while the pool may spawn a worker: a spawned process
    keeps the mask across its start, so a Ctrl-C while it imports the bots (a second or
    more) waits until `_worker_start` ignores it.  The server's own Ctrl-C is delivered as
    the block ends."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _ready() -> int:
    return os.getpid()  # the bots' modules were imported with this one's


class BotPool:
    """`workers` processes (kind "process"), threads ("thread", for tests) or the event loop
    itself ("inline", deterministic single-threaded tests)."""

    KINDS = ("process", "thread", "inline")

    def __init__(self, workers: int, kind: str = "process"):
        if kind not in self.KINDS:
            raise ValueError(f"bot pool kind {shown(kind)}: one of {', '.join(self.KINDS)}")
        self.workers = max(1, workers)
        self.kind = kind
        self._executor: cf.Executor | None = None
        self._warm = False  # the workers build every bot as they start (`warm`)

    def _pool(self) -> cf.Executor:
        if self._executor is None:  # started by warm() at start-up, or by the first decision
            if self.kind == "process":
                # spawn: the server has threads (storage, listener); forking them is unsafe
                self._executor = cf.ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                                        initializer=_worker_start,
                                                        initargs=(os.getpid(), self._warm))
            else:
                self._executor = cf.ThreadPoolExecutor(self.workers, thread_name_prefix="bot")
        return self._executor

    async def choose(self, record: dict[str, Any], seat: int, level: str, bot_seed: int, decision_key: str) -> str:
        try:
            return await asyncio.wrap_future(self.submit(record, seat, level, bot_seed, decision_key))
        except BrokenProcessPool:
            # a worker died (killed, out of memory): the next decision gets a fresh pool
            self._executor = None
            raise

    def submit(self, record: dict[str, Any], seat: int, level: str, bot_seed: int, decision_key: str) -> cf.Future:
        """`think` as a future of the pool (`choose` awaits it; a hint keeps it): cancelling
        it takes a search that has not started out of the queue; one already running
        finishes (a worker is not stopped mid-search), and the future says when the worker
        is free again."""
        if self.kind == "inline":
            done: cf.Future = cf.Future()
            try:
                done.set_result(think(record, seat, level, bot_seed, decision_key))
            except Exception as exc:  # pragma: no cover - the bots' own errors
                done.set_exception(exc)
            return done
        with _spawning():
            try:
                future = self._pool().submit(think, record, seat, level, bot_seed, decision_key)
            except BrokenProcessPool:  # a worker died since: a fresh pool takes it
                self._executor = None
                future = self._pool().submit(think, record, seat, level, bot_seed, decision_key)
        return future

    def warm(self) -> None:
        """Start the workers now (a spawned process imports the bots for a second or more),
        so that the first bot to move does not wait for it, and have each build every bot
        in the background (`_warm_bots`: the compiled kernels loaded), so that the first
        decision or hint of a game does not either.  The server's readiness waits for
        neither.  Workers started before (a bot of a table resumed at start-up asked first)
        are told to warm up by a task (of those, a worker may take two and another none)."""
        if self.kind == "process":
            self._warm = True
            fresh = self._executor is None
            pool = self._pool()
            with _spawning():
                for _ in range(self.workers):
                    pool.submit(_ready if fresh else _warm_in_background)

    def close(self) -> None:
        if self._executor is not None:
            executor, self._executor = self._executor, None
            # a worker mid-search would finish its decision first (a second or more) and
            # hold up the server's exit: nobody waits for that decision any more
            processes = dict(getattr(executor, "_processes", None) or {})
            manager = getattr(executor, "_executor_manager_thread", None)
            executor.shutdown(wait=False, cancel_futures=True)
            if processes and manager is not None:
                # Terminated workers make the pool's manager thread fail every pending
                # future; before Python 3.12 that raised InvalidStateError on one cancelled
                # meanwhile (a bot whose table was closed, a hint nobody waits for), a
                # traceback at every Ctrl-C while bots think.  The shutdown just asked has
                # the manager drop the cancelled ones itself (an instant after its wakeup):
                # the workers are ended once it has, or after half a second.  (Only read
                # here: the manager iterates and replaces that dict in its own thread.)
                deadline = time.monotonic() + 0.5
                while time.monotonic() < deadline and _cancelled_pending(manager):
                    time.sleep(0.005)
            for process in processes.values():
                process.terminate()
            if processes and manager is not None:
                manager.join(timeout=2)


def _cancelled_pending(manager: threading.Thread) -> bool:
    """Whether a process pool's manager thread still holds a cancelled future (CPython's
    `pending_work_items`; a pool without it has nothing to wait for)."""
    items = getattr(manager, "pending_work_items", None)
    return isinstance(items, dict) and any(item.future.cancelled() for item in list(items.values()))
