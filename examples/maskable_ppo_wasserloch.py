"""Train sb3-contrib's MaskablePPO on Wasserloch and evaluate it against the heuristic bot.

Needs PyTorch and sb3-contrib besides the `[rl]` extra (not needed by the tests):

    .venv/bin/pip install torch==2.13.0 sb3-contrib      # the CPU build of torch
    .venv/bin/python examples/maskable_ppo_wasserloch.py [--steps 40000] [--games 300]

The agent plays seat 0 of `wasserspiele/Wasserloch-v0` (3 players, one round) against
random and heuristic bots; the legal-action mask comes from the environment's
`action_masks()`.  Afterwards the policy plays as a `Bot` (views and legal actions only)
in seat-rotated matches against heuristic bots (`bots.runner`).
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.vec_env import DummyVecEnv

import wasserspiele
import wasserspiele.adapters.gymnasium  # noqa: F401  (registers wasserspiele/<Game>-v0)
from wasserspiele.adapters import codec_for
from wasserspiele.bots.base import Bot, Decision
from wasserspiele.bots.runner import games_problem, seat_rotated_win_rate
from wasserspiele.bots.registry import make_bot

OPTIONS = {"players": 3, "rounds": 1}


def make_env(opponents: str, seed: int):
    def thunk():
        env = gymnasium.make("wasserspiele/Wasserloch-v0", opponents=opponents, **OPTIONS)
        env.reset(seed=seed)
        return ActionMasker(env, lambda e: e.unwrapped.action_masks())
    return thunk


class PPOBot(Bot):
    kind = "maskable_ppo"

    def __init__(self, model, codec, seed=None):
        super().__init__(seed)
        self.model, self.codec = model, codec

    def choose(self, decision: Decision):
        legal = self.codec.legal_map(decision.legal, decision.view)
        mask = np.zeros(self.codec.num_actions, dtype=bool)
        mask[list(legal)] = True
        action, _ = self.model.predict(self.codec.observe(decision.view), action_masks=mask, deterministic=True)
        return legal[int(action)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40_000, help="training steps of the agent (default 40000)")
    parser.add_argument("--games", type=int, default=300, help="evaluation games (default 300)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    problem = games_problem(args.games)  # the arena's check: 0 games ended in a ZeroDivisionError (after training)
    if problem:
        parser.error(problem)

    torch.set_num_threads(1)  # a tiny network: threads only fight each other on a small CPU
    venv = DummyVecEnv([make_env("random", args.seed), make_env("heuristic", args.seed + 1)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=512, batch_size=256, learning_rate=3e-4,
                        policy_kwargs={"net_arch": [64, 64]}, seed=args.seed, device="cpu", verbose=0)
    start = time.monotonic()
    model.learn(total_timesteps=args.steps)
    print(f"trained {args.steps} steps in {time.monotonic() - start:.0f} s")

    game = wasserspiele.load("wasserloch", **OPTIONS)
    codec = codec_for(game)
    heuristic = lambda s: make_bot("heuristic", game, seed=s)  # noqa: E731
    for label, make_a in (("MaskablePPO", lambda s: PPOBot(model, codec, seed=s)),
                          ("random bot", lambda s: make_bot("random", game, seed=s))):
        rate, played = seat_rotated_win_rate(game, make_a, heuristic, games=args.games, seed=args.seed + 1)
        print(f"{label:>12} vs 2 heuristic bots: win share {rate:.3f} over {played} games "
              f"(an equal player: {1 / game.players:.3f})")


if __name__ == "__main__":
    main()
