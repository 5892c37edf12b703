"""Training the learned bot by expert iteration (Anthony et al. 2017; AlphaZero's loop).

Generation 0 imitates the expert: ISMCTS with the game's tuned rollouts plays every
seat of self-play games, and at each decision the network learns the search's visit
distribution (policy head) and, once the game is over, the deciding seat's result
(value head).  Every later generation searches with the network itself — its policy
as the PUCT prior, its value in place of rollouts (`LearnedBot`'s guided ISMCTS) —
and the network learns those searches in turn, on all positions gathered so far.

Training uses numpy alone: the network is a small MLP whose backward pass is written
out below (with Adam), which is all this size needs and keeps the install light.
Everything is seeded: the same command and seed give the same weights on the same
machine.  `wasserspiele train GAME --seed S` runs it and writes the weights with a
sidecar naming the command, seed, budget, date and version.
"""

from __future__ import annotations

import platform
import random
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Iterator

import numpy as np

from ..core.chance import derive_seed
from ..core.protocol import Action, Game, State
from .base import decision_for
from .ismcts import ISMCTSBot, search_defaults
from .learned import Network, NetworkGuide, codec_fingerprint, codec_of


@dataclass(frozen=True)
class Budget:
    """How much self-play and search one training run spends."""

    games: int = 20               # self-play games per generation
    generations: int = 2          # 1: imitate the expert only; more: expert iteration
    iterations: int = 200         # search iterations per decision
    hidden: tuple[int, ...] = (128, 64)
    epochs: int = 30              # passes over the gathered positions per generation
    batch: int = 128
    learning_rate: float = 2e-3
    explore: float = 0.15         # share of self-play moves drawn from the visit counts
    max_decisions: int = 400      # searched decisions per game at most (long Watten matches)


@dataclass
class Decided:
    """One searched decision: who chose, what the search counted, what was played."""

    index: int                    # its position in the game's history (and record)
    seat: int
    visits: dict[Action, int]
    played: Action


@dataclass
class Positions:
    """Training examples: observations, legal masks, visit targets, seats, results."""

    obs: list[np.ndarray] = field(default_factory=list)
    mask: list[np.ndarray] = field(default_factory=list)
    target: list[np.ndarray] = field(default_factory=list)
    value: list[float] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.obs)

    def arrays(self) -> tuple[np.ndarray, ...]:
        return (np.stack(self.obs), np.stack(self.mask), np.stack(self.target),
                np.asarray(self.value, dtype=np.float32))


def searched_game(game: Game, searcher: Callable[[int], ISMCTSBot], seed: int, budget: Budget,
                  on_position: Callable[[State, int, dict[Action, int]], None] | None = None
                  ) -> tuple[State, list[Decided]]:
    """One self-play game where every decision with a choice is searched.  The move
    played is the most visited action, or with chance `explore` one drawn in proportion
    to the visits (so the positions vary); `on_position` sees each searched position."""
    rng = random.Random(derive_seed(seed, "moves"))
    state = game.new_game(seed=seed)
    bots = [searcher(derive_seed(seed, "seat", s)) for s in range(game.players)]
    decided: list[Decided] = []
    while not state.is_terminal():
        seat = state.to_move()[0]
        decision = decision_for(state, seat)
        if len(decision.legal) == 1 or len(decided) >= budget.max_decisions:
            action = bots[seat].choose(decision) if len(decision.legal) > 1 else decision.legal[0]
            state.apply(action, seat)
            continue
        bot = bots[seat]
        fixed = bot.conventional(decision)
        if fixed is not None:
            visits = {fixed: 1}
        else:
            visits = {c.action: c.visits for c in bot.search(decision) if c.visits}
            if not visits:
                visits = {bot.search(decision)[0].action: 1}
        actions = list(visits)
        if rng.random() < budget.explore:
            action = rng.choices(actions, weights=[visits[a] for a in actions])[0]
        else:
            action = max(actions, key=lambda a: visits[a])
        if on_position is not None:
            on_position(state, seat, visits)
        decided.append(Decided(len(state.history), seat, visits, action))
        state.apply(action, seat)
    return state, decided


