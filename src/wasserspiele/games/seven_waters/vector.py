"""A batched Gymnasium `VectorEnv` for researchers: many Seven Waters tables stepped at
once by the compiled kernel (games/seven_waters/kernel.py; numba when installed).

    envs = SevenWatersVectorEnv(num_envs=1024, seat=0, opponents="heuristic", seed=0)
    obs, info = envs.reset(seed=0)           # obs (1024, 2667) float32, info["action_mask"] (1024, 2830)
    obs, rewards, terminated, truncated, info = envs.step(actions)

The agent plays `seat`; the other seat plays uniformly random legal actions or the
heuristic's rollout policy (a slide's extra action is the same seat's turn again,
SW-4.3a).  The action space, the
observation layout and the mask are those of the single-table environments
(`wasserspiele/SevenWaters-v0`: codec.py beside it); the reward at the end is the
agent's zero-sum return (+1/2 win, -1/2 loss, 0 draw), an illegal index ends the episode
with `illegal_reward` (info["illegal_action"] marks it).  Tables reset on the step after
the one that ended them (Gymnasium's next-step autoreset).
"""

from __future__ import annotations

import warnings

import numpy as np
from gymnasium.vector import AutoresetMode

from ...adapters.codecs import codec_for
from ...adapters.common import check_seat
from ...adapters.vector import KernelCannot, KernelVectorEnv
from ...core.messages import term
from ...core.registry import load
from . import kernel as K
from .codec import segment_starts

POLICIES = {"random": K.RANDOM, "heuristic": K.HEURISTIC}


class SevenWatersVectorEnv(KernelVectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int, seat: int = 0, opponents: str = "random", first_player: int = 0,
                 slide_limit: int | None = 7, final_turns: str = "both", illegal_reward: float = -1.0,
                 seed: int | None = None, opponent: str | None = None):
        num_envs = self._check_num_envs(num_envs)
        argument = "opponents"
        if opponent is not None:  # the old name, from before the other games' `opponents`
            warnings.warn("SevenWatersVectorEnv(opponent=...) is deprecated: pass opponents=... as the other "
                          "games' VectorEnvs take it", DeprecationWarning, stacklevel=2)
            opponents, argument = opponent, "opponent"
        if opponents not in POLICIES:  # named as the caller passed it
            raise KernelCannot(f"{argument} must be one of {', '.join(POLICIES)}, "
                               f"not {term(opponents, 'shown', 'en')}")
        self.policy = POLICIES[opponents]
        codec = codec_for(load("seven_waters", first_player=first_player, slide_limit=slide_limit,
                               final_turns=final_turns))  # checks the options
        seat = check_seat(seat, codec.game)
        o = codec.game.options  # as checked (a numpy integer made an int)
        self.options = np.array(K._options(o["first_player"], o["slide_limit"], o["final_turns"]), np.int64)
        self.at = segment_starts(codec)
        self.num_envs, self.seat = num_envs, seat
        self._setup(codec, num_envs, illegal_reward, seed)
        E = num_envs
        self.tables = np.zeros((E, K.FIELDS), np.int64)
        self.decks = np.zeros((E, K.DECK), np.int64)
        self.xs = np.zeros(E, np.int64)
        self.plays = np.full((E, K.MAX_STEPS), -1, np.int64)  # each table's actions so far (both seats)
        self.steps = np.zeros(E, np.int64)
        # the kernel's scratch (kernel.scratch): from here, since the kernel passes it on unmanaged
        out, best, self.cards, self.tab, self.ctx = K.scratch()
        self.buffers = np.stack([out, best])

    def _observe(self) -> tuple[np.ndarray, np.ndarray]:
        K.tables_encode(self.seat, self.tables, self.at, self._obs, self._masks, self.buffers[0], self.cards, self.tab)
        return self._obs.copy(), self._masks.copy()

    def _reset_tables(self, xs: np.ndarray) -> None:
        self.xs[:] = xs
        K.tables_reset(self.seat, self.policy, self.options, self.tables, self.decks, self.xs, self.plays, self.steps,
                       self.buffers, self.cards, self.tab, self.ctx)

    def _step_tables(self, actions, rewards, terminated, illegal) -> None:
        K.tables_step(actions, self.seat, self.policy, self.options, self.tables, self.decks, self.xs, self.plays,
                      self.steps, self.needs_reset, rewards, terminated, illegal, self.illegal_reward, self.buffers,
                      self.cards, self.tab, self.ctx)
