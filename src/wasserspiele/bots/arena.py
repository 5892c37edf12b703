"""Seeded, seat-rotated matches between bots, with 95 % confidence intervals.

Games are played in groups on the same deal (duplicate play): every rotation of
the line-up over the seats (over the teams in team games) plays the same game
seed, so luck of the deal cancels out as far as the game allows.  Every seed is
derived from the master seed, so a result is reproducible whatever `jobs`.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..core.chance import derive_seed
from ..core.errors import BadOption
from ..core.protocol import Game
from ..core.registry import load
from ..core.stats import Estimate, mean_ci, placements, wilson
from .match import play_game
from .specs import BotSpec, check_spec, parse_bot_spec, split_spec_texts


def parse_bots(texts: list[str] | tuple[str, ...], game: Game) -> list[BotSpec]:
    """The `--bots` specs (bots/specs.py), each checked against `game` before any play."""
    specs = [parse_bot_spec(t) for t in split_spec_texts(texts)]
    for spec in specs:
        check_spec(spec, game)
    return specs


@dataclass
class GameRecord:
    index: int
    seed: int
    lineup: list[int]       # spec index per seat
    scores: list[float]
    returns: list[float]
    actions: int


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
    games: list[GameRecord]

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


def lineups(game: Game, n_specs: int) -> list[list[int]]:
    """Every rotation of the line-up: per seat, the index of its bot spec.

    Specs fill the teams in order (the last spec fills any team left over); each
    rotation moves every spec one team on, so each plays every position."""
    teams = game.teams
    base = [min(i, n_specs - 1) for i in range(len(teams))]
    out = []
    for r in range(len(teams)):
        seat_spec = [0] * game.players
        for t, team in enumerate(teams):
            for s in team:
                seat_spec[s] = base[(t + r) % len(teams)]
        out.append(seat_spec)
    return out


def _play_chunk(args) -> list[GameRecord]:
    name, options, specs, seed, indices = args
    game = load(name, **options)
    rotations = lineups(game, len(specs))
    out = []
    for i in indices:
        deal, rot = divmod(i, len(rotations))
        lineup = rotations[rot]
        game_seed = derive_seed(seed, deal)
        bots = [specs[k].make(game, derive_seed(seed, i, s)) for s, k in enumerate(lineup)]
        result = play_game(game, bots, game_seed)
        out.append(GameRecord(i, game_seed, lineup, result.scores, result.returns, result.actions))
    return out


def run_arena(name: str, options: dict[str, Any], specs: list[BotSpec], games: int, seed: int = 0,
              jobs: int = 1, on_progress: Callable[[int], None] | None = None) -> ArenaResult:
    """Play `games` games (rounded up to whole duplicate groups) and collect the results."""
    if len(specs) < 1:
        raise BadOption("name at least one bot")
    game = load(name, **options)
    if len(specs) > len(game.teams):
        raise BadOption(f"{len(specs)} bots for {len(game.teams)} seats/teams")
    group = len(lineups(game, len(specs)))
    total = -(-games // group) * group
    chunk = max(group, min(50, total // (jobs * 8) or 1) // group * group or group)
    tasks = [(name, options, specs, seed, list(range(i, min(i + chunk, total)))) for i in range(0, total, chunk)]
    records: list[GameRecord] = []
    if jobs <= 1:
        parts: Iterable[list[GameRecord]] = map(_play_chunk, tasks)
        for part in parts:
            records += part
            if on_progress:
                on_progress(len(part))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for part in pool.map(_play_chunk, tasks):
                records += part
                if on_progress:
                    on_progress(len(part))
    records.sort(key=lambda g: g.index)
    return ArenaResult(game, specs, records)
