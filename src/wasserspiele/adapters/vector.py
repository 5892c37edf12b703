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

`gymnasium.make_vec("wasserspiele/<Game>-v0", num_envs, **kwargs)` gives the game's
kernel VectorEnv (`make_vector_env`, each registration's `vector_entry_point`) with the
single-table env's argument names and, for every game option not given, the game's
default (`game_defaults`), so that the defaults mean the same game as `gymnasium.make`'s;
what the kernel cannot play (bot kinds other than its policies, `illegal_action="raise"`,
rendering) is refused, naming `vectorization_mode="sync"`, which runs the single-table
envs.
"""

from __future__ import annotations

import hashlib
import inspect
import random
from importlib import import_module
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

from ..core.chance import make_rng
from ..core.options import resolve_options
from ..core.registry import manifest
from ..fast import seed_state
from .common import (as_integer, check_reset_options, check_reward, check_seat_infos, check_seed, kernel_module,
                     max_game_length, merged_options, near_miss, own_keywords, shown_arg)


def table_seed(seed: int) -> int:
    """`seed` as the 32 bits each table's xorshift32 state is made from (`seed_state`
    keeps only 32): a seed in 0 … 2**32 - 1 is itself, so its deals stay as they were;
    any other folds all its bits in by a hash, so that seeds 2**32 apart (and the 63-bit
    seeds of later resets) deal different tables.  Each table still has at most 2**32
    deals: its generator's state has 32 bits."""
    if 0 <= seed < 2**32:
        return seed
    size = (seed.bit_length() + 8) // 8  # room for the sign
    digest = hashlib.blake2b(seed.to_bytes(size, "little", signed=True), digest_size=4).digest()
    return int.from_bytes(digest, "little")


def deal_state(seed: int, table: int = 0) -> int:
    """The generator state table `table` of a reset seeded `seed` is dealt from (a reset
    with a seed per table deals each as table 0 of its own seed)."""
    return seed_state(table_seed(seed) * 1_000_003 + table)


