"""A batched Gymnasium `VectorEnv` for researchers: many Watten tables stepped at once
by the compiled kernel (games/watten/kernel.py; numba when installed).

    envs = WattenVectorEnv(num_envs=1024, opponents="greedy", seed=0)
    obs, info = envs.reset(seed=0)           # obs (1024, 280) float32, info["action_mask"] (1024, 43)
    obs, rewards, terminated, truncated, info = envs.step(actions)

Each table plays a whole game to the target with the game's options (`raising=True`,
`target=15`, ...); the agent plays `seat`, the three other seats (the partner too) play
the kernel's random or greedy policy (heuristic.rollout_policy).  The action space, the
observation layout and the mask are those of the single-table environment
(`wasserspiele/Watten-v0`: codec.py beside it); the reward at the end is the agent's
zero-sum return (+0.5 when its team won, -0.5 when it lost), an illegal index ends the
episode with `illegal_reward` (info["illegal_action"] marks it).  Tables reset on the
step after the one that ended them (Gymnasium's next-step autoreset).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode

from ...adapters.codecs import codec_for
from ...adapters.common import check_seat
from ...adapters.vector import KernelCannot, KernelVectorEnv
from ...core.messages import term
from ...core.registry import load
from . import kernel as K

POLICIES = {"random": K.RANDOM, "greedy": K.GREEDY}


class WattenVectorEnv(KernelVectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int, seat: int = 0, opponents: str = "random", illegal_reward: float = -1.0,
                 seed: int | None = None, **options: Any):
        num_envs = self._check_num_envs(num_envs)
        codec = codec_for(load("watten", **options))  # checks the options
        seat = check_seat(seat, codec.game)
        if opponents not in POLICIES:
            raise KernelCannot(f"opponents must be one of {', '.join(POLICIES)}, not {term(opponents, 'shown', 'en')}")
        self.num_envs, self.seat = num_envs, seat
        self.rules = K.Rules(**options)
        self.policies = np.full(4, POLICIES[opponents], np.int64)
        self._setup(codec, num_envs, illegal_reward, seed)
        self.tables = np.zeros((num_envs, K.TABLE_SIZE), np.int64)
        self.decks = np.zeros((num_envs, K.N_CARDS), np.int64)
        self.xs = np.zeros(num_envs, np.int64)
        self.codes = np.zeros(8, np.int64)  # table_reset's and tables_step's scratch, kept: passed on unmanaged

    def _rules(self) -> tuple:
        r = self.rules
        return r.opts, r.eff, r.strength, r.p, self.policies

    def _observe(self) -> tuple[np.ndarray, np.ndarray]:
        r = self.rules
        K.tables_encode(self.seat, r.opts, r.eff, self.tables, self._obs, self._masks)
        return self._obs.copy(), self._masks.copy()

    def _reset_tables(self, xs: np.ndarray) -> None:
        self.xs[:] = xs
        for e in range(self.num_envs):
            K.table_reset(e, self.seat, *self._rules(), self.tables, self.decks, self.xs, self.codes)

    def _step_tables(self, actions, rewards, terminated, illegal) -> None:
        K.tables_step(actions, self.seat, *self._rules(), self.tables, self.decks, self.xs, self.needs_reset,
                      rewards, terminated, illegal, self.illegal_reward, self.codes)
