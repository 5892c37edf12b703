"""What a designer meets when the lab cannot write (a full disk, a folder replaced by a file
while the games ran, a file given where the report's folder should be): one line naming the
file and the cause, exit status 4 (cli/main.py, Exit status), no traceback, the games' data
written first and kept, and never a half-written file (nor NAME.tmp) in place of a good one.

A full disk is injected (`FullDisk`: writes under one folder fail with ENOSPC once a number
of bytes is written, as a real one cuts a file short), not mounted."""

from __future__ import annotations

import builtins
import errno
import io
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from wasserspiele.cli.main import main
from wasserspiele.core.errors import BadOption, WasserspieleError
from wasserspiele.lab import WriteFailed, make_study, run_study, write_report
from wasserspiele.lab.render import render_study

SMALL = dict(players=["2"], options=["rounds=1"], games=4, seed=1)
STUDY = ["wasserloch", "--players", "2", "--option", "rounds=1", "--games", "4", "--jobs", "1", "--quiet"]
TUNE = ["tune", "wasserloch", "--players", "2", "--bots", "random", "--vary", "rounds=1,2", "--goal", "shorter",
        "--games", "2", "--jobs", "1", "--quiet"]


class _Capped:
    """A file opened for writing under a full disk's folder: its writes take what room is left
    and then fail with ENOSPC, as the system's do."""

    def __init__(self, f, disk: "FullDisk"):
        self._f = f
        self._disk = disk

    def write(self, data):
        room = self._disk.room()
        if len(data) > room:
            if room:
                self._f.write(data[:room])
                self._disk.used += room
            self._f.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self._disk.used += len(data)
        return self._f.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()

    def __iter__(self):
        return iter(self._f)

    def __getattr__(self, name):
        return getattr(self._f, name)


class FullDisk:
    """Writes to files under `folder` fail once `room` bytes are written there (None: no limit)."""

    def __init__(self, monkeypatch, folder: Path, room: int | None = 0, where=lambda path: True):
        self.folder = Path(folder).resolve()
        self.limit = room
        self.used = 0
        self.where = where
        real = io.open

        def opened(file, mode="r", *args, **kwargs):
            f = real(file, mode, *args, **kwargs)
            if isinstance(file, (str, os.PathLike)) and any(c in mode for c in "wax") and self._under(file):
                return _Capped(f, self)
            return f

        monkeypatch.setattr(io, "open", opened)
        monkeypatch.setattr(builtins, "open", opened)

    def _under(self, file) -> bool:
        path = Path(file).resolve()
        return self.folder in path.parents and self.where(path)

    def room(self) -> int:
        return 1 << 60 if self.limit is None else max(0, self.limit - self.used)


def tmp_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.endswith((".tmp", ".part")) or ".tmp." in p.name]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def small_result():
    return run_study(make_study("wasserloch", **SMALL), jobs=1)


# ----------------------------------------------------------------------------- from Python
def test_write_report_into_a_file_says_the_file_is_no_folder(small_result, tmp_path):
    # "--out …/afile: is a file, not a directory" read as if the option were the file
    (tmp_path / "afile").write_text("mine")
    with pytest.raises(BadOption, match=r"--out .*afile: nothing can be written there: .*afile is a file, "
                                        r"not a folder$"):
        write_report(small_result, tmp_path / "afile")
    assert (tmp_path / "afile").read_text() == "mine"


def test_a_full_disk_at_the_plots_keeps_the_games_data_for_lab_render(small_result, tmp_path, monkeypatch):
    out = tmp_path / "study"
    FullDisk(monkeypatch, out, where=lambda p: p.suffix == ".png" or p.name.endswith(".png.tmp"))
    with pytest.raises(WriteFailed) as caught:
        write_report(small_result, out)
    exc = caught.value
    assert isinstance(exc, OSError) and exc.errno == errno.ENOSPC  # a caller catching OSError still does
    said = str(exc)
    assert said.startswith(f"could not write {out / 'plots'}") and ".png: the disk is full" in said
    assert f"`wasserspiele lab render {out}` writes the report from it" in said
    # study.json came last, with the plots: the rows were there, the settings `lab render` needs were not
    assert {"results.csv", "study.json"} <= {p.name for p in out.iterdir()}
    assert list((out / "records").glob("*.json")) and not tmp_files(out)
    assert not (out / "report.md").exists()
    monkeypatch.undo()  # room again
    render_study(out)
    assert "Win rate by seat" in (out / "report.md").read_text(encoding="utf-8")


