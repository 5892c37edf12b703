"""`wasserspiele lab render DIR`: a finished study's report written again from its saved games.

Tiny real studies are played once; rendering their directories again must give the very files the
study wrote (report.md, report.html, every plot, study.json: nothing in them depends on the time of
rendering, as the run line is read back from study.json), read results.csv back to the rows the study
analysed, and refuse damaged inputs with a message naming the problem, leaving every file as it was."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from wasserspiele.cli.main import main
from wasserspiele.lab import StudyResult, make_study, run_study, write_report
from wasserspiele.lab.render import RenderRefused, read_results, render_study

STUDIES = {
    # variants of a 2-player game with two bots (the bots table, the variants figure)
    "variants": ["wasserloch", "--players", "2", "--bots", "heuristic random", "--option", "rounds=1",
                 "--compare", "chase=nearest,adjacent", "--games", "8"],
    # two player counts of Wildwasser: the species table and the species between the counts
    "species": ["wildwasser", "--players", "2,3", "--bots", "random", "--games", "4"],
    # teams, duplicate seating and its rounded --games
    "duplicate": ["watten", "--bots", "random heuristic", "--seating", "duplicate", "--games", "3"],
    # the precision rule: its note and why it stopped
    "precision": ["seven_waters", "--bots", "random", "--precision", "30pp", "--games", "150"],
}


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _lab(*args):
    return CliRunner().invoke(main, ["lab", *args], catch_exceptions=False)


@pytest.fixture(scope="module")
def studies(tmp_path_factory):
    made = {}
    for name, args in STUDIES.items():
        out = tmp_path_factory.mktemp(name) / "study"
        res = _lab(*args, "--seed", "3", "--jobs", "1", "--out", str(out), "--quiet")
        assert res.exit_code == 0, res.output
        made[name] = out
    return made


@pytest.fixture
def copy(studies, tmp_path):
    def make(name="variants") -> Path:
        target = tmp_path / name
        shutil.copytree(studies[name], target)
        return target
    return make


@pytest.mark.parametrize("name", list(STUDIES))
def test_a_rendered_study_gives_the_files_the_study_wrote(copy, name):
    folder = copy(name)
    before = _snapshot(folder)
    assert "study.json" in before and "report.md" in before
    res = _lab("render", str(folder))
    assert res.exit_code == 0, res.output
    assert "no game played" in res.output
    after = _snapshot(folder)
    assert after["report.md"] == before["report.md"]  # byte for byte
    assert after == before  # report.html, the plots, study.json, results.csv and the records too


def test_the_rows_read_back_are_the_rows_the_study_analysed(tmp_path):
    """Three players share wins: results.csv writes a third as 0.333333; read back it is the study's 1/3."""
    study = make_study("wasserloch", players=["3"], bots=["random"], options=["rounds=1"], games=60, seed=11)
    result = run_study(study, jobs=1)
    write_report(result, tmp_path)
    thirds = [r for r in result.rows if 1 / 3 in r["returns"]]
    assert thirds, "the seed should give a three-way or two-way shared win"
    assert read_results(tmp_path / "results.csv", study) == result.rows


def test_a_study_saved_before_study_json_is_read_from_its_readme_command(copy):
    folder = copy()
    command = json.loads((folder / "study.json").read_text())["command"]
    (folder / "study.json").unlink()
    (folder / "README.md").write_text(f"# A study\n\n`{command}` — a designer's summary.\n")
    before = _snapshot(folder)
    assert _lab("render", str(folder), "--quiet").exit_code == 0
    after = _snapshot(folder)
    # the report and its plots as the study wrote them, the run line as its report printed it
    assert {k: v for k, v in after.items() if k != "study.json"} == before
    saved = json.loads(after["study.json"])
    assert saved["command"] == command and saved["run"]["line"].startswith("Run: backend serial with 1 job(s)")
    assert _lab("render", str(folder), "--quiet").exit_code == 0  # now from the study.json it saved
    assert _snapshot(folder) == after


def _edit_csv(folder: Path, line: int, change) -> None:
    path = folder / "results.csv"
    lines = path.read_text().splitlines(keepends=True)
    lines[line - 1] = change(lines[line - 1])
    path.write_text("".join(lines))


def _cell(index: int, value: str):
    def change(line: str) -> str:
        cells = line.rstrip("\n").split(",")
        cells[index] = value
        return ",".join(cells) + "\n"
    return change


def _drop_lines(folder: Path, first: int, last: int | None = None) -> None:
    """Delete lines first … last of results.csv (as `sed -i FIRST,LASTd results.csv`)."""
    path = folder / "results.csv"
    lines = path.read_text().splitlines(keepends=True)
    del lines[first - 1:last or first]
    path.write_text("".join(lines))


