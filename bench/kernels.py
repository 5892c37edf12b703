"""The compiled kernels against their Python engines: random games per CPU-second of
each, interleaved in one run (bench/run.py's `rate` and `interleaved`), and the ratio;
with numba installed, also against the kernel's own pure-Python fallback (a child
process with NUMBA_DISABLE_JIT=1).  Prints its figures; not a test.

    python bench/kernels.py                  # every game with a section, 1 s per side
    python bench/kernels.py wildwasser -s 3
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # run as a script: the bench folder's modules
from run import interleaved, playouts, rate  # noqa: E402

from wasserspiele import load  # noqa: E402


def _fallback_rate(code: str, seconds: float) -> float:
    """Units per CPU-second printed by `code` run with the pure-Python fallback."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", code, str(seconds)], env=env, capture_output=True, text=True,
                         check=True)
    return float(out.stdout)


# -- Wildwasser ---------------------------------------------------------------------------
_WILDWASSER_FALLBACK = """
import sys, time
from wasserspiele.games.wildwasser import kernel as K
games, seed = 0, 0
start = time.process_time()
while time.process_time() < start + float(sys.argv[1]):
    games += len(K.play_games(5, players=4, seed=seed)[0])
    seed += 1
print(games / (time.process_time() - start))
"""


def wildwasser(seconds: float) -> None:
    from wasserspiele.fast import COMPILED
    from wasserspiele.games.wildwasser import kernel as K
    print(f"\n## Wildwasser: random games per CPU-second, kernel against the Python engine "
          f"({'numba' if COMPILED else 'pure Python: numba is not installed'}; target ≥ 20×)")
    K.play_games(5, 2)  # compile (or load the compiled code) before timing
    batch = 2_000 if COMPILED else 5
    first = None
    for players in (2, 4, 6):
        seeds = iter(range(10**9))

        def kernel_games(players=players, seeds=seeds):
            return len(K.play_games(batch, players=players, seed=next(seeds))[0])

        engine = playouts(load("wildwasser", players=players))
        now, then, ratio = interleaved(lambda s: rate(kernel_games, s), lambda s: rate(engine, s), seconds)
        first = first or now
        print(f"{players} players   kernel {now:>10,.0f}   Python engine {then:>7,.0f}   {ratio:>6.1f}×", flush=True)
    steps = _wildwasser_vector_steps()
    print(f"WildwasserVectorEnv(1024 tables, 4 players): {rate(steps, seconds):,.0f} agent steps per CPU-second")
    if COMPILED:
        slow = _fallback_rate(_WILDWASSER_FALLBACK, seconds)
        now = rate(lambda: len(K.play_games(batch, players=4, seed=7)[0]), seconds)
        print(f"4 players   pure-Python fallback {slow:>8,.0f}   compiled/fallback {now / slow:,.0f}×")


def _wildwasser_vector_steps():
    """A run() stepping 1,024 Wildwasser tables once with random legal actions."""
    import numpy as np
    from wasserspiele.games.wildwasser.vector import WildwasserVectorEnv
    envs = WildwasserVectorEnv(1024, players=4, seed=0)
    rng = np.random.default_rng(0)
    _obs, info = envs.reset()
    state = {"mask": info["action_mask"]}

    def run() -> int:
        noise = rng.random(state["mask"].shape) * state["mask"]
        _obs, _r, _t, _tr, info = envs.step(noise.argmax(axis=1))
        state["mask"] = info["action_mask"]
        return envs.num_envs
    return run


SECTIONS = {"wildwasser": wildwasser}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help=f"games ({', '.join(SECTIONS)}; default all)")
    parser.add_argument("-s", "--seconds", type=float, default=1.0, help="CPU seconds per side of each figure")
    args = parser.parse_args()
    unknown = [g for g in args.games if g not in SECTIONS]
    if unknown:
        parser.error(f"no kernel section for {', '.join(unknown)} (sections: {', '.join(SECTIONS)})")
    for name in args.games or SECTIONS:
        SECTIONS[name](args.seconds)


if __name__ == "__main__":
    main()