def test_a_disk_full_from_the_start_leaves_no_half_results_csv(small_result, tmp_path, monkeypatch):
    out = tmp_path / "study"
    FullDisk(monkeypatch, out, room=100)
    with pytest.raises(WasserspieleError, match=r"could not write .*results\.csv: the disk is full; no file of "
                                                r"the report was written to "):
        write_report(small_result, out)
    # the half-written results.csv.tmp stayed, and `lab_files` took it for the lab's own
    assert not tmp_files(out) and not (out / "results.csv").exists()


def test_a_full_disk_in_German(small_result, tmp_path, monkeypatch):
    FullDisk(monkeypatch, tmp_path / "study")
    with pytest.raises(WasserspieleError) as caught:
        write_report(small_result, tmp_path / "study")
    assert "ließ sich nicht schreiben: der Datenträger ist voll" in caught.value.reason.render("de")


def test_lab_render_on_a_full_disk_leaves_the_earlier_report(small_result, tmp_path, monkeypatch):
    out = tmp_path / "study"
    write_report(small_result, out)
    before = snapshot(out)
    FullDisk(monkeypatch, out, room=5000)
    res = CliRunner().invoke(main, ["lab", "render", str(out), "--quiet"])
    assert res.exit_code == 4, res.output
    assert "Traceback" not in res.output and res.output.count("\n") == 1
    assert "the disk is full; the report's earlier files in" in res.output
    assert snapshot(out) == before


# ----------------------------------------------------------------------------- the command line
def test_lab_on_a_full_disk_says_what_it_kept_exit_4(tmp_path, monkeypatch):
    out = tmp_path / "study"
    FullDisk(monkeypatch, out, where=lambda p: "report" in p.name)
    res = CliRunner().invoke(main, ["lab", *STUDY, "--out", str(out)])
    assert res.exit_code == 4, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)  # no traceback
    assert res.output.startswith("Error: could not write ") and ": the disk is full; " in res.output
    assert f"{out} holds the games' data (results.csv, study.json, records/)" in res.output
    assert not tmp_files(out)


def test_lab_whose_out_became_a_file_while_playing_says_the_games_are_lost(tmp_path, monkeypatch):
    out = tmp_path / "study"
    import wasserspiele.lab.backends as backends
    real = backends.run_study

    def run_then_taken(*args, **kwargs):  # another program puts a file where the folder was to be
        result = real(*args, **kwargs)
        out.write_text("someone else's")
        return result

    monkeypatch.setattr(backends, "run_study", run_then_taken)
    res = CliRunner().invoke(main, ["lab", *STUDY, "--out", str(out)])
    assert res.exit_code == 4, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert "is a file, not a folder; the 4 games played are not saved" in res.output
    assert out.read_text() == "someone else's"


def test_lab_refuses_a_full_disk_before_any_game(tmp_path, monkeypatch):
    class Full:
        f_blocks, f_bfree, f_bavail, f_frsize = 1000, 0, 0, 4096

    monkeypatch.setattr(os, "statvfs", lambda path: Full())
    import wasserspiele.lab.backends as backends
    monkeypatch.setattr(backends, "run_study", lambda *a, **k: pytest.fail("a game was played"))
    res = CliRunner().invoke(main, ["lab", *STUDY, "--out", str(tmp_path / "study")])
    assert res.exit_code == 2 and "nothing can be written there: the disk is full" in res.output


def test_tune_on_a_full_disk_prints_the_ranking_and_keeps_the_earlier_tune_md(tmp_path, monkeypatch):
    out = tmp_path / "tuned"
    out.mkdir()
    (out / "tune.md").write_text("# an earlier tuning\n")
    FullDisk(monkeypatch, out, room=200)
    res = CliRunner().invoke(main, ["lab", *TUNE, "--out", str(out)])
    assert res.exit_code == 4, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert res.output.startswith("# Tuning Wasserloch: shorter") and "rounds=2" in res.output  # the ranking, kept
    assert f"could not write {out / 'tune.md'}: the disk is full; the ranking is printed above instead" in res.output
    assert (out / "tune.md").read_text() == "# an earlier tuning\n" and not tmp_files(out)
