"""Statistics for the arena and the lab: 95 % intervals for proportions, means and differences.

* proportions: Wilson score interval (good at small counts and near 0 or 1);
* differences of proportions: Newcombe's hybrid score interval (built from two Wilsons);
* means and differences of means: Student / Welch t intervals.

Pure Python (no scipy): the t quantile comes from a short table and the
Cornish–Fisher expansion beyond it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

Z95 = 1.959963984540054

# two-sided 95 % t quantiles for 1..30 degrees of freedom
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t95(df: float) -> float:
    """The two-sided 95 % quantile of Student's t with `df` degrees of freedom."""
    if df < 1:
        return float("inf")
    if df <= 30 and float(df).is_integer():
        return _T95[int(df) - 1]
    z = Z95  # Cornish–Fisher: accurate to 3 decimals from df ≈ 10 on
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its 95 % interval and the sample size behind it."""

    value: float
    low: float
    high: float
    n: int

    def fmt(self, pct: bool = False, digits: int = 2) -> str:
        """`47.1 % [44.0, 50.2]` or `3.42 [3.30, 3.55]`; `–` without data."""
        if self.n == 0 or math.isnan(self.value):
            return "–"
        if pct:
            return f"{100 * self.value:.1f} % [{100 * self.low:.1f}, {100 * self.high:.1f}]"
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"

    def excludes(self, x: float) -> bool:
        """True when the interval lies wholly on one side of x (a 'significant' difference)."""
        return self.n > 0 and (self.low > x or self.high < x)


NONE = Estimate(float("nan"), float("nan"), float("nan"), 0)


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


def mean_ci(xs: Iterable[float]) -> Estimate:
    """The mean with a Student t interval (one value: no interval)."""
    xs = list(xs)
    n, m, var = _moments(xs)
    if n == 0:
        return NONE
    if n == 1:
        return Estimate(m, float("-inf"), float("inf"), 1)
    half = t95(n - 1) * math.sqrt(var / n)
    return Estimate(m, m - half, m + half, n)


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
