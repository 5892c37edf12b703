"""Running a study: in this process, on a local process pool, or on a Ray cluster.

Games are sent in chunks (`study.chunked`) so per-task overhead stays small.
Every backend returns the rows sorted into table order, so the results do not
depend on the backend or on `--jobs`.  Ctrl-C stops handing out work and keeps
every chunk that had finished (`StudyResult.interrupted`).
"""

from __future__ import annotations

import itertools
import os
import signal
import time
from concurrent.futures import FIRST_COMPLETED, CancelledError, ProcessPoolExecutor, wait
from typing import Any, Callable

from ..core.errors import BadOption
from .study import Study, StudyResult, chunked, run_chunk

BACKENDS = ("process", "ray")


def default_jobs() -> int:
    """The local cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def _sort(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: (r["cond"], r["game"]))


def run_study(study: Study, *, jobs: int | None = None, backend: str = "process", address: str | None = None,
              progress: Callable[[int], None] | None = None) -> StudyResult:
    """Play every game of the study; `progress(n)` is called as n more games finish."""
    if backend not in BACKENDS:
        raise BadOption(f"--backend: {backend!r} is not one of {', '.join(BACKENDS)}")
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise BadOption(f"--jobs: {jobs} is not a positive number of processes")
    progress = progress or (lambda n: None)
    start = time.perf_counter()
    if backend == "ray":
        rows, interrupted = _run_ray(study, jobs, address, progress)
    elif jobs == 1:
        rows, interrupted = _run_serial(study, progress)
    else:
        rows, interrupted = _run_pool(study, jobs, progress)
    name = backend if backend == "ray" else ("serial" if jobs == 1 else "process")
    return StudyResult(study, _sort(rows), interrupted, time.perf_counter() - start, name, jobs)


def _run_serial(study: Study, progress) -> tuple[list, bool]:
    rows: list[dict[str, Any]] = []
    try:
        for chunk in chunked(study.tasks(), 1):
            rows.extend(run_chunk(study, chunk))
            progress(len(chunk))
    except KeyboardInterrupt:
        return rows, True
    return rows, False


def _ignore_sigint() -> None:
    # Ctrl-C goes to the whole process group; only the parent decides what to keep
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_pool(study: Study, jobs: int, progress) -> tuple[list, bool]:
    rows: list[dict[str, Any]] = []
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_sigint)
    pending: set = set()
    chunks = iter(chunked(study.tasks(), jobs))
    window = 2 * jobs + 1  # chunks in flight: keeps every worker busy, and Ctrl-C has little to wait for
    try:
        for chunk in itertools.islice(chunks, window):
            pending.add(pool.submit(run_chunk, study, chunk))
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                part = fut.result()
                rows.extend(part)
                nxt = next(chunks, None)
                if nxt is not None:
                    pending.add(pool.submit(run_chunk, study, nxt))
                progress(len(part))
    except KeyboardInterrupt:
        # stop handing out work; keep what the workers (which ignore SIGINT) are finishing
        for fut in pending:
            fut.cancel()
        try:
            for fut in pending:
                if not fut.cancelled():
                    try:
                        rows.extend(fut.result())
                    except CancelledError:
                        pass
        except KeyboardInterrupt:  # a second Ctrl-C: stop our own workers now
            for proc in list((getattr(pool, "_processes", None) or {}).values()):
                proc.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        return rows, True
    pool.shutdown()
    return rows, False


def _run_ray(study: Study, jobs: int, address: str | None, progress) -> tuple[list, bool]:
    try:
        import ray
    except ImportError:
        raise BadOption("--backend ray: ray is not installed (pip install 'wasserspiele[ray]')") from None
    started_here = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False)
        started_here = True
    remote_chunk = ray.remote(run_chunk)
    rows: list[dict[str, Any]] = []
    workers = max(jobs, int(ray.cluster_resources().get("CPU", jobs)))
    study_ref = ray.put(study)
    pending = [remote_chunk.remote(study_ref, chunk) for chunk in chunked(study.tasks(), workers, most=256)]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for part in ray.get(done):
                rows.extend(part)
                progress(len(part))
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref, force=True)
        return rows, True
    finally:
        if started_here:
            ray.shutdown()
    return rows, False
