"""Known answers for the intervals and tests (R / scipy / statsmodels values), and a null study."""

import math
import random

import pytest
from scipy import stats as sp

from wasserspiele.core.stats import (NONNEGATIVE, holm, mean_ci, mean_difference, proportion_difference, proportion_test,
                                     ratio_ci, t95, two_proportion_test, welch_test, wilson)


def test_wilson_matches_reference_values():
    e = wilson(81, 263)  # Wilson (1927) / Newcombe (1998) example: 0.2553 .. 0.3662
    assert e.value == pytest.approx(81 / 263)
    assert e.low == pytest.approx(0.2553, abs=5e-4)
    assert e.high == pytest.approx(0.3662, abs=5e-4)
    for k, n in ((3, 17), (50, 100), (99, 100)):
        ref = sp.binomtest(k, n).proportion_ci(method="wilson")
        assert (wilson(k, n).low, wilson(k, n).high) == pytest.approx((ref.low, ref.high), abs=1e-9)


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


def test_t_quantiles_are_exact_also_for_fractional_degrees_of_freedom():
    # qt(0.975, df) in R; the old approximation gave 4.80 at df 1.5 and 3.36 at df 2.5
    for df, q in ((1, 12.7062047), (1.5, 6.0166631), (2.5, 3.5746548), (10, 2.2281389), (60, 2.0002978),
                  (1000, 1.9623391)):
        assert t95(df) == pytest.approx(q, abs=1e-6)
    assert t95(0) == math.inf


def test_mean_and_welch_intervals_match_scipy():
    xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]  # mean 5, sd 2.138
    e = mean_ci(xs)
    ref = sp.ttest_1samp(xs, 0).confidence_interval()
    assert e.value == pytest.approx(5.0) and (e.low, e.high) == pytest.approx((ref.low, ref.high), abs=1e-9)
    ys = [1.0, 2.5, 3.0, 9.5]  # unequal variances and sizes: fractional Welch degrees of freedom
    d = mean_difference(xs, ys)
    ref = sp.ttest_ind(xs, ys, equal_var=False)
    assert (d.low, d.high) == pytest.approx(tuple(ref.confidence_interval()), abs=1e-9)
    assert welch_test(xs, ys).p == pytest.approx(ref.pvalue, abs=1e-12)
    same = mean_difference(xs, xs)
    assert same.value == 0 and not same.excludes(0.0)


def test_an_interval_is_cut_to_the_range_the_values_can_take():
    """A count's mean over a few games had intervals such as 5.25 [-3.11, 13.61] lead changes."""
    counts = [0, 0, 1, 20]
    free, cut = mean_ci(counts), mean_ci(counts, NONNEGATIVE)
    assert free.low < 0 and cut.low == 0.0 and (cut.value, cut.high) == (free.value, free.high)
    assert mean_ci([3], NONNEGATIVE).low == 0.0 and mean_ci([3], NONNEGATIVE).high == math.inf
    losses = [-4, 0, 0, -1]  # points lost (Seven Waters' cards in hand): never above 0
    assert mean_ci(losses, (-math.inf, 0.0)).high == 0.0 < mean_ci(losses).high
    assert ratio_ci([0, 0, 9], [3, 4, 1]).low < 0 == ratio_ci([0, 0, 9], [3, 4, 1], NONNEGATIVE).low


def test_proportion_tests_match_reference_values():
    # prop.test(60, 100, p = 0.5, correct = FALSE): X² = 4, p = 0.0455
    assert proportion_test(60, 100, 0.5).p == pytest.approx(0.04550026, abs=1e-7)
    # the pooled two-proportion z test is the uncorrected χ² test of the 2×2 table
    ref = sp.chi2_contingency([[56, 14], [48, 32]], correction=False).pvalue
    assert two_proportion_test(56, 70, 48, 80).p == pytest.approx(ref, abs=1e-12)


