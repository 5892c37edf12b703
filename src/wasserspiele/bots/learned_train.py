"""Training the learned bot by expert iteration (Anthony et al. 2017; AlphaZero's loop).

Generation 0 imitates the expert: ISMCTS with the game's tuned rollouts plays every
seat of self-play games, and at each decision the network learns the search's visit
distribution (policy head) and, once the game is over, the deciding seat's result
(value head).  Every later generation searches with the network itself — its policy
as the PUCT prior, its value in place of rollouts or, with `Budget.guide_value`, the
expert's rollouts at the leaves (`LearnedBot`'s guided ISMCTS) — and the network learns
those searches in turn, on all positions gathered so far.

With `Budget.teacher = "heuristic"` generation 0 imitates the game's heuristic instead:
its games cost no search, so the network learns from many more positions than the
search could label in the same time (Watten: 2,000 games in a minute, where 60 searched
games took 40 CPU-minutes).

With `Budget.dagger` the later generations are DAgger's instead (Ross, Gordon and
Bagnell 2011): the network itself — the `learned` bot, greedy, as it ships — plays
every seat of `dagger` games, and the expert's search labels the decisions with a
choice it reaches (`max_decisions` a game at most, spread over it).  Imitating only the expert's own games teaches nothing about the
positions the learner's mistakes lead to (in Wildwasser: every seat taking its
meerkat's cards back round after round, which the expert never plays into).

Training uses numpy alone: the network is a small MLP whose backward pass is written
out below (with Adam), which is all this size needs and keeps the install light.
Everything is seeded: the same command and seed give the same weights on the same
machine.  `wasserspiele train GAME --seed S` runs it and writes the weights with a
sidecar naming the command, seed, budget, date and version.
"""

from __future__ import annotations

import json
import platform
import random
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

import numpy as np

from ..core.chance import derive_seed
from ..core.errors import BadOption
from ..core.messages import Reason, term
from ..core.paths import PART, failed, replace_from
from ..core.protocol import Action, Game, State
from .base import Bot, decision_for
from .ismcts import ISMCTSBot, search_defaults
from .learned import LearnedBot, Network, codec_fingerprint, codec_of, network_fingerprint
from .registry import make_bot
from .runner import exit_with_parent, ignore_interrupts


@dataclass(frozen=True)
class Budget:
    """How much self-play and search one training run spends."""

    games: int = 20               # self-play games per generation
    generations: int = 2          # 1: imitate the expert only; more: expert iteration
    iterations: int = 200         # search iterations per decision
    hidden: tuple[int, ...] = (128, 64)
    epochs: int = 30              # passes over the gathered positions per generation
    batch: int = 128
    learning_rate: float = 2e-3
    explore: float = 0.15         # share of self-play moves drawn from the visit counts
    max_decisions: int = 400      # searched decisions per game at most (long Watten matches)
    # the value head's target: this share the search's own estimate of the move it made,
    # the rest the game's result (one game's result is a noisy label for every position in it)
    value_search: float = 0.5
    holdout: float = 0.1          # share of the games kept out of fitting to measure it
    # the policy's target: the visit shares raised to this power and renormalised.  A
    # search's visits are flat (Wasserloch's expert gives its best move a third of them
    # among five), so the plain shares mostly teach "all moves alike"; a power sharpens
    # them toward the search's choice while keeping its runners-up
    sharpen: float = 1.0
    # from generation 1 on, this many games a generation played by the network itself
    # (the `learned` bot) and labelled by the expert's search: DAgger.  0: guided self-play
    dagger: int = 0
    # the teacher's rollouts: at most this many actions (None: the game's tuned setting,
    # `manifest.search.ismcts`).  A rollout cut short is valued by the score lead alone,
    # which in Wildwasser's mid-game (podium points come only at the finish) is the same
    # after moving an animal as after passing, so a 30-action teacher labels such choices
    # by noise; a rollout to the end of the game values the progress
    rollout_depth: int | None = None
    # the search guided by the network (the later generations without DAgger): its leaves
    # valued by the value head ("network") or by the expert's rollouts ("rollout"), PUCT's
    # exploration constant, and its self-play games a generation (None: `games`).  With a
    # prior no better than the plain search, the guided search is only as good as its
    # leaves and constant (Wasserloch at hard's CPU: the value head and 1.5 0.352 of 216
    # against the plain search, the rollouts and 0.5 0.603 of 408; docs/learned.md), and
    # its searches are the next generation's targets
    guide_value: str = "network"
    guide_exploration: float = 1.5
    guided_games: int | None = None
    # generation 0's teacher: "search" (the expert's self-play, its visit shares as
    # targets) or "heuristic" (the game's heuristic in every seat, its choice as the
    # target; `imitated_game`).  The heuristic's games cost no search, so generation 0
    # learns from hundreds of thousands of positions where the search affords tens of
    # thousands: Watten's network, taught by 60 searched games, won 0.20 of its games
    # against the heuristic, one taught by 2,000 of the heuristic's own about 0.45
    # (docs/learned.md).  Later generations (DAgger's) can then correct it toward the search
    teacher: str = "search"
    # which positions a generation is fitted on: those of the last `window` generations
    # (None: all gathered so far), going on from the previous generation's weights (unless `fresh`).
    # AlphaZero's replay window: fitted among generation 0's five times as many, a guided
    # Seven Waters generation's positions moved the network less (against the heuristic
    # 0.41, with window 1 0.44; docs/learned.md).
    window: int | None = None
    # each later generation's fit starts from fresh weights (seeded by the generation), not
    # from the previous generation's: Expert Iteration's apprentice is retrained from scratch
    # (Anthony, Tian and Barber 2017).  Seven Waters' guided positions fitted alone won
    # 0.47-0.52 of their games against the heuristic from fresh weights, 0.43-0.46 going on
    # from generation 0's (docs/learned.md)
    fresh: bool = False


