"""`wasserspiele arena` says how far it is on stderr, as `lab` does (cli/console.py's Reporter):
a live bar on a terminal, plain lines when stderr is a file or a pipe, nothing with
--quiet.  A long arena (the README's expert against heuristic) used to print nothing for
many minutes when its output was not a terminal."""

from __future__ import annotations

import re

from click.testing import CliRunner

from wasserspiele.cli.main import main

TINY = ["arena", "wasserloch", "--bots", "random,random", "--games", "20", "--jobs", "1",
        "--option", "rounds=1", "--option", "players=2"]


def test_the_arena_prints_progress_lines_on_stderr_when_it_is_not_a_terminal():
    result = CliRunner().invoke(main, TINY)
    assert result.exit_code == 0, result.output
    lines = re.findall(r"^(\d+)/(\d+) games finished$", result.stderr, re.M)
    assert lines, result.stderr
    total = int(lines[-1][1])
    assert int(lines[0][0]) >= 1 and int(lines[-1][0]) == total >= 20  # from the first games to the last
    assert "games finished" not in result.stdout and "win rate" in result.stdout  # the table stays on stdout


def test_the_arena_says_nothing_of_its_progress_with_quiet():
    result = CliRunner().invoke(main, [*TINY, "--quiet"])
    assert result.exit_code == 0, result.output
    assert result.stderr == "" and "win rate" in result.stdout


def test_the_arena_refuses_more_bots_than_teams_before_printing_anything():
    # watten has two teams: a third bot was refused only once the "watten arena" header was out
    result = CliRunner().invoke(main, ["arena", "watten", "--bots", "random,heuristic,expert", "--games", "1",
                                       "--jobs", "1"])
    assert result.exit_code == 2, result.output
    assert "--bots: 3 bots for 2 teams (Watten is played in teams, one bot a team); name at most 2" in result.stderr
    assert "arena" not in result.stderr and result.stdout == ""


def test_the_plain_lines_end_with_the_whole_count_whatever_the_step():
    """56 games in steps of 5 printed their last line at 55/56 (`lab tune`'s rounds): a log
    reader could not tell the run had finished its games."""
    import io
    from unittest import mock

    from rich.console import Console

    from wasserspiele.cli.console import Reporter
    with mock.patch("click.echo") as echo, Reporter(Console(file=io.StringIO()), quiet=False) as report:
        report.set_total(56)
        for _ in range(56):
            report.advance(1)
    said = [c.args[0] for c in echo.call_args_list]
    assert said[-1] == "56/56 games finished" and said.count("56/56 games finished") == 1, said
