"""`lab tune`: successive halving finds the option value that serves the goal."""

import pytest
from click.testing import CliRunner

from wasserspiele.bots.runner import open_backend
from wasserspiele.cli.main import main
from wasserspiele.core import registry
from wasserspiele.core.errors import BadOption
from wasserspiele.lab.tune import expand_vary, tune, tune_markdown


@pytest.fixture
def dice_duel():
    """Register the test-only dice duel (tests/lab/dice_game.py) for this test (in this process)."""
    from lab.dice_game import MANIFEST
    registry.register(MANIFEST)
    yield MANIFEST.name
    registry.unregister(MANIFEST.name)


def test_tune_finds_the_fair_handicap(dice_duel):
    with open_backend("process", 1) as runner:
        result = tune(dice_duel, ["handicap=-3..3"], "fair-seats", runner, bots=["random"], first=200, seed=2)
    assert result.best.label == "handicap=0"
    # the clearly unfair values go first: ±3 never survive the first round
    dropped = {c.label: c.dropped for c in result.candidates}
    assert dropped["handicap=3"] == 1 and dropped["handicap=-3"] == 1
    assert [n for n, _ in result.rounds] == [7, 4, 2, 1]
    assert len(result.best.rows) == 200 * 8 and result.best.score.low == 0.0
    text = tune_markdown(result)
    assert "**Best: handicap=0**" in text and "Successive halving over 7 candidates" in text


def test_tune_for_shorter_games_on_a_real_game():
    with open_backend("process", 1) as runner:
        result = tune("wasserloch", ["rounds=1..2"], "shorter", runner, players=["2"], bots=["random"], first=4)
    assert result.best.label == "players=2 rounds=1"  # one round is shorter than two, game by game
    assert {c.label: c.dropped for c in result.candidates}["players=2 rounds=2"] == 1


def test_vary_ranges_and_bad_input():
    assert expand_vary("seven_waters", ["slide_limit=5..7,null"]) == ["slide_limit=5,6,7,null"]
    for texts, words in ((["slide_limit"], "OPTION=RANGE"), (["colour=1..2"], "no option 'colour'"),
                         (["slide_limit=9..5"], "LOW..HIGH"), ([], "at least one")):
        with pytest.raises(BadOption, match=words):
            expand_vary("seven_waters", texts)
    with open_backend("process", 1) as runner:
        with pytest.raises(BadOption, match="--goal"):
            tune("seven_waters", ["slide_limit=5..6"], "prettier", runner)
        with pytest.raises(BadOption, match="at least two values"):
            tune("seven_waters", ["slide_limit=5"], "shorter", runner)


def test_tune_command_writes_its_report(tmp_path):
    out = tmp_path / "tuned"
    res = CliRunner().invoke(main, ["lab", "tune", "wasserloch", "--players", "2", "--bots", "random", "--vary",
                                    "rounds=1,2", "--goal", "shorter", "--games", "4", "--jobs", "1", "--quiet",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "**Best: players=2 rounds=1**" in (out / "tune.md").read_text()
    bad = CliRunner().invoke(main, ["lab", "tune", "wasserloch", "--vary", "rounds=1,2", "--goal", "faster"])
    assert bad.exit_code == 2 and "faster" in bad.output
