"""WA-3, WA-6 refusals said to whoever reads them.  They spoke to the acting player ("you
do not hold Q♠ (your hand: …)", "you must follow clubs: you hold 8♣", "du musst Kreuz
bedienen"), right on the player's own screen but wrong in a record's replay error, which
names the seat itself ('action 6 "JC" by seat 0: you must follow clubs' addressed the
reader).  As Wasserloch's "no 8s in hand", the words now name neither a seat nor a
"you": the hand and the team are the acting seat's by context."""

from __future__ import annotations

import json

import pytest

from wasserspiele.core.errors import IllegalAction, ReplayError
from wasserspiele.core.messages import Reason
from wasserspiele.core.records import replay

from .helpers import deal, start

HANDS = {3: "7C 9S TS QS KS", 0: "JC 8C AH 9D KD"}  # seat 3 calls and leads (dealer 0, caller right of the dealer)


def _code(value):
    return value.code.partition(".")[2] if isinstance(value, Reason) else "-"


@pytest.mark.parametrize(("reason", "en", "de"), [
    (Reason("watten.not_held", card="QS", hand=["JC", "8C", "AH", "9D", "KD"]),
     "Q♠ is not in hand, only J♣, 8♣, A♥, 9♦, and K♦", "D♠ ist nicht auf der Hand, nur B♣, 8♣, A♥, 9♦ und K♦"),
    (Reason("watten.not_held", card="QS", hand=["TH"]), "Q♠ is not in hand, only T♥",
     "D♠ ist nicht auf der Hand, nur 10♥"),
    (Reason("watten.must_follow", suit="C", held=["8C"]), "clubs must be followed (8♣ in hand)",
     "Kreuz muss bedient werden (8♣ auf der Hand)"),
    (Reason("watten.must_follow", suit="H", held=["QH", "TH"]), "hearts must be followed (Q♥ and T♥ in hand)",
     "Herz muss bedient werden (D♥ und 10♥ auf der Hand)"),
    (Reason("watten.must_follow_trump", suit="H", held=["JC", "TH"]),
     "trump must be followed with hearts or any jack (J♣ and T♥ in hand)",
     "Trumpf muss mit Herz oder einem Buben bedient werden (B♣ und 10♥ auf der Hand)"),
    (Reason("watten.gespannt", n=9, value=2, target=11),
     "this team is gespannt (9 points + hand value 2 reaches the target 11): it may answer a raise but not raise",
     "dieses Team ist gespannt (9 Punkte + Wert des Blattls 2 erreichen das Ziel 11): es darf auf ein Erhöhen "
     "antworten, aber nicht erhöhen"),
    (Reason("watten.gespannt", n=1, value=14, target=15),
     "this team is gespannt (1 point + hand value 14 reaches the target 15): it may answer a raise but not raise",
     "dieses Team ist gespannt (1 Punkt + Wert des Blattls 14 erreichen das Ziel 15): es darf auf ein Erhöhen "
     "antworten, aber nicht erhöhen"),
    (Reason("watten.raise_alternate"),
     "the last raise came from this team; raises alternate, so the other team must raise next",
     "das letzte Erhöhen kam von diesem Team; es wird abwechselnd erhöht, also ist das andere Team dran"),
    (Reason("watten.no_raise"), "there is no raise to answer", "es gibt kein Erhöhen, auf das man antworten könnte"),
    (Reason("watten.answer_raise", seat=1, value=3),
     "seat 1 raised the hand to 3: first the raise must be answered with 'accept' or 'concede'",
     "Platz 1 hat das Blattl auf 3 erhöht: zuerst muss das Erhöhen mit „annehmen“ oder „aufgeben“ beantwortet "
     "werden"),
    (Reason("watten.signals_over"), "the signals are over: now a card is played",
     "das Zwicken ist vorbei: jetzt wird eine Karte gespielt"),
], ids=_code)
def test_wa_refusals_name_the_hand_and_the_team_not_a_you(reason, en, de):
    assert reason == en and reason.render("de") == de


def test_wa_6_the_raise_to_answer_names_the_raiser_as_the_surface_names_seats():
    """The terminal's board and the page name seats ("Anna"); the raiser was "seat 1" there."""
    reason = Reason("watten.answer_raise", seat=1, value=3)
    names = ["Anna", "Ben", "Cleo", "Dora"]
    assert reason.render("en", say_seat=lambda s, lang: names[s]).startswith("Ben raised the hand to 3: ")
    assert reason.render("de", say_seat=lambda s, lang: names[s]).startswith("Ben hat das Blattl auf 3 erhöht: ")


def test_wa_3_the_refusal_the_player_gets_names_the_card_and_the_hand():
    state = start(HANDS)
    state.apply("7C")
    with pytest.raises(IllegalAction) as err:
        state.apply("QS")
    assert err.value.reason == "Q♠ is not in hand, only J♣, 8♣, A♥, 9♦, and K♦"
    with pytest.raises(IllegalAction) as err:
        state.apply("JC")
    assert err.value.reason == "clubs must be followed (8♣ in hand)"


def _record(*cards):
    return {"format": "wasserspiele-record/1", "game": "watten", "setup": {"deals": [deal(HANDS, caller=3)]},
            "actions": ["trump H", *["signal none"] * 4, *cards]}


@pytest.mark.parametrize(("card", "en", "de"), [
    ("QS", "Q♠ is not in hand, only J♣, 8♣, A♥, 9♦, and K♦", "D♠ ist nicht auf der Hand, nur B♣, 8♣, A♥, 9♦ und K♦"),
    ("JC", "clubs must be followed (8♣ in hand)", "Kreuz muss bedient werden (8♣ auf der Hand)"),
], ids=["not_held", "must_follow"])
def test_wa_3_a_replay_error_names_the_seat_once_and_says_no_you(card, en, de):
    """records.md: the message names the action's index, the action, the seat and why."""
    with pytest.raises(ReplayError) as err:
        replay(json.loads(json.dumps(_record("7C", card))))
    assert str(err.value) == f'action 6 "{card}" by seat 0: {en}'
    assert err.value.render("de") == f"Aktion 6 „{card}“ von Platz 0: {de}"


def test_wa_3_wasserspiele_replay_says_it_so_in_both_languages(run, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_record("7C", "QS")))
    out = run("replay", str(path))
    assert out.exit_code == 1
    said = " ".join(out.output.split())
    assert 'action 6 "QS" by seat 0: Q♠ is not in hand, only J♣, 8♣, A♥, 9♦, and K♦' in said, said
    said = " ".join(run("replay", str(path), "--lang", "de").output.split())
    assert "Aktion 6 „QS“ von Platz 0: D♠ ist nicht auf der Hand, nur B♣, 8♣, A♥, 9♦ und K♦" in said, said


@pytest.mark.parametrize("lang", ["en", "de"])
def test_watten_refusals_quote_what_to_type_as_words_not_as_markdown(lang):
    """The terminal and the page showed Watten's refusals with Markdown's backticks
    ("name a suit after trump, e.g. `trump H`"): quoted now as the other games quote."""
    from wasserspiele.core.messages import catalogue
    entries = catalogue(lang).entries
    texts = [str(text) for key, text in entries.items() if key.startswith("watten.")]
    assert texts and not [text for text in texts if "`" in text]
