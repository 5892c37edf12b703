"""Bad and boundary flags of `lab`, `lab tune`, `arena` and `leaderboard`, as a designer types
them: each is refused with one line and exit 2 before any game (no traceback, no hours of
play on a typo), and no command deletes another command's report."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from wasserspiele.cli.main import main

HUGE = 99_999_999_999  # a typo of a few digits too many


def _run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _refused(res, *words):
    """Exit 2, no exception escaped (a traceback), and the one-line error names the problem."""
    assert res.exit_code == 2, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in res.output
    for word in words:
        assert word in res.output, res.output


@pytest.fixture
def no_play(monkeypatch):
    """Any game played fails the test: a refusal must come before the first game (and a test of
    a command that would start days of play on the code before the fix fails at once)."""
    def played(*args, **kwargs):
        raise AssertionError("a game was played")
    import wasserspiele.bots.leaderboard as leaderboard
    import wasserspiele.lab.backends as backends
    import wasserspiele.lab.precision as precision
    import wasserspiele.lab.tune as tune
    monkeypatch.setattr(backends, "run_study", played)
    monkeypatch.setattr(precision, "run_until", played)
    monkeypatch.setattr(tune, "tune", played)
    monkeypatch.setattr(leaderboard, "round_robin", played)


# ---------------------------------------------------------------- --jobs and --games far too large
@pytest.mark.parametrize("command", [
    ["lab", "wasserloch", "--games", 2, "--bots", "random"],
    ["lab", "tune", "wasserloch", "--vary", "rounds=1,2", "--goal", "decisive", "--games", 2, "--bots", "random"],
    ["arena", "wasserloch", "--bots", "random", "--games", 2],
    ["leaderboard", "wasserloch", "--bots", "random,heuristic", "--games", 2],
])
def test_a_huge_jobs_count_is_refused_before_the_worker_pool(command, tmp_path, no_play):
    """--jobs 99999999999 ended in multiprocessing's OverflowError traceback (exit 1)."""
    res = _run(*command, "--jobs", HUGE)
    _refused(res, "--jobs", str(HUGE), "1024")


@pytest.mark.parametrize("command", [
    ["lab", "wasserloch", "--bots", "random", "--jobs", 1, "--games"],
    ["lab", "tune", "wasserloch", "--vary", "rounds=1,2", "--goal", "decisive", "--bots", "random", "--games"],
    ["arena", "wasserloch", "--bots", "random", "--jobs", 1, "--games"],
    ["leaderboard", "wasserloch", "--bots", "random,heuristic", "--jobs", 1, "--games"],
    ["leaderboard", "wasserloch", "--bots", "random,heuristic", "--jobs", 1, "--far-games"],
])
def test_a_huge_games_count_is_refused_before_any_game(command, tmp_path, no_play):
    """--games 99999999999: the arena and the leaderboard died of a MemoryError traceback, the lab
    and lab tune started days of play."""
    res = _run(*command, HUGE, *(["--out", tmp_path / "out"] if command[0] == "lab" else []))
    _refused(res, str(HUGE), "10,000,000")
    assert not (tmp_path / "out").exists()


def test_the_largest_games_count_allowed_is_not_refused(tmp_path, no_play):
    """The bound is the bound: 10 000 000 games reach the play (here, the stub)."""
    res = _run("lab", "wasserloch", "--bots", "random", "--jobs", 1, "--games", 10_000_000, "--out", tmp_path / "o")
    assert isinstance(res.exception, AssertionError) and "a game was played" in str(res.exception)


# ---------------------------------------------------------------- arena --players
def test_arena_refuses_a_player_count_a_fixed_count_game_cannot_seat(no_play):
    """`arena watten --players 3` played Watten's four seats without a word (as `lab` refuses it)."""
    res = _run("arena", "watten", "--bots", "random", "--games", 2, "--jobs", 1, "--players", 3)
    _refused(res, "--players", "exactly 4 players, not 3")


def test_arena_takes_the_fixed_count_itself():
    res = _run("arena", "watten", "--bots", "random", "--games", 2, "--jobs", 1, "--quiet", "--players", 4)
    assert res.exit_code == 0, res.output
    assert "4 players" in res.output


