"""What a report answers, as numbers with 95 % intervals (no formatting here)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..core.registry import load
from .measures import Measure, measures_class
from ..core.stats import NONE, Estimate, mean_ci, mean_difference, proportion_difference, t95, wilson
from .study import Study, StudyResult


def ratio_ci(nums: list[float], dens: list[float]) -> Estimate:
    """Σnum / Σden over games with a delta-method (cluster) t interval."""
    n = len(nums)
    total = sum(dens)
    if n == 0 or total == 0:
        return NONE
    r = sum(nums) / total
    if n < 2:
        return Estimate(r, float("-inf"), float("inf"), n)
    mean_den = total / n
    resid = sum((y - r * x) ** 2 for y, x in zip(nums, dens)) / (n - 1)
    se = math.sqrt(resid / n) / mean_den
    half = t95(n - 1) * se
    return Estimate(r, r - half, r + half, n)


def ratio_difference(a: Estimate, b: Estimate) -> Estimate:
    """Difference of two independent ratio estimates (normal approximation)."""
    if a.n < 2 or b.n < 2:
        return NONE
    sa, sb = (a.high - a.low) / 2 / 1.96, (b.high - b.low) / 2 / 1.96
    half = 1.96 * math.sqrt(sa * sa + sb * sb)
    d = a.value - b.value
    return Estimate(d, d - half, d + half, min(a.n, b.n))


@dataclass
class ConditionSummary:
    label: str
    players: int
    teams: list[tuple[int, ...]]
    n: int
    seat_win: list[Estimate]            # share of the win credit per seat
    seat_score: list[Estimate]
    bot_win: dict[str, Estimate]        # per bot spec: win credit per seat it played
    bot_fair: float                     # the credit an equal bot would get
    shared: Estimate                    # games whose win was shared (teams count once)
    no_winner: Estimate
    actions: Estimate
    units: Estimate
    margin: Estimate                    # winner's score minus the best loser's
    measures: list[tuple[Measure, Estimate]]
    rows: list[dict[str, Any]] = field(repr=False, default_factory=list)
    bot_vs_first: dict[str, Estimate] = field(default_factory=dict)  # win rate minus the first bot's


def measure_estimate(m: Measure, rows: list[dict]) -> Estimate:
    col = [r["measures"].get(m.name, 0) for r in rows]
    if m.kind == "mean":
        if m.name == "units":
            col = [r["units"] for r in rows]
        return mean_ci(col)
    if m.kind == "share":
        return wilson(sum(col), len(col))
    return ratio_ci(col, [r["measures"].get(m.denominator, 0) for r in rows])


def summarise(rows: list[dict], label: str, game_name: str, bots: list[str], options: dict) -> ConditionSummary:
    game = load(game_name, **options)
    p, teams = game.players, game.teams
    n = len(rows)
    seat_win = [wilson(sum(r["returns"][s] for r in rows), n) for s in range(p)]
    seat_score = [mean_ci(r["scores"][s] for r in rows) for s in range(p)]
    credit: dict[str, float] = {b: 0.0 for b in bots}
    seats: dict[str, int] = {b: 0 for b in bots}
    for r in rows:
        for s, b in enumerate(r["bots"]):
            credit[b] += r["returns"][s]
            seats[b] += 1
    bot_win = {b: wilson(credit[b], seats[b]) for b in bots if seats[b]}
    ref = next((b for b in bots if seats[b]), None)
    bot_vs_first = {b: proportion_difference(credit[b], seats[b], credit[ref], seats[ref])
                    for b in bots if seats[b] and b != ref}
    shared = wilson(sum(r["shared"] for r in rows), n)
    no_winner = wilson(sum(1 for r in rows if not r["winners"]), n)
    margins = [_margin(r, teams) for r in rows]
    units = mean_ci(r["units"] for r in rows)
    ms = [(m, measure_estimate(m, rows)) for m in measures_class(game_name).describe]
    return ConditionSummary(label, p, teams, n, seat_win, seat_score, bot_win, 1.0 / len(teams), shared,
                            no_winner, mean_ci(r["actions"] for r in rows), units, mean_ci(margins), ms, rows,
                            bot_vs_first)


@dataclass
class Comparison:
    """A condition against the baseline condition with the same player count."""

    label: str
    baseline: str
    rows: list[tuple[str, Estimate, Estimate, Estimate, bool]]  # what, baseline, this, difference, pct


def compare(base: ConditionSummary, other: ConditionSummary) -> Comparison:
    """Differences other − base in seat win rates, length, ties and every per-game measure."""
    out = []
    for s in range(base.players):
        kb = sum(r["returns"][s] for r in base.rows)
        ko = sum(r["returns"][s] for r in other.rows)
        out.append((f"seat {s} win rate", base.seat_win[s], other.seat_win[s],
                    proportion_difference(ko, other.n, kb, base.n), True))
    out.append(("actions per game", base.actions, other.actions,
                mean_difference([r["actions"] for r in other.rows], [r["actions"] for r in base.rows]), False))
    kb = base.shared.value * base.n
    ko = other.shared.value * other.n
    out.append(("shared wins", base.shared, other.shared, proportion_difference(ko, other.n, kb, base.n), True))
    out.append(("winning margin", base.margin, other.margin,
                mean_difference([_margin(r, other.teams) for r in other.rows],
                                [_margin(r, base.teams) for r in base.rows]), False))
    for (m, eb), (_, eo) in zip(base.measures, other.measures):
        if m.kind == "mean":
            key = (lambda r: r["units"]) if m.name == "units" else (lambda r, k=m.name: r["measures"].get(k, 0))
            d = mean_difference([key(r) for r in other.rows], [key(r) for r in base.rows])
        elif m.kind == "share":
            d = proportion_difference(eo.value * eo.n, eo.n, eb.value * eb.n, eb.n)
        else:
            d = ratio_difference(eo, eb)
        out.append((m.label, eb, eo, d, m.kind == "share" or _is_share(m)))
    return Comparison(other.label, base.label, out)


def _is_share(m: Measure) -> bool:
    return m.kind == "ratio" and (m.label.startswith("share") or m.label.startswith("hands"))


def _margin(r: dict, teams) -> float:
    ts = sorted((max(r["scores"][s] for s in t) for t in teams), reverse=True)
    return ts[0] - ts[1] if len(ts) > 1 else 0.0


def analyse(result: StudyResult) -> tuple[list[ConditionSummary], list[Comparison]]:
    """Summaries per condition (only those with finished games) and the variant comparisons."""
    study: Study = result.study
    bots = [b.text for b in study.bots]
    by_cond: dict[int, list[dict]] = {}
    for r in result.rows:
        by_cond.setdefault(r["cond"], []).append(r)
    summaries: dict[int, ConditionSummary] = {}
    for c, cond in enumerate(study.conditions):
        if by_cond.get(c):
            summaries[c] = summarise(by_cond[c], cond.label, study.game, bots, dict(cond.options))
    comparisons = []
    if study.compare:
        # baseline: the first condition with the same player count
        first_for: dict[int, int] = {}
        for c in sorted(summaries):
            p = summaries[c].players
            if p not in first_for:
                first_for[p] = c
            else:
                comparisons.append(compare(summaries[first_for[p]], summaries[c]))
    return [summaries[c] for c in sorted(summaries)], comparisons
