"""`play --save` / `play --resume`: what a save keeps (the seats, the language and, for a
screen reader's player, the plain output) and what happens when it cannot be written or
read.  Every failure of the disk is injected (monkeypatch), never made with a real mount:
a full disk (ENOSPC), a read-only file system (EROFS), no permission (EACCES), a rename
that fails, a save replaced, turned into a folder or deleted while the game runs."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path

import pytest

import wasserspiele.cli.play as play
import wasserspiele.core.paths as paths
from wasserspiele.core.records import read_record, replay

# Wasserloch, seed 2: the human (seat 0) holds A 2 3 5 7; each of these moves is legal in turn
MOVES = ["Ax1", "2x1", "3x1"]
STYLED_HOLE = ":·"  # the waterhole as the default board draws an empty place
PLAIN_HOLE = "Waterhole: A: "  # as plain words ("A: 0, 2: 0")


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    """A terminal wide enough for a line with a whole temporary path: rich folds long lines
    at the width, inside a path too (xdist's workers' paths are longer), which `_text`
    could not join back."""
    monkeypatch.setenv("COLUMNS", "1000")


def _text(result) -> str:
    return " ".join(result.output.split())  # rich folds long lines at the terminal's width


def _started(run, save: Path, *args: str, typed: str = "quit\n"):
    result = run("play", "wasserloch", "--seed", "2", "--save", str(save), *args, input=typed)
    assert result.exit_code == 0, result.output
    return result


# -- the plain output is kept ---------------------------------------------------------------------
def test_a_plain_game_resumes_plain(run, tmp_path):
    """`play --plain` was not in the save: resuming without typing --plain again gave the
    styled board (the waterhole's `·`, colours on a terminal) to a screen reader."""
    save = tmp_path / "game.json"
    _started(run, save, "--plain")
    resumed = run("play", "--resume", str(save), input="quit\n", env={"WASSERSPIELE_PLAIN": None})
    assert resumed.exit_code == 0, resumed.output
    assert PLAIN_HOLE in resumed.output and STYLED_HOLE not in resumed.output
    assert read_record(save)["session"]["plain"] is True


@pytest.mark.parametrize("env", ["0", "false"])
def test_a_plain_game_resumes_styled_when_the_player_says_so(run, tmp_path, env):
    """The way back: WASSERSPIELE_PLAIN=0 (said, not a default) gives styles, and the save
    then remembers styles."""
    save = tmp_path / "game.json"
    _started(run, save, "--plain")
    resumed = run("play", "--resume", str(save), input="quit\n", env={"WASSERSPIELE_PLAIN": env})
    assert resumed.exit_code == 0, resumed.output
    assert STYLED_HOLE in resumed.output and PLAIN_HOLE not in resumed.output
    assert "plain" not in read_record(save)["session"]  # as a styled game's save
    again = run("play", "--resume", str(save), input="quit\n", env={"WASSERSPIELE_PLAIN": None})
    assert STYLED_HOLE in again.output


def test_a_styled_game_resumes_plain_when_the_player_asks(run, tmp_path):
    save = tmp_path / "game.json"
    _started(run, save)
    assert "plain" not in read_record(save)["session"]  # a styled game's save is as before
    resumed = run("play", "--resume", str(save), "--plain", input="quit\n")
    assert PLAIN_HOLE in resumed.output
    assert read_record(save)["session"]["plain"] is True


def test_a_save_from_before_plain_was_kept_still_resumes_styled(run, tmp_path):
    """A save of a plain game as older versions wrote it: no `plain` in its session."""
    save = tmp_path / "game.json"
    _started(run, save, "--plain", typed="Ax1\nquit\n")
    doc = json.loads(save.read_text())
    doc["session"] = {"seats": doc["session"]["seats"], "lang": "en"}
    save.write_text(json.dumps(doc))
    resumed = run("play", "--resume", str(save), input="quit\n", env={"WASSERSPIELE_PLAIN": None})
    assert resumed.exit_code == 0, resumed.output
    assert "resumed Wasserloch after 3 moves" in _text(resumed) and STYLED_HOLE in resumed.output


@pytest.mark.parametrize("lang, said", [("en", "session.plain: must be true or false"),
                                        ("de", "session.plain: muss true oder false sein")])
def test_a_save_whose_plain_is_not_true_or_false_is_refused_naming_the_field(run, tmp_path, lang, said):
    save = tmp_path / "game.json"
    _started(run, save)
    doc = json.loads(save.read_text())
    doc["session"]["plain"] = "yes"
    save.write_text(json.dumps(doc))
    result = run("play", "--resume", str(save), "--lang", lang, input="quit\n")
    assert result.exit_code == 2
    assert f"{save}: {said}" in _text(result)


# -- a save that cannot be written ----------------------------------------------------------------
class _FailingFile:
    """A file that takes half of what is written to it, then fails as `errno_` says."""

    def __init__(self, real, errno_: int):
        self.real, self.errno = real, errno_

    def write(self, data: bytes) -> int:
        self.real.write(data[: len(data) // 2])
        self.real.flush()
        raise OSError(self.errno, os.strerror(self.errno))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.real.close()


def _disk_fails(monkeypatch, errno_: int, after: int = 0) -> list[str]:
    """Every write of a file by core/paths.py (a save's) after the first `after` fails half
    way with `errno_`; the list collects the files opened for writing."""
    opened: list[str] = []

    def failing_open(file, mode="r", *args, **kwargs):
        real = open(file, mode, *args, **kwargs)
        opened.append(str(file))
        return real if len(opened) <= after else _FailingFile(real, errno_)

    monkeypatch.setattr(paths, "open", failing_open, raising=False)
    return opened


def _left_beside(save: Path) -> list[str]:
    return sorted(p.name for p in save.parent.iterdir() if p.name != save.name)


@pytest.mark.parametrize("lang, errno_, cause", [
    ("en", errno.ENOSPC, "the disk is full"),
    ("de", errno.ENOSPC, "der Datenträger ist voll"),
    ("en", errno.EROFS, "the file system is read-only"),
    ("de", errno.EACCES, "keine Schreibberechtigung"),
])
def test_a_save_that_fails_half_way_keeps_the_last_good_save_and_says_why_in_the_players_language(
        run, tmp_path, monkeypatch, lang, errno_, cause):
    """The save is written beside the file and renamed over it: a disk that fills up half
    way through leaves the last good save as it was (it resumes the game after the first
    move) and nothing beside it; the cause is said in the player's language (it was the
    system's English words under --lang de)."""
    from wasserspiele.core.messages import render
    save = tmp_path / "game.json"
    opened = _disk_fails(monkeypatch, errno_, after=1)  # the human's first move is saved, then the disk fails
    result = run("play", "wasserloch", "--seed", "2", "--save", str(save), "--lang", lang,
                 input="Ax1\n2x1\n3x1\n" + {"en": "quit", "de": "ende"}[lang] + "\n")
    assert result.exit_code == 0, result.output
    out = _text(result)
    failed = render("cli.save_failed", {"path": str(save), "error": cause}, lang)
    assert cause in render(f"cli.path.cause.{_CAUSE[errno_]}", {}, lang)
    assert out.count(" ".join(failed.split())) == 1, out[-1500:]  # said once, not at every move
    assert len(opened) > 2  # each move tried again
    good = replay(read_record(save))
    assert len(good.history) == 1
    assert _left_beside(save) == []  # no half-written file
    behind = render("cli.save_behind", {"path": str(save), "n": 1, "played": 9,
                                        "command": play.resume_command(str(save))}, lang)
    assert " ".join(behind.split()) in out


_CAUSE = {errno.ENOSPC: "full", errno.EROFS: "read_only_fs", errno.EACCES: "denied"}


def test_a_rename_that_fails_leaves_no_file_beside_the_save(run, tmp_path, monkeypatch):
    """The rename of the written file over the save failing (a folder put where the save
    was): PATH.tmp, a whole copy of the game, stayed beside the save, unmentioned."""
    save = tmp_path / "game.json"
    real_replace = os.replace
    calls = []

    def failing_replace(src, dst, *args, **kwargs):
        calls.append(dst)
        if len(calls) > 3:  # the human's first move and the bots' answers are saved
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", failing_replace)
    result = _started(run, save, typed="Ax1\n2x1\nquit\n")
    assert "a folder stands where the file should be" in _text(result)
    assert _left_beside(save) == []
    assert len(replay(read_record(save)).history) == 3


def test_a_failed_save_can_be_kept_in_another_file_on_quitting(run, tmp_path, monkeypatch):
    """A save that failed left the player only "game not saved": the game in memory was
    lost on quitting.  Now the player names another file (one that cannot be written is
    said, and asked again), and the game resumes from it."""
    save = tmp_path / "game.json"
    full = tmp_path / "full"
    full.mkdir()
    elsewhere = tmp_path / "elsewhere" / "kept.json"
    real_open = open

    def failing_open(file, mode="r", *args, **kwargs):  # only the first folder's disk is full
        real = real_open(file, mode, *args, **kwargs)
        return _FailingFile(real, errno.ENOSPC) if Path(file).parent != elsewhere.parent else real

    monkeypatch.setattr(paths, "open", failing_open, raising=False)
    result = _started(run, save, typed=f"Ax1\n2x1\nquit\n{full}\n{full / 'g.json'}\n{elsewhere}\n")
    out = _text(result)
    assert out.count("type another file to save it to") == 3
    assert f"could not save the game to {full} (a folder stands where the file should be)" in out
    assert f"could not save the game to {full / 'g.json'} (the disk is full)" in out
    assert f"game saved to {elsewhere}; continue with: {play.resume_command(str(elsewhere))}" in out
    assert not save.exists() and list(full.iterdir()) == []
    kept = read_record(elsewhere)
    assert len(replay(kept).history) == 6 and kept["session"]["seats"][0] == "human"
    resumed = run("play", "--resume", str(elsewhere), input="quit\n")
    assert "resumed Wasserloch after 6 moves" in _text(resumed)


def test_a_failed_save_asks_for_no_other_file_when_the_input_ends(run, tmp_path, monkeypatch):
    """Input closed (a script's, Ctrl-D): no question is left waiting, the game says what
    was not saved and exits 130 as before."""
    save = tmp_path / "game.json"
    _disk_fails(monkeypatch, errno.ENOSPC)
    result = run("play", "wasserloch", "--seed", "2", "--save", str(save), input="Ax1\n")
    assert result.exit_code == 130
    out = _text(result)
    assert "type another file" not in out and f"game not saved: {save} could not be written" in out
    assert not save.exists() and _left_beside(save) == []


def test_stopping_with_nothing_new_to_save_writes_nothing(run, tmp_path, monkeypatch):
    """Quitting right after a saved move wrote the same save again; a disk full by then
    turned a good save into "game not saved"."""
    save = tmp_path / "game.json"
    opened = _disk_fails(monkeypatch, errno.ENOSPC, after=3)  # a save after each of three moves
    result = _started(run, save, typed="Ax1\nquit\n")
    assert len(opened) == 3
    assert "could not save" not in result.output and f"game saved to {save}" in _text(result)


# -- a save changed by someone else while the game runs --------------------------------------------
def _after_first_save(monkeypatch, change) -> None:
    """`change(path)` once the game has saved for the first time (another program's doing)."""
    real = play.PlaySession.write
    done = []

    def write_then_change(self, path):
        real(self, path)
        if not done:
            done.append(path)
            change(Path(path))

    monkeypatch.setattr(play.PlaySession, "write", write_then_change)


def test_a_save_replaced_by_another_file_is_left_as_it_is(run, tmp_path, monkeypatch):
    """Another program (a second game saving to the same file, an editor) replaced the
    save: the game overwrote it at its next move, and that file was lost."""
    save = tmp_path / "game.json"
    notes = "my own notes\n"
    _after_first_save(monkeypatch, lambda p: p.write_text(notes))
    result = _started(run, save, typed="Ax1\n2x1\n3x1\nquit\n\n")
    out = _text(result)
    assert save.read_text() == notes
    assert out.count(f"{save} was replaced by another file since this game saved it") == 1
    assert "type another file to save it to" in out and f"game not saved: {save}" in out


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_save_turned_into_a_folder_is_left_alone_and_said(run, tmp_path, monkeypatch, lang):
    from wasserspiele.core.messages import render
    save = tmp_path / "game.json"

    def to_folder(p: Path) -> None:
        p.unlink()
        p.mkdir()

    _after_first_save(monkeypatch, to_folder)
    result = run("play", "wasserloch", "--seed", "2", "--save", str(save), "--lang", lang,
                 input="Ax1\n2x1\n" + {"en": "quit", "de": "ende"}[lang] + "\n\n")
    assert result.exit_code == 0, result.output
    assert save.is_dir() and list(save.iterdir()) == []
    assert " ".join(render("cli.save_replaced", {"path": str(save)}, lang).split()) in _text(result)
    assert _left_beside(save) == []


def test_a_save_deleted_while_the_game_runs_is_written_anew(run, tmp_path, monkeypatch):
    """(Worked before; kept beside `replaced`, which must not take a deleted save for a
    replaced one.)"""
    save = tmp_path / "game.json"
    _after_first_save(monkeypatch, Path.unlink)
    result = _started(run, save, typed="Ax1\n2x1\nquit\n")
    assert "could not save" not in result.output and "replaced" not in result.output
    assert len(replay(read_record(save)).history) == 6


def test_a_resumed_game_saving_to_its_own_file_notices_it_replaced(run, tmp_path, monkeypatch):
    """The file a game resumed from is the one it goes on saving to: replaced before the
    resumed game's first move, it is kept too."""
    save = tmp_path / "game.json"
    _started(run, save, typed="Ax1\nquit\n")
    real_ask = play.PlaySession.ask
    asked = []

    def ask_after_replacing(self, seat, r):
        if not asked:
            asked.append(seat)
            save.write_text("{}\n")
        return real_ask(self, seat, r)

    monkeypatch.setattr(play.PlaySession, "ask", ask_after_replacing)
    result = run("play", "--resume", str(save), input="2x1\nquit\n\n")
    assert result.exit_code == 0, result.output
    assert save.read_text() == "{}\n" and "was replaced by another file" in _text(result)


# -- a save that cannot be read ---------------------------------------------------------------------
@pytest.mark.parametrize("lang, said", [("en", "host: unknown field"), ("de", "host: unbekanntes Feld")])
def test_resuming_a_file_that_is_no_save_names_the_file(run, tmp_path, lang, said):
    """`{"host": …}` (another program's settings) was refused as "host: unknown field",
    without saying which file."""
    other = tmp_path / "settings.json"
    other.write_text('{"host": "localhost"}\n')
    result = run("play", "--resume", str(other), "--lang", lang)
    assert result.exit_code == 2
    assert f"{said} (in {other})" in _text(result)


@pytest.mark.parametrize("lang, said", [("en", "not valid JSON"), ("de", "kein gültiges JSON")])
def test_resuming_a_truncated_save_is_refused_in_the_players_language_and_left_as_it_is(run, tmp_path, lang, said):
    """(Worked before; kept as the case the brief names.)  A save cut short (a crash of
    the machine mid-write of an older version) is refused naming the file, and not
    overwritten."""
    save = tmp_path / "game.json"
    _started(run, save, typed="Ax1\nquit\n")
    cut = save.read_bytes()[:200]
    save.write_bytes(cut)
    result = run("play", "--resume", str(save), "--lang", lang, input="quit\n")
    assert result.exit_code == 2
    assert f"{save}: {said}" in _text(result)
    assert save.read_bytes() == cut


def test_resuming_with_a_game_named_is_refused_as_before(run, tmp_path):
    """(Worked before.)  `play watten --resume wasserloch.json`: the save says its game."""
    save = tmp_path / "game.json"
    _started(run, save)
    result = run("play", "watten", "--resume", str(save))
    assert result.exit_code == 2 and "--resume continues a saved game: give no game" in _text(result)


@pytest.mark.parametrize("lang, said", [("en", "is empty: no game is saved in it"),
                                        ("de", "ist leer: darin ist kein Spiel gespeichert")])
def test_resuming_an_empty_save_says_it_is_empty(run, tmp_path, lang, said):
    """A save left empty (a machine that crashed while an older version wrote it) was
    refused as "not valid JSON (expecting a value at line 1 column 1)"."""
    save = tmp_path / "game.json"
    save.write_bytes(b"")
    result = run("play", "--resume", str(save), "--lang", lang)
    assert result.exit_code == 2
    assert f"{save} {said}" in _text(result)


def test_an_interrupt_as_the_save_is_written_leaves_it_the_games_own(tmp_path, monkeypatch):
    # CI: a Ctrl-C that reached an autosave after its file was renamed over the save, before
    # the game noted the file's stat, left the old stat; the save on the way out then took
    # the game's own file for another program's ("replaced by another file") and did not save
    save = tmp_path / "g.json"
    session = play.PlaySession.create("wasserloch", None, "human,human,human", 3, ["rounds=1"], str(save), None, "en")
    session.autosave()
    first = save.stat()
    written = play.write_record

    def interrupted_after_writing(*args, **kwargs):
        written(*args, **kwargs)
        raise KeyboardInterrupt

    session.state.apply(session.state.legal_actions(session.state.current_seat)[0], session.state.current_seat)
    monkeypatch.setattr(play, "write_record", interrupted_after_writing)
    with pytest.raises(KeyboardInterrupt):
        session.autosave()
    assert (save.stat().st_ino, save.stat().st_mtime_ns) != (first.st_ino, first.st_mtime_ns)
    assert not session.replaced() and session.up_to_date()
    assert len(read_record(str(save))["actions"]) == 1


# -- a game started without --save ------------------------------------------------------------------
def _unsaved(run, typed: str, lang: str = "en"):
    result = run("play", "wasserloch", "--seed", "2", "--lang", lang, input=typed)
    assert result.exit_code == 0, result.output
    return result


def test_quitting_an_unsaved_game_after_a_move_offers_a_file_and_the_game_resumes_from_it(run, tmp_path):
    """A typed `quit` ended a game started without --save and only then said "start with
    --save FILE to keep it": the moves were lost.  Now the player may name a file, and the
    game resumes from it as from any save."""
    kept = tmp_path / "kept.json"
    out = _text(_unsaved(run, f"Ax1\n2x1\nquit\n{kept}\n"))
    assert "the game is not saved: type a file to save it to, or press Enter to quit without saving" in out
    assert f"game saved to {kept}; continue with: {play.resume_command(str(kept))}" in out
    record = read_record(kept)
    assert record["session"]["seats"][0] == "human"
    resumed = run("play", "--resume", str(kept), input="quit\n")
    assert f"resumed Wasserloch after {len(replay(record).history)} moves" in _text(resumed)


def test_quitting_an_unsaved_game_and_pressing_enter_leaves_it_unsaved(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = _text(_unsaved(run, "Ax1\nquit\n\n"))
    assert "type a file to save it to" in out and "game not saved (start with --save FILE to keep it)" in out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("lang, word", [("en", "quit"), ("en", "q"), ("de", "ende")])
def test_the_quit_typed_again_at_the_question_is_a_no_not_a_file_s_name(run, tmp_path, monkeypatch, lang, word):
    monkeypatch.chdir(tmp_path)
    quit_word = {"en": "quit", "de": "ende"}[lang]
    result = _unsaved(run, f"Ax1\n{quit_word}\n{word}\n", lang)
    assert list(tmp_path.iterdir()) == [], result.output


def test_quitting_before_a_move_of_one_s_own_asks_nothing(run):
    """Nothing of the player's would be lost: the question would only stand in the way."""
    out = _text(_unsaved(run, "quit\n"))
    assert "type a file" not in out and "game not saved" in out


def test_the_file_named_on_quitting_is_checked_as_a_save_elsewhere_is(run, tmp_path):
    """A file there already is kept and a folder is said; each asks again."""
    there = tmp_path / "notes.txt"
    there.write_text("mine\n")
    kept = tmp_path / "kept.json"
    out = _text(_unsaved(run, f"Ax1\nquit\n{there}\n{tmp_path}\n{kept}\n"))
    assert f"could not save the game to {there} (a file of that name is there already" in out
    assert f"could not save the game to {tmp_path} (a folder stands where the file should be)" in out
    assert out.count("type a file to save it to") == 3
    assert there.read_text() == "mine\n" and len(replay(read_record(kept)).history) > 0


def test_quitting_an_unsaved_game_whose_input_then_ends_asks_no_more(run):
    """Input closed at the question (a script, Ctrl-D): the game says it is not saved."""
    out = _text(_unsaved(run, "Ax1\nquit\n"))
    assert out.endswith("game not saved (start with --save FILE to keep it)")


def test_the_question_for_a_file_is_asked_in_german(run, tmp_path):
    kept = tmp_path / "behalten.json"
    out = _text(_unsaved(run, f"Ax1\nende\n{kept}\n", lang="de"))
    assert "gib eine Datei zum Speichern an oder drücke Enter, um ohne Speichern zu beenden" in out
    assert "Datei>" in out and kept.exists()


def test_the_end_of_piped_input_after_a_move_asks_nothing(run):
    """A script's input ending is no one leaving a terminal: no question, exit 130 as before."""
    result = run("play", "wasserloch", "--seed", "2", input="Ax1\n")
    assert result.exit_code == 130
    out = _text(result)
    assert "type a file" not in out and out.endswith("game not saved (start with --save FILE to keep it)")
