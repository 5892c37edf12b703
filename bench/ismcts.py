"""ISMCTS iterations per second (of CPU time) per game, at several mid-game decisions, one thread.

    .venv/bin/python bench/ismcts.py [GAME ...] [-s SECONDS] [--baseline REV]

With --baseline (e.g. `main` or `HEAD~3`) each game is also searched by the package at
that git revision: both sides run the same positions with the same iteration budget in
child processes, alternately (A B A B A B), and the median of the pairwise ratios is
printed, so the load of a shared machine falls on both sides alike.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from wasserspiele import game_names, load
from wasserspiele.bots.base import decision_for
from wasserspiele.bots.registry import make_bot

ROOT = Path(__file__).resolve().parent.parent
REPEATS = 3
POSITIONS = 5  # mid-game decisions searched per game


def positions(name: str, count: int = POSITIONS):
    game = load(name)
    out = []
    for seed in range(count):
        state = game.new_game(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(3, 25)):
            if state.is_terminal():
                break
            seat = state.current_seat
            state.apply(rng.choice(list(state.legal_actions(seat))), seat)
        if not state.is_terminal():
            out.append(state)
    return game, out


def rate(name: str, seconds: float | None = None, iterations: int | None = None) -> float:
    """Iterations per CPU-second over the positions, each searched for `seconds` of wall
    time or for `iterations`."""
    game, states = positions(name)
    # untimed: loading the compiled kernels (numba's disk cache) is paid once per process,
    # not per search
    make_bot("ismcts", game, seed=0, iterations=8).search(decision_for(states[0], states[0].current_seat))
    total_it = total_s = 0.0
    for i, state in enumerate(states):
        bot = make_bot("ismcts", game, seed=i, iterations=iterations, seconds=seconds)
        start = time.process_time()
        bot.search(decision_for(state, state.current_seat))
        total_s += time.process_time() - start
        total_it += bot.last_iterations
    return total_it / total_s


def baseline_tree(rev: str) -> Path | None:
    """The package at git revision `rev`, unpacked into a temporary directory (None, said
    why, when git cannot archive it)."""
    tmp = Path(tempfile.mkdtemp(prefix="wasserspiele-baseline-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "src"], capture_output=True)
    if archive.returncode != 0:
        print(f"(no baseline: git archive {rev} failed: {archive.stderr.decode().strip()})")
        return None
    subprocess.run(["tar", "-x", "-C", str(tmp)], input=archive.stdout, check=True)
    return tmp / "src"


def child_rate(src: Path, name: str, iterations: int) -> float:
    """`rate` of the package in `src`, in a fresh process (cold caches, as for the other side)."""
    env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{Path(__file__).parent}"}
    code = f"import ismcts; print(ismcts.rate({name!r}, iterations={iterations}))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout)


def compare(there: Path, name: str, iterations: int) -> tuple[float, float, float]:
    """This tree's iterations per CPU-second against the package in `there` on the same
    positions and budget, alternately in fresh processes: the medians and the median of
    the pairwise ratios."""
    mine, theirs = [], []
    for _ in range(REPEATS):
        mine.append(child_rate(ROOT / "src", name, iterations))
        theirs.append(child_rate(there, name, iterations))
    return (statistics.median(mine), statistics.median(theirs),
            statistics.median(a / b for a, b in zip(mine, theirs)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*")
    parser.add_argument("-s", "--seconds", type=float, default=1.0, help="search time per position")
    parser.add_argument("--baseline", default="", help="git revision to compare with (same iterations)")
    parser.add_argument("-i", "--iterations", type=int, default=300,
                        help="iterations per position when comparing with --baseline")
    args = parser.parse_args()
    if not args.baseline:
        print(f"{'game':<14}{'iterations/s':>14}")
        for name in args.games or game_names():
            print(f"{name:<14}{rate(name, seconds=args.seconds):>14.0f}", flush=True)
        return
    there = baseline_tree(args.baseline)
    if there is None:
        sys.exit(1)
    print(f"{'game':<14}{'iterations/s':>14}{'at ' + args.baseline:>14}{'ratio':>8}   ({args.iterations} "
          f"iterations a position, {REPEATS} alternating runs, medians)")
    for name in args.games or game_names():
        mine, theirs, ratio = compare(there, name, args.iterations)
        print(f"{name:<14}{mine:>14.0f}{theirs:>14.0f}{ratio:>7.2f}×", flush=True)


if __name__ == "__main__":
    main()
