"""Defects of `play` a QA pass found, each refused or kept as the other commands do:

* `--seats` lower-cased the whole of each spec, so a weights file or an outside factory
  with capitals was not found (`arena --bots` keeps the case; only keywords are read in
  any case);
* `--save FILE` wrote over any file there (a text, another game's save), also when the
  player quit before a move;
* an empty entry of `--seats` (`human,,easy`) was dropped, and the game had a player fewer;
* `--players 3 --option players=4` played 3 without a word (`arena` refuses it);
* a typed line of thousands of characters was a traceback;
* `wasserspiele --lang de play --help` said `[Standard: en]` where the game then spoke German.

The outside policy below is seated by its factory's name, `python:cli.test_play_defects:FirstLegal`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import wasserspiele.core.paths as paths
from wasserspiele.cli.console import make_console
from wasserspiele.cli.play import PlaySession, parse_seats, seat_texts
from wasserspiele.core.errors import BadOption
from wasserspiele.core.messages import render
from wasserspiele.core.records import MAX_TEXT, read_record

from .test_saves import _FailingFile

FACTORY = "python:cli.test_play_defects:FirstLegal"  # capitals in the factory's name


class FirstLegal:
    """An outside policy whose factory's name has capitals: the first legal move in notation order."""

    def __init__(self, game, seed):
        self.seed = seed

    def choose(self, decision):
        return sorted(decision.legal, key=str)[0]


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")  # whole paths on one line (rich folds at the width)


def _text(result) -> str:
    return " ".join(result.output.split())


# -- the seats' specs keep their case ---------------------------------------------------------------
def test_seat_specs_keep_the_case_of_their_files_and_factories():
    typed = "human,learned:weights=/tmp/x/MyWL.npz,/tmp/x/Other.NPZ,python:pkg.Mod:MakeIt"
    assert seat_texts(typed) == ["human", "learned:weights=/tmp/x/MyWL.npz", "/tmp/x/Other.NPZ",
                                 "python:pkg.Mod:MakeIt"]


def test_seat_keywords_are_read_in_any_case():
    """`human`, the levels and the bots' kinds are keywords, as bots/specs.py reads a kind."""
    typed = "Human,EASY,Heuristic,ISMCTS:iterations=25,Python:pkg.Mod:MakeIt,Learned:weights=A.npz"
    assert parse_seats(typed, 6) == ["human", "easy", "heuristic", "ismcts:iterations=25",
                                     "python:pkg.Mod:MakeIt", "learned:weights=A.npz"]


def test_a_weights_file_with_capitals_is_looked_for_by_its_own_name(run, tmp_path):
    weights = tmp_path / "MyWL.npz"
    result = run("play", "wasserloch", "--seats", f"human,learned:weights={weights},easy", input="quit\n")
    assert result.exit_code == 2
    assert str(weights) in _text(result) and str(weights).lower() not in _text(result)


def test_an_outside_factory_with_capitals_plays_and_its_save_resumes(run, tmp_path):
    save = tmp_path / "game.json"
    seats = f"human,{FACTORY},easy"
    started = run("play", "wasserloch", "--seed", "2", "--seats", seats, "--save", str(save), input="Ax1\nquit\n")
    assert started.exit_code == 0, started.output
    assert read_record(save)["session"]["seats"] == ["human", FACTORY, "easy"]
    resumed = run("play", "--resume", str(save), input="quit\n")
    assert resumed.exit_code == 0, resumed.output
    assert f"seat 1: {FACTORY}" in _text(resumed)


# -- an empty entry of --seats ----------------------------------------------------------------------
@pytest.mark.parametrize("seats, n", [
    ("human,,easy", 2),
    (",human,easy", 1),
    ("human,easy,", 3),
    ("human, ,easy", 2),
    ("ismcts:iterations=25,cpu_seconds=2,,easy", 2),  # the NAME=VALUE after a comma continues seat 1
    ("human easy,,random", 3),  # specs apart by a space are two seats
])
def test_an_empty_seat_entry_is_refused_naming_its_place(seats, n):
    with pytest.raises(BadOption) as refused:
        parse_seats(seats, 3)
    assert refused.value.reason.code == "cli.seats_empty_entry" and refused.value.reason.params["n"] == n


