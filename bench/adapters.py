"""Environment steps per CPU-second for each adapter and game, as ratios to PettingZoo's
`connect_four_v3` measured in the same run, and (`--table`) beside the raw engine.

Every figure plays whole games with uniformly random legal actions on one thread and
counts decisions.  The ratios (default) interleave the two sides (A B A B A B, CPU time,
bench/run.py's `interleaved`) and report the median of the pairwise ratios:

  aec        env.last() + env.step per agent turn (the observation dict with the mask)
  parallel   env.step with an action from every agent whose mask is not empty

The table (`--table`, `--seconds` each, CPU time) gives both (pettingzoo, parallel) and:

  engine      state.legal_actions + random choice + state.apply_legal
  engine+obs  the codec's legal map, mask and observation from the state, the action of a
              random index + state.apply_legal
  gymnasium   env.step for the agent's seat; the other seats are random bots (counted too)
  openspiel   state.legal_actions() + apply_action, chance nodes sampled (uncounted)

The vectorisers (`--vector`): table-steps per CPU-second of Gymnasium's `SyncVectorEnv`
and `AsyncVectorEnv` (fork; the worker processes' CPU time counted too, from /proc) over
VECTOR_TABLES of the game's Gymnasium env, random legal indices, random opponents, with
the infos three ways:

  lean   seat_infos=False: no view nor notation in the info
  lazy   the default infos, never read (most training loops)
  read   the default infos, every table's view and notation read at every step

    .venv/bin/python bench/adapters.py [-s SECONDS] [-g GAME ...] [--table | --vector]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

from wasserspiele import game_names, load

sys.path.insert(0, str(Path(__file__).parent))  # run as a script: the bench folder's modules
from run import aec_steps, interleaved, missing, rate  # noqa: E402

try:  # the adapters' arrays; the envs (gymnasium, pettingzoo) and the baseline's pygame are the
    # bench extra too, checked where they are used
    import numpy as np

    from wasserspiele.adapters import codec_for
except ImportError as _exc:
    sys.exit(f"bench/adapters.py: {missing(_exc)}")


def engine_steps(name: str, observe: bool = False):
    """A run() playing one random game on the engine (with the codec's work per decision
    when `observe`); its decisions."""
    game = load(name)
    codec = codec_for(game) if observe else None
    rng = random.Random(0)

    def run() -> int:
        state = game.new_game(seed=rng.randrange(2**31))
        n = 0
        while not state.is_terminal():
            seat = state.current_seat
            if codec is not None:  # as the environments: the action made for the index taken
                found = codec.legal_map_state(state, seat)
                codec.mask_of(found)
                codec.observe_state(state, seat)
                action = found[rng.choice(list(found))]
            else:
                action = rng.choice(state.legal_actions(seat))
            state.apply_legal(action, seat)
            n += 1
        return n
    return run


def gymnasium_steps(name: str):
    """A run() playing one game in the Gymnasium env against random seats; every seat's decisions."""
    from wasserspiele.adapters.gymnasium import WasserspieleEnv
    env = WasserspieleEnv(name, opponents="random")
    rng = np.random.default_rng(0)
    seed = [0]

    def run() -> int:
        _obs, info = env.reset(seed=seed[0])
        seed[0] += 1
        n = 0
        while True:
            before = len(env.state.history)
            _obs, _r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            n += len(env.state.history) - before
            if term or trunc:
                return n
    return run


def openspiel_steps(name: str):
    """A run() playing one game through OpenSpiel's API; None without open_spiel."""
    try:
        import pyspiel
        import wasserspiele.adapters.openspiel  # noqa: F401  (registers the games)
    except ImportError:
        return None
    game = pyspiel.load_game(f"wasserspiele_{name}")
    rng = np.random.default_rng(0)

    def run() -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
                n += 1
        return n
    return run


