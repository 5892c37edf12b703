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


# a game, its seats, its seed, the moves that lead to the position (all but the last line),
# then a short form naming a move that is not legal there, and the refusal it gets
SHORT_FORMS = {
    # SW-3.2: a pyramid card is taken only when free (`take 6-1` said so; `6-1` was "unknown action")
    "seven_waters": (["--seats", "human,random", "--seed", "2"], ["6-1"], "the pyramid card at 6-1 is not free"),
    # WW-3.1: a card played lies revealed (`pick zebra` said so; `zebra` was "no Wildwasser action")
    "wildwasser": (["--seats", "human,random", "--seed", "3", "--players", "2"], ["zebra", "move", "zebra"],
                   "the zebra card is not in hand (it was played and lies revealed)"),
}


@pytest.mark.parametrize("game", sorted(SHORT_FORMS))
def test_sw_3_2_and_ww_3_1_a_short_form_of_an_illegal_move_is_refused_with_the_rule_s_reason(run, game):
    """The short forms the game accepts for a legal move (`zebra` for `pick zebra`, `6-1`
    for `take 6-1`) were answered "not understood: … is not a Wildwasser action" when the
    move they name is not legal now, and the player was told a word the game had taught
    them is no word.  Read with the verb they leave out, they are refused with the rule's
    reason, as the whole move is."""
    flags, lines, reason = SHORT_FORMS[game]
    result = run("play", game, *flags, "--lang", "en", input="\n".join([*lines, "quit"]) + "\n")
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert f"refused: {reason}" in text, text[-1500:]
    assert "not understood" not in text, text[-1500:]
