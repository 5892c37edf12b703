"""A batched Gymnasium `VectorEnv` for researchers: many Wasserloch tables stepped at
once by the compiled kernel (games/wasserloch/kernel.py; numba when installed).

    envs = WasserlochVectorEnv(num_envs=1024, players=3, opponents="greedy", seed=0)
    obs, info = envs.reset(seed=0)           # obs (1024, 208) float32, info["action_mask"] (1024, 64)
    obs, rewards, terminated, truncated, info = envs.step(actions)

Each table plays a match of `rounds` rounds (WL-5.5: points add up, the start player
moves one seat on per round, starting from `first_player`); the defaults are the game's
own (3 rounds), as `gymnasium.make`'s are (`rounds=1` for one-round tables, WL-7.1).  The agent plays `seat`, the other seats play
the kernel's random or greedy policy.  The action space, the observation layout and the
mask are those of the single-table environments (`wasserspiele/Wasserloch-v0` with the
same options: codec.py beside it); a round that ends is followed at once by the next, so
the agent's next observation is its first decision in the new round, as in the
single-table env.  The reward at the match's end is the agent's zero-sum return, an
illegal index ends the episode with `illegal_reward` (info["illegal_action"] marks it).
Tables reset on the step after the one that ended them (Gymnasium's next-step autoreset).
"""

from __future__ import annotations

import numpy as np
from gymnasium.vector import AutoresetMode

from ...adapters.codecs import codec_for
from ...adapters.common import check_seat
from ...adapters.vector import KernelCannot, KernelVectorEnv
from ...core.messages import term
from ...core.registry import load
from . import kernel as K

POLICIES = {"random": K.RANDOM, "greedy": K.GREEDY}


class WasserlochVectorEnv(KernelVectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int, players: int = 3, seat: int = 0, opponents: str = "random",
                 chase: str = "nearest", illegal_reward: float = -1.0, seed: int | None = None, rounds: int = 3,
                 first_player: int = 0):
        num_envs = self._check_num_envs(num_envs)
        # the game's own checks of the options (a count of rounds, a seat to start)
        game = load("wasserloch", players=players, rounds=rounds, first_player=first_player, chase=chase)
        codec = codec_for(game)  # the observation's bounds depend on the rounds (the scores' span)
        players, self.rounds, self.first_player = game.players, game.options["rounds"], game.options["first_player"]
        seat = check_seat(seat, game)
        if opponents not in POLICIES:
            raise KernelCannot(f"opponents must be one of {', '.join(POLICIES)}, not {term(opponents, 'shown', 'en')}")
        self.num_envs, self.players, self.seat = num_envs, players, seat
        self.adjacent = chase == "adjacent"
        self.policies = np.full(players, POLICIES[opponents], np.int64)
        self._setup(codec, num_envs, illegal_reward, seed)
        E = num_envs
        self.decks = np.zeros((E, 64), np.int64)
        self.pos = np.zeros(E, np.int64)
        self.hands = np.zeros((E, 8 * players), np.int64)
        self.sizes = np.zeros((E, players), np.int64)
        self.hole = np.zeros((E, 8), np.int64)
        self.gone = np.zeros((E, 8), np.int64)
        self.loot = np.zeros((E, players), np.int64)      # this round's loot
        self.banked = np.zeros((E, players), np.int64)    # the loot of the match's earlier rounds
        self.rnd = np.zeros(E, np.int64)                  # the round being played, 0-based
        self.start = np.zeros(E, np.int64)                # its start player
        self.current = np.zeros(E, np.int64)
        self.over = np.zeros(E, np.bool_)
        self.xs = np.zeros(E, np.int64)
        # the kernel's scratch: from here, since the kernel passes its arrays on unmanaged
        # (fast.unmanaged: only for arrays that outlive the compiled call)
        self.quiet, self.trial = np.zeros(8, np.int64), np.zeros(8, np.int64)
        self.after, self.unseen = np.zeros(8, np.int64), np.zeros(8, np.int64)
        self.none = K.unused()

    def _arrays(self) -> tuple:
        return (self.decks, self.pos, self.hands, self.sizes, self.hole, self.gone, self.loot, self.banked, self.rnd,
                self.start, self.current, self.over, self.xs)

    def _observe(self) -> tuple[np.ndarray, np.ndarray]:
        K.tables_encode(self.seat, self.players, self.rounds, self.adjacent, self.pos, self.hands, self.sizes,
                        self.hole, self.gone, self.loot, self.banked, self.rnd, self.start, self.current, self.over,
                        self._obs, self._masks, self.after, self.unseen)
        return self._obs.copy(), self._masks.copy()

    def _reset_tables(self, xs: np.ndarray) -> None:
        self.xs[:] = xs
        for e in range(self.num_envs):
            K.table_reset(e, self.seat, self.players, self.rounds, self.first_player, self.adjacent, self.policies,
                          *self._arrays(), self.quiet, self.trial, self.none)

    def _step_tables(self, actions, rewards, terminated, illegal) -> None:
        K.tables_step(actions, self.seat, self.players, self.rounds, self.first_player, self.adjacent, self.policies,
                      *self._arrays(), self.needs_reset, rewards, terminated, illegal, self.illegal_reward, self.quiet,
                      self.trial, self.none)
