"""Statistics for the arena and the lab: 95 % intervals, tests and multiple-comparison control.

Intervals:

* proportions: Wilson score interval (good at small counts and near 0 or 1);
* differences of proportions: Newcombe's hybrid score interval (built from two Wilsons);
* means and differences of means: Student / Welch t intervals (exact t quantiles, scipy);
* ratios pooled over games: delta-method (cluster) t interval.

Tests (two-sided p-values, each the test its interval belongs to): the score test of
a proportion against a reference share, the two-proportion z test, Welch's t test and
a z test of two ratio estimates.  `holm` adjusts a family of p-values so that the
chance of any false flag in the family stays at or below α whatever the dependence
between the tests (Holm 1979).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence


def _scipy():
    """scipy.stats, imported on first use: it takes seconds to import, which every command
    (`play`, `serve`, …) would otherwise pay at start-up through the arena's import."""
    from scipy import stats
    return stats


Z95 = 1.959963984540054


def t95(df: float) -> float:
    """The two-sided 95 % quantile of Student's t with `df` (possibly fractional) degrees of freedom."""
    if not df > 0:
        return float("inf")
    return float(_scipy().t.ppf(0.975, df))


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its 95 % interval and the sample size behind it."""

    value: float
    low: float
    high: float
    n: int

    def fmt(self, pct: bool = False, digits: int = 2, unit: str = "") -> str:
        """`47.1 % [44.0, 50.2]` or `3.42 [3.30, 3.55]`; `–` without data.  `unit` follows the value: with
        `pct` in place of `%` (`3.2 pp [0.0, 6.7]`, a difference of two percentages), else after the
        number (`46.6 actions [46.1, 47.1]`)."""
        if self.n == 0 or math.isnan(self.value):
            return "–"
        scale, digits, unit = (100, 1, unit or "%") if pct else (1, digits, unit)
        value = f"{scale * self.value:.{digits}f}{f' {unit}' if unit else ''}"
        if math.isinf(self.low) or math.isinf(self.high):
            # one value (a game, a deal group) has no spread to build a t interval from: it is
            # infinite, which read "55.0 [0.0, inf]"
            return f"{value} [no interval: too few games]"
        return f"{value} [{scale * self.low:.{digits}f}, {scale * self.high:.{digits}f}]"

    def excludes(self, x: float) -> bool:
        """True when the interval lies wholly on one side of x (a 'significant' difference)."""
        return self.n > 0 and (self.low > x or self.high < x)


NONE = Estimate(float("nan"), float("nan"), float("nan"), 0)

# The range a per-game quantity can take: a mean of such values lies in it too, so its
# interval is cut to it (a count's interval from a few games no longer dips below 0).
ANY = (-math.inf, math.inf)
NONNEGATIVE = (0.0, math.inf)


def within(e: Estimate, bounds: tuple[float, float]) -> Estimate:
    """`e` with its interval cut to `bounds` (a share stays in [0, 1])."""
    return Estimate(e.value, max(e.low, bounds[0]), min(e.high, bounds[1]), e.n)


def wilson(successes: float, n: int, z: float = Z95) -> Estimate:
    """Wilson score interval for a proportion (successes may be fractional win shares)."""
    if n <= 0:
        return NONE
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return Estimate(p, low, high, n)


def proportion_difference(k1: float, n1: int, k2: float, n2: int) -> Estimate:
    """p1 − p2 with Newcombe's hybrid score interval (method 10)."""
    if n1 <= 0 or n2 <= 0:
        return NONE
    a, b = wilson(k1, n1), wilson(k2, n2)
    d = a.value - b.value
    low = d - math.sqrt((a.value - a.low) ** 2 + (b.high - b.value) ** 2)
    high = d + math.sqrt((a.high - a.value) ** 2 + (b.value - b.low) ** 2)
    return Estimate(d, max(-1.0, low), min(1.0, high), min(n1, n2))


def _moments(xs: Sequence[float]) -> tuple[int, float, float]:
    n = len(xs)
    if n == 0:
        return 0, float("nan"), float("nan")
    m = math.fsum(xs) / n
    var = math.fsum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else float("nan")
    return n, m, var


def mean_ci(xs: Iterable[float], bounds: tuple[float, float] = ANY) -> Estimate:
    """The mean with a Student t interval (one value: no interval), cut to `bounds`,
    the range every value (so the mean) lies in."""
    xs = list(xs)
    n, m, var = _moments(xs)
    if n == 0:
        return NONE
    if n == 1:
        return within(Estimate(m, float("-inf"), float("inf"), 1), bounds)
    half = t95(n - 1) * math.sqrt(var / n)
    return within(Estimate(m, m - half, m + half, n), bounds)