class KernelVectorEnv(VectorEnv):
    num_envs: int
    needs_reset: np.ndarray
    _seed: int | None
    _masks: np.ndarray

    @staticmethod
    def _check_num_envs(num_envs: Any) -> int:
        """A table count as an int, or refused unless a positive integer (before any work)."""
        n = as_integer(num_envs)
        if n is None or n < 1:
            raise ValueError(f"num_envs must be a positive integer, not {shown_arg(num_envs)}")
        return n


    def _setup(self, codec, num_envs: int, illegal_reward: float, seed: int | None) -> None:
        """The spaces (the same as the single-table environments'), the observation and
        mask buffers and the seed: what every game's `__init__` sets alike."""
        low, high = codec.bounds()
        self.single_observation_space = spaces.Box(low, high, (codec.obs_size,), np.float32)
        self.single_action_space = spaces.Discrete(codec.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.illegal_reward = check_reward(illegal_reward)
        self.needs_reset = np.zeros(num_envs, np.bool_)
        self._obs = np.zeros((num_envs, codec.obs_size), np.float32)
        self._masks = np.zeros((num_envs, codec.num_actions), np.int8)
        self._seed = seed  # for the first reset() without a seed
        self._seeds: random.Random | None = None  # the seeds of later unseeded resets
        self._dealt = False  # step() before the first reset() would play zeroed tables
        # where a table is cut off (an instance attribute, so a test can shorten it)
        self.max_game_length = max_game_length(codec.game)
        self._game = codec.game  # named in refusals
        self._agent_steps = np.zeros(num_envs, np.int64)  # per table, this game's agent decisions

    def _reset_tables(self, xs: np.ndarray) -> None:
        raise NotImplementedError

    def _step_tables(self, actions: np.ndarray, rewards: np.ndarray, terminated: np.ndarray,
                     illegal: np.ndarray) -> None:
        raise NotImplementedError

    def _observe(self) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        # no reset options: Gymnasium's `reset_mask` among them (every table is dealt
        # anew here; a finished table alone is dealt on its next step)
        check_reset_options(options, self._game)
        if isinstance(seed, (list, tuple)):
            states = self._states_of_seeds(seed)
        else:
            if seed is None:
                seed, self._seed = self._seed, None  # the constructor's seed serves once
            seed = self._next_seed(check_seed(seed))
            states = [deal_state(seed, e) for e in range(self.num_envs)]
        self._reset_tables(np.array(states, np.int64))
        self.needs_reset[:] = False
        self._agent_steps[:] = 0
        self._dealt = True
        obs, masks = self._observe()
        return obs, {"action_mask": masks}

    def _next_seed(self, seed: int | None) -> int:
        """The seed of a reset: `seed` itself, which starts the sequence of later unseeded
        resets (-5 would go on as 5 does: refused, as Gymnasium refuses it); else that
        sequence's next, else a fresh one."""
        if seed is not None:
            self._seeds = make_rng(seed)
            return seed
        if self._seeds is not None:  # a seeded sequence goes on to new deals
            return self._seeds.randrange(2**63)
        return int(np.random.SeedSequence().generate_state(1)[0])

    def _states_of_seeds(self, seeds: list | tuple) -> list[int]:
        """A seed per table, as Gymnasium's `VectorEnv.reset(seed=[...])` and the sync and
        async vector envs take it (it was refused here, "seed must be an integer"): table
        e is dealt as a one-table env reset with seeds[e] deals its table; None, unseeded.
        Later unseeded resets go on from the first seed's sequence."""
        if len(seeds) != self.num_envs:
            raise ValueError(f"seed: a list of {len(seeds)} seeds for {self.num_envs} tables (one each)")
        checked = [check_seed(s) for s in seeds]
        self._seed = None
        first = self._next_seed(checked[0])
        chosen = [first, *(s if s is not None else self._next_seed(None) for s in checked[1:])]
        return [deal_state(s) for s in chosen]

    def _check_actions(self, actions: Any) -> np.ndarray:
        """One integer action per table as int64, or a clear error: casting floats,
        bools or NaN to int64 would play an index nobody chose."""
        a = np.asarray(actions)
        if a.size != self.num_envs:
            raise ValueError(f"actions: one per table needed ({self.num_envs}), got {a.size} (shape {a.shape})")
        a = a.reshape(self.num_envs)
        if a.dtype.kind in "iu":
            return self._in_space(a).astype(np.int64)
        if a.dtype.kind == "f":
            bad = ~np.isfinite(a) | (a != np.round(a))
        elif a.dtype.kind == "O":  # a list mixing kinds: each must be an integer
            bad = np.array([as_integer(x) is None for x in a])
        else:  # bools, strings
            bad = np.ones(self.num_envs, np.bool_)
        if bad.any():
            e = int(np.flatnonzero(bad)[0])
            raise ValueError(f"actions must be integer indices; table {e} got {shown_arg(a[e])} ({a.dtype} actions)")
        return self._in_space(a).astype(np.int64)

    def _in_space(self, a: np.ndarray) -> np.ndarray:
        """`a`, refused if a table that plays this step (one not being dealt anew, whose
        action is ignored) got an index outside the action space: -1 or 10**6 is a
        caller's bug, not a move to lose by, and the single-table envs refuse it too.
        Compared before the cast to int64, which would wrap 2**64 to 0 and 1e30 to anything."""
        n = self.single_action_space.n
        outside = ((a < 0) | (a >= n)).astype(bool)
        if outside.any():
            bad = outside & ~self.needs_reset
            if bad.any():
                e = int(np.flatnonzero(bad)[0])
                raise ValueError(f"actions: table {e} got index {shown_arg(a[e])}, outside the action space 0..{n - 1}")
            a = np.where(outside, 0, a)  # ignored by tables dealt anew; 0 casts exactly
        return a

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
        # the episode is over: nothing is legal any more, as in the single-table envs.  The
        # kernels' encoders say so of a finished game; an illegal index leaves the table's
        # position, and its plays, as they were.  (Rare: a boolean index on every step's
        # finished tables cost a 1,024-table Wasserloch step 7 %.)
        ended = illegal | truncated
        if ended.any():
            masks[ended] = 0
            self._masks[ended] = 0
        info = {"action_mask": masks}
        if illegal.any():
            info["illegal_action"] = illegal
        return obs, rewards, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal-action masks (bool, one row per table), as MaskablePPO reads them."""
        return self._masks.astype(bool)


class KernelCannot(ValueError):
    """A setting a game's kernel VectorEnv cannot play (an opponent policy it lacks, a
    variant of the rules it does not implement), where the single-table envs can."""


def kernel_env_class(game: str) -> type[KernelVectorEnv]:
    """The game's kernel VectorEnv: the one KernelVectorEnv its `vector.py` defines."""
    name = kernel_module(manifest(game))
    if name is None:
        raise ValueError(f"{game} has no batched kernel env")
    module = import_module(name)
    found = [v for v in vars(module).values()
             if isinstance(v, type) and issubclass(v, KernelVectorEnv) and v.__module__ == module.__name__]
    if len(found) != 1:
        raise RuntimeError(f"{name} defines {len(found)} kernel VectorEnvs, not one")
    return found[0]


