"""Train a small masked policy-gradient agent on Wasserloch, then evaluate it against the
heuristic bot with `bots.runner` — numpy only (the `[rl]` extra), CPU, a few minutes.

    .venv/bin/python examples/train_wasserloch.py [--minutes 2] [--games 300] [--seed 0]

The agent is a two-layer network over the Gymnasium observation (`wasserspiele/Wasserloch-v0`,
3 players, one round per game) whose logits are masked to the legal actions; it learns
with REINFORCE (a running-mean baseline, Adam) from the zero-sum reward at the end of each
game, playing seat 0 against the random and heuristic bots. Afterwards it plays as a
`Bot` (greedy over the legal actions, views only) in seat-rotated matches against heuristic
bots, beside a random bot in its place for comparison.
"""

from __future__ import annotations

import argparse
import math
import time

import gymnasium
import numpy as np

import wasserspiele
import wasserspiele.adapters.gymnasium  # noqa: F401  (registers wasserspiele/<Game>-v0)
from wasserspiele.adapters import codec_for
from wasserspiele.bots.base import Bot, Decision
from wasserspiele.bots.runner import games_problem, seat_rotated_win_rate
from wasserspiele.bots.registry import make_bot

OPTIONS = {"players": 3, "rounds": 1}


class Policy:
    """logits = W2 · tanh(W1 · x + b1) + b2, masked to the legal actions."""

    def __init__(self, n_in: int, n_out: int, hidden: int, rng: np.random.Generator):
        self.params = {
            "W1": rng.normal(0, 1 / np.sqrt(n_in), (hidden, n_in)), "b1": np.zeros(hidden),
            "W2": rng.normal(0, 0.01, (n_out, hidden)), "b2": np.zeros(n_out),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.params.items()}
        self.t = 0

    def probs(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = self.params
        h = np.tanh(p["W1"] @ x + p["b1"])
        logits = p["W2"] @ h + p["b2"]
        logits = np.where(mask > 0, logits, -1e9)
        e = np.exp(logits - logits.max())
        return e / e.sum(), h

    def grad_log_prob(self, x, mask, action) -> dict[str, np.ndarray]:
        pi, h = self.probs(x, mask)
        d_logits = -pi
        d_logits[action] += 1.0                       # d log pi(a) / d logits
        d_h = (self.params["W2"].T @ d_logits) * (1 - h * h)
        return {"W2": np.outer(d_logits, h), "b2": d_logits, "W1": np.outer(d_h, x), "b1": d_h}

    def ascend(self, grads: dict[str, np.ndarray], lr: float) -> None:
        """One Adam step up the gradient."""
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m_hat = self.m[k] / (1 - 0.9 ** self.t)
            v_hat = self.v[k] / (1 - 0.999 ** self.t)
            self.params[k] += lr * m_hat / (np.sqrt(v_hat) + 1e-8)


class PolicyBot(Bot):
    """The trained policy as a bot: reads the view and the legal actions only."""

    kind = "policy"

    def __init__(self, policy: Policy, codec, seed: int | None = None):
        super().__init__(seed)
        self.policy, self.codec = policy, codec

    def choose(self, decision: Decision):
        legal = self.codec.legal_map(decision.legal, decision.view)
        mask = np.zeros(self.codec.num_actions)
        mask[list(legal)] = 1
        pi, _ = self.policy.probs(self.codec.observe(decision.view), mask)
        return legal[int(np.argmax(pi))]


def train(minutes: float, seed: int, batch: int = 16, lr: float = 3e-3) -> tuple[Policy, list[float]]:
    rng = np.random.default_rng(seed)
    envs = [gymnasium.make("wasserspiele/Wasserloch-v0", opponents=kind, **OPTIONS).unwrapped
            for kind in ("random", "heuristic")]
    policy = Policy(envs[0].observation_space.shape[0], envs[0].action_space.n, 64, rng)
    baseline, history, episode = 0.0, [], 0
    deadline = time.monotonic() + 60 * minutes
    while time.monotonic() < deadline:
        grads = {k: np.zeros_like(v) for k, v in policy.params.items()}
        for _ in range(batch):
            env = envs[episode % 2]
            obs, info = env.reset(seed=int(rng.integers(2**31)))
            steps, done, reward = [], False, 0.0
            while not done:
                mask = info["action_mask"]
                pi, _ = policy.probs(obs, mask)
                action = int(rng.choice(len(pi), p=pi))
                steps.append((obs, mask, action))
                obs, reward, done, _trunc, info = env.step(action)
            advantage = reward - baseline
            baseline += 0.02 * (reward - baseline)
            for x, mask, action in steps:
                for k, g in policy.grad_log_prob(x, mask, action).items():
                    grads[k] += advantage * g / batch
            history.append(reward)
            episode += 1
        policy.ascend(grads, lr)
    return policy, history


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=2.0, help="training time (default 2)")
    parser.add_argument("--games", type=int, default=300, help="evaluation games per contestant (default 300)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    problem = games_problem(args.games)  # the arena's check: 0 games ended in a ZeroDivisionError (after training)
    if problem:
        parser.error(problem)
    # (-1 trained on no game and printed "mean zero-sum reward +nan", then evaluated the
    # untrained policy)
    if not (math.isfinite(args.minutes) and args.minutes > 0):
        parser.error(f"--minutes must be a positive number of minutes, not {args.minutes:g}")

    start = time.monotonic()
    policy, history = train(args.minutes, args.seed)
    n = len(history)
    first, last = np.mean(history[: max(1, n // 5)]), np.mean(history[-max(1, n // 5):])
    print(f"trained on {n} games in {time.monotonic() - start:.0f} s; mean zero-sum reward "
          f"{first:+.3f} (first fifth) -> {last:+.3f} (last fifth)")

    game = wasserspiele.load("wasserloch", **OPTIONS)
    codec = codec_for(game)
    heuristic = lambda s: make_bot("heuristic", game, seed=s)  # noqa: E731
    for label, make_a in (("trained policy", lambda s: PolicyBot(policy, codec, seed=s)),
                          ("random bot", lambda s: make_bot("random", game, seed=s))):
        rate, played = seat_rotated_win_rate(game, make_a, heuristic, games=args.games, seed=args.seed + 1)
        print(f"{label:>15} vs 2 heuristic bots: win share {rate:.3f} over {played} games "
              f"(an equal player: {1 / game.players:.3f})")


if __name__ == "__main__":
    main()