def test_arena_refuses_players_given_twice_with_different_flags():
    """`--players 3 --option players=2` played 3 players: one of the two was dropped silently."""
    res = _run("arena", "wasserloch", "--bots", "random", "--games", 2, "--jobs", 1,
               "--players", 3, "--option", "players=2")
    _refused(res, "--players", "say two player counts")


def test_arena_takes_the_same_player_count_given_both_ways():
    """One rule with `--option` given twice (core/options.py): the same value twice says one thing."""
    res = _run("arena", "wasserloch", "--bots", "random", "--games", 2, "--jobs", 1, "--quiet",
               "--players", 3, "--option", "players=3")
    assert res.exit_code == 0, res.output
    assert "3 players" in res.output


# ---------------------------------------------------------------- lab / lab tune: each keeps the other's report
def _study_report(folder):
    folder.mkdir()
    for name in ("report.html", "report.md", "results.csv"):
        (folder / name).write_text(f"the study's {name}")
    (folder / "plots").mkdir()
    (folder / "plots" / "seat_win_rate.png").write_bytes(b"png")
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_lab_tune_refuses_a_directory_holding_a_study_report_and_keeps_it(tmp_path):
    """`lab tune --out study` deleted the study's report.html, report.md, results.csv and plots
    (hours of play) to write its tune.md."""
    out = tmp_path / "study"
    before = _study_report(out)
    res = _run("lab", "tune", "wasserloch", "--vary", "rounds=1,2", "--goal", "shorter", "--games", 2,
               "--bots", "random", "--jobs", 1, "--quiet", "--out", out)
    _refused(res, "--out", "balance study's report", "report.html")
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_lab_refuses_a_directory_holding_a_tuning_result_and_keeps_it(tmp_path, no_play):
    out = tmp_path / "tuning"
    out.mkdir()
    (out / "tune.md").write_text("# Tuning: hours of candidates")
    res = _run("lab", "wasserloch", "--games", 2, "--bots", "random", "--jobs", 1, "--out", out)
    _refused(res, "--out", "tuning result", "tune.md")
    assert (out / "tune.md").read_text() == "# Tuning: hours of candidates"


def test_lab_tune_still_replaces_its_own_earlier_result(tmp_path):
    out = tmp_path / "tuning"
    out.mkdir()
    (out / "tune.md").write_text("an earlier tuning")
    res = _run("lab", "tune", "wasserloch", "--vary", "rounds=1,2", "--goal", "shorter", "--games", 2,
               "--bots", "random", "--jobs", 1, "--quiet", "--out", out)
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in out.iterdir()) == ["tune.md"]
    assert (out / "tune.md").read_text().startswith("# Tuning Wasserloch")


# ---------------------------------------------------------------- leaderboard
def test_leaderboard_refuses_a_spec_a_later_game_refuses_before_playing_the_first(no_play):
    """`keep_pairs` is a trait of Wasserloch's heuristic only: the run played Wasserloch's whole
    board, then stopped at Seven Waters and lost it."""
    res = _run("leaderboard", "wasserloch", "seven_waters", "--bots", "random,heuristic:keep_pairs=0",
               "--games", 2, "--jobs", 1)
    _refused(res, "heuristic:keep_pairs=0", "seven_waters")
    assert "neighbour pairings" not in res.output  # no game announced, none played


def test_leaderboard_refuses_a_spec_named_twice_before_announcing_play(no_play):
    res = _run("leaderboard", "wasserloch", "--bots", "random,random", "--games", 2, "--jobs", 1)
    _refused(res, "named twice")
    assert "neighbour pairings" not in res.output


@pytest.mark.parametrize("names", [("wasserloch", "wasserloch"), ("watten", "Watten"), ("seven_waters", "seven-waters")])
def test_leaderboard_refuses_a_game_named_twice(no_play, names):
    """`leaderboard wasserloch wasserloch` played the whole board twice; so did two spellings
    the registry reads as one game."""
    res = _run("leaderboard", *names, "--bots", "random,heuristic", "--games", 2, "--jobs", 1)
    _refused(res, "GAME", "named twice")


