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

A game that divides a quantity among named parts of itself (`Measures.splits`: Wildwasser's
points among its species) has each part's share tested against a fair 1/k exactly as a
seat's win rate is, in the same family; between variants each part's share is compared as a
seat's win rate is (Newcombe's interval, the two-proportion z test at the effective sizes),
and so it is between player counts (each count against the smallest with the same other
options): a part's fair share, 1/k, is the same at every count, where a seat's is not.

The unit of every interval and test is the independent one (lab/clustered.py): the game —
bots that share a game are compared within it, and a bot's seats in one game count once —
or, under duplicate seating, the deal group.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from ..core.registry import load
from ..core.stats import ANY, NONNEGATIVE, Estimate, Test, holm
from .clustered import (Share, paired_difference, parts_ci, parts_difference, ratio_parts, share,
                        share_difference, share_test, unit_name, units_of)
from .measures import Measure, Split, measures_for
from .study import Study, StudyResult

ALPHA = 0.05
MIN_EFFECT = 0.03
CLOSE = 0.10  # a close game: the winner's margin is at most 10 % of the winning score (and at least 1 point)

SECTIONS = ("seats", "bots", "parts", "decisiveness", "length", "measures")  # parts: a split's parts


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
    figure: str = ""             # the plot that shows it, where its section does not say (a split's)
    part_of: Split | None = None  # a split's part between variants: its split (a table's kind column says its name)

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
class SplitSummary:
    """One split of a condition (`Measures.splits`): each part's share of the total, pooled over the
    games, and its mean amount per game."""

    split: Split
    shares: list[Estimate]
    amounts: list[Estimate]
    fair: float                         # 1 / the number of parts
    per_game: list[list[float]] = field(repr=False, default_factory=list)  # each game's amounts, in rows' order

    @property
    def totals(self) -> list[float]:
        """Each game's total of the split (its denominator)."""
        return [math.fsum(a) for a in self.per_game]

    def what(self, i: int) -> str:
        """The line of part i: "the cheetah's share of the points"."""
        return f"the {self.split.parts[i]}'s {self.split.label}"

    @property
    def figure(self) -> str:
        return f"{self.split.name}_share.png"


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
    group: int = 1                      # games per deal group (duplicate seating): the independent unit
    splits: list[SplitSummary] = field(default_factory=list)         # the game's splits (`Measures.splits`)

    @property
    def unit_ids(self) -> list[int]:
        """Each row's independent unit: its game, or its deal group under duplicate seating."""
        return units_of(self.rows, self.group)

    def team_label(self, t: int) -> str:
        team = self.teams[t]
        return f"seat {team[0]}" if len(team) == 1 else "team of seats " + " & ".join(map(str, team))


def unit_words(group: int) -> str:
    """How a test names its unit: '' for games one by one, else the deal groups."""
    return "" if group == 1 else f" ({unit_name(group)} as units)"


def measure_bounds(m: Measure) -> tuple[float, float]:
    """The values a measure's summary can take: a share-like ratio lies in [0, 1]."""
    if _is_share(m):
        return max(m.bounds[0], 0.0), min(m.bounds[1], 1.0)
    return m.bounds


def measure_estimate(m: Measure, rows: list[dict], units: list[int] | None = None) -> Estimate:
    col = [r["measures"].get(m.name, 0) for r in rows]
    if m.kind == "mean":
        if m.name == "units":
            col = [r["units"] for r in rows]
        return parts_ci(ratio_parts(col, None, units), m.bounds)
    if m.kind == "share":
        return share(col, units=units).est
    return parts_ci(ratio_parts(col, [r["measures"].get(m.denominator, 0) for r in rows], units), measure_bounds(m))


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


def _bot_columns(rows: list[dict], bot: str) -> tuple[list[float], list[float]]:
    """Per game: the win credit a bot took over its seats there, and how many seats it held."""
    nums, dens = [], []
    for r in rows:
        seats = [s for s, b in enumerate(r["bots"]) if b == bot]
        nums.append(math.fsum(r["returns"][s] for s in seats))
        dens.append(float(len(seats)))
    return nums, dens


