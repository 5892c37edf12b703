"""What a user of `leaderboard --data/--out`, `train` (weights, --positions) and `corpus` meets
when a file cannot be written (a full disk, injected by tests/lab/test_write_failures.py's
`FullDisk`): one line naming the file and the cause, exit status 4 (cli/main.py, Exit
status), no traceback, what was played shown or kept, and the earlier file as it was: never
half a file (nor its NAME.tmp or NAME.part) in place of a good one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from lab.test_write_failures import FullDisk, snapshot, tmp_files
from wasserspiele.bots.leaderboard import packaged_data, read_boards, save_boards
from wasserspiele.bots.learned_train import Positions
from wasserspiele.cli.main import main
from wasserspiele.core.errors import WasserspieleError

TINY_TRAIN = ["--seed", "3", "--games", "1", "--generations", "1", "--iterations", "3", "--epochs", "1",
              "--hidden", "4", "--option", "rounds=1", "--jobs", "1"]
TINY_CORPUS = ["--iterations", "3", "--option", "rounds=1"]


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _no_traceback(res) -> None:
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output


@pytest.fixture
def data(tmp_path):
    """A copy of the package's leaderboard data."""
    path = tmp_path / "boards" / "leaderboard.json"
    path.parent.mkdir()
    shutil.copyfile(packaged_data(), path)
    return path


# ----------------------------------------------------------------------------- leaderboard
def test_saving_boards_on_a_full_disk_keeps_the_earlier_data_whole(data, monkeypatch):
    # written in place, the file was cut short: every board saved in it before was lost
    before = data.read_bytes()
    board = next(iter(read_boards(data).values()))
    FullDisk(monkeypatch, data.parent, room=100)
    with pytest.raises(WasserspieleError, match=r"could not write .*leaderboard\.json: the disk is full"):
        save_boards([board], data)
    assert data.read_bytes() == before and not tmp_files(data.parent)


def test_leaderboard_data_on_a_full_disk_shows_the_page_exit_4(data, monkeypatch):
    before = data.read_bytes()
    FullDisk(monkeypatch, data.parent, room=100)
    res = _run("leaderboard", "wasserloch", "--bots", "random,heuristic", "--games", 2, "--far-games", 0,
               "--jobs", 1, "--data", data)
    assert res.exit_code == 4, res.output
    _no_traceback(res)
    assert "# Leaderboard" in res.output and "| random |" in res.output.replace("`", "")
    assert (f"could not write {data}: the disk is full; {data} is as it was before wasserloch's board; the page of "
            f"the boards played (wasserloch) is printed above instead") in res.output
    assert data.read_bytes() == before and not tmp_files(data.parent)


def test_leaderboard_data_replaced_while_playing_shows_the_page_exit_4(data, monkeypatch):
    import wasserspiele.bots.leaderboard as leaderboard
    real = leaderboard.round_robin

    def played_then_replaced(*args, **kwargs):  # another program writes its own file there meanwhile
        board = real(*args, **kwargs)
        data.write_text("my notes")
        return board

    monkeypatch.setattr(leaderboard, "round_robin", played_then_replaced)
    res = _run("leaderboard", "wasserloch", "--bots", "random,heuristic", "--games", 2, "--far-games", 0,
               "--jobs", 1, "--data", data)
    assert res.exit_code == 4, res.output
    _no_traceback(res)
    assert "# Leaderboard" in res.output
    assert (f"{data}: not leaderboard data (" in res.output
            and "is printed above instead" in res.output.splitlines()[-1])
    assert data.read_text() == "my notes"


def test_leaderboard_page_on_a_full_disk_is_printed_and_the_earlier_page_kept(data, tmp_path, monkeypatch):
    page = tmp_path / "page" / "leaderboard.md"
    page.parent.mkdir()
    page.write_text("# an earlier page\n")
    FullDisk(monkeypatch, page.parent, room=300)
    res = _run("leaderboard", "--page-only", "--data", data, "--out", page)
    assert res.exit_code == 4, res.output
    _no_traceback(res)
    assert res.output.startswith("# Leaderboard")
    assert f"could not write {page}: the disk is full; {page} is as it was; the page is printed above" in res.output
    assert page.read_text() == "# an earlier page\n" and not tmp_files(page.parent)