@pytest.mark.parametrize("extra, named", [
    (["wasserloch"], "GAME"),
    (["--games", 5], "--games"),
    (["--far-games", 0, "--seed", 3], "--far-games, --seed"),
    (["--bots", "easy,hard"], "--bots"),
])
def test_leaderboard_page_only_refuses_what_it_would_ignore(extra, named, tmp_path, no_play):
    """--page-only renders every saved board: a game or a setting of the play on its command line
    was dropped without a word (`leaderboard watten --page-only` showed every game)."""
    data = tmp_path / "boards.json"
    data.write_text('{"version": 1, "boards": {}}')
    res = _run("leaderboard", "--page-only", "--data", data, *extra)
    _refused(res, "--page-only", named)


def test_leaderboard_page_only_alone_still_renders(tmp_path):
    data = tmp_path / "boards.json"
    data.write_text('{"version": 1, "boards": {}}')
    res = _run("leaderboard", "--page-only", "--data", data)
    assert res.exit_code == 0, res.output


# ---------------------------------------------------------------- replay
@pytest.mark.parametrize("lang, said", [("en", "Error: FILE is empty: name the record file to replay"),
                                        ("de", "Fehler: DATEI ist leer: nenne das Spielprotokoll")])
def test_replay_of_an_empty_file_name_says_so(lang, said):
    """`replay ""` (an unset shell variable) read the current folder: "`.`: is a folder"."""
    res = _run("replay", "", "--lang", lang)
    _refused(res, said)


# ---------------------------------------------------------------- empty values
@pytest.mark.parametrize("command", [
    ["lab", "wasserloch", "--games", 2, "--jobs", 1],
    ["lab", "tune", "wasserloch", "--vary", "rounds=1,2", "--goal", "decisive", "--games", 2, "--jobs", 1],
])
@pytest.mark.parametrize("flag, value", [("--bots", ""), ("--players", ""), ("--players", " , ")])
def test_an_empty_bots_or_players_is_refused_not_read_as_the_default(command, flag, value, tmp_path, no_play):
    """`--bots "$BOTS"` with the variable unset played the default heuristic bots without a word
    (the arena refuses `--bots ""`)."""
    res = _run(*command, flag, value, "--out", tmp_path / "out")
    _refused(res, flag, "names nothing")


def test_lab_tune_reads_a_trailing_comma_after_one_player_count_as_lab_does(tmp_path):
    """`lab tune` refused `--players 2,` as several counts; `lab GAME` studied 2 players.  Both now
    refuse the empty entry by its place, as `play --seats human,,easy` does (test_qa2_cli.py)."""
    for args in (("lab", "tune", "wasserloch", "--vary", "rounds=1,2", "--goal", "shorter"), ("lab", "wasserloch")):
        res = _run(*args, "--games", 2, "--bots", "random", "--jobs", 1, "--quiet", "--players", "2,",
                   "--out", tmp_path / "t")
        _refused(res, "--players", "entry 2 of '2,' is empty")


@pytest.mark.parametrize("value", ["100", "-1", "nan"])
def test_min_effect_out_of_range_says_the_range_it_checks(value, tmp_path, no_play):
    """`--min-effect 100` was refused as "not a size in percentage points (0 to 100)"."""
    res = _run("lab", "wasserloch", "--games", 2, "--jobs", 1, "--min-effect", value, "--out", tmp_path / "o")
    _refused(res, "--min-effect", "at least 0 and below 100")


@pytest.mark.parametrize("command", [
    ["lab", "wasserloch", "--games", 2, "--jobs", 1, "--out"],
    ["lab", "tune", "wasserloch", "--vary", "rounds=1,2", "--goal", "decisive", "--games", 2, "--out"],
    ["leaderboard", "wasserloch", "--bots", "easy,medium", "--games", 2, "--jobs", 1, "--data"],
    ["leaderboard", "wasserloch", "--bots", "easy,medium", "--games", 2, "--jobs", 1, "--out"],
    ["train", "wasserloch", "--games", 1, "--positions"],
    ["corpus", "wasserloch", "--games", 1, "--out"],
    ["play", "wasserloch", "--save"],
], ids=lambda c: " ".join(map(str, c)))
def test_an_empty_path_to_write_is_refused(command, no_play):
    """`lab --out ""` wrote the default folder lab-wasserloch/ in its place (replacing a report there),
    `leaderboard --data ""` (a Path, ".") played every board and ended in a ValueError traceback."""
    _refused(_run(*command, ""), "an empty path names no file or folder")
