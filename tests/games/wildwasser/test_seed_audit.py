"""Seed audit: sentences of the German seed text (shared/rules/004_*.txt) checked by play.

Each test quotes the sentence it checks and is named after the spec clause
(shared/spec/wildwasser.md) that carries it; these are the edge cases the existing
clause tests leave out.  Default scenario board as in test_rules.py: with 2 players
the river holds T00 T09 T10 T11 T12, with 3 players T00 T07 T08 T09 T10.
"""

from __future__ import annotations

import json

import pytest

from .helpers import TILES, events, field_of, finish, last_player_finishes_third, new, picks, put, set_slot


def legal(state, seat=None):
    return [str(a) for a in state.legal_actions(seat)]


def test_ww_2_1_the_removed_tiles_stay_unseen():
    """"entfernt ihr einige Baumstammtafeln unbesehen aus dem Spiel": which tiles went out
    (and in what order) changes nothing any seat sees."""
    other = TILES[:8][::-1] + TILES[8:]
    other[0], other[1] = "T08", "T07"
    a, b = new(2), new(2, tiles=other)
    assert a.removed != b.removed and a.slots == b.slots and a.stack == b.stack
    for seat in (0, 1, None):
        assert json.dumps(a.view(seat), sort_keys=True) == json.dumps(b.view(seat), sort_keys=True)


@pytest.mark.parametrize(("face", "species", "speed"), [
    ("1", "turtle", 1), ("2", "meerkat", 2), ("3", "rhino", 3), ("4", "zebra", 4), ("5", "cheetah", 5)])
def test_ww_3_2_the_die_moves_the_animal_of_its_number_by_its_usual_speed(face, species, speed):
    """"Das Würfelergebnis bestimmt, welches deiner Tiere du in seiner gewohnten
    Geschwindigkeit voranziehen musst (den Gepard beispielsweise um 5 Felder, das Zebra um 4
    und so weiter)": each number face moves that animal of the roller by its speed."""
    s = new(2, dice=[face])
    put(s, 0, species, 24)  # the first move of the turn is the die's (an icon may follow)
    picks(s, "rhino", "zebra")
    s.apply("action")
    moves = [e for e in events(s, "move") if e[1] == 0]
    assert moves[0][2:] == (["cheetah", "zebra", "rhino", "meerkat", "turtle"].index(species), 24, 24 + speed)
    assert s.to_move() == (1,)


def test_ww_3_2_the_sun_offers_only_animals_still_racing():
    """"Würfelst du die Sonne, ziehst du ein beliebiges deiner Tiere um 1 Feld voran":
    any of your animals, but a finished one may not move again (WW-3.3)."""
    s = new(2, dice=["sun"])
    finish(s, 0, "zebra")
    finish(s, 0, "turtle")
    picks(s, "rhino", "rhino")
    s.apply("action")
    assert legal(s) == ["sun cheetah", "sun rhino", "sun meerkat"]
    s.apply("sun meerkat")
    assert field_of(s, 0, "meerkat") == 1


def test_ww_3_2_the_cheetah_may_put_the_marker_on_its_own_team_card():
    """"den Startmarker auf eine andere Teamkarte deiner Wahl umsetzen" with the icon's
    "(auch die eigene)": any team card but the one it lies on, the player's own included."""
    s = new(3, first_player=1)
    picks(s, "cheetah", "cheetah", "cheetah")
    assert s.to_move() == (1,) and legal(s) == ["move", "action 0", "action 2"]
    s.apply("move")
    assert s.to_move() == (2,) and legal(s) == ["move", "action 0", "action 2"]
    s.apply("action 2")  # seat 2 takes it onto its own team card
    assert s.marker == 2
    assert s.to_move() == (0,) and legal(s) == ["move", "action 0", "action 1"]


def test_ww_3_3_a_finished_cheetah_forces_the_marker_move():
    """"Spielst du eine Karte mit einem Tier aus, das sein Rennen bereits beendet hat,
    darfst du dieses nicht mehr bewegen, sondern musst die andere Aktion wählen" (cheetah)."""
    s = new(2)
    finish(s, 0, "cheetah")
    picks(s, "cheetah", "zebra")
    assert legal(s) == ["action 1"]
    s.apply("action 1")
    assert s.marker == 1


