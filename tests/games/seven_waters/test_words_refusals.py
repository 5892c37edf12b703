"""SW-4 refusals said to whoever reads them.  They spoke to the acting player ("you do
not hold 7♠", "your river runs 3-5", "du hast 7♠ nicht auf der Hand"), right on the
player's own screen but wrong in a record's replay error, which names the seat itself
('action 1 "discard 7H" by seat 1: you do not hold 7♥' addressed the reader).  As
Wasserloch's "no 8s in hand", the words now name neither a seat nor a "you": the hand,
the river, the line are the acting seat's by context."""

from __future__ import annotations

import json

import pytest

from wasserspiele.core.errors import IllegalAction, ReplayError
from wasserspiele.core.messages import Reason
from wasserspiele.core.records import replay

from .helpers import make_deck


def _code(value):
    return value.code.partition(".")[2] if isinstance(value, Reason) else "-"


@pytest.mark.parametrize(("reason", "en", "de"), [
    (Reason("seven_waters.not_held", card="7S"), "7♠ is not in hand", "7♠ ist nicht auf der Hand"),
    (Reason("seven_waters.hand_empty", card="TH"), "T♥ is not in hand (the hand is empty)",
     "10♥ ist nicht auf der Hand (die Hand ist leer)"),
    (Reason("seven_waters.hand_full", n=7), "already 7 cards in hand, the most allowed: only a discard or a build "
     "is possible", "schon 7 Karten auf der Hand, mehr sind nicht erlaubt: möglich ist nur Abwerfen oder Bauen"),
    (Reason("seven_waters.line_has_slide", line=2), "line 2 already has its slide", "Leine 2 hat schon ihre Rutsche"),
    (Reason("seven_waters.pass_can_discard", n=1), "passing is allowed only when nothing else is legal, and the 1 "
     "card in hand can still be discarded (or used to build)", "Passen geht nur, wenn nichts anderes erlaubt ist, "
     "und die eine Karte auf der Hand kann noch abgeworfen (oder verbaut) werden"),
    (Reason("seven_waters.pass_can_discard", n=3), "passing is allowed only when nothing else is legal, and the 3 "
     "cards in hand can still be discarded (or used to build)", "Passen geht nur, wenn nichts anderes erlaubt ist, "
     "und die 3 Karten auf der Hand können noch abgeworfen (oder verbaut) werden"),
    (Reason("seven_waters.pass_can_take"), "passing is allowed only when nothing else is legal, and a pyramid card "
     "can still be taken", "Passen geht nur, wenn nichts anderes erlaubt ist, und eine Pyramidenkarte kann noch "
     "genommen werden"),
    (Reason("seven_waters.pool_suit", suit="H", card="7S"), "the wave pool is hearts: 7♠ is not (only hearts or "
     "jokers declared =H may join it)", "das Wellenbecken ist Herz, 7♠ nicht (nur Herz oder Joker mit =♥ dürfen "
     "hinein)"),
    (Reason("seven_waters.river_ends_both", low="3", high="5", below="2", above="6"),
     "the river runs 3-5; new cards must continue it at one end: a run ending at 2 or a run starting at 6",
     "der Strömungskanal reicht von 3 bis 5; neue Karten müssen ihn an einem Ende fortsetzen: eine Folge bis 2 "
     "oder eine Folge ab 6"),
    (Reason("seven_waters.river_ends_high", low="A", high="5", below="A", above="6"),
     "the river runs A-5; new cards must continue it at one end: a run starting at 6",
     "der Strömungskanal reicht von A bis 5; neue Karten müssen ihn an einem Ende fortsetzen: eine Folge ab 6"),
    (Reason("seven_waters.river_ends_low", low="9", high="K", below="8", above="K"),
     "the river runs 9-K; new cards must continue it at one end: a run ending at 8",
     "der Strömungskanal reicht von 9 bis K; neue Karten müssen ihn an einem Ende fortsetzen: eine Folge bis 8"),
    (Reason("seven_waters.river_full"), "the river already runs from A to K",
     "der Strömungskanal reicht schon von A bis K"),
    (Reason("seven_waters.theme_placed"), "the theme has already been placed (once per game)",
     "das Motto ist schon ausgelegt (einmal pro Spiel)"),
], ids=_code)
def test_sw_4_refusals_name_the_hand_not_a_you(reason, en, de):
    assert reason == en and reason.render("de") == de


def _record():
    """Seat 0 discards 7♥; then seat 1, which never held it, tries the same (SW-4.2)."""
    deck = make_deck(hands=(["7H", "2C", "3C"], ["4D", "5D", "6D"]))
    return {"format": "wasserspiele-record/1", "game": "seven_waters", "setup": {"deck": deck},
            "actions": ["discard 7H", "discard 7H"]}


def test_sw_4_2_the_refusal_the_player_gets_names_the_card_not_a_you():
    state = replay({**_record(), "actions": ["discard 7H"]})
    with pytest.raises(IllegalAction) as err:
        state.apply("discard 7H", 1)
    assert err.value.reason == "7♥ is not in hand" and err.value.reason.code == "seven_waters.not_held"
    assert err.value.reason.render("de") == "7♥ ist nicht auf der Hand"


def test_sw_4_2_a_replay_error_names_the_seat_once_and_says_no_you():
    """records.md: the message names the action's index, the action, the seat and why."""
    with pytest.raises(ReplayError) as err:
        replay(json.loads(json.dumps(_record())))
    assert str(err.value) == 'action 1 "discard 7H" by seat 1: 7♥ is not in hand'
    assert err.value.render("de") == "Aktion 1 „discard 7H“ von Platz 1: 7♥ ist nicht auf der Hand"


def test_sw_4_2_wasserspiele_replay_says_it_so_in_both_languages(run, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_record()))
    out = run("replay", str(path))
    assert out.exit_code == 1
    assert 'action 1 "discard 7H" by seat 1: 7♥ is not in hand' in " ".join(out.output.split())
    out = run("replay", str(path), "--lang", "de")
    assert "Aktion 1 „discard 7H“ von Platz 1: 7♥ ist nicht auf der Hand" in " ".join(out.output.split())