def game_defaults(cls: type[KernelVectorEnv], game: str, given: dict[str, Any]) -> dict[str, Any]:
    """The game's default of every option the kernel env names as a parameter and the
    caller did not give: `gymnasium.make` plays the game's defaults, so `make_vec` must
    too.  The kernel envs' own defaults are the game's today (a test checks it); reading
    them from the manifest here keeps `make_vec` right should one drift (the Wasserloch
    env once played one round where the game's match is 3, WL-5.5)."""
    params = inspect.signature(cls.__init__).parameters
    named = {name for name, p in params.items() if p.kind is not inspect.Parameter.VAR_KEYWORD}
    return {o.name: o.default for o in manifest(game).options if o.name in named and o.name not in given}


def check_game_options(cls: type[KernelVectorEnv], game: str, given: dict[str, Any]) -> None:
    """Refuse an option the game does not have, or a value it does not take, in the game's
    own words ("wasserloch has no option 'roundz' (options: …)"), as `gymnasium.make` does:
    a misspelt option is no limit of the kernel env, and the single-table envs it would
    send the caller to refuse it too.  The kernel env's own arguments that are no game
    option (`seed`, `illegal_reward`) are left to it."""
    declared = manifest(game).options
    options = {o.name for o in declared}
    takes = inspect.signature(cls.__init__).parameters
    with near_miss(own_keywords(make_vector_env)):
        resolve_options(declared, {k: v for k, v in given.items() if k in options or k not in takes}, game)


def make_vector_env(num_envs: int = 1, *, game: str, seat: int = 0, opponents: Any = "random",
                    illegal_action: str = "lose", render_mode: str | None = None,
                    opponent_options: dict | None = None, options: dict[str, Any] | None = None,
                    max_episode_steps: Any = None, seat_infos: bool = False, **kwargs: Any) -> KernelVectorEnv:
    """`gymnasium.make_vec`'s vector entry point: the game's kernel VectorEnv, taking the
    single-table env's arguments (`seat`, `opponents`, `illegal_reward`, `options` and
    game options, the game's defaults for those not given, and the kernel's `seed`).
    Opponents are named by the kernel's policies (`random` everywhere; Watten's and
    Wasserloch's `greedy`, Seven Waters' `heuristic` rollout policy), not by bot specs.
    Anything the kernel would play differently from `gymnasium.make` with the same
    arguments is refused rather than changed.

    `max_episode_steps`, which `make_vec` hands every vector entry point (Gymnasium's own,
    such as CartPole's, take it), truncates a table after that many agent decisions, as
    `gymnasium.make(..., max_episode_steps=n)`'s `TimeLimit` does (it was taken for a game
    option and refused: "watten has no option 'max_episode_steps'").

    `seat_infos` is False here: the kernel's infos hold the masks (and which tables
    played an illegal index) and nothing else, what the single-table env's hold with
    `seat_infos=False`; True (views and legal actions' notation) is refused."""
    cls = kernel_env_class(game)
    limit = None
    if max_episode_steps is not None:
        limit = as_integer(max_episode_steps)
        if limit is None or limit < 1:
            raise ValueError(f"max_episode_steps must be a positive integer or None, "
                             f"not {shown_arg(max_episode_steps)}")

    def refuse(what: str) -> ValueError:
        return ValueError(f"{what}: the batched kernel env of {game} ({cls.__name__}) cannot play that; "
                          f"gymnasium.make_vec(..., vectorization_mode=\"sync\") (or \"async\") runs the "
                          f"single-table envs with every bot and option")

    if illegal_action != "lose":
        raise refuse(f"illegal_action={shown_arg(illegal_action)} (an illegal index always ends a table's episode)")
    if render_mode is not None:
        raise refuse(f"render_mode={shown_arg(render_mode)}")
    if check_seat_infos(seat_infos):
        raise refuse(f"seat_infos={shown_arg(seat_infos)} (its infos hold the masks only, "
                     f"no views or legal actions' notation)")
    if opponent_options:
        raise refuse("opponent_options")
    if not isinstance(opponents, str):
        raise refuse(f"opponents={shown_arg(opponents)} (one policy name for every other seat)")
    given = merged_options(options, kwargs)
    check_game_options(cls, game, given)
    try:
        env = cls(num_envs, seat=seat, opponents=opponents, **{**game_defaults(cls, game, given), **given})
    except TypeError as exc:  # an option the kernel does not take
        raise refuse(str(exc)) from None
    except KernelCannot as exc:
        raise refuse(str(exc)) from None
    if limit is not None:  # the manifest's bound still holds beyond it
        env.max_game_length = min(env.max_game_length, limit)
    return env
