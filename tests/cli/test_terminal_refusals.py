"""What the terminal says to text it cannot read as a move, in every game and both
languages: the game's reason, then where to look next (`help`, `moves`) — the German
line said so and the English one did not."""

from __future__ import annotations

import pytest

GAMES_INPUT = {  # a game, its seats and a line that is no move in it
    "wasserloch": ("human,random", "xyz"),
    "seven_waters": ("human,random", "take 9-9"),
    "watten": ("human,random,random,random", "trump X"),
    "wildwasser": ("human,random,random", "pick dog"),
}


@pytest.mark.parametrize("game", sorted(GAMES_INPUT))
@pytest.mark.parametrize("lang, quit_word, tail", [
    ("en", "quit", "(help shows the commands, moves the legal moves)"),
    ("de", "ende", "(hilfe zeigt die Befehle, züge die erlaubten Züge)"),
])
def test_text_that_is_no_move_is_answered_with_where_the_commands_and_moves_are(run, game, lang, quit_word, tail):
    seats, typed = GAMES_INPUT[game]
    result = run("play", game, "--seats", seats, "--seed", "1", "--lang", lang, input=f"{typed}\n{quit_word}\n")
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    start = text.index("not understood: " if lang == "en" else "nicht verstanden: ")
    line = text[start:text.index(" – ", start)]  # up to the next prompt ("Seat 0 – your move")
    assert tail in line, line
