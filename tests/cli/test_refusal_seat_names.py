"""A refusal names a seat as the terminal's board names it (Wildwasser's players A, B,
C …; `seat_label`), in both languages; the refusals here are of WW-3.1's pick, made by
every player at the same time.

Wildwasser's board, its prompt and its news say "player B", but a refusal that named a
seat said its number: a save (or a record) whose action came from a seat whose turn it
was not was refused with 'action 1 "1: pick rhino" by seat 1: it is not seat 1's turn
(waiting for seat 0 and 2)', „von Platz 1: Platz 1 ist nicht am Zug“.  A reason's seats
are parameters written `{seat:seat}` (core/messages.py), named by the surface that shows
it: here "player B", „Spieler B"; a game whose board says "seat 1" keeps "seat 1"."""

from __future__ import annotations

import json

import pytest

from wasserspiele.cli.console import make_console
from wasserspiele.cli.play import PlaySession
from wasserspiele.core.registry import load

OFF_TURN = {  # seat 1 picks twice in the simultaneous pick phase (WW-3.1): seat 0 and 2 still to pick
    # (a seat that picked is told so, wildwasser.already_picked, where it was "not player B's turn")
    "en": 'action 1 "1: pick rhino" by player B: player B has already picked a card for this round '
          '(waiting for player A and player C)',
    "de": "Aktion 1 „1: pick rhino“ von Spieler B: Spieler B hat für diese Runde schon eine Karte gewählt "
          "(am Zug: Spieler A und Spieler C)",
}


def _save_with_a_move_off_turn(run, tmp_path, session: bool = True) -> str:
    """A Wildwasser save of three players whose second action is seat 1's second pick."""
    path = tmp_path / "game.json"
    started = run("play", "wildwasser", "--seats", "human,random,random", "--seed", "1", "--save", str(path),
                  input="quit\n")
    assert started.exit_code == 0, started.output
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["actions"] = ["1: pick zebra", "1: pick rhino"]
    if not session:  # a plain record, as `replay` reads one
        doc.pop("session")
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_ww_3_1_a_save_refused_on_resuming_names_the_seats_as_the_board_does(run, tmp_path, lang):
    save = _save_with_a_move_off_turn(run, tmp_path)
    result = run("play", "--resume", save, "--lang", lang)
    assert result.exit_code == 1, result.output
    assert OFF_TURN[lang] in result.stderr, result.stderr
    assert "seat 1" not in result.stderr and "Platz" not in result.stderr


@pytest.mark.parametrize("lang", ["en", "de"])
def test_ww_3_1_a_record_refused_by_replay_names_the_seats_as_its_board_does(run, tmp_path, lang):
    record = _save_with_a_move_off_turn(run, tmp_path, session=False)
    result = run("replay", record, "--lang", lang)
    assert result.exit_code == 1, result.output
    assert OFF_TURN[lang] in result.stderr, result.stderr


def test_a_game_whose_board_says_seat_keeps_the_seat_s_number(run, tmp_path):
    """Wasserloch's board names "seat 1": its refusals name it so, as before."""
    path = tmp_path / "w.json"
    run("play", "wasserloch", "--seats", "human,random", "--seed", "1", "--save", str(path), input="quit\n")
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["actions"] = ["1: 8x1"]  # seat 1 plays while seat 0 leads
    path.write_text(json.dumps(doc), encoding="utf-8")
    english, german = (run("play", "--resume", str(path), "--lang", lang) for lang in ("en", "de"))
    assert 'action 0 "1: 8x1" by seat 1: it is not seat 1\'s turn (waiting for seat 0)' in english.stderr, english.stderr
    assert "Aktion 0 „1: 8x1“ von Platz 1: Platz 1 ist nicht am Zug (am Zug: Platz 0)" in german.stderr, german.stderr


@pytest.mark.parametrize("lang, said", [
    ("en", "refused: player B has already picked a card for this round (waiting for player A)"),
    ("de", "nicht erlaubt: Spieler B hat für diese Runde schon eine Karte gewählt (am Zug: Spieler A)"),
])
def test_ww_3_1_the_terminal_s_refusal_of_a_move_names_the_seats_it_carries_as_the_board_does(lang, said):
    """The terminal asks only the seat to move, so its own games never meet this refusal;
    the path that words every refusal of a typed move names any seat a reason carries."""
    state = load("wildwasser", players=3).new_game(seed=1)
    for seat in (1, 2):
        state.apply(state.legal_actions(seat)[0], seat)  # player A still to pick
    session = PlaySession(state, ["human"] * 3, {}, None, lang, console=make_console(True))
    action, problem = session.understand("pick zebra", 1, list(state.legal_actions(0)))
    assert action is None and problem == said
