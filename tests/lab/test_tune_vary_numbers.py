"""`lab tune --vary OPTION=LOW..HIGH` with a bound too long for Python's int (more than 4300 digits)
ended in a traceback ("ValueError: Exceeds the limit (4300 digits) for integer string conversion");
it is refused naming --vary, as every other bad range is.  A bound int() cannot read (a superscript
two, which str.isdigit() takes) is refused as a range of no whole numbers."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from wasserspiele.cli.main import main
from wasserspiele.core.errors import BadOption
from wasserspiele.lab.tune import plan_tune

HUGE = "9" * 5000


@pytest.mark.parametrize("vary", [f"rounds=1..{HUGE}", f"rounds={HUGE}..{HUGE}", f"rounds=-{HUGE}..1",
                                  f"rounds=3,1..{HUGE}"])
def test_a_range_bound_past_ints_digits_is_refused_naming_vary(vary):
    with pytest.raises(BadOption, match=r"^--vary rounds: '.*…' has a bound of 5,000 digits, too long to be a "
                                        r"whole number; write LOW\.\.HIGH, e.g\. rounds=5\.\.9$"):
        plan_tune("wasserloch", [vary], "decisive")


def test_the_command_line_says_it_in_one_line_without_a_traceback(tmp_path):
    result = CliRunner().invoke(main, ["lab", "tune", "wasserloch", "--vary", f"rounds=1..{HUGE}", "--goal",
                                       "decisive", "--jobs", "1", "--out", str(tmp_path / "t")])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    [line] = result.stderr.splitlines()
    assert line.startswith("Error: --vary rounds: '1..999") and "has a bound of 5,000 digits" in line
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize("vary, said", [
    ("rounds=1..²", "--vary rounds: '1..²' is not a range of whole numbers; write LOW..HIGH, e.g. rounds=5..9"),
    ("rounds=1,²", "--vary rounds: option rounds: '²' is not an integer"),
    (f"rounds=1,{HUGE}", "--vary rounds: option rounds: '999"),
])
def test_other_numbers_int_cannot_read_are_refused_naming_vary(vary, said):
    with pytest.raises(BadOption) as err:
        plan_tune("wasserloch", [vary], "decisive")
    assert str(err.value).startswith(said)


def test_a_range_of_ordinary_bounds_still_expands():
    plan = plan_tune("wasserloch", ["rounds=1..3"], "decisive")
    assert plan.compare == ["rounds=1,2,3"]
