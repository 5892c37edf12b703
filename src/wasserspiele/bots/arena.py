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

from ..core.protocol import Game
from ..core.stats import Estimate, mean_ci, placements, wilson
from .runner import DuplicateSeating, Played, Series, WorkerDied, open_backend, run_series, whole_groups
from .specs import BotSpec, check_spec, parse_bot_spec, split_spec_texts


def parse_bots(texts: list[str] | tuple[str, ...], game: Game) -> list[BotSpec]:
    """The `--bots` specs (bots/specs.py), each checked against `game` before any play."""
    specs = [parse_bot_spec(t) for t in split_spec_texts(texts)]
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


@dataclass
class ArenaResult:
    game: Game
    specs: list[BotSpec]
    games: list[Played]
    interrupted: bool = False  # Ctrl-C (or SIGTERM) cut the run short: `games` are the whole groups that finished
    failure: WorkerDied | None = None  # or a worker process's death cut it short (then `interrupted` too)

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


def run_arena(name: str, options: dict[str, Any], specs: list[BotSpec], games: int, seed: int = 0,
              jobs: int = 1, on_progress: Callable[[int], None] | None = None) -> ArenaResult:
    """Play `games` games (rounded up to whole duplicate groups) and collect the results.
    A run an interrupt cut short keeps only the duplicate groups that finished whole (each
    line-up in every seat, team, on the same deal): a group cut in half would credit a bot
    the seat or the cards it happened to get, which the seat rotation is there to cancel.  A worker
    process that died cuts the run short the same way (`ArenaResult.failure` says so)."""
    series = Series(name, tuple(options.items()), tuple(specs), seed, DuplicateSeating())
    with open_backend("process", jobs) as runner:
        played, interrupted = run_series(series, games, progress=on_progress, runner=runner)
    game = series.load()
    if interrupted:
        group = series.seating.group(game, len(specs))
        finished = Counter(p.index // group for p in played)
        played = [p for p in played if finished[p.index // group] == group]
    return ArenaResult(game, specs, played, interrupted, runner.failure)
