"""PettingZoo environments for every game: the AEC `env("watten", **options)` and the
parallel `parallel_env("wildwasser", players=3)`.

Every seat is an agent `player_<seat>`.  An agent's observation is a dict
`{"observation": float32 vector of its view, "action_mask": int8 vector}` (the mask
is all zeros while the agent has nothing to decide).  Rewards come at the end: the
zero-sum transform of `state.returns()` (both Watten partners get their team's).
In the AEC env simultaneous picks (Wildwasser) are taken as sequential turns in seat
order; a pick stays hidden in the other agents' observations until the game reveals it.
In the parallel env every seat with a pending decision acts in the same step (all
the picks of a simultaneous phase at once; otherwise the one seat to move).

Each agent's `infos` entry holds `legal_actions` (the notation of its legal actions,
empty while it waits) and `view` (the raw JSON view the observation encodes, built
when first read: see `common.SeatInfo`); with `seat_infos=False` it is `{}`, as in
PettingZoo's classic games (for training loops that copy every info, which builds it:
supersuit's vector envs do at every step).
`state()` is the global state: every seat's observation vector, concatenated.
The engine state is `env.unwrapped.game_state`.

An illegal index raises `EncodingError`, or with `illegal_action="lose"` (both envs)
ends the episode with `illegal_reward` for the offender.

A game that reaches the manifest's `max_game_length` (decisions and chance nodes, as
OpenSpiel counts them; `common.game_length`) is cut off: every agent is truncated with
reward 0 (an unfinished game's returns are all 0), and its masks are all zeros.
"""

from __future__ import annotations

import random
from typing import Any, NoReturn

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from ..core.chance import make_rng
from ..core.protocol import Game
from .codecs import EncodingError
from .common import (Position, SeatInfo, check_reset_options, check_reward, check_seat_infos, check_seed,
                     game_length, load_with_codec, max_game_length, new_counted_game, own_keywords, render_text,
                     zero_sum)


def _declare_agents(env) -> None:
    """Agents, their spaces and the global state space (shared by the AEC and parallel envs)."""
    env.possible_agents = [f"player_{s}" for s in range(env.game.players)]
    env._seat = {a: s for s, a in enumerate(env.possible_agents)}
    low, high = env.codec.bounds()
    obs_space = spaces.Dict({
        "observation": spaces.Box(low, high, (env.codec.obs_size,), np.float32),
        "action_mask": spaces.Box(0, 1, (env.codec.num_actions,), np.int8),
    })
    env.observation_spaces = {a: obs_space for a in env.possible_agents}
    env.action_spaces = {a: spaces.Discrete(env.codec.num_actions) for a in env.possible_agents}
    players = env.game.players
    env.state_space = spaces.Box(np.tile(low, players), np.tile(high, players),
                                 (env.codec.obs_size * players,), np.float32)


def _legal_maps(env) -> dict[int, dict[int, Any]]:
    """{seat: {index: action}} of every seat with a pending decision now, found once
    per position (from the state, without views where the codec can)."""
    state = env.game_state
    key = (state, len(state.history), env._over)
    if env._maps_key != key:
        env._maps = {seat: env.codec.legal_map_state(state, seat) for seat in _pending(env)}
        env._maps_key = key
    return env._maps


def _pending(env) -> tuple[int, ...]:
    """The seats with a decision to take: none once the episode is over, even when the
    game was cut off (truncated, or ended by an illegal index) with seats still to move."""
    return () if env._over else env.game_state.to_move()


def _mask(env, seat: int) -> np.ndarray:
    return env.codec.mask_of(_legal_maps(env).get(seat))


def _started(env, what: str) -> None:
    if env.game_state is None:
        raise RuntimeError(f"no game yet: call reset() before {what}")


def _observation(env, seat: int) -> dict[str, np.ndarray]:
    _started(env, "observe()")
    return {"observation": env.codec.observe_state(env.game_state, seat), "action_mask": _mask(env, seat)}


