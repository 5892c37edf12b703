"""What every game's batched kernel environment shares (games/<g>/vector.py).

A game's `VectorEnv` keeps its tables in the arrays of its compiled kernel and supplies
three methods: `_reset_tables(xs)` deals every table afresh from one generator state per
table, `_step_tables(actions, rewards, terminated, illegal)` plays one agent decision
on every table (and the other seats up to the agent's next one), and `_observe()` gives
the observations and masks.  Seeding, the step's return values and the masks as
MaskablePPO reads them are the same for every game, so they live here once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

from ..fast import seed_state


class KernelVectorEnv(VectorEnv):
    num_envs: int
    needs_reset: np.ndarray
    _seed: int | None
    _masks: np.ndarray

    @staticmethod
    def _check_num_envs(num_envs: Any) -> None:
        """Refuse a table count that is not a positive integer (before any work)."""
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")

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
        self._seed = seed

    def _reset_tables(self, xs: np.ndarray) -> None:
        raise NotImplementedError

    def _step_tables(self, actions: np.ndarray, rewards: np.ndarray, terminated: np.ndarray,
                     illegal: np.ndarray) -> None:
        raise NotImplementedError

    def _observe(self) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        seed = self._seed if seed is None else seed
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self._reset_tables(np.array([seed_state(seed * 1_000_003 + e) for e in range(self.num_envs)], np.int64))
        self.needs_reset[:] = False
        obs, masks = self._observe()
        return obs, {"action_mask": masks}

    def step(self, actions):
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        rewards = np.zeros(self.num_envs, np.float64)
        terminated = np.zeros(self.num_envs, np.bool_)
        illegal = np.zeros(self.num_envs, np.bool_)
        self._step_tables(actions, rewards, terminated, illegal)
        obs, masks = self._observe()
        info = {"action_mask": masks}
        if illegal.any():
            info["illegal_action"] = illegal
        return obs, rewards, terminated, np.zeros(self.num_envs, np.bool_), info

    def action_masks(self) -> np.ndarray:
        """The legal-action masks (bool, one row per table), as MaskablePPO reads them."""
        return self._masks.astype(bool)
