"""The leaderboard: a rated round-robin of bot specs with intervals, as Markdown."""

from click.testing import CliRunner

from wasserspiele.bots.leaderboard import markdown, round_robin
from wasserspiele.cli.main import main


def test_round_robin_ranks_the_heuristic_above_random_play():
    board = round_robin("wasserloch", {"players": 2, "rounds": 1}, ["random", "heuristic", "easy"],
                        games=60, seed=2)
    assert [r.spec for r in board.ratings][0] == "heuristic"
    assert {(p.first, p.second) for p in board.pairings} == {("random", "heuristic"), ("random", "easy"),
                                                              ("heuristic", "easy")}
    strong = next(p for p in board.pairings if p.first == "heuristic")
    assert strong.significant and strong.share.value > 0.5 and strong.games == 60
    for r in board.ratings:
        assert r.low < r.mu < r.high
    page = markdown([board], "wasserspiele leaderboard")
    assert "## wasserloch (players=2, rounds=1)" in page and "| 1 | heuristic |" in page


def test_leaderboard_command_writes_the_page(tmp_path):
    out = tmp_path / "board.md"
    result = CliRunner().invoke(main, ["leaderboard", "wasserloch", "--bots", "random,heuristic",
                                       "--games", "3", "--jobs", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert "| heuristic |" in page and "| random |" in page
    assert "`wasserspiele leaderboard wasserloch --bots random,heuristic --games 3 --seed 0`" in page
    bad = CliRunner().invoke(main, ["leaderboard", "wasserloch", "--bots", "robot", "--games", "2"])
    assert bad.exit_code == 2 and "unknown bot 'robot'" in bad.output