def _infos(env) -> dict[str, SeatInfo | dict]:
    """Per live agent: its legal actions' notation and its raw view (built when read),
    or `{}` with `seat_infos=False`."""
    if not env.seat_infos:
        return {a: {} for a in env.agents}
    state = env.game_state
    position = Position(state, env._game_seed)
    pending = _pending(env)
    return {a: SeatInfo(position, env._seat[a], env._seat[a] in pending) for a in env.agents}


def _illegal(env, seat: int, index: Any) -> NoReturn:
    """Raise the codec's EncodingError for an index `seat` may not take now (the reason,
    with the legal actions listed)."""
    state = env.game_state
    env.codec.decode(index, state.legal_actions(seat), state.view(seat))
    raise EncodingError(f"{env.game.name}: action {index} is not legal now")  # decode found it: maps disagree


def _move_for(env, seat: int, legal: dict, action: Any) -> tuple[Any, str | None]:
    """The move the index `action` names among `seat`'s `legal` ones, and None; or None and
    why, when the index is illegal and the env plays illegal_action="lose" (the caller
    forfeits).  What is not an index of the action space at all (1.5, -1, a string) is
    refused whatever `illegal_action` says, as the Gymnasium env does: "lose" is for the
    legal-looking indices an unmasked policy may sample."""
    index = env.codec.check_index(action)
    move = legal.get(index)
    if move is not None:
        return move, None
    try:
        _illegal(env, seat, index)
    except EncodingError as exc:
        if env.illegal_action == "raise":
            raise
        return None, str(exc)


def _global_state(env) -> np.ndarray:
    _started(env, "state()")
    return np.concatenate(env.codec.observe_states(env.game_state, range(env.game.players)))