TEACHERS = ("search", "heuristic")  # Budget.teacher

# a self-play game's id in the positions: generation · GAME_IDS + its number in the generation
GAME_IDS = 1_000_000


@dataclass
class Decided:
    """One searched decision: who chose, what the search counted, what was played."""

    index: int                    # its position in the game's history (and record)
    seat: int
    visits: dict[Action, int]
    played: Action
    value: float | None = None    # the search's mean reward for the played move (None: not searched)
    # False for a move the search was not asked about (a convention, `bot.conventional`)
    # or that it gave no visits: its `visits` is the move played, counted once
    searched: bool = True


@dataclass
class Positions:
    """Training examples: observations, legal masks, visit targets, seats, results."""

    obs: list[np.ndarray] = field(default_factory=list)
    mask: list[np.ndarray] = field(default_factory=list)
    target: list[np.ndarray] = field(default_factory=list)
    value: list[float] = field(default_factory=list)
    searched: list[float] = field(default_factory=list)  # the search's value, nan where none
    game: list[int] = field(default_factory=list)         # which self-play game (for the holdout)
    cpu_s: float = 0.0            # CPU seconds the searches took (also those of an earlier run)

    ROWS = ("obs", "mask", "target", "value", "searched", "game")  # one entry each per position

    def __len__(self) -> int:
        return len(self.obs)

    def add(self, rows: list[tuple]) -> None:
        """Rows from `Trainer.searched_rows`."""
        for obs, mask, target, value, searched, game in rows:
            self.obs.append(obs)
            self.mask.append(mask)
            self.target.append(target)
            self.value.append(value)
            self.searched.append(searched)
            self.game.append(game)

    def extend(self, other: "Positions") -> None:
        for name in self.ROWS:
            getattr(self, name).extend(getattr(other, name))
        self.cpu_s += other.cpu_s

    def only_games(self, keep: Callable[[int], bool]) -> None:
        """Drop the rows of the games (ids) `keep` refuses."""
        rows = [i for i, g in enumerate(self.game) if keep(g)]
        for name in self.ROWS:
            values = getattr(self, name)
            setattr(self, name, [values[i] for i in rows])

    def arrays(self) -> tuple[np.ndarray, ...]:
        return (np.stack(self.obs), np.stack(self.mask), np.stack(self.target),
                np.asarray(self.value, dtype=np.float32))

    def value_targets(self, search_share: float) -> np.ndarray:
        """The result blended with the search's estimate where there is one."""
        result = np.asarray(self.value, dtype=np.float32)
        searched = np.asarray(self.searched, dtype=np.float32)
        return np.where(np.isnan(searched), result, (1 - search_share) * result + search_share * searched)

    def save(self, path, made_by: Mapping[str, Any]) -> None:
        """To `path` (.npz) with what made them (`made_by`, checked when they are reused);
        written aside and renamed, so a run stopped mid-write keeps the last whole file."""
        path = Path(path)

        def write(f) -> None:
            np.savez_compressed(f, obs=np.stack(self.obs), mask=np.stack(self.mask), target=np.stack(self.target),
                                value=np.asarray(self.value, np.float32),
                                searched=np.asarray(self.searched, np.float32),
                                game=np.asarray(self.game, np.int64), cpu_s=self.cpu_s,
                                made_by=json.dumps(made_by, sort_keys=True))

        # a full disk left the half-written FILE.part behind and ended in OSError's traceback:
        # the part is removed, the file holds the positions saved before, and WriteFailed says so
        try:
            replace_from(path.with_name(path.name + PART), path, write)
        except OSError as exc:
            raise failed(path, exc).keeping(Reason("text", text=(
                f"{path} holds the positions saved before, from which the same command resumes"
                if path.is_file() else f"{path} was not made"))) from None

    @classmethod
    def load(cls, path, made_by: Mapping[str, Any]) -> "Positions":
        """Positions saved by `save`; refused unless the same settings made them."""
        try:
            with np.load(path) as d:
                saved = json.loads(str(d["made_by"]))
                if saved != json.loads(json.dumps(made_by, sort_keys=True)):
                    # the file quoted and the settings written as JSON, as the project's English
                    # shows values (train is English-only), not as Python's repr
                    raise BadOption(f"positions {term(str(path), 'shown', 'en')} were made by "
                                    f"{term(saved, 'shown', 'en')}, not {term(dict(made_by), 'shown', 'en')}: "
                                    f"give another file")
                return cls(list(d["obs"]), list(d["mask"]), list(d["target"]), d["value"].tolist(),
                           d["searched"].tolist(), d["game"].tolist(), float(d["cpu_s"]) if "cpu_s" in d else 0.0)
        except BadOption:  # a ValueError too: the refusal above as it is, not wrapped as "not a positions file"
            raise
        except (OSError, ValueError, KeyError) as exc:
            raise BadOption(f"positions {term(str(path), 'shown', 'en')}: not a positions file ({exc})") from None