def summarise(rows: list[dict], label: str, game_name: str, bots: list[str], options: dict,
              group: int = 1) -> ConditionSummary:
    """One condition's numbers.  `group`: games per deal group under duplicate seating (the deal
    group is then the independent unit of every interval and test); 1 for rotated seating."""
    game = load(game_name, **options)
    p, teams = game.players, game.teams
    n = len(rows)
    units = units_of(rows, group)
    by = unit_words(group)

    def rate(values) -> Share:
        return share(list(values), units=units)

    def mean(values, bounds=ANY) -> Estimate:
        return parts_ci(ratio_parts(list(values), None, units), bounds)

    seat_win = [rate(r["returns"][s] for r in rows).est for s in range(p)]
    seat_score = [mean(r["scores"][s] for r in rows) for s in range(p)]
    team_share = [rate(_team_credit(r, t) for r in rows) for t in teams]
    team_win = [x.est for x in team_share]
    # the bots: each game is one unit, whatever number of seats a bot held in it (a bot that holds
    # both seats of a team wins or loses both at once; two bots at one table split its credit)
    columns = {b: _bot_columns(rows, b) for b in bots}
    bot_share = {b: share(*columns[b], units=units) for b in bots if math.fsum(columns[b][1])}
    bot_win = {b: x.est for b, x in bot_share.items()}
    ref = next(iter(bot_share), None)
    versus = {b: paired_difference(*columns[b], *columns[ref], units, f"paired score test over {unit_name(group)}")
              for b in bot_share if b != ref}
    bot_vs_first = {b: d for b, (d, _) in versus.items()}
    own = measures_for(game)

    def count(values) -> Estimate:  # lead changes, lengths and margins are never below 0
        return mean(values, NONNEGATIVE)

    summary = ConditionSummary(
        label, p, teams, n, seat_win, seat_score, team_win, bot_win, 1.0 / len(teams),
        rate(r["shared"] for r in rows).est, rate(int(not r["winners"]) for r in rows).est,
        rate(_close(r, teams) for r in rows).est, count(r.get("lead_changes", 0) for r in rows),
        count(r["actions"] for r in rows), count(r["units"] for r in rows), own.units,
        count(_margin(r, teams) for r in rows), mean((_margin_share(r, teams) for r in rows), (0.0, 2.0)),
        [(m, measure_estimate(m, rows, units)) for m in own.describe],
        rows, bot_vs_first, group=group)
    fair = summary.bot_fair
    if len(teams) > 1:
        # two teams: the second team's share is the first's complement, one test says it all
        for t in range(1 if len(teams) == 2 else len(teams)):
            summary.lines.append(Line("seats", f"{summary.team_label(t)} win rate", None, team_win[t],
                                      _against(team_win[t], fair), True,
                                      share_test(team_share[t], fair, f"score test against {100 * fair:.1f} %{by}"),
                                      fair, math.sqrt(fair * (1 - fair))))
    if len(bot_win) > 1:
        for b, x in bot_share.items():
            summary.lines.append(Line("bots", f"bot `{b}` win rate per seat played", None, x.est, _against(x.est, fair),
                                      True, share_test(x, fair, f"score test against {100 * fair:.1f} % "
                                                                 f"({unit_name(group)} as units)"),
                                      fair, math.sqrt(fair * (1 - fair))))
        for b, (d, test) in versus.items():
            summary.lines.append(Line("bots", f"bot `{b}` against `{ref}`", bot_win[ref], bot_win[b], d, True, test))
    for sp in own.splits:
        summary.splits.append(_split_summary(summary, own, sp, units))
    return summary


