"""`--precision`: play until every headline interval is as narrow as asked, reproducibly."""

import pytest
from click.testing import CliRunner

from wasserspiele.bots.runner import open_backend
from wasserspiele.cli.main import main
from wasserspiele.core.errors import BadOption
from wasserspiele.lab import make_study
from wasserspiele.lab.analysis import analyse
from wasserspiele.lab.precision import PILOT, headline_half_widths, parse_precision, run_until


def test_precision_texts():
    assert parse_precision("1pp") == pytest.approx(0.01)
    assert parse_precision("2.5%") == pytest.approx(0.025)  # a bare "2.5" is refused: test_precision_needs_its_unit
    for bad in ("one", "0pp", "-1pp", "80pp"):
        with pytest.raises(BadOption, match="--precision"):
            parse_precision(bad)


def test_it_stops_with_every_headline_interval_at_the_target_and_repeats():
    study = make_study("wasserloch", players=["3"], bots=["random"], options=["rounds=1"],
                       compare=["chase=nearest,adjacent"], games=100_000, seed=4)
    target = 0.04
    seen = []
    with open_backend("process", 1) as runner:
        result = run_until(study, target, runner, on_batch=lambda have, goal, widest: seen.append((have, widest)))
    summaries, _ = analyse(result)
    n = result.study.games
    assert n > PILOT and len(result.rows) == 2 * n and not result.interrupted
    for s in summaries:  # every seat under every condition
        assert s.n == n
        for e in s.team_win:
            assert max(e.value - e.low, e.high - e.value) <= target
    assert max(headline_half_widths(study, result.rows)) <= target
    # the widest interval shrinks batch by batch, and it was not yet narrow enough one batch earlier
    assert [w for _, w in seen] == sorted((w for _, w in seen), reverse=True)
    assert len(seen) >= 2 and seen[-2][1] > target
    with open_backend("process", 2) as runner:
        again = run_until(study, target, runner)
    assert again.study.games == n
    assert [(r["cond"], r["game"], r["scores"]) for r in again.rows] == \
           [(r["cond"], r["game"], r["scores"]) for r in result.rows]
    assert "Chow & Robbins" in result.notes[0] and f"{n} games per condition" in result.notes[0]


def _capped_report(tmp_path, precision: str, games: int) -> str:
    """report.md of a two-player random Wasserloch study to `precision`, capped at `games`."""
    out = tmp_path / "capped"
    res = CliRunner().invoke(main, ["lab", "wasserloch", "--players", "2", "--bots", "random", "--option", "rounds=1",
                                    "--precision", precision, "--games", str(games), "--jobs", "1", "--quiet",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    return (out / "report.md").read_text()


def test_the_cap_is_reported_when_the_target_is_not_reached(tmp_path):
    text = _capped_report(tmp_path, "1pp", 150)
    assert "Not reached: stopped at 150 games per condition" in text and "the cap (--games 150)" in text


def test_precision_needs_its_unit(tmp_path):
    assert parse_precision("5pp") == parse_precision("5%") == pytest.approx(0.05)
    for bare in ("5", "0.5", " 1 "):
        with pytest.raises(BadOption, match=r"has no unit; write .*pp .*accepted forms: 1pp, 0.5pp or 1%"):
            parse_precision(bare)
    out = tmp_path / "never"
    res = CliRunner().invoke(main, ["lab", "wasserloch", "--precision", "5", "--games", "50", "--quiet",
                                    "--out", str(out)])
    assert res.exit_code == 2 and "'5' has no unit; write 5pp" in res.output and not out.exists()


def test_a_cap_below_the_pilot_is_reported_as_played(tmp_path):
    text = _capped_report(tmp_path, "0.5%", 50)
    head = text.split("\n\n")[1]
    assert head.startswith("50 games played (50 per condition, 1 condition); the cap (--games 50) stopped it "
                           "before every headline interval was within ±0.5 pp")
    assert "a pilot of 100 games per condition" not in text  # it was not played
    assert "the pilot of 100 games per condition cut to the cap of 50 (--games 50)" in text


def test_ctrl_c_during_a_precision_run_is_in_the_header(tmp_path):
    from wasserspiele.lab import write_report
    study = make_study("wasserloch", players=["2"], bots=["random"], options=["rounds=1"],
                       compare=["chase=nearest,adjacent"], games=100_000, seed=4)
    seen = []

    def progress(n):
        seen.append(n)
        if sum(seen) >= 30:
            raise KeyboardInterrupt

    with open_backend("process", 1) as runner:
        result = run_until(study, 0.01, runner, progress=progress)
    assert result.interrupted and 0 < len(result.rows) < 2 * PILOT
    write_report(result, tmp_path / "cut")
    text = (tmp_path / "cut" / "report.md").read_text()
    head = text.split("\n\n")[1]
    assert head.startswith(f"{len(result.rows)} games played (")
    assert "; Ctrl-C stopped it before every headline interval was within ±1 pp; master seed 4" in head
    assert "Not reached: Ctrl-C stopped the run (during the pilot" in text


def test_the_first_line_of_a_precision_run_reads_as_a_sentence(tmp_path):
    # it said "wasserloch: until ±1 pp (at most 100000 per condition) games (1 condition), …"
    res = CliRunner().invoke(main, ["lab", "wasserloch", "--players", "2", "--bots", "random", "--option", "rounds=1",
                                    "--precision", "20pp", "--games", "1000", "--jobs", "1",
                                    "--out", str(tmp_path / "first")])
    assert res.exit_code == 0, res.output
    # one line, as a log file or a pipe gets it (the console cut it at 80 columns: "bots \nrandom")
    assert ("wasserloch: games until ±20 pp, at most 1,000 per condition (1 condition), bots random, serial "
            "backend, 1 job(s)\n") in res.output
    assert ") games (" not in res.output
