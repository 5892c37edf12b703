"""The compiled kernels against the Python engines: random games per CPU-second, one
section per game, each ratio measured in the same run (interleaved, median of the
pairwise ratios; bench/run.py's `rate` and `interleaved`).  Prints figures; not a test.

    .venv/bin/python bench/kernels.py                 # every section, 1 s per side
    .venv/bin/python bench/kernels.py seven_waters -s 3
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from wasserspiele import load

sys.path.insert(0, str(Path(__file__).parent))  # run as a script: the bench folder's modules
from run import interleaved, playouts, rate  # noqa: E402


def fallback_rate(script: str, seconds: float) -> float:
    """Units per CPU-second of `script` (which prints them) under NUMBA_DISABLE_JIT=1."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", script, str(seconds)], env=env, capture_output=True, text=True,
                         check=True)
    return float(out.stdout)


# -- Seven Waters ------------------------------------------------------------------------
_SEVEN_WATERS_FALLBACK = """
import sys, time
from wasserspiele.games.seven_waters import kernel as K
n, t0 = 0, time.process_time()
while time.process_time() - t0 < float(sys.argv[1]):
    K.play_games(20, seed=n)
    n += 20
print(n / (time.process_time() - t0))
"""


def seven_waters(seconds: float) -> None:
    import random

    from wasserspiele.fast import COMPILED
    from wasserspiele.games.seven_waters import kernel as K
    from wasserspiele.games.seven_waters.heuristic import rollout_policy
    print(f"\n## Seven Waters: games per CPU-second, default options "
          f"({'numba' if COMPILED else 'pure Python: numba is not installed'})")
    K.play_games(10, policies=K.HEURISTIC)  # compile (or load the compiled code) before timing
    seeds = iter(range(10**9))
    batch = 2_000 if COMPILED else 20

    def kernel_games(policy):
        return lambda: len(K.play_games(batch if policy == K.RANDOM else batch // 4, seed=next(seeds),
                                        policies=policy)[1])

    game = load("seven_waters")
    rng = random.Random(0)

    def engine_heuristic() -> int:  # the rollout policy for both seats, as ISMCTS rollouts play
        state = game.new_game(seed=next(seeds))
        while not state.is_terminal():
            seat = state.current_seat
            state.apply_legal(rollout_policy(state, seat, rng), seat)
        return 1

    engine = playouts(game)  # fresh seeds throughout: the engine's per-hand caches stay as cold as in play
    now, then, ratio = interleaved(lambda s: rate(kernel_games(K.RANDOM), s), lambda s: rate(engine, s), seconds)
    print(f"random seats     kernel {now:>10,.0f}   Python engine {then:>7,.0f}   {ratio:>6.1f}×  (target ≥ 20×)")
    h_now, h_then, h_ratio = interleaved(lambda s: rate(kernel_games(K.HEURISTIC), s),
                                         lambda s: rate(engine_heuristic, s), seconds)
    print(f"heuristic seats  kernel {h_now:>10,.0f}   Python engine {h_then:>7,.0f}   {h_ratio:>6.1f}×  "
          f"(rollout_policy, trusted apply)")
    if COMPILED:
        slow = fallback_rate(_SEVEN_WATERS_FALLBACK, seconds)
        print(f"pure-Python fallback, random seats {slow:>8,.0f}   compiled/fallback {now / slow:,.0f}×")
    print(f"SevenWatersVectorEnv(1024 tables, random opponent): {rate(vector_steps(), seconds):,.0f} agent steps/s")


def vector_steps():
    """A run() stepping 1,024 Seven Waters tables once with random legal actions."""
    import numpy as np
    from wasserspiele.games.seven_waters.vector import SevenWatersVectorEnv
    envs = SevenWatersVectorEnv(1024, seed=0)
    rng = np.random.default_rng(0)
    _obs, info = envs.reset()
    state = {"mask": info["action_mask"]}

    def run() -> int:
        noise = rng.random(state["mask"].shape) * state["mask"]
        _obs, _r, _t, _tr, info = envs.step(noise.argmax(axis=1))
        state["mask"] = info["action_mask"]
        return envs.num_envs
    return run


SECTIONS = {"seven_waters": seven_waters}


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