def _split_summary(summary: ConditionSummary, own, sp: Split, units: list[int]) -> SplitSummary:
    """Each part's share of the split's total, pooled over the games (Σ its amounts / Σ the totals),
    with the seats' interval and test against a fair 1/k: the share machinery with the games' totals as
    denominators and the game (deal group) as the unit, so a game's parts, which sum to its total,
    count as one game."""
    amounts = [own.split_amounts(sp, r["measures"]) for r in summary.rows]
    totals = [math.fsum(a) for a in amounts]
    k = len(sp.parts)
    fair = 1.0 / k
    bounds = NONNEGATIVE if all(x >= 0 for a in amounts for x in a) else ANY
    shares = [share([a[i] for a in amounts], totals, units=units) for i in range(k)]
    out = SplitSummary(sp, [x.est for x in shares],
                       [parts_ci(ratio_parts([a[i] for a in amounts], None, units), bounds) for i in range(k)], fair,
                       amounts)
    name = f"score test against {100 * fair:.1f} % ({unit_name(summary.group)} as units)"
    for i, x in enumerate(shares):
        line = Line("parts", out.what(i), None, x.est, _against(x.est, fair), True, share_test(x, fair, name),
                    fair, math.sqrt(fair * (1 - fair)), figure=out.figure)
        if not math.fsum(totals):
            line.hidden = f"no {sp.amount} in any game"
        summary.lines.append(line)
    return out


VARIANTS, COUNTS = "variants", "counts"  # what a comparison compares: option values, or player counts


@dataclass
class Comparison:
    """A condition against its baseline: the first condition with the same player count (`VARIANTS`,
    every line of `compare`), or the smallest player count with the same other options (`COUNTS`, the
    parts of the game's splits only: `count_comparisons`)."""

    label: str
    baseline: str
    lines: list[Line]
    between: str = VARIANTS

    def shown(self) -> list[Line]:
        """The compared lines: the flagged first, each group by the size of its standardised effect."""
        return sorted((x for x in self.lines if not x.hidden), key=lambda x: (not x.flagged, -abs(x.effect())))

    def hidden(self) -> list[Line]:
        return [x for x in self.lines if x.hidden]


def _constant(values: list[float]) -> bool:
    return len(set(values)) <= 1


def _share_line(section: str, what: str, base: list[float], this: list[float], base_label: str,
                this_label: str, ub: list[int], uo: list[int], by: str = "",
                dens: tuple[list[float], list[float]] | None = None) -> Line:
    """Two shares of independent conditions: Newcombe's interval and the two-proportion z test at their
    effective sizes.  `dens`: each game's denominator under each condition (a split's totals: the share
    is Σ base / Σ its denominators, pooled over the games, as the condition's own table gives it); None: a
    yes/no (or credit) per game."""
    db, do = dens if dens is not None else ([1.0] * len(base), [1.0] * len(this))
    sb, so = share(base, db, units=ub), share(this, do, units=uo)
    diff, test = share_difference(so, sb)
    both = math.fsum(db) + math.fsum(do)
    pooled = (math.fsum(base) + math.fsum(this)) / both if both else 0.0
    line = Line(section, what, sb.est, so.est, diff, True, Test(test.name + by, test.p),
                sd=math.sqrt(pooled * (1 - pooled)))
    for d, label in ((db, base_label), (do, this_label)):
        if base and this and not math.fsum(d):  # no denominator at all: the share does not exist there
            line.hidden = f"undefined under {label}: its denominator was 0 in every game"
            return line
    # a share of 0 % or 100 % is an outcome of the games like any other (Newcombe's interval and the
    # test handle it): only the same constant under both conditions leaves nothing to compare
    rb = [y / x for y, x in zip(base, db) if x]
    ro = [y / x for y, x in zip(this, do) if x]
    if _constant(rb) and _constant(ro) and set(rb) == set(ro):
        line.hidden = f"always {rb[0]:g} under both" if rb else "no games"
    return line


