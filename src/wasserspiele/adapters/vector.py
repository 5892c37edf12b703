"""What every game's batched kernel environment shares (games/<g>/vector.py).

A game's `VectorEnv` keeps its tables in the arrays of its compiled kernel and supplies
three methods: `_reset_tables(xs)` deals every table afresh from one generator state per
table, `_step_tables(actions, rewards, terminated, illegal)` plays one agent decision
on every table (and the other seats up to the agent's next one), and `_observe()` gives
the observations and masks.  Seeding, the step's return values and the masks as
MaskablePPO reads them are the same for every game, so they live here once.

Seeding follows Gymnasium: `reset(seed=s)` (or the constructor's `seed`, used by the
first `reset()`) deals the same tables every time, and each later `reset()` without a
seed deals new ones, drawn from that seed (so the whole sequence is fixed by it); with
no seed at all every reset draws from the operating system.

Length.  A table whose agent has taken the manifest's `max_game_length` decisions is
truncated (`truncated`, reward 0) and dealt anew on the next step.  The kernels do not
report the other seats' moves or the chance nodes, which the single-table environments
count too, so a table runs at least as long as a single-table game before it is cut.
"""

from __future__ import annotations

import numbers
import random
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

from ..fast import seed_state
from .common import max_game_length


def _integer(value: Any) -> int | None:
    """`value` as an int if it is an integer of any kind (numpy's from an array or a
    sweep's config too; not a bool), else None."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return None


class KernelVectorEnv(VectorEnv):
    num_envs: int
    needs_reset: np.ndarray
    _seed: int | None
    _masks: np.ndarray

    @staticmethod
    def _check_num_envs(num_envs: Any) -> int:
        """A table count as an int, or refused unless a positive integer (before any work)."""
        n = _integer(num_envs)
        if n is None or n < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
        return n


    def _setup(self, codec, num_envs: int, illegal_reward: float, seed: int | None) -> None:
        """The spaces (the same as the single-table environments'), the observation and
        mask buffers and the seed: what every game's `__init__` sets alike."""
        low, high = codec.bounds()
        self.single_observation_space = spaces.Box(low, high, (codec.obs_size,), np.float32)
        self.single_action_space = spaces.Discrete(codec.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.illegal_reward = float(illegal_reward)
        self.needs_reset = np.zeros(num_envs, np.bool_)
        self._obs = np.zeros((num_envs, codec.obs_size), np.float32)
        self._masks = np.zeros((num_envs, codec.num_actions), np.int8)
        self._seed = seed  # for the first reset() without a seed
        self._seeds: random.Random | None = None  # the seeds of later unseeded resets
        self._dealt = False  # step() before the first reset() would play zeroed tables
        # where a table is cut off (an instance attribute, so a test can shorten it)
        self.max_game_length = max_game_length(codec.game)
        self._agent_steps = np.zeros(num_envs, np.int64)  # per table, this game's agent decisions

    def _reset_tables(self, xs: np.ndarray) -> None:
        raise NotImplementedError

    def _step_tables(self, actions: np.ndarray, rewards: np.ndarray, terminated: np.ndarray,
                     illegal: np.ndarray) -> None:
        raise NotImplementedError

    def _observe(self) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if seed is None:
            seed, self._seed = self._seed, None  # the constructor's seed serves once
        if seed is not None:
            given, seed = seed, _integer(seed)
            if seed is None:
                raise ValueError(f"seed must be an integer or None, not {given!r}")
            self._seeds = random.Random(seed)
        elif self._seeds is not None:  # a seeded sequence goes on to new deals
            seed = self._seeds.randrange(2**63)
        else:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self._reset_tables(np.array([seed_state(seed * 1_000_003 + e) for e in range(self.num_envs)], np.int64))
        self.needs_reset[:] = False
        self._agent_steps[:] = 0
        self._dealt = True
        obs, masks = self._observe()
        return obs, {"action_mask": masks}

    def _check_actions(self, actions: Any) -> np.ndarray:
        """One integer action per table as int64, or a clear error: casting floats,
        bools or NaN to int64 would play an index nobody chose."""
        a = np.asarray(actions)
        if a.size != self.num_envs:
            raise ValueError(f"actions: one per table needed ({self.num_envs}), got {a.size} (shape {a.shape})")
        a = a.reshape(self.num_envs)
        if a.dtype.kind in "iu":
            return a.astype(np.int64)
        if a.dtype.kind == "f":
            bad = ~np.isfinite(a) | (a != np.round(a))
        elif a.dtype.kind == "O":  # a list mixing kinds: each must be an integer
            bad = np.array([isinstance(x, bool) or not isinstance(x, numbers.Integral) for x in a])
        else:  # bools, strings
            bad = np.ones(self.num_envs, np.bool_)
        if bad.any():
            e = int(np.flatnonzero(bad)[0])
            raise ValueError(f"actions must be integer indices; table {e} got {a[e]!r} ({a.dtype} actions)")
        return a.astype(np.int64)

    def step(self, actions):
        if not self._dealt:
            raise RuntimeError("no tables dealt yet: call reset() before step()")
        actions = self._check_actions(actions)
        rewards = np.zeros(self.num_envs, np.float64)
        terminated = np.zeros(self.num_envs, np.bool_)
        illegal = np.zeros(self.num_envs, np.bool_)
        fresh = self.needs_reset.copy()  # dealt anew by this step: the action was not played
        self._step_tables(actions, rewards, terminated, illegal)
        steps = self._agent_steps
        steps[fresh] = 0
        steps[~fresh] += 1
        truncated = ~fresh & ~terminated & (steps >= self.max_game_length)
        obs, masks = self._observe()
        if truncated.any():
            self.needs_reset |= truncated  # the kernels deal these anew on the next step
            masks[truncated] = 0  # the episode is over: nothing is legal any more
            self._masks[truncated] = 0
        info = {"action_mask": masks}
        if illegal.any():
            info["illegal_action"] = illegal
        return obs, rewards, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal-action masks (bool, one row per table), as MaskablePPO reads them."""
        return self._masks.astype(bool)
