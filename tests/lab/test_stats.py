"""Intervals against reference values (R's prop.test without continuity / binom / t.test)."""

import math

import pytest

from wasserspiele.core.stats import mean_ci, mean_difference, proportion_difference, t95, wilson


def test_wilson_matches_reference_values():
    e = wilson(81, 263)  # Wilson (1927) / Newcombe (1998) example: 0.2553 .. 0.3662
    assert e.value == pytest.approx(81 / 263)
    assert e.low == pytest.approx(0.2553, abs=5e-4)
    assert e.high == pytest.approx(0.3662, abs=5e-4)


def test_wilson_stays_inside_0_1_at_the_edges():
    zero, full = wilson(0, 10), wilson(10, 10)
    assert zero.low == 0.0 and zero.high == pytest.approx(0.2775, abs=5e-4)
    assert full.high == 1.0 and full.low == pytest.approx(0.7225, abs=5e-4)
    assert wilson(0, 0).n == 0 and wilson(0, 0).fmt() == "–"


def test_newcombe_difference_matches_reference():
    # Newcombe (1998) example 1: 56/70 - 48/80 = 0.2, interval 0.0524 .. 0.3339
    d = proportion_difference(56, 70, 48, 80)
    assert d.value == pytest.approx(0.2)
    assert d.low == pytest.approx(0.0524, abs=5e-4)
    assert d.high == pytest.approx(0.3339, abs=5e-4)
    assert d.excludes(0.0)


def test_t_quantiles():
    assert t95(1) == pytest.approx(12.706)
    assert t95(10) == pytest.approx(2.228)
    assert t95(60) == pytest.approx(2.000, abs=2e-3)
    assert t95(1000) == pytest.approx(1.962, abs=2e-3)


def test_mean_and_welch_intervals():
    xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]  # mean 5, sd 2.138
    e = mean_ci(xs)
    half = 2.365 * 2.13809 / math.sqrt(8)
    assert e.value == pytest.approx(5.0)
    assert (e.low, e.high) == pytest.approx((5 - half, 5 + half), abs=1e-3)
    d = mean_difference(xs, [x - 3 for x in xs])
    assert d.value == pytest.approx(3.0) and d.excludes(0.0)
    same = mean_difference(xs, xs)
    assert same.value == 0 and not same.excludes(0.0)