def parallel_steps(make_env):
    """A run() playing one parallel-env episode with random legal actions; its agent steps."""
    env = make_env()
    rng = np.random.default_rng(0)
    seeds = iter(range(10**9))

    def run() -> int:
        obs, _infos = env.reset(seed=next(seeds))
        n = 0
        while env.agents:
            actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"])))
                       for a, o in obs.items() if o["action_mask"].any()}
            obs, _r, _term, _trunc, _infos = env.step(actions)
            n += len(actions)
        return n
    return run


def _pettingzoo():
    from wasserspiele.adapters import pettingzoo
    return pettingzoo


def ratios(names, seconds: float) -> None:
    """Each game's AEC and parallel env against connect_four_v3's AEC env, same run."""
    try:
        from pettingzoo.classic import connect_four_v3
        wpz = _pettingzoo()
    except ImportError as exc:  # run.py's words, not a traceback
        sys.exit(f"bench/adapters.py: the ratios need PettingZoo's connect_four_v3 ({missing(exc)}); "
                 f"--table measures without it")
    four = aec_steps(connect_four_v3.env)
    four()  # each side warmed up by one game, as the table's cells are
    print("agent steps per CPU-second, random legal actions; ratio to connect_four_v3 (AEC), "
          f"interleaved, median of {seconds:g} s")
    print(f"{'game':<14}{'AEC':>9}{'c4':>8}{'ratio':>8}{'parallel':>11}{'c4':>8}{'ratio':>8}")
    for name in names:
        row = []
        for steps, make in ((aec_steps, wpz.env), (parallel_steps, wpz.parallel_env)):
            mine = steps(lambda: make(name))
            mine()
            row += interleaved(lambda s: rate(mine, s), lambda s: rate(four, s), seconds)
        print(f"{name:<14}{row[0]:>9,.0f}{row[1]:>8,.0f}{row[2]:>7.2f}×{row[3]:>11,.0f}{row[4]:>8,.0f}{row[5]:>7.2f}×",
              flush=True)


# Each cell of the table: GAME → a run() playing one game and returning its steps (None:
# not measurable here, shown as nan).
ROWS = {
    "engine": lambda n: engine_steps(n),
    "engine+obs": lambda n: engine_steps(n, observe=True),
    "pettingzoo": lambda n: aec_steps(lambda: _pettingzoo().env(n)),
    "parallel": lambda n: parallel_steps(lambda: _pettingzoo().parallel_env(n)),
    "gymnasium": gymnasium_steps,
    "openspiel": openspiel_steps,
}


def cell(make, name: str, seconds: float) -> float:
    """Steps per CPU-second of one cell, after one game that is not timed: the first game
    pays the one-time start-up (imports, the codec's tables, the env's first reset), which
    made the table's first cell of a game a fraction of the others (Seven Waters engine+obs
    15 steps/s with -s 0.5)."""
    try:
        run = make(name)
    except ImportError:  # gymnasium or pettingzoo not installed: that column is nan, as openspiel's
        return float("nan")
    if run is None:
        return float("nan")
    run()
    return rate(run, seconds)


VECTOR_TABLES = 4
INFOS = ("lean", "lazy", "read")


