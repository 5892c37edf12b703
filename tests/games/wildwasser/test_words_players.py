"""Wildwasser names players by letter (the board, `help`: "write action B or marker C"),
and so do its notation errors in English, as the German ones did: they said "'z' is not
a seat number (0..5)", "marker needs a seat number, e.g. marker 0" and "action SEAT".
The letters they name are what the terminal reads (render.read_action: `action b` →
`action 1`); a record's notation keeps its seat numbers (the parser reads no letters), so
the one error a record author meets after trying a letter names the numbers too."""

from __future__ import annotations

import pytest

from wasserspiele import load
from wasserspiele.core.errors import BadNotation
from wasserspiele.games.wildwasser.render import read_action

GAME = load("wildwasser")


def _why(text):
    with pytest.raises(BadNotation) as err:
        GAME.parse_action(text)
    return err.value.reason


def test_ww_3_2_a_bad_player_is_said_by_letter_in_both_languages():
    why = _why("marker z")  # (the default table: four players)
    assert why == "'marker z': 'z' is not a player (players A-D, or seat numbers 0-3)"
    assert why.render("de") == "„marker z“: „z“ ist kein Spieler (Spieler A-D oder Platznummern 0-3)"
    assert _why("action 9").startswith("'action 9': '9' is not a player (players A-D")


@pytest.mark.parametrize("players, last", [(2, "B"), (3, "C"), (6, "F")])
def test_ww_3_2_a_bad_player_names_the_table_s_players_and_is_quoted_as_typed(players, last):
    """The players of this table, not the most any table has (a 3-player game said
    "players A-F"), and the seat as typed (`Z` was said as `z`)."""
    with pytest.raises(BadNotation) as err:
        load("wildwasser", players=players).parse_action("action Z")
    assert err.value.reason == f"'action Z': 'Z' is not a player (players A-{last}, or seat numbers 0-{players - 1})"


def test_ww_4_3_marker_alone_asks_for_a_player_by_letter():
    why = _why("marker")
    assert why == "'marker': marker needs a player, e.g. marker A"
    assert why.render("de") == "„marker“: marker braucht einen Spieler, z. B. marker A"


@pytest.mark.parametrize("text", ["jump", "", 5])
def test_the_list_of_moves_names_players_not_seats(text):
    why = _why(text)
    assert "action PLAYER" in why and "marker PLAYER" in why and "players: A, B, …" in why
    assert "SEAT" not in why


def test_the_letters_the_errors_name_are_what_the_terminal_reads_and_numbers_still_parse():
    for typed, seat in (("action b", 1), ("marker A", 0), ("marker f", 5)):
        action = GAME.parse_action(read_action(typed))
        assert action.arg == seat
    assert str(GAME.parse_action("action 1")) == "action 1"  # a record's notation is unchanged
    assert GAME.parse_action(read_action("aktion C", "de")).arg == 2

