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
from run import interleaved, playouts, rate, vector_steps  # noqa: E402

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
    rollouts = rate(_wildwasser_rollouts(), seconds)
    print(f"search rollouts to the end from a new deal (kernel.rollout, 4 players): {rollouts:,.0f}/s "
          f"({1e6 / rollouts:.1f} µs each)")
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


def _wildwasser_rollouts(count: int = 200):
    """A run() of `count` search rollouts to the end (kernel.rollout, the search's
    `kernel_rollout`), each from a copy of one new 4-player deal with its own generator."""
    import numpy as np
    from wasserspiele.games.wildwasser import kernel as K
    bd = K.BOARDS["forward"]
    order = np.zeros(bd[K.B_REGULAR_N], np.int64)
    start = K.new_position()
    K.start_game(start, bd, 4, 0, K.BOARD.removed_for(4), order, K.shuffle_tiles(bd, order, 12345))
    pts, won = np.zeros(4, np.int64), np.zeros(4, np.int64)
    K.rollout(start.copy(), bd, 1 << 20, pts, won)  # compile (or load) before timing
    seeds = iter(range(1, 10**9))

    def run() -> int:
        for _ in range(count):
            st = start.copy()
            st[K.RNG] = next(seeds)
            K.rollout(st, bd, 1 << 20, pts, won)
        return count
    return run


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
        slow = _fallback_rate(_WATTEN_FALLBACK, seconds)
        print(f"pure-Python fallback {slow:>8,.0f}   compiled/fallback {now / slow:,.0f}×")
    from wasserspiele.games.watten.vector import WattenVectorEnv
    step = vector_steps(WattenVectorEnv(1024, seed=0))
    step()  # compile (or load) the stepping kernel before timing
    steps = rate(step, seconds)
    print(f"WattenVectorEnv(1024 tables, random opponents)   {steps:>10,.0f} agent steps/s")
    solves = rate(_watten_solves(), seconds)
    line = f"hands solved with every card open (kernel.hand_winner, from the first card) {solves:>8,.0f}/s"
    if COMPILED:
        slow = _fallback_rate(_WATTEN_SOLVE_FALLBACK, seconds)
        line += f"   pure-Python fallback {slow:,.1f}/s   {solves / slow:,.0f}×"
    print(line)


def _watten_solves(count: int = 200):
    """A run() solving `count` hands at their first card (random calls and signals) with
    the kernel's solver, the `rollout=solve` search's leaf value (docs/bots.md)."""
    import random

    from wasserspiele.games.watten import kernel as K
    game, rules, rng = load("watten"), K.Rules(), random.Random(1)
    tables = []
    for seed in range(count):
        state = game.new_game(seed=seed)
        while state.phase != K.PLAY_PHASE:
            state.apply(rng.choice(state.legal_actions(state.current_seat)), state.current_seat)
        tables.append(K.table_of(state))
    K.hand_winner(tables[0], rules.opts, rules.eff, rules.strength)  # compile or load first

    def run() -> int:
        for t in tables:
            K.hand_winner(t, rules.opts, rules.eff, rules.strength)
        return len(tables)
    return run


_WATTEN_SOLVE_FALLBACK = """
import sys, time
sys.path.insert(0, %r)
from kernels import _watten_solves
run = _watten_solves(3)
n, t0 = 0, time.process_time()
while time.process_time() - t0 < float(sys.argv[1]):
    n += run()
print(n / (time.process_time() - t0))
""" % str(Path(__file__).parent)


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
        slow = _fallback_rate(_SEVEN_WATERS_FALLBACK, seconds)
        print(f"pure-Python fallback, random seats {slow:>8,.0f}   compiled/fallback {now / slow:,.0f}×")
    from wasserspiele.games.seven_waters.vector import SevenWatersVectorEnv
    step = vector_steps(SevenWatersVectorEnv(1024, seed=0))
    step()  # compiled before timing
    print(f"SevenWatersVectorEnv(1024 tables, random opponent): {rate(step, seconds):,.0f} agent steps/s")


SECTIONS = {"wildwasser": wildwasser, "watten": watten, "seven_waters": seven_waters}


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