@pytest.mark.parametrize("lang, said", [
    ("en", "Error: --seats: entry 2 is empty (two commas with nothing between them, or a comma at either end): "
           "name one seat kind for each seat"),
    ("de", "Fehler: --seats: Eintrag 2 ist leer (zwei Kommas ohne etwas dazwischen oder ein Komma am Anfang "
           "oder Ende): nenne für jeden Platz eine Platzart"),
])
def test_an_empty_seat_entry_does_not_start_a_game_for_fewer_players(run, lang, said):
    result = run("play", "wasserloch", "--seats", "human,,easy", "--lang", lang, input="quit\n")
    assert result.exit_code == 2
    assert _text(result) == said


# -- --players and --option players= ----------------------------------------------------------------
@pytest.mark.parametrize("lang, said", [
    ("en", "Error: --players 3 and --option players=4 say two player counts: give one"),
    ("de", "Fehler: --players 3 und --option players=4 nennen zwei verschiedene Spielerzahlen: gib nur eine an"),
])
def test_two_player_counts_are_refused(run, lang, said):
    result = run("play", "wasserloch", "--players", "3", "--option", "players=4", "--lang", lang, input="quit\n")
    assert result.exit_code == 2
    assert _text(result) == said


def test_the_same_player_count_twice_says_one_thing():
    session = PlaySession.create("wasserloch", 3, None, 1, ["players=3"], None, None, None)
    assert session.state.game.players == 3


# -- --save never replaces a file the game did not write ---------------------------------------------
@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("moves", ["", "Ax1\n"])
def test_a_save_over_a_file_of_the_user_s_is_refused_and_the_file_kept(run, tmp_path, lang, moves):
    notes = tmp_path / "notes.txt"
    notes.write_text("my own notes\n")
    result = run("play", "wasserloch", "--seed", "2", "--save", str(notes), "--lang", lang, input=f"{moves}quit\n")
    assert result.exit_code == 2
    assert notes.read_text() == "my own notes\n"
    said = render("cli.error", {"error": render("cli.save_exists", {"path": str(notes)}, lang)}, lang)
    assert _text(result) == said
    assert ("the file exists" if lang == "en" else "die Datei gibt es schon") in said


def test_a_new_game_does_not_replace_another_game_s_save(run, tmp_path):
    save = tmp_path / "game.json"
    first = run("play", "wasserloch", "--seed", "2", "--save", str(save), input="Ax1\nquit\n")
    assert first.exit_code == 0, first.output
    kept = save.read_bytes()
    again = run("play", "seven_waters", "--save", str(save), input="quit\n")
    assert again.exit_code == 2 and "--resume" in _text(again)
    assert save.read_bytes() == kept
    # the game saved in it goes on in it, as before
    resumed = run("play", "--resume", str(save), "--save", str(save), input="2x1\nquit\n")
    assert resumed.exit_code == 0, resumed.output
    assert len(read_record(save)["actions"]) > len(json.loads(kept)["actions"])


def test_a_resumed_game_does_not_replace_a_file_it_is_told_to_save_to(run, tmp_path):
    save, other = tmp_path / "game.json", tmp_path / "other.json"
    assert run("play", "wasserloch", "--seed", "2", "--save", str(save), input="Ax1\nquit\n").exit_code == 0
    other.write_text("keep me\n")
    result = run("play", "--resume", str(save), "--save", str(other), input="2x1\nquit\n")
    assert result.exit_code == 2 and other.read_text() == "keep me\n"
    # a new file takes the resumed game
    new = tmp_path / "new.json"
    assert run("play", "--resume", str(save), "--save", str(new), input="2x1\nquit\n").exit_code == 0
    saved = read_record(save)["actions"]
    assert read_record(new)["actions"][:len(saved) + 1] == [*saved, "2x1"]


