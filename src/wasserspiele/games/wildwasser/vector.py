"""A batched Gymnasium `VectorEnv` for researchers: many Wildwasser tables stepped at
once by the compiled kernel (games/wildwasser/kernel.py; numba when installed).

    envs = WildwasserVectorEnv(num_envs=1024, players=4, seed=0)
    obs, info = envs.reset(seed=0)           # obs (1024, obs_size) float32, info["action_mask"] (1024, 29)
    obs, rewards, terminated, truncated, info = envs.step(actions)

Each table is a whole game; the agent plays `seat`, the other seats play uniformly
random legal actions (the kernel's only policy so far).  The action space, the
observation layout and the mask are those of the single-table environments
(`wasserspiele/Wildwasser-v0` with the same options: codec.py beside it); the reward
at the end is the agent's zero-sum return, an illegal index ends the episode with
`illegal_reward` (info["illegal_action"] marks it).  Tables reset on the step after the
one that ended them (Gymnasium's next-step autoreset).
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


class WildwasserVectorEnv(KernelVectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int, players: int = 4, seat: int = 0, first_player: int = 0,
                 river_flow: str = "forward", illegal_reward: float = -1.0, seed: int | None = None,
                 opponents: str = "random"):
        num_envs = self._check_num_envs(num_envs)
        if opponents != "random":  # named like the other games' VectorEnvs, which have more policies
            raise KernelCannot(f"opponents must be one of random (the kernel's only policy so far), "
                               f"not {term(opponents, 'shown', 'en')}")
        game = load("wildwasser", players=players, first_player=first_player, river_flow=river_flow)  # checks them
        codec = codec_for(game)
        players, first_player = game.players, game.options["first_player"]
        seat = check_seat(seat, game)
        self.num_envs, self.players, self.seat, self.first_player = num_envs, players, seat, first_player
        self.removed = game.board.removed_for(players)
        self.bd = K.BOARDS[river_flow]
        self._setup(codec, num_envs, illegal_reward, seed)
        self.st = np.zeros((num_envs, K.position_size(game.board)), np.int64)
        # tables_step's scratch, kept here since the compiled code passes it on unmanaged
        self.order, self.codes, self.dice, self.pts, self.won = K.table_scratch(self.bd, players)

    def _observe(self) -> tuple[np.ndarray, np.ndarray]:
        K.tables_encode(self.st, self.bd, self.players, self.removed, self.seat, self._obs, self._masks)
        return self._obs.copy(), self._masks.copy()

    def _reset_tables(self, xs: np.ndarray) -> None:
        K.tables_reset(self.st, self.bd, self.players, self.first_player, self.removed, self.seat, xs)

    def _step_tables(self, actions, rewards, terminated, illegal) -> None:
        K.tables_step(actions, self.st, self.bd, self.players, self.first_player, self.removed, self.seat,
                      self.needs_reset, rewards, terminated, illegal, self.illegal_reward, self.order, self.codes,
                      self.dice, self.pts, self.won)
