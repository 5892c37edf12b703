"""What a report answers, as numbers with 95 % intervals and tested flags (no formatting here).

Every claim a report can make is a `Line`: an effect (a difference to a baseline
condition, or to the fair share) with its interval, its test and its practical size.
`raise_flags` puts every line of a report into one family and applies Holm's
step-down correction (family-wise error ≤ α under any dependence: the seats' shares
of one game sum to one, so their tests are negatively dependent, where the
Benjamini–Hochberg false discovery rate is not guaranteed).  A line is flagged when
its Holm-adjusted p-value is at most α *and* its effect reaches the practical size
the designer set (`min_effect`: percentage points for shares, the winning margin's
share of the winning score among them; that fraction of the baseline for counts and lengths).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from ..core.registry import load
from ..core.stats import (ANY, NONE, NONNEGATIVE, Z95, Estimate, Test, estimate_test, holm, mean_ci, mean_difference, proportion_difference,
                          proportion_test, ratio_ci, ratio_difference, two_proportion_test, welch_test, wilson)
from .measures import Measure, measures_for
from .study import Study, StudyResult

ALPHA = 0.05
MIN_EFFECT = 0.03
CLOSE = 0.10  # a close game: the winner's margin is at most 10 % of the winning score (and at least 1 point)

SECTIONS = ("seats", "bots", "decisiveness", "length", "measures")


@dataclass
class Line:
    """One effect a report can claim, with its interval and its test."""

    section: str                 # one of SECTIONS
    what: str                    # what a designer reads
    base: Estimate | None        # the baseline's value (None: against a fixed reference)
    this: Estimate
    diff: Estimate               # this − base, or this − reference
    pct: bool                    # a share: effects in percentage points
    test: Test
    reference: float | None = None
    sd: float = float("nan")     # per-game standard deviation (pooled): the scale of the standardised effect
    hidden: str = ""             # why the line is not compared ("always 0", "fixed by the rules …")
    p_adjusted: float = float("nan")
    flagged: bool = False

    def practical(self, min_effect: float = MIN_EFFECT) -> bool:
        """Is the effect large enough to act on: `min_effect` in percentage points for shares,
        that fraction of the baseline (or reference) for counts and lengths?"""
        if self.diff.n == 0 or math.isnan(self.diff.value):
            return False
        if self.pct:
            return abs(self.diff.value) >= min_effect
        scale = abs(self.base.value) if self.base is not None and self.base.n else abs(self.reference or 0.0)
        return abs(self.diff.value) >= min_effect * scale and self.diff.value != 0

    def effect(self) -> float:
        """The standardised effect size: the difference in per-game standard deviations (Cohen's d;
        for shares the difference over √(p(1−p)), close to Cohen's h)."""
        if self.diff.n == 0 or not self.sd > 0:
            return 0.0
        return self.diff.value / self.sd

    def relative(self) -> float:
        """The change as a share of the baseline (counts, lengths); nan for shares or a zero baseline."""
        if self.pct or self.base is None or not self.base.n or self.base.value == 0:
            return float("nan")
        return self.diff.value / abs(self.base.value)


@dataclass
class ConditionSummary:
    label: str
    players: int
    teams: list[tuple[int, ...]]
    n: int
    seat_win: list[Estimate]            # share of the win credit per seat
    seat_score: list[Estimate]
    team_win: list[Estimate]            # per team (= per seat when every seat plays alone)
    bot_win: dict[str, Estimate]        # per bot spec: win credit per seat it played
    bot_fair: float                     # the credit an equal bot would get
    shared: Estimate                    # games whose win was shared (teams count once)
    no_winner: Estimate
    close: Estimate                     # games won by a margin of at most CLOSE of the winning score
    lead_changes: Estimate              # per game
    actions: Estimate
    units: Estimate
    units_name: str                     # "rounds" / "hands" / ""
    margin: Estimate                    # winner's score minus the best loser's
    margin_share: Estimate              # the margin as a share of the winner's score (`_margin_share`)
    measures: list[tuple[Measure, Estimate]]
    rows: list[dict[str, Any]] = field(repr=False, default_factory=list)
    bot_vs_first: dict[str, Estimate] = field(default_factory=dict)  # win rate minus the first bot's
    lines: list[Line] = field(default_factory=list)                  # seats and bots against fair shares

    def team_label(self, t: int) -> str:
        team = self.teams[t]
        return f"seat {team[0]}" if len(team) == 1 else "team of seats " + " & ".join(map(str, team))


def measure_estimate(m: Measure, rows: list[dict]) -> Estimate:
    col = [r["measures"].get(m.name, 0) for r in rows]
    if m.kind == "mean":
        if m.name == "units":
            col = [r["units"] for r in rows]
        return mean_ci(col, m.bounds)
    if m.kind == "share":
        return wilson(sum(col), len(col))
    return ratio_ci(col, [r["measures"].get(m.denominator, 0) for r in rows], m.bounds)


def _team_credit(r: dict, team: tuple[int, ...]) -> float:
    return sum(r["returns"][s] for s in team) / len(team)


def _margin(r: dict, teams) -> float:
    ts = sorted((max(r["scores"][s] for s in t) for t in teams), reverse=True)
    return ts[0] - ts[1] if len(ts) > 1 else 0.0


def _margin_share(r: dict, teams) -> float:
    """The winning margin as a share of the winner's score: comparable between variants of
    different length.  A margin in points grows with the points in play, so three rounds
    of Wasserloch "win" a points comparison against one by being longer; per round would
    not do either (the per-round margin of equal players falls like 1/√rounds, and a
    game without rounds, such as Seven Waters, has no unit).  Divided by the largest
    score in absolute value (the winner's where scores are never negative; Seven Waters'
    penalties can make every score negative, where the winner's own score may be 0 or
    close to it), so the share lies in [0, 1] when all scores have one sign and in [0, 2]
    otherwise; 0 for a game where nobody scored."""
    scale = _top(r, teams)
    return _margin(r, teams) / scale if scale else 0.0


MARGIN_SHARE = "winning margin (share of the winner's score)"


def _top(r: dict, teams) -> float:
    """The largest team score in absolute value: the scale of a game's margin."""
    return max(abs(max(r["scores"][s] for s in t)) for t in teams)


def _close(r: dict, teams) -> int:
    return int(_margin(r, teams) <= max(1.0, CLOSE * _top(r, teams)))


def _against(value: Estimate, reference: float) -> Estimate:
    return Estimate(value.value - reference, value.low - reference, value.high - reference, value.n)


def summarise(rows: list[dict], label: str, game_name: str, bots: list[str], options: dict) -> ConditionSummary:
    game = load(game_name, **options)
    p, teams = game.players, game.teams
    n = len(rows)
    seat_win = [wilson(sum(r["returns"][s] for r in rows), n) for s in range(p)]
    seat_score = [mean_ci(r["scores"][s] for r in rows) for s in range(p)]
    team_credit = [sum(_team_credit(r, t) for r in rows) for t in teams]
    team_win = [wilson(k, n) for k in team_credit]
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
    own = measures_for(game)

    def count(values) -> Estimate:  # lead changes, lengths and margins are never below 0
        return mean_ci(values, NONNEGATIVE)

    summary = ConditionSummary(
        label, p, teams, n, seat_win, seat_score, team_win, bot_win, 1.0 / len(teams),
        wilson(sum(r["shared"] for r in rows), n), wilson(sum(1 for r in rows if not r["winners"]), n),
        wilson(sum(_close(r, teams) for r in rows), n), count(r.get("lead_changes", 0) for r in rows),
        count(r["actions"] for r in rows), count(r["units"] for r in rows), own.units,
        count(_margin(r, teams) for r in rows), mean_ci((_margin_share(r, teams) for r in rows), (0.0, 2.0)),
        [(m, measure_estimate(m, rows)) for m in own.describe],
        rows, bot_vs_first)
    fair = summary.bot_fair
    if len(teams) > 1:
        # two teams: the second team's share is the first's complement, one test says it all
        for t in range(1 if len(teams) == 2 else len(teams)):
            summary.lines.append(Line("seats", f"{summary.team_label(t)} win rate", None, team_win[t],
                                      _against(team_win[t], fair), True,
                                      proportion_test(team_credit[t], n, fair), fair, math.sqrt(fair * (1 - fair))))
    if len(bot_win) > 1:
        for b, e in bot_win.items():
            summary.lines.append(Line("bots", f"bot `{b}` win rate per seat played", None, e, _against(e, fair),
                                      True, proportion_test(credit[b], seats[b], fair), fair,
                                      math.sqrt(fair * (1 - fair))))
        for b, d in bot_vs_first.items():
            summary.lines.append(Line("bots", f"bot `{b}` against `{ref}`", bot_win[ref], bot_win[b], d, True,
                                      two_proportion_test(credit[b], seats[b], credit[ref], seats[ref])))
    return summary


@dataclass
class Comparison:
    """A condition against the baseline condition with the same player count."""

    label: str
    baseline: str
    lines: list[Line]

    def shown(self) -> list[Line]:
        """The compared lines: the flagged first, each group by the size of its standardised effect."""
        return sorted((x for x in self.lines if not x.hidden), key=lambda x: (not x.flagged, -abs(x.effect())))

    def hidden(self) -> list[Line]:
        return [x for x in self.lines if x.hidden]


def _constant(values: list[float]) -> bool:
    return len(set(values)) <= 1


def _share_line(section: str, what: str, base: list[float], this: list[float], base_label: str,
                this_label: str) -> Line:
    kb, ko = sum(base), sum(this)
    nb, no = len(base), len(this)
    pooled = (kb + ko) / (nb + no)
    return _with_hidden(Line(section, what, wilson(kb, nb), wilson(ko, no), proportion_difference(ko, no, kb, nb),
                             True, two_proportion_test(ko, no, kb, nb), sd=math.sqrt(pooled * (1 - pooled))),
                        base, this, base_label, this_label)


def _mean_line(section: str, what: str, base: list[float], this: list[float], base_label: str,
               this_label: str, pct: bool = False, bounds: tuple[float, float] = ANY) -> Line:
    """Two means (Welch); `pct`: the values are shares (a mean of per-game shares), so the effect is in
    percentage points and its practical size too."""
    return _with_hidden(Line(section, what, mean_ci(base, bounds), mean_ci(this, bounds),
                             mean_difference(this, base), pct,
                             welch_test(this, base), sd=_pooled_sd([_sd(base), _sd(this)], [len(base), len(this)])),
                        base, this, base_label, this_label)


def _ratio_line(section: str, what: str, base: tuple[list[float], list[float]],
                this: tuple[list[float], list[float]], pct: bool, base_label: str, this_label: str) -> Line:
    eb, eo = ratio_ci(*base), ratio_ci(*this)
    d = ratio_difference(eo, eb)
    # per-game spread of a pooled ratio: its standard error times √n
    sds = [(e.high - e.low) / 2 / Z95 * math.sqrt(e.n) if e.n > 1 else float("nan") for e in (eb, eo)]
    return _with_hidden(Line(section, what, eb, eo, d, pct, estimate_test(d), sd=_pooled_sd(sds, [eb.n, eo.n])),
                        base[0], this[0], base_label, this_label)


def _sd(xs: list[float]) -> float:
    if len(xs) < 2:
        return float("nan")
    m = math.fsum(xs) / len(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def _pooled_sd(sds: list[float], ns: list[int]) -> float:
    if any(n < 2 or math.isnan(sd) for sd, n in zip(sds, ns)):
        return float("nan")
    return math.sqrt(sum((n - 1) * sd * sd for sd, n in zip(sds, ns)) / (sum(ns) - len(ns)))


def _with_hidden(line: Line, base: list[float], this: list[float], base_label: str, this_label: str) -> Line:
    """Hide a line whose per-game value never varies in a condition: always zero, or set by
    the rules there (definitional, such as 'limit reached' without a limit), or too rare to compare."""
    if _constant(base) and _constant(this) and set(base) == set(this):
        line.hidden = f"always {base[0]:g}" if base else "no games"
    elif _constant(base) or _constant(this):
        label, value = (base_label, base[0]) if _constant(base) else (this_label, this[0])
        line.hidden = f"always {value:g} under {label}"
    return line


def _per_unit(label: str, unit: str) -> str:
    """'drive-offs per game' → 'drive-offs per round'."""
    one = unit[:-1] if unit.endswith("s") else unit
    if "per game" in label:
        return label.replace(", per game", f" per {one}").replace("per game", f"per {one}")
    return f"{label} per {one}"


def compare(base: ConditionSummary, other: ConditionSummary) -> Comparison:
    """Every line of `other` against `base`: seats (teams), decisiveness, length and the game's measures,
    counts normalised per round (hand) where the game has such a unit, the winning margin as a share of the
    winner's score: so no line grows merely because a variant plays longer."""
    b, o = base.rows, other.rows
    bl, ol = base.label, other.label
    unit = base.units_name
    out: list[Line] = []
    for t in range(1 if len(base.teams) == 2 else len(base.teams)):  # two: the second mirrors the first
        team = base.teams[t]
        out.append(_share_line("seats", f"{base.team_label(t)} win rate", [_team_credit(r, team) for r in b],
                               [_team_credit(r, team) for r in o], bl, ol))
    out.append(_share_line("decisiveness", "shared wins (ties)", [r["shared"] for r in b], [r["shared"] for r in o],
                           bl, ol))
    out.append(_share_line("decisiveness", f"close games (margin ≤ {100 * CLOSE:.0f} % of the winning score)",
                           [_close(r, base.teams) for r in b], [_close(r, other.teams) for r in o], bl, ol))
    # the margin as a share of the winner's score, not in points: points grow with the game's length
    # (and with its scoring), so a longer variant would always have the larger margin (_margin_share)
    out.append(_mean_line("decisiveness", MARGIN_SHARE, [_margin_share(r, base.teams) for r in b],
                          [_margin_share(r, other.teams) for r in o], bl, ol, pct=True, bounds=(0.0, 2.0)))

    def per(rows, key) -> tuple[list[float], list[float]]:
        return [key(r) for r in rows], [r["units"] for r in rows]

    lead = lambda r: r.get("lead_changes", 0)
    if unit:
        out.append(_ratio_line("decisiveness", _per_unit("lead changes", unit), per(b, lead), per(o, lead), False,
                               bl, ol))
        out.append(_mean_line("length", f"{unit} per game", [r["units"] for r in b], [r["units"] for r in o], bl, ol))
        act = lambda r: r["actions"]
        out.append(_ratio_line("length", _per_unit("actions", unit), per(b, act), per(o, act), False, bl, ol))
    else:
        out.append(_mean_line("decisiveness", "lead changes per game", [lead(r) for r in b], [lead(r) for r in o],
                              bl, ol))
        out.append(_mean_line("length", "actions per game", [r["actions"] for r in b], [r["actions"] for r in o],
                              bl, ol))
    for m, _ in base.measures:
        if m.name == "units":
            continue  # the length section has it
        get: Callable[[dict], float] = lambda r, k=m.name: r["measures"].get(k, 0)
        if m.kind == "mean" and unit:
            out.append(_ratio_line("measures", _per_unit(m.label, unit), per(b, get), per(o, get), False, bl, ol))
        elif m.kind == "mean":
            out.append(_mean_line("measures", m.label, [get(r) for r in b], [get(r) for r in o], bl, ol))
        elif m.kind == "share":
            out.append(_share_line("measures", m.label, [get(r) for r in b], [get(r) for r in o], bl, ol))
        else:
            den: Callable[[dict], float] = lambda r, k=m.denominator: r["measures"].get(k, 0)
            out.append(_ratio_line("measures", m.label, ([get(r) for r in b], [den(r) for r in b]),
                                   ([get(r) for r in o], [den(r) for r in o]), _is_share(m), bl, ol))
    return Comparison(other.label, base.label, out)


def _is_share(m: Measure) -> bool:
    return m.kind == "share" or (m.kind == "ratio" and m.label.startswith(("share", "hands")))


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


def raise_flags(summaries: list[ConditionSummary], comparisons: list[Comparison], alpha: float = ALPHA,
                min_effect: float = MIN_EFFECT) -> list[tuple[str, Line]]:
    """Holm over every tested line of the report; (where, line) of the flagged ones, largest effect first."""
    family: list[tuple[str, Line]] = []
    for s in summaries:
        family += [(s.label, x) for x in s.lines if not x.hidden]
    for c in comparisons:
        family += [(f"{c.label} against {c.baseline}", x) for x in c.lines if not x.hidden]
    adjusted = holm([x.test.p for _, x in family])
    for (_, x), p in zip(family, adjusted):
        x.p_adjusted = p
        x.flagged = p <= alpha and x.practical(min_effect)
    return sorted(((w, x) for w, x in family if x.flagged), key=lambda wx: -abs(wx[1].effect()))
