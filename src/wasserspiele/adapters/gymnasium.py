"""Gymnasium single-agent environments: `gymnasium.make("wasserspiele/Wasserloch-v0")`.

The agent plays one seat (`seat=0`) against bots named by any bot spec the CLI accepts
(`opponents="heuristic"`, `"expert"`, `"ismcts:iterations=50"`, `"learned"`, or one spec
per other seat; bots/specs.py), with extra settings per kind
(`opponent_options={"ismcts": {"iterations": 200}}`, every kind and setting checked by
name; a setting an opponent's spec writes itself is not to be said otherwise there).  Observations are the float32 vector of the agent's view; the legal-action mask
is in `info["action_mask"]` and from `action_masks()` (what sb3-contrib's MaskablePPO
reads), a method of the unwrapped env: `gymnasium.make` wraps it, so call
`env.unwrapped.action_masks()` or `env.get_wrapper_attr("action_masks")()`.
`info["legal_actions"]` and `info["view"]` hold the legal actions' notation and the raw
view: a read-only sequence equal to the list (`common.InfoList`) and a read-only mapping
equal to the view dict (`common.InfoView`), so that Gymnasium's `SyncVectorEnv`/
`AsyncVectorEnv` keep each table's whole.  Both are built when first read, from the
position the info was issued for, however late (building them at every step took a
fifth (Watten) to five sixths (Seven Waters) of a step's time, and most loops never
read them).  Pickled (`AsyncVectorEnv`'s pipes) they are built in the worker and sent as
one bytes object each, which the main process decodes when first read: it unpickled
every table's view at every step before.  `seat_infos=False` leaves them out (nothing
built in the worker either), and the info holds only the mask, an illegal index's
reason and the episode's end (`returns`, `scores`, `truncated_at`).  The reward comes
at the end: the agent's share of the zero-sum transform of `state.returns()`.

A game that reaches the manifest's `max_game_length` (decisions and chance nodes, as
OpenSpiel counts them; `common.game_length`) is cut off: `truncated=True`, reward 0 (an
unfinished game's returns are all 0) and `info["truncated_at"]` holds the length.

`gymnasium.make_vec` gives the game's batched kernel env (`vector.make_vector_env`);
`vectorization_mode="sync"` or `"async"` runs these environments side by side.

An index that is in the action space but illegal now ends the episode with
`illegal_reward` (default -1) and the reason in `info["illegal_action"]`, so that
unmasked agents (and gymnasium's env checker) can explore; `illegal_action="raise"`
raises the engine's `IllegalAction` instead (an `IllegalIndex`, which also comes through
`AsyncVectorEnv`'s worker processes whole).
"""

from __future__ import annotations

import os
import random
from typing import Any, Mapping, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots.base import decision_for
from ..bots.match import apply_choice, note_the_chooser
from ..bots.registry import bot_kinds, check_settings, make_bot
from ..bots.specs import BotSpec, check_spec, parse_bot_spec
from ..core.errors import BadOption, IllegalAction
from ..core.protocol import Game
from ..core.registry import manifests
from .common import (InfoList, InfoView, Position, check_reset_options, check_reward, check_seat, check_seat_infos,
                     check_seed, game_length, kernel_module, load_with_codec, max_game_length, merged_options,
                     new_counted_game, own_keywords, render_text, zero_sum)


class IllegalIndex(IllegalAction):
    """What `illegal_action="raise"` raises: the engine's `IllegalAction` for an index of
    the action space that is not legal now.  It crosses a process boundary whole:
    Gymnasium's `AsyncVectorEnv` pickles a worker's error (IllegalAction pickles) and
    raises `type(error)(error)` in the main process, which `IllegalAction`, built from
    three arguments, could not take (a researcher got "IllegalAction.__init__() missing 2
    required positional arguments" instead of the reason, and a vector env that could no
    longer be closed)."""

    def __init__(self, action: Any, seat: int | None = None, reason: Any = None):
        if reason is None:  # AsyncVectorEnv's type(error)(error): a copy of `error`
            if not isinstance(action, IllegalAction):
                raise TypeError("IllegalIndex(action, seat, reason) or IllegalIndex(an IllegalAction)")
            action, seat, reason = action.action, action.seat, action.reason
        super().__init__(action, seat, reason)