def mean_difference(xs: Iterable[float], ys: Iterable[float]) -> Estimate:
    """mean(xs) − mean(ys) with a Welch t interval."""
    xs, ys = list(xs), list(ys)
    n1, m1, v1 = _moments(xs)
    n2, m2, v2 = _moments(ys)
    if n1 < 2 or n2 < 2:
        return NONE if (n1 == 0 or n2 == 0) else Estimate(m1 - m2, float("-inf"), float("inf"), min(n1, n2))
    se2 = v1 / n1 + v2 / n2
    if se2 == 0:
        return Estimate(m1 - m2, m1 - m2, m1 - m2, min(n1, n2))
    df = se2 ** 2 / ((v1 / n1) ** 2 / (n1 - 1) + (v2 / n2) ** 2 / (n2 - 1))
    half = t95(df) * math.sqrt(se2)
    return Estimate(m1 - m2, m1 - m2 - half, m1 - m2 + half, min(n1, n2))


def placements(scores: Sequence[float]) -> list[float]:
    """1-based finishing place of each seat by score; tied seats share the average place."""
    order = sorted(range(len(scores)), key=lambda s: -scores[s])
    out = [0.0] * len(scores)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def ratio_ci(nums: Sequence[float], dens: Sequence[float], bounds: tuple[float, float] = ANY) -> Estimate:
    """Σnum / Σden over games with a delta-method (cluster) t interval, cut to `bounds`."""
    n = len(nums)
    total = math.fsum(dens)
    if n == 0 or total == 0:
        return NONE
    r = math.fsum(nums) / total
    if n < 2:
        return within(Estimate(r, float("-inf"), float("inf"), n), bounds)
    mean_den = total / n
    resid = math.fsum((y - r * x) ** 2 for y, x in zip(nums, dens)) / (n - 1)
    se = math.sqrt(resid / n) / mean_den
    half = t95(n - 1) * se
    return within(Estimate(r, r - half, r + half, n), bounds)


def ratio_difference(a: Estimate, b: Estimate) -> Estimate:
    """Difference of two independent ratio estimates (normal approximation from their intervals)."""
    if a.n < 2 or b.n < 2:
        return NONE
    sa, sb = (a.high - a.low) / 2 / Z95, (b.high - b.low) / 2 / Z95
    half = Z95 * math.sqrt(sa * sa + sb * sb)
    d = a.value - b.value
    return Estimate(d, d - half, d + half, min(a.n, b.n))


# ----------------------------------------------------------------------------- tests
@dataclass(frozen=True)
class Test:
    """A two-sided test: its name (as a report states it) and p-value."""

    name: str
    p: float


def normal_quantile(p: float) -> float:
    """The standard normal quantile of p (z of a two-sided level 1 − α is normal_quantile(1 − α/2))."""
    return float(_scipy().norm.ppf(p))


def two_sided_z(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return float(2 * _scipy().norm.sf(abs(z)))


def two_sided_t(t: float, df: float) -> float:
    """The two-sided p-value of a Student t statistic with `df` degrees of freedom (1 without any)."""
    return float(2 * _scipy().t.sf(abs(t), df)) if df > 0 else 1.0


def proportion_test(successes: float, n: int, p0: float) -> Test:
    """Score test of a proportion against p0 (the test the Wilson interval inverts)."""
    name = f"score test against {100 * p0:.1f} %"
    if n <= 0 or not 0 < p0 < 1:
        return Test(name, 1.0)
    z = (successes / n - p0) / math.sqrt(p0 * (1 - p0) / n)
    return Test(name, two_sided_z(z))


def two_proportion_test(k1: float, n1: int, k2: float, n2: int) -> Test:
    """Two-proportion z test with the pooled variance."""
    name = "two-proportion z test"
    if n1 <= 0 or n2 <= 0:
        return Test(name, 1.0)
    pooled = (k1 + k2) / (n1 + n2)
    var = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    if var <= 0:
        return Test(name, 1.0 if k1 / n1 == k2 / n2 else 0.0)
    return Test(name, two_sided_z((k1 / n1 - k2 / n2) / math.sqrt(var)))


def welch_test(xs: Sequence[float], ys: Sequence[float]) -> Test:
    """Welch's unequal-variance t test of mean(xs) = mean(ys)."""
    name = "Welch t test"
    xs, ys = list(xs), list(ys)
    if len(xs) < 2 or len(ys) < 2:
        return Test(name, 1.0)
    _, mx, vx = _moments(xs)
    _, my, vy = _moments(ys)
    if vx == 0 and vy == 0:
        return Test(name, 1.0 if mx == my else 0.0)
    return Test(name, float(_scipy().ttest_ind(xs, ys, equal_var=False).pvalue))


def estimate_test(d: Estimate, name: str = "z test of two ratios") -> Test:
    """z test of a difference whose 95 % interval came from a normal approximation."""
    se = (d.high - d.low) / 2 / Z95
    if d.n == 0 or not math.isfinite(se):
        return Test(name, 1.0)
    if se == 0:
        return Test(name, 1.0 if d.value == 0 else 0.0)
    return Test(name, two_sided_z(d.value / se))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (reject where adjusted p ≤ α): family-wise error ≤ α
    under any dependence between the tests."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        out[i] = running
    return out
