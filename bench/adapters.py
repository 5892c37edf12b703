"""Environment steps per second for each adapter and game, beside the raw engine.

Every row plays whole games with uniformly random legal actions for `--seconds`
(default 3) on one thread and counts decisions (OpenSpiel: player actions; its
chance nodes are extra, uncounted steps):

  engine      state.legal_actions + random choice + state.apply
  engine+obs  the same plus the codec's mask and observation of the mover's view
  pettingzoo  env.last() + env.step (observation dict with the mask) per agent turn
  gymnasium   env.step for the agent's seat; the other seats are random bots (counted too)
  openspiel   state.legal_actions() + apply_action, chance nodes sampled

    .venv/bin/python bench/adapters.py [-s SECONDS] [-g GAME ...]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from wasserspiele import game_names, load
from wasserspiele.adapters import codec_for


def timed(run, seconds: float) -> float:
    """Steps per second of `run(deadline) -> steps`, repeated until the time is up."""
    start = time.perf_counter()
    steps = 0
    while time.perf_counter() - start < seconds:
        steps += run(start + seconds)
    return steps / (time.perf_counter() - start)


def bench_engine(name: str, seconds: float, observe: bool = False) -> float:
    game = load(name)
    codec = codec_for(game) if observe else None
    rng = random.Random(0)

    def run(deadline: float) -> int:
        state = game.new_game(seed=rng.randrange(2**31))
        n = 0
        while not state.is_terminal():
            seat = state.current_seat
            legal = state.legal_actions(seat)
            if codec is not None:
                view = state.view(seat)
                codec.mask(legal, view)
                codec.observe(view)
            state.apply(rng.choice(legal), seat)
            n += 1
        return n
    return timed(run, seconds)


def bench_pettingzoo(name: str, seconds: float) -> float:
    from wasserspiele.adapters.pettingzoo import env as make_env
    env = make_env(name)
    rng = np.random.default_rng(0)
    seed = [0]

    def run(deadline: float) -> int:
        env.reset(seed=seed[0])
        seed[0] += 1
        n = 0
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
        return n
    return timed(run, seconds)


def bench_gymnasium(name: str, seconds: float) -> float:
    from wasserspiele.adapters.gymnasium import WasserspieleEnv
    env = WasserspieleEnv(name, opponents="random")
    rng = np.random.default_rng(0)
    seed = [0]

    def run(deadline: float) -> int:
        _obs, info = env.reset(seed=seed[0])
        seed[0] += 1
        n = 0
        while True:
            before = len(env.state.history)
            _obs, _r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            n += len(env.state.history) - before
            if term or trunc:
                return n
    return timed(run, seconds)


def bench_openspiel(name: str, seconds: float) -> float:
    try:
        import pyspiel
        import wasserspiele.adapters.openspiel  # noqa: F401  (registers the games)
    except ImportError:
        return float("nan")
    game = pyspiel.load_game(f"wasserspiele_{name}")
    rng = np.random.default_rng(0)

    def run(deadline: float) -> int:
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
    return timed(run, seconds)


ROWS = {
    "engine": lambda n, s: bench_engine(n, s),
    "engine+obs": lambda n, s: bench_engine(n, s, observe=True),
    "pettingzoo": bench_pettingzoo,
    "gymnasium": bench_gymnasium,
    "openspiel": bench_openspiel,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-s", "--seconds", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("-g", "--game", action="append", choices=game_names(), help="games (default: all)")
    args = parser.parse_args()
    games = args.game or game_names()
    print(f"steps per second (random actions, one thread, {args.seconds:g} s each)")
    print(f"{'game':<14}" + "".join(f"{k:>12}" for k in ROWS))
    for name in games:
        figures = [fn(name, args.seconds) for fn in ROWS.values()]
        print(f"{name:<14}" + "".join(f"{x:>12,.0f}" for x in figures), flush=True)


if __name__ == "__main__":
    main()
