"""The lab replaces its own report and never deletes what it did not write: a designer's own
chart in plots/ or a saved game in records/ beside an earlier report.

Judged by the file's ending alone, both were taken for the lab's (plots/*.png, records/*.json)
and deleted without a word as `lab … --out` wrote the report again, and `lab render` deleted
every .png of plots/ it did not draw.  The lab's own files are those named as it names them
(lab/report.py `OWN_DIRS`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from wasserspiele.core.errors import BadOption
from wasserspiele.lab import make_study, run_study, write_report
from wasserspiele.lab.render import render_study
from wasserspiele.lab.report import _own

SMALL = dict(players=["2"], options=["rounds=1"], games=4, seed=1)
REPORTS = Path(__file__).resolve().parents[2] / "docs" / "reports"


@pytest.fixture(scope="module")
def small_result():
    return run_study(make_study("wasserloch", **SMALL), jobs=1)


@pytest.mark.parametrize("mine", ["plots/my_chart.png", "records/my_favourite_game.json",
                                  "plots/outcomes-before.png", "records/default-longest-game5.json.bak"])
def test_a_second_report_refuses_a_designers_file_and_keeps_it(small_result, tmp_path, mine):
    out = tmp_path / "study"
    write_report(small_result, out)
    own = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    theirs = out / mine
    theirs.write_bytes(b"a designer's own")
    with pytest.raises(BadOption, match=f"holds files the lab did not write \\({mine}\\)"):
        write_report(small_result, out)
    assert theirs.read_bytes() == b"a designer's own"
    assert sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file() and p != theirs) == own


def test_a_second_report_replaces_the_labs_own_files(small_result, tmp_path):
    out = tmp_path / "study"
    write_report(small_result, out)
    records = sorted(p.name for p in (out / "records").iterdir())
    plots = sorted(p.name for p in (out / "plots").iterdir())
    assert records and plots
    (out / "plots" / "species_share.png").write_bytes(b"an earlier study's figure")  # a split this one lacks
    write_report(small_result, out)
    assert sorted(p.name for p in (out / "plots").iterdir()) == plots
    assert sorted(p.name for p in (out / "records").iterdir()) == records


def test_lab_render_draws_its_plots_beside_a_designers_chart(small_result, tmp_path):
    out = tmp_path / "study"
    write_report(small_result, out)
    theirs = out / "plots" / "my_chart.png"
    theirs.write_bytes(b"a designer's own")
    render_study(out)
    assert theirs.read_bytes() == b"a designer's own"


def test_every_file_of_the_published_reports_is_named_as_the_lab_names_its_own():
    """docs/reports holds studies with variants, splits (species_share.png) and bots figures:
    each of their plots and records is one the lab would replace."""
    files = [p for p in REPORTS.glob("*/*/*") if p.parent.name in ("plots", "records")]
    assert len(files) > 100
    assert [p for p in files if not _own(p, False)] == []