def test_ww_3_3_a_finished_meerkat_forces_taking_the_cards_back():
    """The same sentence for the meerkat: only "alle deine aufgedeckten Karten wieder auf
    die Hand nehmen" is left."""
    s = new(2)
    finish(s, 0, "meerkat")
    picks(s, "zebra", "zebra")
    s.apply("move")
    s.apply("move")
    picks(s, "meerkat", "rhino")
    assert legal(s) == ["action"]
    s.apply("action")
    assert s.state_json()["hands"][0] == ["cheetah", "zebra", "rhino", "meerkat", "turtle"]


def test_ww_3_3_a_finished_rhino_forces_the_die():
    """The same sentence for the rhino: it must roll."""
    s = new(2, dice=["5"])
    finish(s, 0, "rhino")
    picks(s, "rhino", "zebra")
    assert legal(s) == ["action"]
    s.apply("action")
    assert events(s, "roll")[-1] == ("roll", 0, "5") and field_of(s, 0, "cheetah") == 5


def test_ww_3_3_a_finished_turtle_leaves_the_meerkat_or_the_rhino():
    """"Wenn du die Karte mit der Schildkröte ausspielst, müssen gegebenenfalls das
    Erdmännchen oder das Nashorn um 1 Feld voranziehen."""
    s = new(2)
    finish(s, 0, "turtle")
    picks(s, "turtle", "zebra")
    assert legal(s) == ["move rhino", "move meerkat"]
    s.apply("move meerkat")
    assert field_of(s, 0, "meerkat") == 1


def test_ww_4_2_one_step_from_the_last_field_crosses_the_line():
    """"Um das Rennen zu beenden, muss ein Tier die Ziellinie überschreiten": from field 37
    one step is enough; from 36 one step lands on 37 and the animal is still racing."""
    s = new(2)
    put(s, 0, "turtle", 37)
    put(s, 1, "turtle", 35)
    picks(s, "turtle", "turtle")
    s.apply("move turtle")
    assert field_of(s, 0, "turtle") == "podium 1"
    s.apply("move turtle")  # 35 + 1 = 36 (+2): 38 is past 37, finished by the icon
    assert field_of(s, 1, "turtle") == "podium 2"


def test_ww_4_2_each_species_has_its_own_podium():
    """"Jede Tierart hat dabei ein eigenes Podest. Das erste Tier einer Tierart, das im
    Ziel ankommt, stellt ihr auf Platz 1": a zebra finishing after a cheetah is 1st zebra."""
    s = new(2)
    finish(s, 1, "cheetah")
    put(s, 0, "zebra", 35)
    picks(s, "zebra", "rhino")
    s.apply("move")
    assert field_of(s, 0, "zebra") == "podium 1" and field_of(s, 1, "cheetah") == "podium 1"
    assert s.points() == [5, 4]


def test_ww_4_3_plus_three_after_the_next_free_field():
    """"+1, +2, +3: Wenn dein Tier auf diesem Feld landet, ziehst du es zusätzlich die
    angegebene Zahl Felder voran" for +3 (T16, column 2), ending on an occupied field."""
    s = new(2)
    set_slot(s, 1, "T16")  # crossing 1: fields 4-6, column 2 = field 5
    put(s, 1, "rhino", 8)  # the +2 field after it is taken
    picks(s, "cheetah", "zebra")
    s.apply("move")  # 0 + 5 = 5 (+3) -> 8 taken -> 9
    assert field_of(s, 0, "cheetah") == 9
    assert events(s, "icon") == [("icon", 0, 3, 5)]


def test_ww_5_1_a_third_finish_by_a_later_player_also_ends_that_round():
    """"Das Spiel endet am Ende der Runde, in der mindestens eine Person das dritte ihrer
    5 Tiere über die Ziellinie bewegt hat": the last player of the round finishing a third
    animal ends the game at once after that turn, with no new round."""
    s = last_player_finishes_third()
    s.apply("move")
    assert not s.is_terminal()
    s.apply("move")
    assert s.is_terminal() and s.round == 1 and s.winners() == [1]