def _mean_line(section: str, what: str, base: list[float], this: list[float], base_label: str,
               this_label: str, ub: list[int], uo: list[int], by: str = "", pct: bool = False,
               bounds: tuple[float, float] = ANY) -> Line:
    """Two means (Welch); `pct`: the values are shares (a mean of per-game shares), so the effect is in
    percentage points and its practical size too."""
    pb, po = ratio_parts(base, None, ub), ratio_parts(this, None, uo)
    diff, test = parts_difference(po, pb, "Welch t test" + by)
    line = Line(section, what, parts_ci(pb, bounds), parts_ci(po, bounds), diff, pct, test,
                sd=_pooled_sd([_sd(base), _sd(this)], [len(base), len(this)]))
    return _hide_fixed(line, base, this, base_label, this_label, (len(set(ub)), len(set(uo))))


def _ratio_line(section: str, what: str, base: tuple[list[float], list[float]],
                this: tuple[list[float], list[float]], pct: bool, base_label: str, this_label: str,
                ub: list[int], uo: list[int], by: str = "", bounds: tuple[float, float] = NONNEGATIVE) -> Line:
    pb, po = ratio_parts(*base, ub), ratio_parts(*this, uo)
    if pct:
        bounds = (max(bounds[0], 0.0), min(bounds[1], 1.0))
    # Welch–Satterthwaite t as for two means: each ratio's own interval is a t interval over its units, and
    # a normal test on a handful of games flagged a change of 2.00 → 1.44 aces per round from 3 games a side
    d, test = parts_difference(po, pb, "Welch t test of two ratios" + by)
    # per-game spread of a pooled ratio: its standard error times √(games)
    sds = [x.se * math.sqrt(x.n) if x is not None and x.n > 1 and math.isfinite(x.se) else float("nan")
           for x in (pb, po)]
    line = Line(section, what, parts_ci(pb, bounds), parts_ci(po, bounds), d, pct, test,
                sd=_pooled_sd(sds, [x.n if x else 0 for x in (pb, po)]))
    for x, label in ((pb, base_label), (po, this_label)):
        if x is None:  # no denominator at all: the ratio does not exist there
            line.hidden = f"undefined under {label}: its denominator was 0 in every game"
            return line
    if pb.se == 0 and po.se == 0:  # the same ratio in every game on both sides
        _fixed(line, [pb.value], [po.value], base_label, this_label, (pb.n, po.n))
    return line


