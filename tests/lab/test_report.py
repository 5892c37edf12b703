"""The report files, notable records that replay, and the `lab` command."""

import json
import math

import pytest
from click.testing import CliRunner

from wasserspiele.cli.main import main
from wasserspiele.core.records import read_record, replay
from wasserspiele.lab import write_report
from wasserspiele.lab.report import read_csv

FILES = ("report.html", "report.md", "results.csv")


@pytest.fixture(scope="module")
def written(small_result, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    info = write_report(small_result, out)
    return out, info


def test_results_csv_has_one_row_per_game_with_its_seed(written, small_result):
    out, _ = written
    rows = read_csv(out / "results.csv")
    assert len(rows) == len(small_result.rows) == 24
    for row, r in zip(rows, small_result.rows):
        assert int(row["seed"]) == r["seed"] and int(row["game"]) == r["game"]
        assert [float(row["score_0"]), float(row["score_1"])] == r["scores"]
        assert row["winners"] == " ".join(map(str, r["winners"]))
        assert int(row["actions"]) == r["actions"]
        assert int(row["m_drive_offs"]) == r["measures"]["drive_offs"]
        assert {row["bot_0"], row["bot_1"]} == {"heuristic", "random"}


def test_notable_records_replay_to_the_reported_scores(written, small_result):
    out, info = written
    notable = info["notable"]
    assert {n["kind"] for n in notable} == {"longest", "shortest", "most_lopsided"}
    assert len(notable) == 6  # three per condition
    table = {(r["condition"], r["game"]): r for r in small_result.rows}
    for n in notable:
        state = replay(read_record(out / n["file"]))
        row = table[(n["condition"], n["game"])]
        assert state.is_terminal()
        assert state.scores() == row["scores"] == n["scores"]
        assert state.winners() == row["winners"]
        assert len(state.history) == row["actions"]
    lengths = [r["actions"] for r in small_result.rows if r["cond"] == 0]
    longest = next(n for n in notable if n["kind"] == "longest" and n["condition"] == small_result.rows[0]["condition"])
    assert longest["actions"] == max(lengths)


def test_the_replay_command_accepts_a_notable_record(written):
    out, info = written
    n = info["notable"][0]
    res = CliRunner().invoke(main, ["replay", str(out / n["file"]), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["scores"] == n["scores"]


def test_report_is_self_contained_and_names_the_measures(written):
    out, _ = written
    html = (out / "report.html").read_text()
    assert html.count("data:image/png;base64,") >= 4 and 'src="plots/' not in html
    md = (out / "report.md").read_text()
    for text in ("Win rate by seat", "loot per drive-off", "aces taking the 8s",
                 "Variant: players=2 chase=adjacent against players=2 chase=nearest", "Notable games"):
        assert text in md
    assert all((out / "plots" / name).exists() for name in ("seat_win_rate.png", "outcomes.png", "bots.png",
                                                              "variants.png"))


def test_seat_and_bot_rates_add_up(written):
    _, info = written
    for s in info["summaries"]:
        assert math.isclose(sum(e.value for e in s.seat_win), 1.0)  # Wasserloch always has a winner
        assert s.bot_win["heuristic"].value > s.bot_win["random"].value
        assert s.bot_win["heuristic"].excludes(0.5)  # 12 games are enough to see that
        d = s.bot_vs_first["random"]  # random against the first bot given, heuristic
        assert d.value == pytest.approx(s.bot_win["random"].value - s.bot_win["heuristic"].value)
        assert d.high < 0


def test_cli_writes_every_report_file(tmp_path):
    out = tmp_path / "study"
    res = CliRunner().invoke(main, ["lab", "wasserloch", "--players", "2", "--bots", "random", "--option",
                                    "rounds=1", "--compare", "rounds=1,2", "--games", "6", "--seed", "3",
                                    "--jobs", "1", "--out", str(out), "--quiet"], catch_exceptions=False)
    assert res.exit_code == 2 and "rounds" in res.output  # fixed and compared at once
    res = CliRunner().invoke(main, ["lab", "wasserloch", "--players", "2", "--bots", "random",
                                    "--compare", "rounds=1,2", "--games", "6", "--seed", "3",
                                    "--jobs", "1", "--out", str(out), "--quiet"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    for name in FILES:
        assert (out / name).stat().st_size > 0
    records = sorted(p.name for p in (out / "records").iterdir())
    assert len(records) == 6 and all(p.endswith(".json") for p in records)
    assert len(read_csv(out / "results.csv")) == 12


@pytest.mark.parametrize("args, words", [
    (["wasserloch", "--option", "chase=sideways"], ["chase", "sideways"]),
    (["wasserloch", "--bots", "heuristic:keep_pears=0"], ["keep_pears"]),
    (["wasserloch", "--bots", "grandmaster"], ["grandmaster"]),
    (["wasserloch", "--compare", "slide_limit=7,null"], ["slide_limit"]),
    (["seven_waters", "--players", "3"], ["players", "2"]),
    (["wasserloch", "--jobs", "0"], ["--jobs"]),
])
def test_cli_refuses_bad_input_before_playing(tmp_path, args, words):
    out = tmp_path / "never"
    res = CliRunner().invoke(main, ["lab", *args, "--games", "2", "--out", str(out), "--quiet"])
    assert res.exit_code == 2, res.output
    for word in words:
        assert word in res.output
    assert not out.exists()


def test_ctrl_c_writes_the_report_of_the_finished_games(tmp_path):
    import os
    import signal
    import subprocess
    import sys

    out = tmp_path / "cut"
    proc = subprocess.Popen([sys.executable, "-m", "wasserspiele.cli.main", "lab", "wasserloch", "--bots", "random",
                             "--option", "rounds=1", "--games", "1000000", "--jobs", "2",
                             "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    for line in proc.stderr:  # stderr is not a terminal: a plain line when the first games have finished
        if "games finished" in line:
            break
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: to the whole process group
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr
    rows = read_csv(out / "results.csv")
    assert 0 < len(rows) < 1_000_000
    assert "Interrupted" in (out / "report.md").read_text()
    for name in FILES:
        assert (out / name).exists()


def test_measures_of_a_notable_record_match_its_row(written, small_result):
    from wasserspiele.lab.measures import measure_record
    out, info = written
    table = {(r["condition"], r["game"]): r for r in small_result.rows}
    for n in info["notable"]:
        m = measure_record(read_record(out / n["file"]))
        row = table[(n["condition"], n["game"])]
        assert m.pop("units") == row["units"]
        assert m == row["measures"]


def test_a_reused_out_keeps_nothing_of_the_earlier_report(tmp_path):
    out = tmp_path / "study"
    args = ["lab", "wasserloch", "--players", "2", "--bots", "random", "--games", "4", "--jobs", "1", "--quiet",
            "--out", str(out)]
    assert CliRunner().invoke(main, [*args, "--compare", "rounds=1,2"]).exit_code == 0
    before = sorted(p.name for p in (out / "records").iterdir())
    assert any("rounds-2" in name for name in before)
    res = CliRunner().invoke(main, [*args, "--option", "rounds=1"])
    assert res.exit_code == 0, res.output
    after = sorted(p.name for p in (out / "records").iterdir())
    assert after and not any("rounds" in name for name in after)  # the old variant's records are gone
    assert not (out / "plots" / "variants.png").exists()


def test_an_out_holding_other_files_is_refused_before_any_game(tmp_path, monkeypatch):
    from wasserspiele.core.protocol import Game
    out = tmp_path / "mine"
    (out / "plots").mkdir(parents=True)
    (out / "notes.txt").write_text("keep me")
    (out / "plots" / "sketch.svg").write_text("<svg/>")
    played = []
    with monkeypatch.context() as m:
        m.setattr(Game, "new_game", lambda self, *a, **k: played.append(1))
        res = CliRunner().invoke(main, ["lab", "wasserloch", "--games", "2", "--jobs", "1", "--quiet",
                                        "--out", str(out)])
    assert res.exit_code == 2 and "notes.txt" in res.output and "plots/sketch.svg" in res.output
    assert (out / "notes.txt").read_text() == "keep me" and played == []
    (out / "notes.txt").unlink()
    (out / "plots" / "sketch.svg").unlink()
    (out / "README.md").write_text("a designer's summary")  # docs/reports keeps one beside each report
    res = CliRunner().invoke(main, ["lab", "wasserloch", "--games", "2", "--jobs", "1", "--quiet", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert (out / "README.md").read_text() == "a designer's summary" and (out / "report.md").exists()


def test_the_lab_needs_only_the_plain_install():
    """Every module the lab, its statistics and the runner import is the standard library, the
    project or a core dependency of pyproject.toml (Ray alone is optional, imported on demand)."""
    import ast
    import sys
    import tomllib
    from pathlib import Path

    import wasserspiele
    root = Path(wasserspiele.__file__).parent
    project = tomllib.loads((root.parents[1] / "pyproject.toml").read_text())["project"]
    core = {d.split(">")[0].split("[")[0].split("=")[0].strip().lower().replace("-", "_")
            for d in project["dependencies"]}
    files = [*root.joinpath("lab").glob("*.py"), root / "cli" / "lab.py", root / "core" / "stats.py",
             root / "bots" / "runner.py", root / "bots" / "match.py", root / "bots" / "arena.py"]
    missing = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top != "wasserspiele" and top.lower() not in core:
                    missing.add((path.name, top))
    assert missing == {("runner.py", "ray")}


# ----------------------------------------------------------------------------- a longer variant is not flagged for its length
def test_a_variant_that_only_plays_longer_raises_no_flag():
    """Every game of `rounds=3` here is a game of `rounds=1` with every total tripled (scores, length,
    counts): the same games, only longer.  The Method section promises such a variant does not win
    comparisons by being longer; the winning margin in points tripled and was flagged."""
    import dataclasses

    from wasserspiele.lab import make_study, run_study
    from wasserspiele.lab.analysis import MARGIN_SHARE, analyse, raise_flags
    from wasserspiele.lab.measures import measures_class
    from wasserspiele.lab.study import StudyResult

    study = make_study("wasserloch", players=["2"], bots=["heuristic random"], compare=["rounds=1,3"], games=60,
                       seed=3)
    short = run_study(dataclasses.replace(study, conditions=study.conditions[:1]), jobs=1)
    yes_no = {m.name for m in measures_class("wasserloch").describe if m.kind == "share"}
    longer = [dict(r, cond=1, condition=study.conditions[1].label, scores=[3 * x for x in r["scores"]],
                   actions=3 * r["actions"], units=3 * r["units"], lead_changes=3 * r["lead_changes"],
                   measures={k: v if k in yes_no else 3 * v for k, v in r["measures"].items()})
              for r in short.rows]
    result = StudyResult(study, short.rows + longer)
    summaries, comparisons = analyse(result)
    assert summaries[0].margin.value > 0
    assert summaries[1].margin.value == pytest.approx(3 * summaries[0].margin.value)  # in points: 3×
    raise_flags(summaries, comparisons)
    assert [x.what for x in comparisons[0].lines if x.flagged] == []  # (the bots' own flags are real)
    (margin,) = [x for x in comparisons[0].lines if x.what == MARGIN_SHARE]
    assert margin.pct and margin.diff.value == pytest.approx(0.0, abs=1e-12)
    assert summaries[0].margin_share.value == pytest.approx(summaries[1].margin_share.value)


def test_the_method_section_says_how_the_margin_is_compared(written):
    out, _ = written
    text = (out / "report.md").read_text()
    assert "winning margin as a share of the winner's score" in text
    assert "| winning margin (share of the winner's score) |" in text


# ----------------------------------------------------------------------------- the header says what was played
def test_the_header_of_an_interrupted_study_counts_the_games_that_finished(small_result, tmp_path):
    from wasserspiele.lab.study import StudyResult
    rows = [r for r in small_result.rows if (r["cond"] == 0 and r["game"] < 7) or (r["cond"] == 1 and r["game"] < 5)]
    cut = StudyResult(small_result.study, rows, interrupted=True)
    write_report(cut, tmp_path / "cut")
    head = (tmp_path / "cut" / "report.md").read_text().split("\n\n")[1]
    assert head.startswith("12 games played (7 under players=2 chase=nearest, 5 under players=2 chase=adjacent); "
                           "Ctrl-C stopped the run after 12 of the 24 planned games (12 per condition); "
                           "master seed 5")
    write_report(small_result, tmp_path / "whole")
    head = (tmp_path / "whole" / "report.md").read_text().split("\n\n")[1]
    assert head.startswith("24 games played (12 per condition, 2 conditions); master seed 5")


def test_the_terminal_says_how_many_flags_it_left_to_the_report(tmp_path):
    # the report's Findings list five flags and say "N more flag(s) in the tables below"; the terminal
    # listed the same five and stopped, as if there were no more
    from wasserspiele.lab.report import more_flags
    assert (more_flags(1), more_flags(4)) == ("1 more flag", "4 more flags")
    out = tmp_path / "flags"
    res = CliRunner().invoke(main, ["lab", "wasserloch", "--players", "2", "--bots", "random", "--option", "rounds=1",
                                    "--compare", "chase=nearest,adjacent", "--games", "1000", "--jobs", "1", "--quiet",
                                    "--out", str(out)])
    assert res.exit_code == 0, res.output
    md = (out / "report.md").read_text()
    flags = md.count("| **flag** |")
    assert flags > 5 and f"{more_flags(flags - 5)} in the tables below (marked **flag**)." in md
    assert res.output.count("\n  - ") == 5 and f"  ({more_flags(flags - 5)} in the report's tables)\n" in res.output
