"""An estimate is shown in its own unit by the formatting itself (lab tune's fair-seats gap in
percentage points), not by editing the formatted text afterwards."""

from wasserspiele.core.stats import Estimate
from wasserspiele.lab.tune import TuneResult, shown_score

GAP = Estimate(0.032, 0.0, 0.067, 200)


def test_a_share_difference_is_shown_in_percentage_points():
    assert GAP.fmt(pct=True, unit="pp") == "3.2 pp [0.0, 6.7]"
    assert GAP.fmt(pct=True) == "3.2 % [0.0, 6.7]"  # a share keeps its percent sign


def test_a_unit_follows_a_plain_value():
    assert Estimate(46.61, 46.1, 47.12, 800).fmt(digits=1, unit="actions") == "46.6 actions [46.1, 47.1]"
    assert Estimate(46.61, 46.1, 47.12, 800).fmt(digits=1) == "46.6 [46.1, 47.1]"


def test_no_data_has_no_unit():
    assert Estimate(float("nan"), float("nan"), float("nan"), 0).fmt(pct=True, unit="pp") == "–"


def test_tune_shows_each_goal_in_its_unit():
    def shown(goal):
        return shown_score(TuneResult(None, goal, [], []), GAP)  # only the goal decides the unit
    assert shown("fair-seats") == "3.2 pp [0.0, 6.7]"
    assert shown("decisive") == "3.2 % [0.0, 6.7]"
    assert shown("shorter") == "0.0 [0.0, 0.1]"


def test_an_estimate_from_one_game_says_it_has_no_interval_instead_of_an_infinite_one():
    # helper-141 saw "55.0 [0.0, inf]" and "[-inf, inf]" in a study of one game a condition
    from wasserspiele.core.stats import NONNEGATIVE, mean_ci, mean_difference
    assert mean_ci([55.0], NONNEGATIVE).fmt(digits=1) == "55.0 [no interval: too few games]"
    assert mean_ci([0.4]).fmt(pct=True) == "40.0 % [no interval: too few games]"
    assert mean_difference([55.0], [53.0, 54.0]).fmt(unit="actions") == "1.50 actions [no interval: too few games]"
    assert mean_ci([55.0, 57.0]).fmt(digits=1).endswith("]") and "inf" not in mean_ci([55.0, 57.0]).fmt()