# ----------------------------------------------------------------------------- train
def test_train_on_a_full_disk_keeps_the_earlier_weights_exit_4(tmp_path, monkeypatch):
    out = tmp_path / "weights"
    out.mkdir()
    first = _run("train", "wasserloch", *TINY_TRAIN, "--out", out / "w.npz")
    assert first.exit_code == 0, first.output
    before = snapshot(out)
    FullDisk(monkeypatch, out, room=300)
    res = _run("train", "wasserloch", *TINY_TRAIN, "--seed", 4, "--out", out / "w.npz")
    assert res.exit_code == 4, res.output
    _no_traceback(res)
    assert f"Error: could not write {out / 'w.npz'}: the disk is full; no generation's weights were written" in res.output
    # numpy wrote the .npz in place: half a zip where the earlier weights were
    assert snapshot(out) == before


def test_positions_saved_on_a_full_disk_keep_the_earlier_file(tmp_path, monkeypatch):
    rows = [(np.ones(3, np.float32) * k, np.ones(2, bool), np.full(2, 0.5, np.float32), 1.0, float("nan"), k)
            for k in range(50)]
    positions = Positions()
    positions.add(rows[:10])
    path = tmp_path / "run" / "positions.npz"
    path.parent.mkdir()
    positions.save(path, {"seed": 1})
    before = path.read_bytes()
    positions.add(rows[10:])
    FullDisk(monkeypatch, path.parent, room=200)
    with pytest.raises(WasserspieleError, match=r"could not write .*positions\.npz: the disk is full; .*positions\.npz "
                                                r"holds the positions saved before, from which the same command resumes"):
        positions.save(path, {"seed": 1})
    assert path.read_bytes() == before and not tmp_files(path.parent)  # FILE.part stayed


# ----------------------------------------------------------------------------- corpus
def test_corpus_on_a_full_disk_keeps_whole_games_each_with_its_line(tmp_path, monkeypatch):
    out = tmp_path / "corpus"
    # visits.jsonl fills up within the first game's line: half a line stayed, beside its record
    FullDisk(monkeypatch, out, room=100, where=lambda p: p.name == "visits.jsonl")
    res = _run("corpus", "wasserloch", "--games", 2, *TINY_CORPUS, "--out", out)
    assert res.exit_code == 4, res.output
    _no_traceback(res)
    assert (f"Error: could not write {out / 'visits.jsonl'}: the disk is full; {out} holds the 0 games written "
            f"before, each with its line in visits.jsonl") in res.output
    assert (out / "visits.jsonl").read_bytes() == b""
    assert sorted(p.name for p in out.iterdir()) == ["visits.jsonl"]


def test_corpus_on_a_full_disk_at_a_record_keeps_the_games_before(tmp_path, monkeypatch):
    out = tmp_path / "corpus"
    FullDisk(monkeypatch, out, room=50, where=lambda p: p.name.startswith("game-0001"))
    res = _run("corpus", "wasserloch", "--games", 3, *TINY_CORPUS, "--out", out)
    assert res.exit_code == 4, res.output
    _no_traceback(res)
    assert f"could not write {out / 'game-0001.json'}: the disk is full; {out} holds the 1 game written" in res.output
    lines = [json.loads(line) for line in (out / "visits.jsonl").read_text().splitlines()]
    assert [line["record"] for line in lines] == ["game-0000.json"]
    assert sorted(p.name for p in out.iterdir()) == ["game-0000.json", "visits.jsonl"]


# ----------------------------------------------------------------------------- stdout
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a device always full)")
@pytest.mark.parametrize("lang, said", [("en", "Error: could not write the standard output: the disk is full"),
                                        ("de", "Fehler: die Standardausgabe ließ sich nicht schreiben: der "
                                               "Datenträger ist voll")])
def test_the_arena_table_into_a_full_disk_is_one_line_exit_4(lang, said):
    # `arena … > table.txt` on a full disk: rich's OSError traceback, exit 1
    import wasserspiele
    src = str(Path(wasserspiele.__file__).resolve().parents[1])  # the package under test
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "wasserspiele", "arena", "wasserloch", "--bots", "random,random",
                               "--games", "2", "--jobs", "1", "--quiet", "--option", "rounds=1", "--lang", lang],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=120,
                              env={**os.environ, "PYTHONPATH": src})
    assert done.returncode == 4, done.stderr
    assert done.stderr.strip() == said
