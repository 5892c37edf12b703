"""How the terminal names a seat inside its lines: "seat 0" inside a line (`cli.seat`), and
a line that begins with a seat's name begins with a capital, as a sentence does ("Seat 0 –
your move"; it read "seat 0 – your move").  German "Platz 0" is a capital word anyway."""

from __future__ import annotations

import pytest


def test_the_prompt_begins_with_the_seat_s_name_as_a_sentence_begins_and_german_is_unchanged(run):
    out = run("play", "watten", "--seed", "1", input="quit\n").output
    assert "Seat 0 – your move (help, moves, hint, quit)> " in out, out[-300:]
    # inside a line the seat keeps its lower-case word: the board and the news are as they were
    assert "Seat 0 dealt; seat 3 calls trump" in out
    assert "to move: seat 0" in out and "caller: seat 3" in out
    german = run("play", "watten", "--seed", "1", "--lang", "de", input="quit\n").output
    assert "Platz 0 – dein Zug (hilfe, züge, tipp, ende)> " in german, german[-300:]
    assert "Platz 0 hat gegeben; Platz 3 sagt Trumpf an" in german and "am Zug: Platz 0" in german


@pytest.mark.parametrize("game, prompt", [
    ("wasserloch", "Seat 0 – your move"),
    ("wildwasser", "Player A – your move"),  # the board's own name for a seat ("player A")
])
def test_every_game_s_prompt_begins_with_a_capital(run, game, prompt):
    result = run("play", game, "--seed", "1", input="quit\n")
    assert result.exit_code == 0, result.output
    assert prompt in result.output, result.output[-300:]


def test_players_sharing_a_screen_are_called_to_it_by_a_capitalised_line(run):
    result = run("play", "wasserloch", "--seats", "human,human", "--seed", "3", input="\nquit\n")
    assert "Seat 0: press Enter when only you are looking at the screen" in result.output, result.output[:400]


def test_a_bot_s_move_shown_with_verbose_begins_with_a_capital(run):
    args = ("play", "wasserloch", "--seats", "heuristic,heuristic,heuristic", "--option", "rounds=1",
            "--seed", "4", "--verbose")
    out = run(*args).output
    assert out.startswith("Seat 0 (heuristic): "), out[:200]
    assert "seat 0 (heuristic)" not in out
    assert run(*args, "--lang", "de").output.startswith("Platz 0 (heuristic): ")


def test_sentence_capitalises_the_first_letter_only():
    from wasserspiele.cli.play import sentence

    assert sentence("seat 2 – your move") == "Seat 2 – your move"
    assert sentence("Platz 2 – dein Zug") == "Platz 2 – dein Zug"
    assert sentence("über seat 2") == "Über seat 2"
    assert sentence("") == ""
