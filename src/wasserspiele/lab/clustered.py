"""Intervals and tests with the independent unit of a study as the unit: the game, or the deal group.

Two things make the lab's per-seat and per-game numbers dependent:

* **the seats of one game.**  Two bots at one table split its win credit (with two
  players their rates add up to one), and a bot that holds both seats of a Watten team
  wins or loses both at once: its 400 "seats" are 200 games counted twice.  The game,
  not the seat, is the independent unit.
* **duplicate seating.**  The games of one deal group (every rotation of the line-up
  over the seats) share the deal, so their outcomes correlate; the group is the unit.

Every estimate here is a ratio Σy / Σx of per-game values, with the cluster-robust
(sandwich, linearisation) variance over the units: Σ_units (Σ_games of the unit (y − r·x))² / (Σx)².
A share is then given a **Wilson interval with the effective sample size**
n_eff = r(1 − r) / variance (Korn & Graubard 1998; the variance with the small-sample
factor g/(g − 1) over g units, as the means have, unless every unit is one game won or
lost whole),
capped at the number of values behind it, and tested by the score test with that n_eff (the test the interval inverts).
With the game as the unit and a 0/1 credit per game this is exactly the Wilson
interval and score test of the games, so nothing changes where the games were already
the unit; where a unit holds several correlated values, n_eff is smaller than their
count and the interval as wide as the unit's information allows.  A share of 0 or 1 (no
variation at all) counts each unit once: n_eff = the number of units; a share between
whose units do not vary (each exactly at the share) takes the cap, the limit of ever
less variation.

Means and ratios get Student t intervals on the same units (t with units − 1 degrees of
freedom; with one game a unit this is the usual t interval), and two of them from
independent conditions a Welch–Satterthwaite t interval and test (means and ratios alike).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Hashable, Sequence

from ..core.stats import (ANY, NONE, Estimate, Test, proportion_difference, proportion_test, t95,
                          two_proportion_test, two_sided_t, wilson, within)


def units_of(rows: Sequence[dict], group: int = 1) -> list[int]:
    """The independent unit of each game row: the game (rotated seating), or the deal group of
    `group` games that share one deal (duplicate seating)."""
    return [r["game"] // group for r in rows]


def unit_name(group: int) -> str:
    """What the unit is called: games one by one, or deal groups."""
    return "games" if group == 1 else "deal groups"


def _sums(values: Sequence[float], units: Sequence[Hashable]) -> list[float]:
    """Σ of the values of each unit (in the order the units first appear)."""
    out: dict[Hashable, float] = {}
    for v, u in zip(values, units):
        out[u] = out.get(u, 0.0) + v
    return list(out.values())


# ----------------------------------------------------------------------------- shares
@dataclass(frozen=True)
class Share:
    """A share (Σy / Σx) with its Wilson interval at the effective sample size."""

    est: Estimate
    n_eff: float
    units: int

    @property
    def value(self) -> float:
        return self.est.value


def share(nums: Sequence[float], dens: Sequence[float] | None = None, units: Sequence[Hashable] | None = None,
          cap: float | None = None) -> Share:
    """Σnums / Σdens (dens: 1 per value when None) with the unit-robust Wilson interval.

    `units`: each value's unit (None: every value its own unit); `cap`: the largest
    effective sample size (default Σdens, the count of values behind the share)."""
    nums = list(nums)
    dens = [1.0] * len(nums) if dens is None else list(dens)
    units = list(range(len(nums))) if units is None else list(units)
    total = math.fsum(dens)
    count = int(round(total))
    if not nums or total <= 0:
        return Share(NONE, 0.0, 0)
    r = math.fsum(nums) / total
    resid = _sums([y - r * x for y, x in zip(nums, dens)], units)
    g = len(resid)
    var = math.fsum(e * e for e in resid) / (total * total)
    if g > 1 and not _one_trial_a_unit(nums, dens, g):
        # the sandwich's small-sample factor, as `ratio_parts` has: without it 8 deal groups of
        # two games covered 89 % at a nominal 95 %, a points share over 12 games 91 %
        var *= g / (g - 1)
    cap = total if cap is None else cap
    if not 0 < r < 1:  # every value 0 (or 1): no variation to measure, each unit counts once
        n_eff = min(float(g), cap)
    elif var > 0:
        n_eff = min(r * (1 - r) / var, cap)
    else:  # every unit at the share itself (a bot in two seats winning one each game): the
        # limit of less and less variation, the cap — as one unit less alike already had;
        # the units' count made a one-sided result read weaker than a less one-sided one
        n_eff = cap
    if n_eff >= cap * (1 - 1e-9):
        n_eff = cap  # the plain Wilson interval of the values, exactly
    w = wilson(r * n_eff, n_eff)
    return Share(Estimate(r, w.low, w.high, count), n_eff, g)


def _one_trial_a_unit(nums: Sequence[float], dens: Sequence[float], g: int) -> bool:
    """Every unit one all-or-nothing outcome of one weight (a game won or not, a Watten
    team's two seats won or lost together; the game the unit): the binomial model of the
    games holds as it is, and its Wilson interval needs no small-sample factor."""
    return g == len(nums) and len(set(dens)) == 1 and all(y == 0 or y == x for y, x in zip(nums, dens))


def share_test(s: Share, p0: float, name: str = "") -> Test:
    """The score test of the share against p0 at its effective sample size (the test its interval inverts)."""
    t = proportion_test(s.value * s.n_eff, s.n_eff, p0) if s.n_eff > 0 else proportion_test(0, 0, p0)
    return Test(name or t.name, t.p)


def share_difference(a: Share, b: Share) -> tuple[Estimate, Test]:
    """a − b for shares of independent samples: Newcombe's hybrid score interval built from the two
    effective-size Wilson intervals, and the pooled two-proportion z test at the effective sizes."""
    if a.n_eff <= 0 or b.n_eff <= 0:
        return NONE, Test("two-proportion z test", 1.0)
    d = proportion_difference(a.value * a.n_eff, a.n_eff, b.value * b.n_eff, b.n_eff)
    t = two_proportion_test(a.value * a.n_eff, a.n_eff, b.value * b.n_eff, b.n_eff)
    return Estimate(d.value, d.low, d.high, min(a.est.n, b.est.n)), t


def paired_difference(nums_b: Sequence[float], dens_b: Sequence[float], nums_a: Sequence[float],
                      dens_a: Sequence[float], units: Sequence[Hashable], name: str) -> tuple[Estimate, Test]:
    """r_b − r_a for two shares measured on the same games (two bots at the same tables).

    The variance is the linearisation over the units of both shares at once, so the
    dependence of the two bots within a game is in it (two players: r_a + r_b = 1, the
    difference is 2·r_b − 1).  The interval is a Wilson interval for u = (1 + d) / 2 at the
    effective sample size u(1 − u) / var(u), mapped back; the test is its score test of
    u = ½ (no difference).  With the game as the unit and two bots that split each game's
    credit 1 : 0, this is exactly 2·Wilson(r_b) − 1 and the score test of r_b against ½; with
    several games a unit (deal groups) it is `share`'s interval of r_b mapped the same way,
    small-sample factor and all.
    With three seats or more the difference is 0 in every game neither bot wins, so its
    variance lies well below the Bernoulli bound and n_eff above the games: it is capped at
    the seats the two bots held."""
    xb, xa = math.fsum(dens_b), math.fsum(dens_a)
    if xb <= 0 or xa <= 0:
        return NONE, Test(name, 1.0)
    rb, ra = math.fsum(nums_b) / xb, math.fsum(nums_a) / xa
    infl = [(yb - rb * wb) / xb - (ya - ra * wa) / xa for yb, wb, ya, wa in zip(nums_b, dens_b, nums_a, dens_a)]
    resid = _sums(infl, units)
    var = math.fsum(e * e for e in resid)
    g = len(resid)
    if g > 1 and not (_one_trial_a_unit(nums_b, dens_b, g) and _one_trial_a_unit(nums_a, dens_a, g)):
        # `share`'s small-sample factor, for the same reason: without it two identical bots
        # seated by deal groups (duplicate seating, 10 groups) were called different 11 % of
        # the time at a nominal 5 %, and the interval was narrower than 2·share − 1's
        var *= g / (g - 1)
    d = rb - ra
    u = (1 + d) / 2
    # at most the seats behind the two shares: with three seats or more a game neither bot
    # wins adds no variance, and a study a bot lost all but one game of had n_eff in the
    # millions (p = 1e-177 of 100 games); without variation at all, that same bound, as
    # `share` takes its cap (the count of units made 0 wins of 20 read weaker than 1)
    cap = xb + xa
    if not 0 < u < 1:
        n_eff = float(len(resid))
    else:
        n_eff = min(u * (1 - u) / (var / 4), cap) if var > 0 else cap
    w = wilson(u * n_eff, n_eff)
    n = sum(1 for wb, wa in zip(dens_b, dens_a) if wb > 0 and wa > 0)  # games both played
    test = proportion_test(u * n_eff, n_eff, 0.5)
    return Estimate(d, 2 * w.low - 1, 2 * w.high - 1, n), Test(name, test.p)


# ----------------------------------------------------------------------------- means and ratios
@dataclass(frozen=True)
class Parts:
    """A ratio (a mean: every denominator 1) with its unit-robust standard error."""

    value: float
    se: float
    df: int      # units − 1
    n: int       # values behind it (games)


def ratio_parts(nums: Sequence[float], dens: Sequence[float] | None = None,
                units: Sequence[Hashable] | None = None) -> Parts | None:
    """Σnums / Σdens and its delta-method standard error over the units, with the small-sample
    factor g/(g − 1) (g units): with one value a unit and dens of 1, the usual s/√n of a mean."""
    nums = list(nums)
    dens = [1.0] * len(nums) if dens is None else list(dens)
    units = list(range(len(nums))) if units is None else list(units)
    total = math.fsum(dens)
    if not nums or total == 0:
        return None
    r = math.fsum(nums) / total
    resid = _sums([y - r * x for y, x in zip(nums, dens)], units)
    g = len(resid)
    if g < 2:
        return Parts(r, math.inf, 0, len(nums))
    se = math.sqrt(g / (g - 1) * math.fsum(e * e for e in resid)) / abs(total)
    return Parts(r, se, g - 1, len(nums))


def parts_ci(p: Parts | None, bounds: tuple[float, float] = ANY) -> Estimate:
    """The t interval (units − 1 degrees of freedom) of a ratio or mean, cut to `bounds`."""
    if p is None:
        return NONE
    if not math.isfinite(p.se):
        return within(Estimate(p.value, -math.inf, math.inf, p.n), bounds)
    half = t95(p.df) * p.se
    return within(Estimate(p.value, p.value - half, p.value + half, p.n), bounds)


def parts_difference(a: Parts | None, b: Parts | None, name: str) -> tuple[Estimate, Test]:
    """a − b of independent samples (means or ratios): Welch–Satterthwaite t interval and test from the
    two standard errors, as each side's own interval is a t interval over its units."""
    if a is None or b is None:
        return NONE, Test(name, 1.0)
    d = a.value - b.value
    n = min(a.n, b.n)
    if not (math.isfinite(a.se) and math.isfinite(b.se)):
        return Estimate(d, -math.inf, math.inf, n), Test(name, 1.0)
    se = math.sqrt(a.se ** 2 + b.se ** 2)
    if se == 0:
        return Estimate(d, d, d, n), Test(name, 1.0 if d == 0 else 0.0)
    df = se ** 4 / sum(s ** 4 / df for s, df in ((a.se, a.df), (b.se, b.df)) if s > 0)
    half, p = t95(df) * se, two_sided_t(d / se, df)
    return Estimate(d, d - half, d + half, n), Test(name, p)
