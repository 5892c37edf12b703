"""The compiled kernels against the Python engines: random games per CPU-second, one
section per game, each ratio measured in the same run (interleaved, median of the
pairwise ratios; bench/run.py's `rate` and `interleaved`).  Prints figures; not a test.

    .venv/bin/python bench/kernels.py                 # every section, 1 s per side
    .venv/bin/python bench/kernels.py watten -s 3
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from wasserspiele import load

sys.path.insert(0, str(Path(__file__).parent))  # run as a script: the bench folder's modules
from run import interleaved, playouts, rate, vector_steps  # noqa: E402


def fallback_rate(script: str, seconds: float) -> float:
    """Units per CPU-second of `script` (which prints them) under NUMBA_DISABLE_JIT=1."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", script, str(seconds)], env=env, capture_output=True, text=True,
                         check=True)
    return float(out.stdout)


# -- Watten ---------------------------------------------------------------------------------
_WATTEN_FALLBACK = """
import sys, time
from wasserspiele.games.watten import kernel as K
n, t0 = 0, time.process_time()
while time.process_time() - t0 < float(sys.argv[1]):
    K.play_games(20, seed=n)
    n += 20
print(n / (time.process_time() - t0))
"""


def watten(seconds: float) -> None:
    from wasserspiele.fast import COMPILED
    from wasserspiele.games.watten import kernel as K
    print(f"\n## Watten: random games (to 11 points) per CPU-second, default options "
          f"({'numba' if COMPILED else 'pure Python: numba is not installed'})")
    K.play_games(10)  # compile (or load the compiled code) before timing
    seeds = iter(range(10**9))
    batch = 2_000 if COMPILED else 20

    def kernel_games(policy):
        return lambda: len(K.play_games(batch, seed=next(seeds), policies=policy))

    engine = playouts(load("watten"))
    now, then, ratio = interleaved(lambda s: rate(kernel_games(K.RANDOM), s), lambda s: rate(engine, s), seconds)
    print(f"random seats   kernel {now:>10,.0f}   Python engine {then:>7,.0f}   {ratio:>6.1f}×  (target ≥ 20×)")
    greedy = rate(kernel_games(K.GREEDY), seconds)
    print(f"greedy seats   kernel {greedy:>10,.0f}   (heuristic.rollout_policy in every seat)")
    if COMPILED:
        slow = fallback_rate(_WATTEN_FALLBACK, seconds)
        print(f"pure-Python fallback {slow:>8,.0f}   compiled/fallback {now / slow:,.0f}×")
    from wasserspiele.games.watten.vector import WattenVectorEnv
    step = vector_steps(WattenVectorEnv(1024, seed=0))
    step()  # compile (or load) the stepping kernel before timing
    steps = rate(step, seconds)
    print(f"WattenVectorEnv(1024 tables, random opponents)   {steps:>10,.0f} agent steps/s")


SECTIONS = {"watten": watten}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help=f"sections (default: all): {', '.join(SECTIONS)}")
    parser.add_argument("-s", "--seconds", type=float, default=1.0, help="CPU seconds per side of each figure")
    args = parser.parse_args()
    unknown = [g for g in args.games if g not in SECTIONS]
    if unknown:
        parser.error(f"no kernel section {unknown[0]!r} (sections: {', '.join(SECTIONS)})")
    for name in args.games or SECTIONS:
        SECTIONS[name](args.seconds)


if __name__ == "__main__":
    main()