def _worker_cpu(venv) -> float:
    """CPU seconds the worker processes of an AsyncVectorEnv have used so far (0 for a
    SyncVectorEnv): Linux's /proc, as resource's RUSAGE_CHILDREN counts only ended ones."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for process in getattr(venv, "processes", ()):
        with open(f"/proc/{process.pid}/stat") as f:
            fields = f.read().rpartition(")")[2].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def vector_run(name: str, mode: str, infos: str):
    """(the vector env, a measure(seconds) giving its table-steps per CPU-second)."""
    from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv
    from wasserspiele.adapters.gymnasium import WasserspieleEnv

    def make():
        return WasserspieleEnv(name, seat_infos=infos != "lean")
    venv = (AsyncVectorEnv if mode == "async" else SyncVectorEnv)([make] * VECTOR_TABLES)
    rng = np.random.default_rng(0)
    state = {"infos": venv.reset(seed=0)[1]}
    read = infos == "read"

    def step() -> None:
        masks = state["infos"]["action_mask"]
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in masks]
        out = state["infos"] = venv.step(actions)[4]
        if read:
            for i in range(VECTOR_TABLES):
                list(out["legal_actions"][i])
                dict(out["view"][i])

    for _ in range(20):  # the workers' first steps (imports, tables) are not timed
        step()

    def measure(seconds: float) -> tuple[float, float]:
        """(table-steps per CPU-second, the main process's CPU µs per table-step)."""
        steps = 0
        main, workers = time.process_time(), _worker_cpu(venv)
        while True:
            step()
            steps += 1
            spent_main = time.process_time() - main
            spent = spent_main + _worker_cpu(venv) - workers
            if spent >= seconds:
                return steps * VECTOR_TABLES / spent, spent_main * 1e6 / (steps * VECTOR_TABLES)
    return venv, measure


def vectors(names, seconds: float) -> None:
    """Each game's Gymnasium env under SyncVectorEnv and AsyncVectorEnv, the infos lean,
    lazy and read (see the module's docstring); the six measured in turn, three rounds
    of seconds / 3 each, median.  Then AsyncVectorEnv's main process alone, CPU µs per
    table-step: the one process that receives every table's infos, which bounds the
    rate when there are cores enough for the workers."""
    try:
        import gymnasium  # noqa: F401
    except ImportError as exc:
        sys.exit(f"bench/adapters.py: --vector needs gymnasium ({missing(exc)})")
    cells = [(mode, infos) for mode in ("sync", "async") for infos in INFOS]
    rows = []
    print(f"table-steps per CPU-second ({VECTOR_TABLES} tables, random legal indices, random opponents, "
          f"workers' CPU counted; median of 3 x {seconds / 3:g} s)")
    print(f"{'game':<14}" + "".join(f"{mode + ' ' + infos:>13}" for mode, infos in cells))
    for name in names:
        runs = [vector_run(name, mode, infos) for mode, infos in cells]
        try:
            rates = [[] for _ in cells]
            for _ in range(3):
                for i, (_venv, measure) in enumerate(runs):
                    rates[i].append(measure(seconds / 3))
        finally:
            for venv, _measure in runs:
                venv.close()
        rows.append((name, [statistics.median(m for _r, m in rs) for rs in rates[len(INFOS):]]))
        print(f"{name:<14}" + "".join(f"{statistics.median(r for r, _m in rs):>13,.0f}" for rs in rates),
              flush=True)
    print("AsyncVectorEnv's main process, CPU µs per table-step")
    print(f"{'game':<14}" + "".join(f"{infos:>8}" for infos in INFOS))
    for name, main in rows:
        print(f"{name:<14}" + "".join(f"{m:>8.0f}" for m in main))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])  # the first paragraph (argparse fills its lines)
    parser.add_argument("-s", "--seconds", type=float, default=3.0, help="CPU seconds per measurement (per ratio)")
    parser.add_argument("-g", "--game", action="append", choices=game_names(), help="games (default: all)")
    parser.add_argument("--table", action="store_true", help="absolute rates of every adapter beside the engine")
    parser.add_argument("--vector", action="store_true",
                        help="Gymnasium's SyncVectorEnv and AsyncVectorEnv, the infos lean, lazy and read")
    args = parser.parse_args()
    games = args.game or game_names()
    if args.vector:
        vectors(games, args.seconds)
        return
    if not args.table:
        ratios(games, args.seconds)
        return
    print(f"steps per CPU-second (random actions, one thread, {args.seconds:g} s each)")
    print(f"{'game':<14}" + "".join(f"{k:>12}" for k in ROWS))
    for name in games:
        figures = [cell(make, name, args.seconds) for make in ROWS.values()]
        print(f"{name:<14}" + "".join(f"{x:>12,.0f}" for x in figures), flush=True)


if __name__ == "__main__":
    main()
