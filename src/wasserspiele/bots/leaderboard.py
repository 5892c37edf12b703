"""A round-robin of bot specs (the levels) per game, rated with openskill (Weng–Lin
Plackett–Luce, a Bayesian TrueSkill-like rating) and with a 95 % interval per pairing.

Every pair of specs plays a seat-rotated duplicate arena (bots/arena.py): the first
spec in one seat (one team) and the second in the others, every rotation on the same
deal.  Each game is one rated match between the two: the side whose seats took the
larger mean share of the win ranks first (equal shares draw).  Ratings are updated
game by game, pairings interleaved, and reported as mu ± 1.96·sigma.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any, Callable

from ..core.chance import derive_seed
from ..core.registry import load
from ..core.stats import Estimate, wilson
from .arena import parse_bots, run_arena


@dataclass(frozen=True)
class Rating:
    spec: str
    mu: float
    sigma: float

    @property
    def low(self) -> float:
        return self.mu - 1.96 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + 1.96 * self.sigma


@dataclass(frozen=True)
class Pairing:
    first: str
    second: str
    share: Estimate      # the first spec's mean share of the win per seat, with its interval
    games: int

    @property
    def significant(self) -> bool:
        """The first spec's per-seat share differs from the second's at 95 %."""
        return self.share.low > 0.5 or self.share.high < 0.5


@dataclass(frozen=True)
class Leaderboard:
    game: str
    options: dict[str, Any]
    ratings: list[Rating]      # best first
    pairings: list[Pairing]


def round_robin(name: str, options: dict[str, Any], specs: list[str], games: int, seed: int = 0,
                jobs: int = 1, on_progress: Callable[[int], None] | None = None) -> Leaderboard:
    """Play every pairing of `specs` for `games` games each and rate them."""
    from openskill.models import PlackettLuce
    game = load(name, **options)
    parsed = parse_bots(specs, game)
    model = PlackettLuce()
    ratings = {s.text: model.rating(name=s.text) for s in parsed}
    outcomes: list[list[tuple[int, str, str, float]]] = []  # per pairing: (game, first, second, first's edge)
    pairings = []
    for i, (a, b) in enumerate(combinations(parsed, 2)):
        result = run_arena(name, options, [a, b], games, derive_seed(seed, "pairing", i), jobs, on_progress)
        rows = []
        wins = 0.0
        for g in result.games:
            first = [s for s, k in enumerate(g.lineup) if k == 0]
            second = [s for s, k in enumerate(g.lineup) if k == 1]
            mine = sum(g.returns[s] for s in first) / len(first)
            theirs = sum(g.returns[s] for s in second) / len(second)
            rows.append((g.index, a.text, b.text, mine - theirs))
            # per game: 1 if the first side did better per seat, 0 if worse, ½ if even
            wins += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        outcomes.append(rows)
        pairings.append(Pairing(a.text, b.text, wilson(wins, len(result.games)), len(result.games)))
    # interleave the pairings so that no pairing is rated entirely before another
    longest = max((len(r) for r in outcomes), default=0)
    for k in range(longest):
        for rows in outcomes:
            if k >= len(rows):
                continue
            _, first, second, edge = rows[k]
            ranks = [1, 2] if edge > 0 else [2, 1] if edge < 0 else [1, 1]
            [[ra], [rb]] = model.rate([[ratings[first]], [ratings[second]]], ranks=ranks)
            ratings[first], ratings[second] = ra, rb
    table = sorted((Rating(k, r.mu, r.sigma) for k, r in ratings.items()), key=lambda r: -r.mu)
    return Leaderboard(name, dict(options), table, pairings)


def markdown(boards: list[Leaderboard], command: str, note: str = "") -> str:
    """The leaderboards as a Markdown page (docs/leaderboard.md)."""
    out = ["# Leaderboard", "",
           f"Regenerate with `{command}`. Ratings: openskill Plackett–Luce, mu ± 1.96·sigma; "
           "pairings: the first bot's per-game win share against the second (½ for a draw) "
           "with its 95 % Wilson interval; **bold** where it differs from ½ at 95 %.", ""]
    if note:
        out += [note, ""]
    for board in boards:
        opts = ", ".join(f"{k}={v}" for k, v in board.options.items())
        out += [f"## {board.game}" + (f" ({opts})" if opts else ""), "",
                "| rank | bot | rating | 95 % interval |", "|---|---|---|---|"]
        for i, r in enumerate(board.ratings, 1):
            out.append(f"| {i} | {r.spec} | {r.mu:.1f} | {r.low:.1f} … {r.high:.1f} |")
        out += ["", "| first | second | games | first's share | 95 % CI |", "|---|---|---|---|---|"]
        for p in board.pairings:
            share = f"{p.share.value:.2f}"
            if p.significant:
                share = f"**{share}**"
            out.append(f"| {p.first} | {p.second} | {p.games} | {share} | {p.share.low:.2f} … {p.share.high:.2f} |")
        out.append("")
    return "\n".join(out)
