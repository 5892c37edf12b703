"""Seeded, seat-rotated matches between bots, with 95 % confidence intervals.

Games are played in groups on the same deal (duplicate play, `bots.runner.DuplicateSeating`):
every rotation of the line-up over the seats (over the teams in team games) plays
the same game seed, so luck of the deal cancels out as far as the game allows.
Every seed is derived from the master seed, so a result is reproducible whatever `jobs`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from ..core.errors import BadOption
from ..core.messages import Reason
from ..core.protocol import Game
from ..core.options import parse_option_texts
from ..core.registry import game_class, load
from ..core.stats import Estimate, mean_ci, placements, wilson
from .runner import (DuplicateSeating, Played, Series, WorkerDied, cut_short_by_bot, games_problem, open_backend,
                     run_series, whole_groups, workers_problem)
from .specs import BotSpec, bot_specs_given, check_spec, empty_entry


def parse_bots(texts: str | list[str] | tuple[str, ...], game: Game) -> list[BotSpec]:
    """The `--bots` specs (bots/specs.py), each checked against `game` before any play; a
    `BotSpec` already parsed is taken as it is (and checked).  An empty entry (`heuristic,`,
    `heuristic,,random`) is refused naming its place: it seated one bot fewer than written."""
    for text in [texts] if isinstance(texts, str) else texts if isinstance(texts, (list, tuple)) else ():
        n = empty_entry(text, specs=True) if isinstance(text, str) else None
        if n is not None:
            raise BadOption(Reason("bot.spec_empty_entry", text=text, n=n))
    specs = bot_specs_given(texts)
    for spec in specs:
        check_spec(spec, game)
    return specs


@dataclass
class SpecResult:
    spec: str
    seats: int = 0
    credits: list[float] = field(default_factory=list)    # per game: share of the win
    scores: list[float] = field(default_factory=list)
    places: list[float] = field(default_factory=list)

    def win_rate(self) -> Estimate:
        return wilson(sum(self.credits), len(self.credits))

    def mean_score(self) -> Estimate:
        return mean_ci(self.scores)

    def mean_place(self) -> Estimate:
        return mean_ci(self.places)

    def __repr__(self) -> str:
        # the dataclass's repr listed every game's credit, score and place
        return f"<SpecResult {self.spec}: win rate {self.win_rate().fmt(pct=True)} over {len(self.credits)} games>"


@dataclass
class ArenaResult:
    game: Game
    specs: list[BotSpec]
    games: list[Played]
    interrupted: bool = False  # Ctrl-C (or SIGTERM) cut the run short: `games` are the whole groups that finished
    failure: WorkerDied | None = None  # or a worker process's death cut it short (then `interrupted` too)

    def __repr__(self) -> str:
        # the dataclass's repr listed every game played (a notebook cell's screenfuls)
        how = "finished" if not self.interrupted else f"interrupted: {self.failure.reason()}" if self.failure \
            else "interrupted"
        return (f"<ArenaResult {self.game.name}: {len(self.games)} games of "
                f"{', '.join(s.text for s in self.specs)}, {how}>")

    def cut_short(self) -> dict[str, tuple[int, int]]:
        """Per bot whose search's CPU safety net cut moves short: (those moves, its moves), over
        the games kept (`bots.runner.cut_short_by_bot`); the command says them after its table."""
        return cut_short_by_bot(self.games, [s.text for s in self.specs])

    def by_spec(self) -> list[SpecResult]:
        out = [SpecResult(s.text) for s in self.specs]
        for g in self.games:
            places = placements(g.scores)
            for k in set(g.lineup):
                seats = [s for s, x in enumerate(g.lineup) if x == k]
                r = out[k]
                r.seats = max(r.seats, len(seats))
                r.credits.append(sum(g.returns[s] for s in seats) / len(seats))
                r.scores.append(sum(g.scores[s] for s in seats) / len(seats))
                r.places.append(sum(places[s] for s in seats) / len(seats))
        return out


def arena_games(game: Game, games: int) -> int:
    """How many games `run_arena` plays when asked for `games`: whole duplicate groups,
    one game per rotation of the line-up over the seats (teams)."""
    return whole_groups(games, DuplicateSeating().group(game, 0))


def arena_options(name: str, options: Any) -> dict[str, Any]:
    """`options` as a Python caller may give them: a dict of values, or KEY=VALUE texts (one text, or
    a list) parsed as the command line parses `--option`, as `make_study` takes them (docs/bots.md)."""
    if isinstance(options, dict):
        return options
    texts = [options] if isinstance(options, str) else options if isinstance(options, (list, tuple)) else None
    if texts is None or not all(isinstance(t, str) for t in texts):
        raise BadOption(f"options: {options!r} is neither a dict of game options (e.g. {{'players': 3}}) nor "
                        f"KEY=VALUE texts (e.g. ['players=3'])")
    return parse_option_texts(game_class(name).option_list, list(texts), name)


def run_arena(name: str, options: dict[str, Any] | list[str], specs: list[BotSpec], games: int, seed: int = 0,
              jobs: int = 1, on_progress: Callable[[int], None] | None = None) -> ArenaResult:
    """Play `games` games (rounded up to whole duplicate groups) and collect the results.
    A run an interrupt cut short keeps only the duplicate groups that finished whole (each
    line-up in every seat, team, on the same deal): a group cut in half would credit a bot
    the seat or the cards it happened to get, which the seat rotation is there to cancel.  A worker
    process that died cuts the run short the same way (`ArenaResult.failure` says so).

    From Python `options` may be a dict or KEY=VALUE texts (`["rounds=1"]`, as `--option` takes them),
    `specs` spec texts (`"heuristic,random"`, `["python:mypkg.bots:make"]`)
    or parsed `BotSpec`s; every one is checked against the game, and the arguments as the
    command line checks them, before any game."""
    if games_problem(games):
        raise BadOption(games_problem(games))
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadOption(f"--seed: {seed!r} is not a whole number")
    options = arena_options(name, options)
    specs = parse_bots(specs, load(name, **options))
    # the safety net's firings come back with the games (`ArenaResult.cut_short`), not as log lines
    # a worker wrote through the progress display
    series = Series(name, tuple(options.items()), tuple(specs), seed, DuplicateSeating(), net_reported=True)
    with open_backend("process", jobs) as runner:
        problem = workers_problem(specs, runner)
        if problem:
            raise BadOption(problem)
        played, interrupted = run_series(series, games, progress=on_progress, runner=runner)
    game = series.load()
    if interrupted:
        group = series.seating.group(game, len(specs))
        finished = Counter(p.index // group for p in played)
        played = [p for p in played if finished[p.index // group] == group]
    return ArenaResult(game, specs, played, interrupted, runner.failure)