def test_holm_matches_statsmodels():
    # statsmodels.stats.multitest.multipletests([.01, .04, .03, .005], method="holm")[1]
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # ... and for ties and p-values the correction lifts above one
    assert holm([0.5, 0.5, 0.01]) == pytest.approx([1.0, 1.0, 0.03])
    assert holm([]) == []


def _null_result(seed: int, games: int):
    """A simulated 3-player study of two conditions with no true effect anywhere: every seat
    wins as often, and every measure has one distribution under both conditions."""
    from wasserspiele.lab import make_study
    from wasserspiele.lab.measures import measures_for
    from wasserspiele.lab.study import StudyResult

    study = make_study("wasserloch", players=["3"], bots=["random heuristic"], compare=["chase=nearest,adjacent"],
                       games=games, seed=seed)
    describe = measures_for(study.series(0).load()).describe
    rng = random.Random(seed)
    rows = []
    for cond in range(2):
        for i in range(games):
            winner = rng.randrange(3)
            scores = [rng.randrange(20) for _ in range(3)]
            scores[winner] = max(scores) + 1 + rng.randrange(3)
            measures = {m.name: rng.randrange(6) for m in describe}
            for m in describe:
                if m.kind == "share":
                    measures[m.name] = int(rng.random() < 0.3)
            bots = ["random", "heuristic", "random"][i % 3:] + ["random", "heuristic", "random"][:i % 3]
            rows.append({"condition": study.conditions[cond].label, "cond": cond, "game": i, "seed": i,
                         "players": 3, "bots": bots, "bot_index": [0, 1, 0], "scores": scores, "winners": [winner],
                         "returns": [1.0 if s == winner else 0.0 for s in range(3)], "shared": 0,
                         "actions": 60 + rng.randrange(20), "units": 1 + rng.randrange(2),
                         "lead_changes": rng.randrange(5), "measures": measures})
    return StudyResult(study, rows)


def test_a_study_with_no_true_effect_flags_at_most_the_nominal_share_of_reports():
    from wasserspiele.lab.analysis import analyse, raise_flags
    runs, flagged, tests = 150, 0, 0
    for seed in range(runs):
        summaries, comparisons = analyse(_null_result(seed, 120))
        flags = raise_flags(summaries, comparisons, alpha=0.05, min_effect=0.0)  # significance alone
        tests = sum(1 for s in summaries for x in s.lines) + sum(1 for c in comparisons for x in c.lines if not x.hidden)
        flagged += bool(flags)
    assert tests > 20  # a family worth correcting: without Holm about 1 - 0.95**tests would flag
    # Holm keeps the chance of any false flag per report ≤ 5 %: over 150 independent reports the count
    # stays within the 99.9 % quantile of Binomial(150, 0.05)
    assert flagged <= sp.binom.ppf(0.999, runs, 0.05), flagged


def test_a_flag_needs_significance_and_a_practical_size_and_names_its_test():
    from wasserspiele.lab.analysis import analyse, raise_flags
    from wasserspiele.lab.report import finding_text
    result = _null_result(1, 3000)
    # seat 0 wins 5 pp more often in the first condition: clearly significant at 3,000 games
    changed = [r for r in result.rows if r["cond"] == 0 and r["winners"] != [0]][:150]
    for r in changed:
        r["winners"], r["returns"] = [0], [1.0, 0.0, 0.0]
    summaries, comparisons = analyse(result)
    seat0 = summaries[0].lines[0]
    assert seat0.what == "seat 0 win rate" and 0.035 < seat0.diff.value < 0.07
    flags = raise_flags(summaries, comparisons, min_effect=0.03)
    assert seat0.flagged and seat0.p_adjusted < 0.001
    where, x = next((w, x) for w, x in flags if x is seat0)
    text = finding_text(where, x)
    assert "Seat 0 wins more often than a fair share" in text and "score test against 33.3 %" in text
    assert "Holm-adjusted p < 0.001" in text and "plots/seat_win_rate.png" in text
    raise_flags(summaries, comparisons, min_effect=0.08)  # the designer asks for 8 pp: too small to act on
    assert not seat0.flagged and seat0.p_adjusted < 0.001
