"""PettingZoo AEC environments for the four games: `env("watten", **options)`.

Every seat is an agent `player_<seat>`.  An agent's observation is a dict
`{"observation": float32 vector of its view, "action_mask": int8 vector}` (the mask
is all zeros while the agent has nothing to decide).  Rewards come at the end: the
zero-sum transform of `state.returns()` (both Watten partners get their team's).
Simultaneous picks (Wildwasser) are taken as sequential turns in seat order; a pick
stays hidden in the other agents' observations until the game reveals it.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.protocol import Game
from .common import OBS_HIGH, OBS_LOW, load_with_codec, render_text, zero_sum


class WasserspieleAEC(AECEnv):
    """One game of `game` per episode; `reset(seed=…)` makes the deal reproducible."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4, "name": "wasserspiele_v0", "is_parallelizable": False}

    def __init__(self, game: str | Game, render_mode: str | None = None, **options: Any):
        super().__init__()
        self.game, self.codec = load_with_codec(game, options)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"wasserspiele_{self.game.name}_v0")
        self.possible_agents = [f"player_{s}" for s in range(self.game.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(OBS_LOW, OBS_HIGH, (self.codec.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.num_actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.codec.num_actions) for a in self.possible_agents}
        self._seeds = random.Random()
        self.state = None

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    # -- episode ---------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self.state = self.game.new_game(seed=self._seeds.randrange(2**63))
        self._legal_key = None
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_seat]

    def _legal(self, seat: int, view=None) -> dict[int, Any]:
        """{index: action} of `seat` now (cached until the next action)."""
        key = (len(self.state.history), seat)
        if self._legal_key != key:
            if view is None and self.codec.actions_need_view:
                view = self.state.view(seat)
            self._legal_map = self.codec.legal_map(self.state.legal_actions(seat), view)
            self._legal_key = key
        return self._legal_map

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        codec = self.codec
        # no view at all when the codec encodes from the state and its masks need none
        view = None if codec.reads_state else self.state.view(seat)
        mask = np.zeros(codec.num_actions, dtype=np.int8)
        if seat in self.state.to_move():
            mask[list(self._legal(seat, view))] = 1
        obs = codec.observe_state(self.state, seat) if view is None else codec.observe(view)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        if action is None:
            raise ValueError(f"{agent} must act (an index 0..{self.codec.num_actions - 1}), not None")
        index = self.codec.check_index(action)
        move = self._legal(seat).get(index)
        if move is None:  # let the codec say why, with the legal actions listed
            self.codec.decode(index, self.state.legal_actions(seat), self.state.view(seat))
        self.state.apply(move, seat)
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_terminal():
            final = zero_sum(self.state)
            for a in self.agents:
                self.rewards[a] = final[self._seat[a]]
                self.terminations[a] = True
            self.agent_selection = agent
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = self.possible_agents[self.state.current_seat]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        seat = self._seat[self.agent_selection] if self.state is not None else None
        text = render_text(self.state, seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def raw_env(game: str | Game, render_mode: str | None = None, **options: Any) -> WasserspieleAEC:
    """The environment without PettingZoo's wrappers."""
    return WasserspieleAEC(game, render_mode=render_mode, **options)


def env(game: str | Game, render_mode: str | None = None, **options: Any):
    """The environment with PettingZoo's order-enforcing wrapper (what `api_test` expects)."""
    e = raw_env(game, render_mode=render_mode, **options)
    return wrappers.OrderEnforcingWrapper(e)