def searched_game(game: Game, searcher: Callable[[int], ISMCTSBot], seed: int, budget: Budget,
                  on_position: Callable[[State, int, dict[Action, int], float | None], None] | None = None,
                  player: Callable[[int], Bot] | None = None, search: Callable[[int], Any] | None = None
                  ) -> tuple[State, list[Decided]]:
    """One self-play game where every decision with a choice is searched.  The move
    played is the most visited action, or with chance `explore` one drawn in proportion
    to the visits (so the positions vary); `on_position` sees each searched position with
    the search's value of the move played.

    With `player` (a seed -> bot factory, one bot per seat) that bot plays every move and
    the search only labels its positions (DAgger): those of the decisions with a choice
    (numbered from 0) for which `search(k)` is true, by default the first
    `budget.max_decisions`; it plays the others alone, at the cost of its cheap moves."""
    rng = random.Random(derive_seed(seed, "moves"))
    state = game.new_game(seed=seed)
    bots = [searcher(derive_seed(seed, "seat", s)) for s in range(game.players)]
    players = bots if player is None else [player(derive_seed(seed, "player", s)) for s in range(game.players)]
    if search is None:
        search = lambda k: len(decided) < budget.max_decisions  # noqa: E731
    decided: list[Decided] = []
    asked = 0  # decisions with a choice so far
    while not state.is_terminal():
        seat = state.to_move()[0]
        decision = decision_for(state, seat)
        if len(decision.legal) == 1:
            state.apply(decision.legal[0], seat)
            continue
        asked += 1
        if not search(asked - 1):
            state.apply(players[seat].choose(decision), seat)
            continue
        bot = bots[seat]
        fixed = bot.conventional(decision)
        values: dict[Action, float] = {}
        if fixed is not None:
            visits = {fixed: 1}
        else:
            choices = bot.search(decision)
            visits = {c.action: c.visits for c in choices if c.visits}
            values = {c.action: c.value for c in choices if c.visits}
            if not visits:
                visits = {choices[0].action: 1}
        searched = bool(values)
        actions = list(visits)
        if player is not None:
            action = players[seat].choose(decision)
        elif rng.random() < budget.explore:
            action = rng.choices(actions, weights=[visits[a] for a in actions])[0]
        else:
            action = max(actions, key=lambda a: visits[a])
        if on_position is not None:
            on_position(state, seat, visits, values.get(action))
        decided.append(Decided(len(state.history), seat, visits, action, values.get(action), searched))
        state.apply(action, seat)
    return state, decided