def _add_column(folder: Path) -> None:
    path = folder / "results.csv"
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0] + ",colour"] + [x + ",blue" for x in lines[1:]]) + "\n")


def _other_game(folder: Path, studies) -> None:
    """A two-player Seven Waters results.csv where a two-player Wasserloch study's belongs."""
    shutil.copy(studies["precision"] / "results.csv", folder / "results.csv")


def _study_json(change):
    def edit(folder: Path, studies) -> None:
        path = folder / "study.json"
        doc = json.loads(path.read_text())
        change(doc)
        path.write_text(json.dumps(doc))
    return edit


DAMAGE = {
    "a score that is no number": (lambda f, s: _edit_csv(f, 3, _cell(6, "ten")), ["line 3", "score_0", "'ten'"]),
    "a line missing a field": (lambda f, s: _edit_csv(f, 4, lambda x: x.rsplit(",", 1)[0] + "\n"),
                               ["line 4", "fields"]),
    "an unknown column": (lambda f, s: _add_column(f), ["'colour'", "unknown column"]),
    "another game's results": (_other_game, ["m_drive_offs", "another game"]),
    "a seed of another study": (lambda f, s: _edit_csv(f, 2, _cell(2, "12345")), ["line 2", "seed 12345"]),
    "an unknown condition": (lambda f, s: _edit_csv(f, 2, _cell(0, "players=2 chase=far")),
                             ["line 2", "'players=2 chase=far'"]),
    "a game listed twice": (lambda f, s: _edit_csv(f, 3, lambda x: (f / "results.csv").read_text().splitlines()[1]
                                                   + "\n"), ["line 3", "twice"]),
    "winners that are no seats": (lambda f, s: _edit_csv(f, 2, _cell(10, "7")), ["line 2", "winners '7'"]),
    "no games": (lambda f, s: (f / "results.csv").write_text((f / "results.csv").read_text().splitlines()[0] + "\n"),
                 ["no games"]),
    "no results.csv": (lambda f, s: (f / "results.csv").unlink(), ["results.csv", "missing"]),
    "settings of another seed": (_study_json(lambda d: d.update(seed=4)), ["master seed 4", "do not belong"]),
    "damaged settings": (lambda f, s: (f / "study.json").write_text('{"format": "wasserspiele-study/1", "game"'),
                         ["study.json", "JSON"]),
    "settings without bots": (_study_json(lambda d: d.pop("bots")), ["study.json", "'bots'"]),
    "no settings at all": (lambda f, s: (f / "study.json").unlink(), ["study.json", "README.md"]),
    # the variants study: players=2 chase=nearest on lines 2-9 (games 0-7), chase=adjacent on lines 10-17
    "a game left out": (lambda f, s: _drop_lines(f, 2),
                        ["game 0 of players=2 chase=nearest is missing", "study.json says 8 games per condition",
                         "not interrupted"]),
    "a game left out in the middle": (lambda f, s: _drop_lines(f, 14),
                                      ["game 4 of players=2 chase=adjacent is missing"]),
    "a condition left out": (lambda f, s: _drop_lines(f, 10, 17),
                             ["game 0 of players=2 chase=adjacent is missing (8 of its 8 games are)"]),
    "a missing record": (lambda f, s: next((f / "records").glob("*longest*")).unlink(), ["records/", "missing"]),
    # the win credit every rate is read from, against the winners of the same line (both seats 1: no
    # 2-player game gives that); it was read as it stood, and the seats' rates summed to 117 %
    "returns that do not fit the winners": (lambda f, s: (_edit_csv(f, 2, _cell(8, "1")), _edit_csv(f, 2, _cell(9, "1"))),
                                            ["line 2", "returns 1, 1 do not fit the winners"]),
    # a score edited so that another game is the most lopsided: its record was said to be "missing"
    "a score that makes another game notable": (lambda f, s: _lopsided_elsewhere(f),
                                                ["results.csv makes game", "the most lopsided game of",
                                                 "where the study recorded", "results.csv was changed"]),
}


def _lopsided_elsewhere(folder: Path) -> None:
    """Make another game of the first condition (games 0-7 on lines 2-9) its most lopsided."""
    recorded = next((folder / "records").glob("players-2-chase-nearest-most_lopsided-game*.json")).stem
    other = (int(recorded.rsplit("game", 1)[1]) + 1) % 8
    _edit_csv(folder, other + 2, _cell(6, "999"))


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_damaged_inputs_are_refused_and_every_file_kept(copy, studies, damage):
    folder = copy()
    spoil, words = DAMAGE[damage]
    spoil(folder, studies)
    before = _snapshot(folder)
    res = CliRunner().invoke(main, ["lab", "render", str(folder)])
    assert res.exit_code == 2, res.output
    for word in words:
        assert word in res.output, res.output
    assert "Traceback" not in res.output
    assert _snapshot(folder) == before  # nothing written, nothing left behind (no .tmp)


