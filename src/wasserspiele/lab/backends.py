"""Running a study on one of the runner's backends (`bots.runner`: this process, a
local process pool, or a Ray cluster).

Every backend returns the rows sorted into table order, so the results do not
depend on the backend or on `--jobs`.  Ctrl-C stops handing out work and keeps
every game that had finished (`StudyResult.interrupted`).
"""

from __future__ import annotations

import functools
import time
from typing import Any, Callable

from ..bots.runner import BACKENDS, Backend, default_jobs, open_backend, workers_problem
from ..core.errors import BadOption
from ..core.options import plain_int
from .study import Study, StudyResult, mark_worker_death, note_cut_short, run_chunk, take_cut_short

__all__ = ["BACKENDS", "default_jobs", "run_study", "table_order"]


def table_order(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: (r["cond"], r["game"]))


LOCKSTEP_CHUNK = 32  # games a lockstep chunk plays together at least (docs/performance.md, lab)
KERNEL_CHUNK = 128   # at most this many games share one chunk of a kernel lockstep study


def chunk_least(study: Study, tasks: int = 0, jobs: int = 1) -> int:
    """The fewest games in a chunk: a learned-only study plays a chunk's games in lockstep
    (lab/lockstep.py), a few times faster from about a dozen games on, and as long as
    its longest game (a Wildwasser game of the shipped bots lasts 100 to 9,700 actions),
    so the more games share that tail the better; others one by one.  Where the games
    run in the game's compiled kernel (Watten, Wildwasser) a chunk takes each worker's
    share of the `tasks`, up to KERNEL_CHUNK (a 128-game Wildwasser study: 59-73 games
    per CPU second in chunks of 32, 89-111 in 64, 113-135 in one); the Python lockstep
    keeps chunks of 32, where Seven Waters runs fastest (181 against 139 in one of 128)."""
    from .lockstep import all_learned, kernel_plugin
    if not (study.kernels and all_learned(study)):
        return 1
    if kernel_plugin(study.game) is not None:
        return max(LOCKSTEP_CHUNK, min(KERNEL_CHUNK, -(-tasks // max(1, jobs))))
    return LOCKSTEP_CHUNK


def run_study(study: Study, *, jobs: int | None = None, backend: str = "process", address: str | None = None,
              progress: Callable[[int], None] | None = None, runner: Backend | None = None,
              start: int = 0) -> StudyResult:
    """Play every game of the study (from game `start` of each condition on); `progress(n)` is
    called as n more games finish.

    `runner`: an open backend to use (and leave open); otherwise one is opened and closed here."""
    if not isinstance(study, Study):  # a game's name, or the options make_study takes
        raise BadOption(f"run_study: {study!r} is no study; make one with make_study(game, ...)")
    # refused before any game is played: each failed only after the first chunk, its games lost
    if progress is not None and not callable(progress):
        raise BadOption(f"run_study: progress is a function called with the number of games just "
                        f"finished, or None, not {progress!r}")
    if runner is not None and not isinstance(runner, Backend):
        raise BadOption(f"run_study: runner is an open backend (bots.runner.open_backend), or None, not {runner!r}")
    start = plain_int(start)
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= study.games:
        raise BadOption(f"run_study: start is the first game to play, from 0 to {study.games}, not {start!r}")
    began = time.perf_counter()
    own = runner is None
    runner = runner or open_backend(backend, jobs, address)
    try:
        problem = workers_problem(study.bots, runner)
        if problem:
            raise BadOption(problem)
        tasks = study.tasks(start)
        rows, interrupted = runner.run(functools.partial(run_chunk, study), tasks, progress,
                                       least=chunk_least(study, len(tasks), runner.jobs))
    finally:
        if own:
            runner.close()
    cut_short = take_cut_short(rows)  # (the rows as the table has them)
    result = StudyResult(study, table_order(rows), interrupted, time.perf_counter() - began, runner.name,
                         runner.jobs, cut_short=cut_short)
    note_cut_short(result)
    if runner.failure is not None:
        # a worker's death, not Ctrl-C, cut the run short: said in the result, where a caller
        # without the runner in hand (a script, a notebook) saw an interrupted run and no reason
        mark_worker_death(result, runner.failure.reason().render("en"))
    return result