class WasserspieleEnv(gymnasium.Env):
    """One seat of one game per episode against bots; seeded by `reset(seed=…)`."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(self, game: str | Game, seat: int = 0,
                 opponents: str | Sequence[str] = "random", render_mode: str | None = None,
                 illegal_action: str = "lose", illegal_reward: float = -1.0,
                 opponent_options: dict[str, dict[str, Any]] | None = None,
                 options: dict[str, Any] | None = None, seat_infos: bool = True, **game_options: Any):
        super().__init__()
        # False: no view nor legal actions' notation in the info (they are built when read,
        # but AsyncVectorEnv pickles every info, which builds them in the worker: up to five
        # sixths of a step's time)
        self.seat_infos = check_seat_infos(seat_infos)
        self.game, self.codec = load_with_codec(game, merged_options(options, game_options),
                                                own_keywords(type(self).__init__))
        players = self.game.players
        self.seat = seat = check_seat(seat, self.game)
        others = [s for s in range(players) if s != seat]
        kinds = _opponent_specs(opponents, len(others))
        if len(kinds) != len(others):
            raise ValueError(f"opponents: {len(others)} bot names needed (seats {others}), got {len(kinds)}")
        specs = [parse_bot_spec(k) for k in kinds]
        for spec in specs:  # an unknown name fails here, naming what is known
            check_spec(spec, self.game)
        # keyword arguments per bot kind, e.g. {"ismcts": {"iterations": 200}}
        self.opponent_options = _check_opponent_options(opponent_options, self.game)
        for spec in specs:  # a bad setting fails here, naming the bot's settings
            _refuse_settings_said_twice(spec, self.game, self.opponent_options)
            try:
                self._make(spec, 0)
            except BadOption as exc:
                # the spec's own settings were checked above (check_spec): a value refused
                # now is opponent_options', which the refusal did not name
                kind = spec.settings(self.game)[0]
                if kind not in self.opponent_options:
                    raise
                raise BadOption(f"opponent_options[{kind!r}]: {exc}") from None
        self.opponent_kinds = dict(zip(others, specs))
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action must be 'lose' or 'raise', got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = check_reward(illegal_reward)
        low, high = self.codec.bounds()
        self.observation_space = spaces.Box(low, high, (self.codec.obs_size,), np.float32)
        self.action_space = spaces.Discrete(self.codec.num_actions)
        # made at the first reset without a seed, from the operating system, as Gymnasium makes
        # np_random: copies of an env not reset yet (deepcopy, pickle, a forked worker) must
        # not all deal the same games
        self._seeds: random.Random | None = None
        self.state = None
        self._game_seed = 0
        self.bots: dict[int, Any] = {}
        self._legal: dict[int, Any] = {}
        self._mask = np.zeros(self.codec.num_actions, dtype=np.int8)
        # the episode ended (a step returned terminated or truncated): the game itself may
        # still be running after an illegal index or at the length bound
        self._over = False
        # where an episode is cut off: the manifest's bound, the length OpenSpiel's game
        # declares (an instance attribute, so a test can shorten it)
        self.max_game_length = max_game_length(self.game)

    # -- helpers -----------------------------------------------------------------
    def _make(self, spec: BotSpec, seed: int):
        kind, kwargs = spec.settings(self.game)
        return make_bot(kind, self.game, seed, **{**kwargs, **self.opponent_options.get(kind, {})})

    def _play_bots(self) -> None:
        """Bots move until the agent's seat is the current one or the game is over."""
        s = self.state
        while not s.is_terminal() and game_length(s) < self.max_game_length:
            seat = s.current_seat
            if seat == self.seat:
                return
            # a refused choice names its bot: raised from the agent's step(), it is no fault of the agent's action
            # (nor is the bot's own failure, which says so in a note)
            try:
                action = self.bots[seat].choose(decision_for(s, seat))
            except Exception as exc:
                note_the_chooser(exc, self.opponent_kinds[seat].text, seat, len(s.history), s.game.name,
                                 self._game_seed)
                raise
            apply_choice(s, action, seat, self.opponent_kinds[seat].text, self._game_seed)

    def _observation(self) -> tuple[np.ndarray, dict[str, Any]]:
        codec = self.codec
        self._legal = {}
        if not self._over and not self.state.is_terminal():
            # from the state where the codec can (no view), as observe_state
            self._legal = codec.legal_map_state(self.state, self.seat)
        self._mask = mask = codec.mask_of(self._legal)
        obs = codec.observe_state(self.state, self.seat)
        info = {"action_mask": mask.copy()}
        if self.seat_infos:
            # built when read (most loops never do), from this position however late: an
            # episode moved on is replayed from its seed (common.Position)
            position = Position(self.state, self._game_seed)
            info["legal_actions"] = InfoList.of(self._legal, position, self.seat)
            info["view"] = InfoView.of(position, self.seat)
        return obs, info

    def action_masks(self) -> np.ndarray:
        """The legal-action mask (bool) for the agent's current decision (all False
        before `reset()` and once the episode is over)."""
        return self._mask.astype(bool)

    # -- gymnasium API -------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        check_reset_options(options, self.game)
        seed = check_seed(seed)  # np.int64(4) taken, True refused (Gymnasium's own check: the other way round)
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
        elif self._seeds is None:
            self._seeds = random.Random()
        self._over = False
        # kept: a late-read info replays its episode from it (common.Position)
        self._game_seed = self._seeds.randrange(2**63)
        self.state = new_counted_game(self.game, seed=self._game_seed)
        self.bots = {s: self._make(spec, self._seeds.randrange(2**63)) for s, spec in self.opponent_kinds.items()}
        self._play_bots()
        observation = self._observation()
        if self.render_mode == "human":  # the first position too, as every step's
            self.render()
        return observation

    def step(self, action: int):
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        index = self.codec.check_index(action)
        move = self._legal.get(index)
        if move is None:
            reason = (f"action {index} ({self.codec.action_names[index]}) is not legal now "
                      f"(legal: {', '.join(str(a) for a in self._legal.values())})")
            if self.illegal_action == "raise":
                raise IllegalIndex(self.codec.action_names[index], self.seat, reason)
            self._over = True  # the game is left as it was, but this episode has ended
            obs, info = self._observation()
            info["illegal_action"] = reason
            return obs, self.illegal_reward, True, False, info
        state = self.state
        state.apply_legal(move, self.seat)  # taken from this position's legal actions
        self._play_bots()
        terminated = state.is_terminal()
        truncated = not terminated and game_length(state) >= self.max_game_length
        self._over = terminated or truncated
        obs, info = self._observation()
        reward = zero_sum(state)[self.seat] if terminated else 0.0
        if terminated:
            info["returns"] = state.returns()
            info["scores"] = state.scores()
        elif truncated:
            info["truncated_at"] = game_length(state)
        if self.render_mode == "human":
            self.render()
        return obs, float(reward), terminated, truncated, info

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' or 'human'")
            return None
        if self.state is None:
            raise RuntimeError("nothing to render yet: call reset() first")
        text = render_text(self.state, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def _opponent_specs(opponents: Any, count: int) -> list[str]:
    """The bot spec of each of the `count` other seats: one spec (a string, or a path to
    a `.npz` checkpoint) for all, or a list of one per seat; anything else is refused by
    name (an int or None used to fail inside `list()`, "'int' object is not iterable")."""
    def spec(value: Any) -> str | None:
        if isinstance(value, os.PathLike):
            return os.fspath(value)
        return value if isinstance(value, str) else None

    one = spec(opponents)
    if one is not None:
        return [one] * count
    if isinstance(opponents, (list, tuple)):
        specs = [spec(v) for v in opponents]
        if None not in specs:
            return specs
    raise ValueError(f"opponents must be a bot spec (e.g. 'heuristic') or a list of {count}, one per other seat, "
                     f"got {opponents!r}")


def _refuse_settings_said_twice(spec: BotSpec, game: Game, options: dict[str, dict[str, Any]]) -> None:
    """A setting an opponent's spec writes itself is the one meant: `opponent_options`, the
    settings of every opponent of a kind, replaced it without a word.  Saying it otherwise
    there is refused (a level's own budget, which the spec does not write, they may set)."""
    kind = spec.kind_for(game)
    extra = options.get(kind, {})
    stated = dict(spec.params)
    clash = sorted(k for k in extra if k in stated and stated[k] != extra[k])
    if clash:
        raise BadOption(f"opponent_options[{kind!r}] sets {', '.join(clash)}, which the opponent "
                        f"{spec.text!r} already says otherwise: say each setting once")


def _check_opponent_options(options: Any, game: Game) -> dict[str, dict[str, Any]]:
    """`opponent_options` keyed by lower-case bot kind, every kind and setting checked by
    name.  Options for a kind no opponent is are allowed (one configuration for any
    opponents), but they are checked too: otherwise a misspelt setting of a kind that is
    not playing now would pass without a word and fail only once that kind plays."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise BadOption(f"opponent_options must map bot kinds to settings, e.g. {{'ismcts': {{'iterations': 200}}}}, "
                        f"got {options!r}")
    kinds = bot_kinds()
    out = {}
    for kind, settings in options.items():
        key = kind.strip().lower() if isinstance(kind, str) else kind
        if key not in kinds:
            raise BadOption(f"opponent_options: {kind!r} is not a bot kind (bot kinds: {', '.join(kinds)})")
        if not isinstance(settings, Mapping):
            raise BadOption(f"opponent_options[{kind!r}] must map setting names to values, got {settings!r}")
        try:
            check_settings(key, game, settings)
        except BadOption as exc:
            raise BadOption(f"opponent_options: {exc}") from None
        out[key] = dict(settings)
    return out


def register_all() -> list[str]:
    """Register `wasserspiele/<Game>-v0` for every game with a codec (idempotent); returns the ids.
    `gymnasium.make_vec` gives a game's batched kernel env (`vector.make_vector_env`).
    A game registered later is added by calling this again."""
    ids = []
    for m in manifests():
        if m.plugins.codec is None:
            continue
        env_id = f"wasserspiele/{m.class_name}-v0"
        if env_id not in gymnasium.envs.registry:
            # make_vec's default: the game's batched kernel env where it has one
            # (vectorization_mode="sync"/"async" still gives the single-table envs)
            kernel = f"{__package__}.vector:make_vector_env" if kernel_module(m) else None
            gymnasium.register(id=env_id, entry_point=f"{__name__}:WasserspieleEnv", kwargs={"game": m.name},
                               vector_entry_point=kernel)
        ids.append(env_id)
    return ids


ENV_IDS = register_all()
