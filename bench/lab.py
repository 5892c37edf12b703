"""Lab throughput: games per second on 1 and 2 local processes, the compiled kernel
against the engine for the same study, and the 10,000-round study.

    .venv/bin/python bench/lab.py                 # random bots, 1 vs 2 processes; kernel vs engine
    .venv/bin/python bench/lab.py --rounds-study  # also: 10,000 one-round Wasserloch games, heuristic bots

Prints its figures; nothing here asserts a speed (docs/performance.md, section "Lab").
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from wasserspiele.lab import make_study, run_study  # noqa: E402
from wasserspiele.lab.backends import default_jobs  # noqa: E402


def cpu_seconds() -> float:
    """CPU time of this process and of its reaped children (the pool's workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def rate(study, jobs: int, repeat: int) -> tuple[float, float]:
    """Best of `repeat` runs: (games per wall-clock second, games per CPU second).

    The machine is shared: the best run is the least disturbed, and games per CPU
    second shows the parallel overhead whatever the other load is."""
    best = best_cpu = 0.0
    for _ in range(repeat):
        t, c = time.perf_counter(), cpu_seconds()
        result = run_study(study, jobs=jobs)
        best = max(best, len(result.rows) / (time.perf_counter() - t))
        best_cpu = max(best_cpu, len(result.rows) / (cpu_seconds() - c))
    return best, best_cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="wasserloch")
    ap.add_argument("--games", type=int, default=3000, help="games per throughput run (default 3000)")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--rounds-study", action="store_true", help="time 10,000 one-round Wasserloch games, heuristic bots")
    args = ap.parse_args()
    print(f"cores available: {default_jobs()} (os.cpu_count {os.cpu_count()}); load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    options = ["rounds=1"] if args.game == "wasserloch" else []
    study = make_study(args.game, bots=["random"], options=options, games=args.games, seed=1)
    one, one_cpu = rate(study, 1, args.repeat)
    two, two_cpu = rate(study, 2, args.repeat)
    print(f"{args.game} {' '.join(options)} random bots, {args.games} games:")
    print(f"  1 process   {one:8.1f} games/s   {one_cpu:8.1f} games per CPU second")
    print(f"  2 processes {two:8.1f} games/s   {two_cpu:8.1f} games per CPU second")
    print(f"  scaling efficiency (wall clock) {100 * two / (2 * one):.0f} %  (target >= 80 %; "
          f"meaningful only on an otherwise idle machine)")
    print(f"  parallel work efficiency (CPU time, 1 process / 2 processes) {100 * two_cpu / one_cpu:.0f} %")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    from wasserspiele.lab.kernels import kernel_note
    print(f"{args.game} {' '.join(options)} random bots, {args.games} games, 1 process, the same study "
          f"(identical rows) with kernels on and off, alternately:\n  {kernel_note(study) or 'no lab kernel'}")
    engine = dataclasses.replace(study, kernels=False)
    run_study(study, jobs=1)  # compile (or load the compiled kernel) before timing
    ratios = []
    for _ in range(args.repeat + 1):
        fast, fast_cpu = rate(study, 1, 1)
        slow, slow_cpu = rate(engine, 1, 1)
        ratios.append(fast_cpu / slow_cpu)
        print(f"  kernel {fast_cpu:10.1f} games per CPU second   engine {slow_cpu:8.1f}   {fast_cpu / slow_cpu:6.1f}×")
    print(f"  median ratio {sorted(ratios)[len(ratios) // 2]:.1f}×")

    if args.rounds_study:
        study = make_study("wasserloch", bots=["heuristic"], options=["rounds=1"], games=10_000, seed=1)
        t = time.perf_counter()
        result = run_study(study, jobs=default_jobs())
        dt = time.perf_counter() - t
        print(f"wasserloch rounds=1 heuristic bots, 10,000 games on {default_jobs()} processes: "
              f"{dt:.1f} s ({len(result.rows) / dt:.1f} games/s; target < 120 s)")


if __name__ == "__main__":
    main()