class Trainer:
    """Expert iteration for one game: self-play with search, then fit the network."""

    def __init__(self, game: Game, seed: int, budget: Budget, log: Callable[[str], None] = lambda m: None):
        self.game = game
        self.seed = seed
        self.budget = budget
        self.codec = codec_of(game)
        self.np_rng = np.random.default_rng(derive_seed(seed, "network"))
        self.network = Network.init(self.codec.obs_size, self.codec.num_actions, budget.hidden, self.np_rng)
        self.positions = Positions()
        self.log = log
        self.history: list[dict[str, Any]] = []
        self._adam: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._step = 0

    def searcher(self, generation: int) -> Callable[[int], ISMCTSBot]:
        """The expert's search (generation 0) or the search guided by the network."""
        settings = search_defaults(self.game)
        iterations = self.budget.iterations
        if generation == 0:
            return lambda seed: ISMCTSBot(seed, game=self.game, **{**settings, "iterations": iterations,
                                                                   "seconds": None})
        guide = NetworkGuide(self.network, self.codec)
        kept = {k: v for k, v in settings.items() if k in ("rollout", "rollout_depth", "root_candidates", "conventions")}
        return lambda seed: ISMCTSBot(seed, game=self.game, iterations=iterations, seconds=None,
                                      exploration=1.5, guide=guide, **kept)

    def gather(self, generation: int) -> None:
        """Self-play `budget.games` games and add their searched positions."""
        searcher = self.searcher(generation)
        for g in range(self.budget.games):
            pending: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]] = []

            def record(state: State, seat: int, visits: dict[Action, int]) -> None:
                view = state.view(seat)
                mask = np.zeros(self.codec.num_actions, dtype=bool)
                for a in state.legal_actions(seat):
                    mask[self.codec.action_index(a, view)] = True
                target = np.zeros(self.codec.num_actions, dtype=np.float32)
                total = sum(visits.values())
                for a, n in visits.items():
                    target[self.codec.action_index(a, view)] = n / total
                pending.append((self.codec.observe(view), mask, target, seat))

            final, _ = searched_game(self.game, searcher, derive_seed(self.seed, "game", generation, g),
                                     self.budget, record)
            returns = final.returns()
            for obs, mask, target, seat in pending:
                self.positions.obs.append(obs)
                self.positions.mask.append(mask)
                self.positions.target.append(target)
                self.positions.value.append(float(returns[seat]))

    # -- fitting -------------------------------------------------------------
    def loss_and_grads(self, x, mask, target, value) -> tuple[float, float, dict[str, np.ndarray]]:
        """Cross-entropy of the masked policy against the visit shares plus the value's
        binary cross-entropy against the result; gradients by hand."""
        net = self.network
        p = net.params
        acts = net.hidden(x)
        h = acts[-1]
        logits = h @ p["wp"] + p["bp"]
        logits = np.where(mask, logits, -1e9)
        logits = logits - logits.max(axis=1, keepdims=True)
        expd = np.exp(logits) * mask
        probs = expd / expd.sum(axis=1, keepdims=True)
        n = len(x)
        policy_loss = float(-(target * np.log(np.maximum(probs, 1e-12))).sum() / n)
        z = (h @ p["wv"] + p["bv"])[:, 0]
        v = 1.0 / (1.0 + np.exp(-z))
        value_loss = float(-(value * np.log(np.maximum(v, 1e-7)) + (1 - value) * np.log(np.maximum(1 - v, 1e-7))).mean())
        d_logits = (probs - target) / n
        d_z = ((v - value) / n)[:, None]
        grads = {"wp": h.T @ d_logits, "bp": d_logits.sum(0), "wv": h.T @ d_z, "bv": d_z.sum(0)}
        dh = d_logits @ p["wp"].T + d_z @ p["wv"].T
        for i in reversed(range(net.depth)):
            dh = dh * (acts[i + 1] > 0)
            grads[f"w{i}"] = acts[i].T @ dh
            grads[f"b{i}"] = dh.sum(0)
            if i:
                dh = dh @ p[f"w{i}"].T
        return policy_loss, value_loss, grads

    def _adam_step(self, grads: dict[str, np.ndarray], lr: float, decay: float = 1e-4) -> None:
        self._step += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        for k, g in grads.items():
            param = self.network.params[k]
            g = g + decay * param if k.startswith("w") else g
            m, v = self._adam.get(k, (np.zeros_like(param), np.zeros_like(param)))
            m = b1 * m + (1 - b1) * g
            v = b2 * v + (1 - b2) * g * g
            self._adam[k] = (m, v)
            m_hat = m / (1 - b1 ** self._step)
            v_hat = v / (1 - b2 ** self._step)
            param -= (lr * m_hat / (np.sqrt(v_hat) + eps)).astype(np.float32)

    def fit(self) -> tuple[float, float]:
        """`budget.epochs` passes of minibatch Adam over every position gathered so far."""
        x, mask, target, value = self.positions.arrays()
        n = len(x)
        losses = (0.0, 0.0)
        for _ in range(self.budget.epochs):
            order = self.np_rng.permutation(n)
            total_p = total_v = 0.0
            for start in range(0, n, self.budget.batch):
                idx = order[start:start + self.budget.batch]
                lp, lv, grads = self.loss_and_grads(x[idx], mask[idx], target[idx], value[idx])
                self._adam_step(grads, self.budget.learning_rate)
                total_p += lp * len(idx)
                total_v += lv * len(idx)
            losses = (total_p / n, total_v / n)
        return losses

    def run(self, on_generation: Callable[["Trainer"], None] | None = None) -> Network:
        """All generations; `on_generation` sees the trainer after each (to save a checkpoint,
        so a run stopped early still has its last finished generation)."""
        for generation in range(self.budget.generations):
            t0 = time.process_time()
            self.gather(generation)
            t1 = time.process_time()
            policy_loss, value_loss = self.fit()
            t2 = time.process_time()
            step = {"generation": generation, "positions": len(self.positions),
                    "policy_loss": round(policy_loss, 4), "value_loss": round(value_loss, 4),
                    "selfplay_cpu_s": round(t1 - t0, 1), "fit_cpu_s": round(t2 - t1, 1)}
            self.history.append(step)
            self.log(f"generation {generation}: {step}")
            if on_generation is not None:
                on_generation(self)
        return self.network

    def metadata(self, command: str) -> dict[str, Any]:
        from .. import __version__
        return {"game": self.game.name, "options": self.game.non_default_options(),
                "obs_size": self.codec.obs_size, "num_actions": self.codec.num_actions,
                "codec": codec_fingerprint(self.codec),
                "command": command, "seed": self.seed, "budget": asdict(self.budget),
                "generations": self.history,
                "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
                "version": __version__, "numpy": np.__version__, "python": platform.python_version()}


def train(game: Game, seed: int, budget: Budget, log: Callable[[str], None] = lambda m: None,
          on_generation: Callable[[Trainer], None] | None = None) -> Trainer:
    """Run expert iteration; the trainer holds the network, its history and positions."""
    trainer = Trainer(game, seed, budget, log)
    trainer.run(on_generation)
    return trainer


def corpus_games(game: Game, seed: int, games: int, iterations: int) -> Iterator[tuple[State, list[Decided]]]:
    """Expert self-play games with the search's visit counts per decision (offline learning)."""
    budget = Budget(games=games, iterations=iterations, explore=0.0, max_decisions=10**9)
    settings = search_defaults(game)
    searcher = lambda s: ISMCTSBot(s, game=game, **{**settings, "iterations": iterations, "seconds": None})  # noqa: E731
    for g in range(games):
        yield searched_game(game, searcher, derive_seed(seed, "corpus", g), budget)