def _sd(xs: list[float]) -> float:
    if len(xs) < 2:
        return float("nan")
    m = math.fsum(xs) / len(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def _pooled_sd(sds: list[float], ns: list[int]) -> float:
    if any(n < 2 or math.isnan(sd) for sd, n in zip(sds, ns)):
        return float("nan")
    return math.sqrt(sum((n - 1) * sd * sd for sd, n in zip(sds, ns)) / (sum(ns) - len(ns)))


def _hide_fixed(line: Line, base: list[float], this: list[float], base_label: str, this_label: str,
                units: tuple[int, int]) -> Line:
    """A mean or count that never varies under either condition has nothing to test."""
    if _constant(base) and _constant(this):
        _fixed(line, base[:1], this[:1], base_label, this_label, units)
    return line


def _fixed(line: Line, base: list[float], this: list[float], base_label: str, this_label: str,
           units: tuple[int, int]) -> None:
    """Hide a line whose value is the same in every game under both conditions: the same constant (nothing
    to compare), or a different one under each (set by the rules, such as the rounds of a game of
    `rounds=3`: no sampling variation, nothing to test).  One side that never varies is compared.
    `units`: the independent units (games, deal groups) under each: one game does not vary, but that says
    nothing about the rules — a study of one game per condition was told that its 55 and 53 actions were
    "fixed by the rules"."""
    if not base or not this:
        line.hidden = "no games"
    elif base[0] == this[0]:
        line.hidden = f"always {base[0]:g} under both"
    elif min(units) < 2:
        single = " and ".join(label for label, n in zip((base_label, this_label), units) if n < 2)
        line.hidden = (f"{base[0]:g} under {base_label}, {this[0]:g} under {this_label}: too few games under "
                       f"{single} to test a difference")
    else:
        line.hidden = f"fixed by the rules: {base[0]:g} in every game under {base_label}, {this[0]:g} under {this_label}"


def _per_unit(label: str, unit: str) -> str:
    """'drive-offs per game' → 'drive-offs per round'."""
    one = unit[:-1] if unit.endswith("s") else unit
    if "per game" in label:
        return label.replace(", per game", f" per {one}").replace("per game", f"per {one}")
    return f"{label} per {one}"


def compare(base: ConditionSummary, other: ConditionSummary) -> Comparison:
    """Every line of `other` against `base`: seats (teams), the parts of the game's splits (each species'
    share of the points), decisiveness, length and the game's measures,
    counts normalised per round (hand) where the game has such a unit, the winning margin as a share of the
    winner's score: so no line grows merely because a variant plays longer.  Under duplicate seating the deal
    groups are the units of every interval and test."""
    b, o = base.rows, other.rows
    bl, ol = base.label, other.label
    ub, uo = base.unit_ids, other.unit_ids
    by = unit_words(base.group)
    unit = base.units_name
    out: list[Line] = []

    def share_line(section, what, key):
        return _share_line(section, what, [key(r, base) for r in b], [key(r, other) for r in o], bl, ol, ub, uo, by)

    def mean_line(section, what, key, **kw):
        return _mean_line(section, what, [key(r, base) for r in b], [key(r, other) for r in o], bl, ol, ub, uo, by,
                          **kw)

    def ratio_line(section, what, num, den, pct=False, bounds=NONNEGATIVE):
        return _ratio_line(section, what, ([num(r) for r in b], [den(r) for r in b]),
                           ([num(r) for r in o], [den(r) for r in o]), pct, bl, ol, ub, uo, by, bounds)

    for t in range(1 if len(base.teams) == 2 else len(base.teams)):  # two: the second mirrors the first
        team = base.teams[t]
        out.append(share_line("seats", f"{base.team_label(t)} win rate", lambda r, s, team=team: _team_credit(r, team)))
    out += _split_lines(base, other, ub, uo, by)
    out.append(share_line("decisiveness", "shared wins (ties)", lambda r, s: r["shared"]))
    out.append(share_line("decisiveness", f"close games (margin ≤ {100 * CLOSE:.0f} % of the winning score)",
                          lambda r, s: _close(r, s.teams)))
    # the margin as a share of the winner's score, not in points: points grow with the game's length
    # (and with its scoring), so a longer variant would always have the larger margin (_margin_share)
    out.append(mean_line("decisiveness", MARGIN_SHARE, lambda r, s: _margin_share(r, s.teams), pct=True,
                         bounds=(0.0, 2.0)))

    lead = lambda r: r.get("lead_changes", 0)
    units = lambda r: r["units"]
    if unit:
        out.append(ratio_line("decisiveness", _per_unit("lead changes", unit), lead, units))
        out.append(mean_line("length", f"{unit} per game", lambda r, s: r["units"], bounds=NONNEGATIVE))
        out.append(ratio_line("length", _per_unit("actions", unit), lambda r: r["actions"], units))
    else:
        out.append(mean_line("decisiveness", "lead changes per game", lambda r, s: lead(r), bounds=NONNEGATIVE))
        out.append(mean_line("length", "actions per game", lambda r, s: r["actions"], bounds=NONNEGATIVE))
    for m, _ in base.measures:
        if m.name == "units":
            continue  # the length section has it
        get: Callable[[dict], float] = lambda r, k=m.name: r["measures"].get(k, 0)
        if m.kind == "mean" and unit:
            out.append(ratio_line("measures", _per_unit(m.label, unit), get, units, bounds=m.bounds))
        elif m.kind == "mean":
            out.append(mean_line("measures", m.label, lambda r, s, get=get: get(r), bounds=m.bounds))
        elif m.kind == "share":
            out.append(share_line("measures", m.label, lambda r, s, get=get: get(r)))
        else:
            den: Callable[[dict], float] = lambda r, k=m.denominator: r["measures"].get(k, 0)
            out.append(ratio_line("measures", m.label, get, den, _is_share(m), measure_bounds(m)))
    return Comparison(other.label, base.label, out)


def _split_lines(base: ConditionSummary, other: ConditionSummary, ub: list[int], uo: list[int],
                 by: str) -> list[Line]:
    """Each part's share of a split (WW-5.3: a species' share of the podium points) under `other` against
    `base`: the seats' difference of shares, each game's total as its denominator (the pooled share of the
    conditions' own tables), the game (deal group) as the unit.  Every part is compared: with more than
    two parts one share does not mirror another."""
    out = []
    theirs = {sp.split.name: sp for sp in other.splits}
    for sp in base.splits:
        op = theirs.get(sp.split.name)
        if op is None or op.split.parts != sp.split.parts:
            continue
        for i in range(len(sp.split.parts)):
            line = _share_line("parts", sp.what(i), [a[i] for a in sp.per_game], [a[i] for a in op.per_game],
                               base.label, other.label, ub, uo, by, (sp.totals, op.totals))
            line.part_of = sp.split
            out.append(line)
    return out


def count_comparisons(study: Study, summaries: dict[int, ConditionSummary]) -> list[Comparison]:
    """WW-1 / WW-5.3: each part's share of a split (a species' share of the points) between player counts.

    A part's fair share is 1/k (a fifth of the points for each species) at every player count, so its
    shares compare across counts as a seat's win rate compares between variants (`_split_lines`).
    Nothing else is compared across counts: a seat's fair share (1/players) changes with the count, and
    lengths and counts grow with the players by the rules.  Each count is compared with the smallest
    count that has the same other options (under each compared value, e.g. per river flow), not with the
    next count: the designer's question is "stronger with 2 than with 6?", which neighbouring steps do
    not answer (their intervals do not add), and the k − 1 comparisons of a group are as many tests
    either way.  A study with one player count, or a game without splits, gets none."""
    groups: dict[tuple, list[int]] = {}
    for c in sorted(summaries):
        others = tuple((k, repr(v)) for k, v in study.conditions[c].options if k != "players")
        groups.setdefault(others, []).append(c)
    out = []
    for conds in groups.values():
        ordered = sorted(conds, key=lambda c: (summaries[c].players, c))
        base = summaries[ordered[0]]
        for c in ordered[1:]:
            other = summaries[c]
            if other.players == base.players:
                continue  # not a player count apart (make_study refuses a count given twice)
            lines = _split_lines(base, other, base.unit_ids, other.unit_ids,
                                 unit_words(max(base.group, other.group)))
            if lines:
                out.append(Comparison(other.label, base.label, lines, COUNTS))
    return out


def _is_share(m: Measure) -> bool:
    return m.kind == "share" or (m.kind == "ratio" and m.label.startswith(("share", "hands")))


def analyse(result: StudyResult) -> tuple[list[ConditionSummary], list[Comparison]]:
    """Summaries per condition (only those with finished games) and the comparisons: the variants', then
    (a study of several player counts, a game with splits) the splits' parts between the player counts."""
    study: Study = result.study
    bots = [b.text for b in study.bots]
    by_cond: dict[int, list[dict]] = {}
    for r in result.rows:
        by_cond.setdefault(r["cond"], []).append(r)
    summaries: dict[int, ConditionSummary] = {}
    for c, cond in enumerate(study.conditions):
        if by_cond.get(c):
            group = study.seating.group(cond.load(study.game), len(bots))
            summaries[c] = summarise(by_cond[c], cond.label, study.game, bots, dict(cond.options), group)
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
    comparisons += count_comparisons(study, summaries)
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