class _Common:
    """What the AEC and the parallel env share: the game and codec, the agents and their
    spaces, the global state, rendering, what an illegal index does (`metadata` is the
    env class's own)."""

    def _setup(self, game: str | Game, options: dict[str, Any], render_mode: str | None,
               illegal_action: str, illegal_reward: float, seat_infos: bool) -> None:
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        # False: every info is {} (a vectoriser that copies every info at every step, as
        # supersuit's does, would otherwise build every seat's view and legal actions'
        # notation at every step: most of the time of a step)
        self.seat_infos = check_seat_infos(seat_infos)
        self.illegal_action = illegal_action
        self.illegal_reward = check_reward(illegal_reward)
        self.game, self.codec = load_with_codec(game, options, own_keywords(type(self).__init__))
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"wasserspiele_{self.game.name}_v0")
        _declare_agents(self)
        # made at the first reset without a seed (as the Gymnasium env's): copies of an env
        # not reset yet must not all deal the same games
        self._seeds: random.Random | None = None
        self.game_state = None
        self._maps_key = None
        self._over = False  # the episode has ended (the game may be unfinished: see _pending)
        # where an episode is cut off: the manifest's bound, the length OpenSpiel's game
        # declares (an instance attribute, so a test can shorten it)
        self.max_game_length = max_game_length(self.game)

    def _new_game(self, seed: int | None, options: Any) -> None:
        # warned, not refused: PettingZoo's api_test passes options={"options": 1}
        check_reset_options(options, self.game, refuse=False)
        seed = check_seed(seed)
        if seed is not None:
            self._seeds = make_rng(seed)  # -5 would deal 5's games: refused (BadOption, a ValueError)
        elif self._seeds is None:
            self._seeds = make_rng(None)
        self._game_seed = self._seeds.randrange(2**63)
        # the same game as new_game(seed=…) (infos replay it so), counting its length
        self.game_state = new_counted_game(self.game, seed=self._game_seed)
        self._over = False

    def _cut_off(self) -> bool:
        """True when the running game has reached the length bound (it ends the episode)."""
        return game_length(self.game_state) >= self.max_game_length

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    def state(self) -> np.ndarray:
        """The global state: every seat's observation vector, seat after seat."""
        return _global_state(self)

    def _render(self, seat: int | None) -> str | None:
        """The position as `seat` sees it (None: a spectator) for the render mode."""
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        _started(self, "render()")  # raised as PettingZoo's order-enforcing wrapper does
        text = render_text(self.game_state, seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class WasserspieleAEC(_Common, AECEnv):
    """One game of `game` per episode; `reset(seed=…)` makes the deal reproducible.

    An illegal index raises `EncodingError` with the reason (`illegal_action="raise"`),
    or, with `illegal_action="lose"` (for unmasked agents), ends the episode as in the
    parallel env: the offender gets `illegal_reward`, the others 0, every agent is
    terminated, and the reason is in the offender's info under `illegal_action`."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4, "name": "wasserspiele_v0", "is_parallelizable": False}

    def __init__(self, game: str | Game, render_mode: str | None = None, illegal_action: str = "raise",
                 illegal_reward: float = -1.0, seat_infos: bool = True, **options: Any):
        super().__init__()
        self._setup(game, options, render_mode, illegal_action, illegal_reward, seat_infos)

    # -- episode ---------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._new_game(seed, options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = _infos(self)
        self.agent_selection = self.possible_agents[self.game_state.current_seat]
        if self.render_mode == "human":  # the first position too, as every step's
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat.get(agent) if isinstance(agent, str) else None
        if seat is None:  # a KeyError would show only the name
            raise ValueError(f"no agent named {agent!r} (agents: {', '.join(self.possible_agents)})")
        return _observation(self, seat)

    def step(self, action: int | None) -> None:
        _started(self, "step()")
        if not self.agents:  # every agent has left (a KeyError on raw_env; the wrapper only warns)
            raise RuntimeError("the episode is over (every agent is done): call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        if action is None:
            raise ValueError(f"{agent} must act (an index 0..{self.codec.num_actions - 1}), not None")
        move, lost = _move_for(self, seat, _legal_maps(self)[seat], action)
        if lost is not None:
            self._forfeit(agent, lost)
            return
        self.game_state.apply_legal(move, seat)  # taken from this position's legal actions
        self._cumulative_rewards[agent] = 0.0
        if self.game_state.is_terminal():
            final = zero_sum(self.game_state)
            self._over = True
            for a in self.agents:
                self.rewards[a] = final[self._seat[a]]
                self.terminations[a] = True
            self.agent_selection = agent
        elif self._cut_off():
            self._over = True
            for a in self.agents:
                self.rewards[a] = 0.0
                self.truncations[a] = True
            self.agent_selection = agent
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
            self.agent_selection = self.possible_agents[self.game_state.current_seat]
        self.infos = _infos(self)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _forfeit(self, agent: str, reason: str) -> None:
        """End the episode after `agent`'s illegal action (illegal_action="lose")."""
        self._over = True
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = self.illegal_reward if a == agent else 0.0
            self.terminations[a] = True
        self.infos = _infos(self)
        self.infos[agent]["illegal_action"] = reason
        self._accumulate_rewards()

    def render(self) -> str | None:
        return self._render(self._seat[self.agent_selection] if self.game_state is not None else None)


class WasserspieleParallel(_Common, ParallelEnv):
    """One game per episode; each step takes an action from every seat whose decision
    is pending (all the secret picks of a simultaneous phase, else the one seat to
    move).  Actions of waiting agents are ignored; their mask is all zeros.

    An illegal index raises `EncodingError` with the reason (`illegal_action="raise"`),
    or, with `illegal_action="lose"` (for unmasked samplers such as PettingZoo's
    `parallel_seed_test`), ends the episode: the offender gets `illegal_reward`, the
    others 0, and the reason is in its info under `illegal_action`."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4, "name": "wasserspiele_v0"}

    def __init__(self, game: str | Game, render_mode: str | None = None, illegal_action: str = "raise",
                 illegal_reward: float = -1.0, seat_infos: bool = True, **options: Any):
        self._setup(game, options, render_mode, illegal_action, illegal_reward, seat_infos)
        self.agents: list[str] = []

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        seats = [self._seat[a] for a in self.agents]
        vectors = self.codec.observe_states(self.game_state, seats)
        return {a: {"observation": v, "action_mask": _mask(self, s)} for a, s, v in zip(self.agents, seats, vectors)}

    def reset(self, seed: int | None = None, options: dict | None = None):
        self._new_game(seed, options)
        self.agents = list(self.possible_agents)
        if self.render_mode == "human":  # the first position too, as every step's
            self.render()
        return self._observations(), _infos(self)

    def step(self, actions: dict[str, int]):
        state = self.game_state
        if state is None or not self.agents:
            raise RuntimeError("the episode is over (or never started): call reset()")
        unknown = [name for name in actions if name not in self.possible_agents]
        if unknown:  # a misspelt agent's action would be dropped, and its agent told to act
            raise ValueError(f"no agent named {unknown[0]!r} (agents: {', '.join(self.possible_agents)})")
        maps = _legal_maps(self)
        # every pending seat's choice is decoded against the same position before any is
        # applied: in a simultaneous phase no pick may depend on another.  Every choice is
        # checked before any seat forfeits: a later seat's index that is no index at all
        # was let through when an earlier seat's was illegal, and of three seats picking
        # the same illegal index only the first was penalised.
        moves, lost = [], {}
        for seat, legal in maps.items():
            agent = self.possible_agents[seat]
            if actions.get(agent) is None:
                raise ValueError(f"{agent} must act now (an index 0..{self.codec.num_actions - 1}); "
                                 f"acting: {', '.join(self.possible_agents[s] for s in maps)}")
            move, why = _move_for(self, seat, legal, actions[agent])
            if why is not None:
                lost[agent] = why
            moves.append((seat, move))
        if lost:
            return self._forfeit(lost)
        if len(moves) == 1:
            state.apply_legal(moves[0][1], moves[0][0])  # taken from this position's legal actions
        else:  # later picks were found before the earlier ones were applied: checked
            for seat, move in moves:
                state.apply(move, seat)
        over = state.is_terminal()
        cut = not over and self._cut_off()
        self._over = over or cut
        final = zero_sum(state) if over else [0.0] * self.game.players
        observations = self._observations()
        infos = _infos(self)
        rewards = {a: float(final[self._seat[a]]) for a in self.agents}
        terminations = {a: over for a in self.agents}
        truncations = {a: cut for a in self.agents}
        if self._over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _forfeit(self, lost: dict[str, str]):
        """End the episode after the illegal actions of the agents in `lost` (each with why;
        illegal_action="lose"): each offender gets illegal_reward, the others 0."""
        self._over = True
        observations, infos = self._observations(), _infos(self)
        for agent, reason in lost.items():
            infos[agent]["illegal_action"] = reason
        rewards = {a: self.illegal_reward if a in lost else 0.0 for a in self.agents}
        terminations = {a: True for a in self.agents}
        truncations = {a: False for a in self.agents}
        self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        # as the acting seat sees it, as the AEC env renders its agent_selection's view; where
        # several seats pick at once (Wildwasser's secret picks) or none acts any more (the
        # episode is over), no seat's view is the acting one: the spectator's
        acting = _pending(self) if self.game_state is not None else ()
        return self._render(acting[0] if len(acting) == 1 else None)


def parallel_env(game: str | Game, render_mode: str | None = None, **options: Any) -> WasserspieleParallel:
    """The parallel environment (every pending seat acts in one step)."""
    return WasserspieleParallel(game, render_mode=render_mode, **options)


def raw_env(game: str | Game, render_mode: str | None = None, **options: Any) -> WasserspieleAEC:
    """The environment without PettingZoo's wrappers."""
    return WasserspieleAEC(game, render_mode=render_mode, **options)


def env(game: str | Game, render_mode: str | None = None, **options: Any):
    """The environment with PettingZoo's order-enforcing wrapper (what `api_test` expects)."""
    e = raw_env(game, render_mode=render_mode, **options)
    return wrappers.OrderEnforcingWrapper(e)