def test_a_file_typed_to_keep_a_failed_save_in_is_not_replaced(run, tmp_path, monkeypatch):
    """On quitting after a failed save the player may name another file: one that exists is
    said, and asked again, as `--save` refuses it."""
    full = tmp_path / "full"
    full.mkdir()
    save, notes, kept = full / "game.json", tmp_path / "notes.txt", tmp_path / "kept.json"
    notes.write_text("my own notes\n")
    real_open = open

    def failing_open(file, mode="r", *args, **kwargs):  # only the first folder's disk is full
        real = real_open(file, mode, *args, **kwargs)
        return _FailingFile(real, 28) if Path(file).parent == full else real  # 28: ENOSPC

    monkeypatch.setattr(paths, "open", failing_open, raising=False)
    result = run("play", "wasserloch", "--seed", "2", "--save", str(save), input=f"Ax1\nquit\n{notes}\n{kept}\n")
    assert result.exit_code == 0, result.output
    assert notes.read_text() == "my own notes\n"
    out = _text(result)
    assert (f"could not save the game to {notes} (a file of that name is there already, "
            f"and this game does not replace it)") in out
    assert f"game saved to {kept}" in out and read_record(kept)["actions"][0] == "Ax1"


# -- a typed line longer than any move --------------------------------------------------------------
@pytest.mark.parametrize("lang, said", [
    ("en", "not understood: longer than any action of any game (5002 characters, at most 200) "
           "(help shows the commands, moves the legal moves)"),
    ("de", "nicht verstanden: länger als jeder Zug eines Spiels (5002 Zeichen, höchstens 200) "
           "(hilfe zeigt die Befehle, züge die erlaubten Züge)"),
])
def test_a_typed_line_longer_than_any_move_is_refused_before_it_is_read(lang, said):
    session = PlaySession.create("wasserloch", None, None, 2, [], None, None, lang)
    session.console = make_console(file=io.StringIO(), width=100)
    seat = session.state.current_seat
    line = "3x" + "9" * 5000
    assert len(line) > MAX_TEXT
    action, problem = session.understand(line, seat, list(session.state.legal_actions(seat)))
    assert action is None and problem == said


def test_a_typed_line_longer_than_any_move_is_said_and_the_game_goes_on(run):
    result = run("play", "wasserloch", "--seed", "2", input="3x" + "9" * 5000 + "\nAx1\nquit\n")
    assert result.exit_code == 0, result.output
    refusal = _text(result).split("\n")[0].partition("not understood:")[2].partition(">")[0]
    assert "(5002 characters, at most 200)" in refusal and "99" not in refusal  # the line is not quoted back


def test_a_line_as_long_as_the_limit_is_read_as_any_other():
    session = PlaySession.create("wasserloch", None, None, 2, [], None, None, "en")
    seat = session.state.current_seat
    legal = list(session.state.legal_actions(seat))
    action, problem = session.understand("z" * MAX_TEXT, seat, legal)
    assert action is None and "longer than any action" not in problem
    assert session.understand("Ax1", seat, legal) == (session.state.game.parse_action("Ax1"), None)


# -- the help names the language a game gets ----------------------------------------------------------
@pytest.mark.parametrize("args, shown", [
    (["--lang", "de", "play", "--help"], "Sprache der Texte und Züge des Spiels [Standard: de]"),
    (["play", "--lang", "de", "--help"], "Sprache der Texte und Züge des Spiels [Standard: en]"),
    (["play", "--help"], "language of the game's texts and moves [default: en]"),
    (["--lang", "en", "play", "--help"], "language of the game's texts and moves [default: en]"),
])
def test_play_s_help_names_the_language_a_new_game_gets(run, args, shown):
    """As `games`, `rules`, `replay` and `arena` show it: the root's --lang is the default."""
    result = run(*args)
    assert result.exit_code == 0
    assert shown in _text(result)
    assert _text(result).count("Standard: ") + _text(result).count("default: ") >= 1


def test_the_root_s_lang_is_the_language_play_then_speaks(run):
    result = run("--lang", "de", "play", "wasserloch", "--seed", "2", input="quit\n")
    assert result.exit_code == 0 and "Spiel nicht gespeichert" in _text(result)