def test_a_failure_while_writing_leaves_the_earlier_report(copy, monkeypatch):
    folder = copy()
    (folder / "report.md").write_text("the earlier report\n")
    before = _snapshot(folder)
    real = Path.write_bytes
    calls = []

    def failing(self, data):
        calls.append(self.name)
        if self.name == "report.html.tmp":
            raise OSError("disk full")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", failing)
    with pytest.raises(OSError, match="disk full"):
        render_study(folder)
    assert "report.md.tmp" in calls  # it failed after writing some files, not before
    assert _snapshot(folder) == before


def test_a_render_refusal_is_a_render_error(copy):
    folder = copy()
    (folder / "study.json").unlink()
    with pytest.raises(RenderRefused, match="README.md"):
        render_study(folder, parse_command=lambda text: {})


def test_a_folder_that_is_not_there_is_refused(tmp_path):
    res = CliRunner().invoke(main, ["lab", "render", str(tmp_path / "nowhere")])
    assert res.exit_code == 2 and "not a directory" in res.output


def test_a_study_saved_before_study_json_with_a_game_left_out_is_refused(copy):
    """Without study.json whether the run was cut short is what its report.md said, not what the rows
    suggest: a deleted row made the render call the study interrupted and report over fewer games."""
    folder = copy()
    command = json.loads((folder / "study.json").read_text())["command"]
    (folder / "study.json").unlink()
    (folder / "README.md").write_text(f"# A study\n\n`{command}` — a designer's summary.\n")
    _drop_lines(folder, 5)
    before = _snapshot(folder)
    res = CliRunner().invoke(main, ["lab", "render", str(folder)])
    assert res.exit_code == 2, res.output
    assert "game 3 of players=2 chase=nearest is missing" in res.output
    assert "README.md says 8 games per condition, and report.md no interruption" in res.output
    assert _snapshot(folder) == before


def test_an_interrupted_study_renders_from_the_games_ctrl_c_left(tmp_path):
    """Ctrl-C keeps the chunks of games that had finished, which the process and Ray backends finish in
    no set order: games missing in the middle of a condition, or all of a condition's, are that study's
    shape, and its report renders again byte for byte (with study.json and from its README's command)."""
    study = make_study("wasserloch", players=["2"], bots=["heuristic random"], options=["rounds=1"],
                       compare=["chase=nearest,adjacent"], games=8, seed=3)
    full = run_study(study, jobs=1)
    for name, kept in {"holes": lambda r: r["cond"] == 0 and r["game"] not in (2, 3) or r["game"] in (0, 1, 6),
                       "a condition": lambda r: r["cond"] == 0}.items():
        folder = tmp_path / name
        rows = [r for r in full.rows if kept(r)]
        write_report(StudyResult(study, rows, interrupted=True), folder,
                     command="wasserspiele lab wasserloch --players 2 --bots 'heuristic random' --option rounds=1 "
                             "--compare chase=nearest,adjacent --games 8 --seed 3")
        assert "Ctrl-C stopped the run after" in (folder / "report.md").read_text()
        before = _snapshot(folder)
        assert _lab("render", str(folder), "--quiet").exit_code == 0
        assert _snapshot(folder) == before
        (folder / "study.json").unlink()  # a study saved before study.json: its report.md said Ctrl-C
        (folder / "README.md").write_text(f"`{json.loads(before['study.json'])['command']}`\n")
        res = _lab("render", str(folder), "--quiet")
        assert res.exit_code == 0, res.output
        assert _snapshot(folder)["report.md"] == before["report.md"]


def test_a_recorded_command_is_read_as_the_lab_reads_it():
    """`lab render` reads a study saved before study.json through the same mapping from options to
    `make_study` as `lab GAME` (with --precision, --games is the cap and defaults to DEFAULT_CAP)."""
    from wasserspiele.cli.lab import DEFAULT_CAP, DEFAULT_GAMES, study_arguments
    precise = study_arguments("wasserspiele lab seven_waters --bots random --precision 30pp")
    assert precise["games"] == DEFAULT_CAP and precise["precision"] == pytest.approx(0.3)
    plain = study_arguments("wasserspiele lab seven_waters --bots random --min-effect 5")
    assert plain["games"] == DEFAULT_GAMES and plain["precision"] is None and plain["min_effect"] == 0.05