def imitated_game(game: Game, seed: int, budget: Budget,
                  on_position: Callable[[State, int, dict[Action, int], float | None], None]) -> State:
    """One game of the game's heuristic in every seat (generation 0 with the heuristic as
    teacher): `on_position` sees each decision with a choice and the heuristic's choice
    as the only "visited" move.  With chance `explore` the move played is drawn uniformly
    from the legal ones instead, so the positions also cover what follows a move the
    heuristic would not make (the learner will make some)."""
    rng = random.Random(derive_seed(seed, "moves"))
    state = game.new_game(seed=seed)
    bots = [make_bot("heuristic", game, seed=derive_seed(seed, "seat", s)) for s in range(game.players)]
    while not state.is_terminal():
        seat = state.to_move()[0]
        decision = decision_for(state, seat)
        legal = decision.legal
        if len(legal) == 1:
            state.apply(legal[0], seat)
            continue
        choice = bots[seat].choose(decision)
        on_position(state, seat, {choice: 1}, None)
        state.apply(legal[rng.randrange(len(legal))] if rng.random() < budget.explore else choice, seat)
    return state


class Trainer:
    """Expert iteration for one game: self-play with search, then fit the network."""

    def __init__(self, game: Game, seed: int, budget: Budget, log: Callable[[str], None] = lambda m: None,
                 positions: str | Path | None = None, jobs: int = 1):
        if jobs < 1:
            raise BadOption(f"jobs: {jobs} is not a positive number of processes")
        if budget.teacher not in TEACHERS:
            raise BadOption(f"teacher: {term(budget.teacher, 'shown', 'en')} is not one of {', '.join(TEACHERS)}")
        if budget.window is not None and budget.window < 1:
            raise BadOption(f"window: {budget.window} is not a positive number of generations")
        self.game = game
        # self-play games searched side by side in this many processes; each game's
        # positions depend on its seed alone, so any number of jobs gathers the same
        self.jobs = jobs
        self.seed = seed
        self.budget = budget
        self.codec = codec_of(game)
        self.np_rng = np.random.default_rng(derive_seed(seed, "network"))
        self.network = self.new_network(self.np_rng)
        self.positions = Positions()
        self.log = log
        self.history: list[dict[str, Any]] = []
        self._adam: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self.learner_actions: list[int] = []  # lengths of this generation's DAgger games
        self._step = 0
        # generation 0's positions (the expert's searches, the costly part) saved after
        # every game and reused by a later run with the same settings; a guided
        # generation's beside them (`positions_path`)
        self.positions_file = Path(positions) if positions else None

    def searcher(self, generation: int) -> Callable[[int], ISMCTSBot]:
        """The expert's search (generation 0) or the search guided by the network."""
        settings = search_defaults(self.game)
        if self.budget.rollout_depth is not None:
            settings["rollout_depth"] = self.budget.rollout_depth
        iterations = self.budget.iterations
        if generation == 0:
            return lambda seed: ISMCTSBot(seed, game=self.game, **{**settings, "iterations": iterations,
                                                                   "seconds": None})
        b = self.budget
        # the search `learned:search=I,value=…,exploration=…` plays (the budget's rollout
        # depth is the expert's, so it applies to rollouts at the leaves too)
        depth = b.rollout_depth if b.guide_value == "rollout" else None
        return lambda seed: LearnedBot(seed, game=self.game, network=self.network, search=iterations,
                                       exploration=b.guide_exploration, value=b.guide_value,
                                       rollout_depth=depth).searcher

    def imitates(self, generation: int) -> bool:
        """Whether `generation` learns from the heuristic's games (`Budget.teacher`), not a search's."""
        return generation == 0 and self.budget.teacher == "heuristic"

    def made_by(self, generation: int = 0) -> dict[str, Any]:
        """What decides a generation's positions (a positions file is reused only for
        these): the game, seed and search budget; for a guided generation also the guide's
        settings and the network that guided it (its fingerprint)."""
        b = self.budget
        made = {"game": self.game.name, "options": self.game.non_default_options(), "seed": self.seed,
                "explore": b.explore, "codec": codec_fingerprint(self.codec)}
        if self.imitates(generation):  # no search: its budget plays no part
            return {**made, "teacher": b.teacher}
        made.update(iterations=b.iterations, max_decisions=b.max_decisions,
                    # only when set, so positions files of the tuned depth stay reusable
                    **({"rollout_depth": b.rollout_depth} if b.rollout_depth is not None else {}))
        if generation:
            made.update(generation=generation, guide_value=b.guide_value, guide_exploration=b.guide_exploration,
                        network=network_fingerprint(self.network))
        return made

    def positions_path(self, generation: int) -> Path | None:
        """Where a generation's searched positions are kept: the positions file for
        generation 0, `STEM.genG.npz` beside it for guided generation G (500 guided
        Wasserloch games are over an hour of search: kept, a stopped run resumes and a
        refit costs only the fitting)."""
        f = self.positions_file
        if f is None or generation == 0:
            return f
        return f.with_name(f"{f.stem}.gen{generation}{f.suffix}")

    def dagger_player(self) -> Callable[[int], Bot]:
        """The learner as it ships after this generation: the `learned` bot (greedy, ties
        by its own generator) playing the network rounded to float16, as the weights file
        stores it."""
        shipped = Network({k: v.astype(np.float16) for k, v in self.network.params.items()})
        return lambda seed: LearnedBot(seed, game=self.game, network=shipped)

    def gather(self, generation: int) -> None:
        """Self-play `budget.games` games (a guided generation `budget.guided_games` when
        set) and add their searched positions (generation 0 takes the games a positions
        file already holds and saves it after every game); a DAgger generation plays
        `budget.dagger` games of the network labelled by the expert."""
        if generation > 0 and self.budget.dagger:
            self.gather_dagger(generation)
            return
        games = self.budget.games if generation == 0 or self.budget.guided_games is None else self.budget.guided_games
        cache, made_by = self.positions_path(generation), self.made_by(generation)
        found = Positions()  # this generation's, those a file holds first
        if cache is not None and cache.exists():
            found = Positions.load(cache, made_by)
            found.only_games(lambda gid: gid - generation * GAME_IDS < games)
            self.log(f"{cache}: {len(set(found.game))} games, {len(found)} positions reused")
        saved = time.monotonic()
        for g, rows, cpu_s in self.searched_games(generation, range(len(set(found.game)), games)):
            found.add(rows)
            found.cpu_s += cpu_s
            # saving costs about a second per 100,000 positions: once a minute at most
            if cache is not None and (time.monotonic() - saved > 60 or g == games - 1):
                found.save(cache, made_by)
                saved = time.monotonic()
        self.positions.extend(found)

    def searched_games(self, generation: int, games: range) -> Iterator[tuple[int, list[tuple], float]]:
        """Each self-play game of `games` in order: its index, its positions' rows (`add`)
        and the CPU seconds its searches took; with `jobs` above 1 searched in worker
        processes (in order, so a positions file always holds a prefix of the games and a
        stopped run resumes after it)."""
        if self.jobs == 1 or len(games) < 2:
            searcher = self.searcher(generation)
            for g in games:
                began = time.process_time()
                rows, _ = self.searched_rows(searcher, generation, g)
                yield g, rows, time.process_time() - began
            return
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(min(self.jobs, len(games)), initializer=_start_worker,
                                 initargs=(self.game, self.seed, self.budget, self.network.params,
                                           generation)) as pool:
            try:
                for g, (rows, cpu_s) in zip(games, pool.map(_worker_game, games)):
                    yield g, rows, cpu_s
            except BaseException:
                pool.shutdown(wait=True, cancel_futures=True)
                raise

    def gather_dagger(self, generation: int) -> None:
        """`budget.dagger` games of the learner, its decisions searched by the expert
        (generation 0's search); their lengths in actions go to `self.learner_actions`.

        Each game is played twice, the same way (the learner's bots are seeded alike and
        the search does not touch them): first by the learner alone, counting its
        decisions with a choice, then with at most `budget.max_decisions` of them searched,
        spread evenly over the game.  A learner that stalls (Wildwasser: every seat taking
        its meerkat's cards back, round after round, for thousands of actions) spends most
        of its game in the stall, so that is where most of its labels must come from, not
        from the first few hundred decisions only."""
        searcher, player = self.searcher(0), self.dagger_player()
        self.learner_actions = []
        for g in range(self.budget.dagger):
            began = time.process_time()
            seed = derive_seed(self.seed, "game", generation, g)
            counted: list[int] = []
            searched_game(self.game, searcher, seed, self.budget, player=player,
                          search=counted.append)  # returns None: the learner plays every move alone
            spread = set(np.linspace(0, len(counted) - 1, min(len(counted), self.budget.max_decisions))
                         .round().astype(int).tolist())
            self.learner_actions.append(self.gather_game(searcher, generation, g, player, spread.__contains__))
            self.positions.cpu_s += time.process_time() - began

    def gather_game(self, searcher, generation: int, g: int, player: Callable[[int], Bot] | None = None,
                    search: Callable[[int], Any] | None = None) -> int:
        """One self-play game's searched positions (`player` plays it: `searched_game`);
        returns the game's length in actions."""
        rows, length = self.searched_rows(searcher, generation, g, player, search)
        self.positions.add(rows)
        return length

    def searched_rows(self, searcher, generation: int, g: int, player: Callable[[int], Bot] | None = None,
                      search: Callable[[int], Any] | None = None) -> tuple[list[tuple], int]:
        """Self-play game `g`'s searched positions as rows (observation, legal mask, visit
        shares, the deciding seat's result, the search's value or nan, the game's id) and
        the game's length in actions."""
        pending: list[tuple[np.ndarray, np.ndarray, np.ndarray, int, float | None]] = []

        def record(state: State, seat: int, visits: dict[Action, int], value: float | None) -> None:
            view = state.view(seat)
            mask = np.zeros(self.codec.num_actions, dtype=bool)
            for a in state.legal_actions(seat):
                mask[self.codec.action_index(a, view)] = True
            target = np.zeros(self.codec.num_actions, dtype=np.float32)
            total = sum(visits.values())
            for a, n in visits.items():
                target[self.codec.action_index(a, view)] = n / total
            pending.append((self.codec.observe(view), mask, target, seat, value))

        seed = derive_seed(self.seed, "game", generation, g)
        if self.imitates(generation):
            final = imitated_game(self.game, seed, self.budget, record)
        else:
            final, _ = searched_game(self.game, searcher, seed, self.budget, record, player, search)
        returns = final.returns()
        rows = [(obs, mask, target, float(returns[seat]), float("nan") if value is None else value,
                 generation * GAME_IDS + g) for obs, mask, target, seat, value in pending]
        return rows, len(final.history)

    # -- fitting -------------------------------------------------------------
    def loss_and_grads(self, x, mask, target, value) -> tuple[float, float, dict[str, np.ndarray]]:
        """Cross-entropy of the masked policy against the visit shares plus the value's
        binary cross-entropy against the result; gradients by hand."""
        net = self.network
        p = net.params
        acts = net.hidden(x)
        h = acts[-1]
        logits = h @ p["wp"] + p["bp"]
        logits = np.where(mask, logits, -1e9)
        logits = logits - logits.max(axis=1, keepdims=True)
        expd = np.exp(logits) * mask
        probs = expd / expd.sum(axis=1, keepdims=True)
        n = len(x)
        policy_loss = float(-(target * np.log(np.maximum(probs, 1e-12))).sum() / n)
        z = (h @ p["wv"] + p["bv"])[:, 0]
        v = 1.0 / (1.0 + np.exp(-z))
        value_loss = float(-(value * np.log(np.maximum(v, 1e-7)) + (1 - value) * np.log(np.maximum(1 - v, 1e-7))).mean())
        d_logits = (probs - target) / n
        d_z = ((v - value) / n)[:, None]
        grads = {"wp": h.T @ d_logits, "bp": d_logits.sum(0), "wv": h.T @ d_z, "bv": d_z.sum(0)}
        dh = d_logits @ p["wp"].T + d_z @ p["wv"].T
        for i in reversed(range(net.depth)):
            dh = dh * (acts[i + 1] > 0)
            grads[f"w{i}"] = acts[i].T @ dh
            grads[f"b{i}"] = dh.sum(0)
            if i:
                dh = dh @ p[f"w{i}"].T
        return policy_loss, value_loss, grads

    def _adam_step(self, grads: dict[str, np.ndarray], lr: float, decay: float = 1e-4) -> None:
        self._step += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        for k, g in grads.items():
            param = self.network.params[k]
            g = g + decay * param if k.startswith("w") else g
            m, v = self._adam.get(k, (np.zeros_like(param), np.zeros_like(param)))
            m = b1 * m + (1 - b1) * g
            v = b2 * v + (1 - b2) * g * g
            self._adam[k] = (m, v)
            m_hat = m / (1 - b1 ** self._step)
            v_hat = v / (1 - b2 ** self._step)
            param -= (lr * m_hat / (np.sqrt(v_hat) + eps)).astype(np.float32)

    def sharpened(self, target: np.ndarray) -> np.ndarray:
        """The visit shares to the power `budget.sharpen`, renormalised."""
        if self.budget.sharpen == 1.0:
            return target
        target = target.astype(np.float64) ** self.budget.sharpen
        return (target / target.sum(axis=1, keepdims=True)).astype(np.float32)

    def split(self) -> tuple[np.ndarray, np.ndarray]:
        """Indices of the positions to fit and of those held out: whole games are held out
        (positions of one game resemble each other), chosen by the trainer's seed."""
        games = np.asarray(self.positions.game)
        distinct = np.unique(games)
        held = int(len(distinct) * self.budget.holdout)
        if held == 0:
            return np.arange(len(games)), np.arange(0)
        rng = np.random.default_rng(derive_seed(self.seed, "holdout"))
        out = np.isin(games, rng.choice(distinct, held, replace=False))
        return np.flatnonzero(~out), np.flatnonzero(out)

    def measure(self, x, mask, target, value) -> dict[str, float]:
        """How the network does on positions: policy cross-entropy against the visit
        shares (and the shares' own entropy, the least it can be), value loss, and how often
        its best move is the search's most visited one."""
        net = self.network
        logits, v = net.forward(x)
        logits = np.where(mask, logits, -np.inf)
        logits = logits - logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        ce = float(-(target * np.log(np.maximum(probs, 1e-12))).sum(1).mean())
        entropy = float(-(target * np.log(np.maximum(target, 1e-12))).sum(1).mean())
        value_loss = float(-(value * np.log(np.maximum(v, 1e-7)) + (1 - value) * np.log(np.maximum(1 - v, 1e-7))).mean())
        agree = float((probs.argmax(1) == target.argmax(1)).mean())
        return {"policy_loss": round(ce, 4), "target_entropy": round(entropy, 4),
                "value_loss": round(value_loss, 4), "agreement": round(agree, 4)}

    def fit(self) -> dict[str, Any]:
        """`budget.epochs` passes of minibatch Adam (the rate falling on a cosine) over the
        positions gathered so far (those of the last `budget.window` generations), less the
        held-out games; the network kept is the epoch's that did best on the held-out games.
        Returns the training and held-out measures."""
        x, mask, _, _ = self.positions.arrays()
        target = self.sharpened(np.stack(self.positions.target))
        value = self.positions.value_targets(self.budget.value_search)
        train_idx, held_idx = self.split()
        if self.budget.window is not None:  # the last `window` generations' positions only
            generation = np.asarray(self.positions.game) // GAME_IDS
            recent = generation > generation.max() - self.budget.window
            train_idx, held_idx = train_idx[recent[train_idx]], held_idx[recent[held_idx]]
        n = len(train_idx)
        best, best_loss, best_epoch = None, np.inf, 0
        for epoch in range(self.budget.epochs):
            lr = self.budget.learning_rate * 0.5 * (1 + np.cos(np.pi * epoch / self.budget.epochs))
            order = train_idx[self.np_rng.permutation(n)]
            for start in range(0, n, self.budget.batch):
                idx = order[start:start + self.budget.batch]
                _, _, grads = self.loss_and_grads(x[idx], mask[idx], target[idx], value[idx])
                self._adam_step(grads, lr)
            if len(held_idx):
                held = self.measure(x[held_idx], mask[held_idx], target[held_idx], value[held_idx])
                loss = held["policy_loss"] + held["value_loss"]
                if loss < best_loss:
                    best_loss, best_epoch = loss, epoch
                    best = {k: v.copy() for k, v in self.network.params.items()}
        if best is not None:
            self.network.params.update(best)
        result: dict[str, Any] = {"fitted": self.measure(x[train_idx], mask[train_idx], target[train_idx],
                                                         value[train_idx])}
        if len(held_idx):
            result["held_out"] = self.measure(x[held_idx], mask[held_idx], target[held_idx], value[held_idx])
            result["held_out"]["positions"] = int(len(held_idx))
            result["best_epoch"] = best_epoch
        return result

    def new_network(self, rng: np.random.Generator) -> Network:
        """Fresh weights of the budget's shape for this game's codec, drawn from `rng`."""
        return Network.init(self.codec.obs_size, self.codec.num_actions, self.budget.hidden, rng)

    def restart(self, generation: int) -> None:
        """Fresh weights for `generation`'s fit (`Budget.fresh`), seeded by the generation,
        and a fresh optimiser: the moments of the old weights' gradients do not carry over."""
        self.network = self.new_network(np.random.default_rng(derive_seed(self.seed, "network", generation)))
        self._adam = {}
        self._step = 0

    def run(self, on_generation: Callable[["Trainer"], None] | None = None) -> Network:
        """All generations; `on_generation` sees the trainer after each (to save a checkpoint,
        so a run stopped early still has its last finished generation)."""
        for generation in range(self.budget.generations):
            spent = self.positions.cpu_s
            self.learner_actions = []
            self.gather(generation)
            if generation and self.budget.fresh:  # after gathering: the old network guided it
                self.restart(generation)
            t1 = time.process_time()
            measures = self.fit()
            t2 = time.process_time()
            step = {"generation": generation, "positions": len(self.positions),
                    "policy_loss": measures["fitted"]["policy_loss"], "value_loss": measures["fitted"]["value_loss"],
                    **measures, "selfplay_cpu_s": round(self.positions.cpu_s - spent, 1), "fit_cpu_s": round(t2 - t1, 1)}
            if self.learner_actions:  # the previous generation's network, in learner-only games
                lengths = sorted(self.learner_actions)
                step["learner_games"] = {"games": len(lengths), "median_actions": lengths[len(lengths) // 2],
                                         "longest_actions": lengths[-1]}
            self.history.append(step)
            self.log(f"generation {generation}: {step}")
            if on_generation is not None:
                on_generation(self)
        return self.network

    def metadata(self, command: str) -> dict[str, Any]:
        from .. import __version__
        return {"game": self.game.name, "options": self.game.non_default_options(),
                "obs_size": self.codec.obs_size, "num_actions": self.codec.num_actions,
                "codec": codec_fingerprint(self.codec),
                "command": command, "seed": self.seed, "budget": asdict(self.budget),
                "generations": self.history,
                "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
                "version": __version__, "numpy": np.__version__, "python": platform.python_version()}


def train(game: Game, seed: int, budget: Budget, log: Callable[[str], None] = lambda m: None,
          on_generation: Callable[[Trainer], None] | None = None, positions: str | Path | None = None,
          jobs: int = 1) -> Trainer:
    """Run expert iteration; the trainer holds the network, its history and positions
    (generation 0's kept in `positions`, a file, when given).  Self-play runs in `jobs`
    processes and gathers the same positions with any number of them."""
    trainer = Trainer(game, seed, budget, log, positions, jobs)
    trainer.run(on_generation)
    return trainer


# -- self-play workers: a trainer per process, with the network and search of one generation --
_worker: tuple[Trainer, int, Callable[[int], ISMCTSBot]] | None = None


def _start_worker(game: Game, seed: int, budget: Budget, params: dict[str, np.ndarray], generation: int) -> None:
    global _worker
    ignore_interrupts()
    exit_with_parent()  # `learn` killed (kill -9, the out-of-memory killer): its self-play ends too
    trainer = Trainer(game, seed, budget)
    trainer.network = Network(params)
    _worker = (trainer, generation, trainer.searcher(generation))


def _worker_game(g: int) -> tuple[list[tuple], float]:
    assert _worker is not None, "not a self-play worker"
    trainer, generation, searcher = _worker
    began = time.process_time()
    rows, _ = trainer.searched_rows(searcher, generation, g)
    return rows, time.process_time() - began


def corpus_games(game: Game, seed: int, games: int, iterations: int) -> Iterator[tuple[State, list[Decided]]]:
    """Expert self-play games with the search's visit counts per searched decision
    (offline learning).  A move the expert played by convention without searching
    (`Decided.searched` false) is in the game's record but not among its decisions: its
    `{action: 1}` would read as a one-visit search."""
    budget = Budget(games=games, iterations=iterations, explore=0.0, max_decisions=10**9)
    settings = search_defaults(game)
    searcher = lambda s: ISMCTSBot(s, game=game, **{**settings, "iterations": iterations, "seconds": None})  # noqa: E731
    for g in range(games):
        state, decided = searched_game(game, searcher, derive_seed(seed, "corpus", g), budget)
        yield state, [d for d in decided if d.searched]
