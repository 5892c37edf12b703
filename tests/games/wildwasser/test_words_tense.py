"""One tense for the moves in every game's narration: the past, in both languages.

The terminal (render.describe_last / describe_own) and the web log tell what happened
since the reader last looked, beside the own move's "You played …" / "Du hast … gelegt":
English Wildwasser said "A reveals the zebra" where the other games said "played",
"took"; German Watten and Wildwasser said "spielt", "deckt auf" where Wasserloch and
Seven Waters said "legte", "nahm".  Now every move, roll and its effect is in the past
("A revealed", "Platz 1 spielte"); a line about the position that still holds as it is
read stays in the present ("Round 2 begins; …", "this is the last round", "the hand is
now worth 3").  Every game's event entries are checked, not just Wildwasser's."""

from __future__ import annotations

import re

import pytest

from wasserspiele.core.messages import catalogue, render

GAMES = ("seven_waters", "wasserloch", "watten", "wildwasser")
# the log's entries: the terminal's `GAME.event.*`, the web's `watten.web.log.*`,
# `wildwasser.web.ev.*`, `wasserloch.web.log` and its `wasserloch.web.drove`
LOG_ENTRY = re.compile(r"^(%s)\.(event\.|web\.log|web\.ev\.|web\.drove)" % "|".join(GAMES))
# the verbs the four games narrate moves with, in the present (what the log said before)
PRESENT = {
    "en": r"\b(reveals|rolls|pushes|moves|takes|gives|keeps|leaves|lands|crosses|is washed|is blocked|deals|"
          r"plays|wins|names|signals|sends|raises|accepts|concedes|waits|cannot|picks|acts|reaches|drives|"
          r"goes|comes|shows|ends|discards|passes|adds|builds|places)\b",
    # ("erhöht" only before "auf" or ":" and not after "hast"/"hat": the participle of "Du hast
    # auf 2 erhöht" and „Du hast erhöht: …" (a player's own raise, said to them) is the same word)
    "de": r"\b(deckt|würfelt|schiebt|zieht|nimmt|gibt|behält|legt|lässt|landet|überquert|muss|kann|spielt|"
          r"gewinnt|macht|(?<!hast )(?<!hat )erhöht(?= auf|:)|zwickt|wartet|wählt|verlässt|kommt|passiert|zeigt|vertreibt|geht|"
          r"endet|führt|stürzt|wirft|passt|baut|wird|ist blockiert|sagt \{)\b",
}


def _entries(lang):
    cat = catalogue(lang).to_json()["messages"]
    for code, text in sorted(cat.items()):
        if LOG_ENTRY.match(code):
            for form in (text if isinstance(text, list) else [text]):
                yield code, form


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_games_log_tells_moves_in_the_past(lang):
    present = re.compile(PRESENT[lang])
    entries = list(_entries(lang))
    assert {code.split(".")[0] for code, _ in entries} == set(GAMES)
    said = [(code, text) for code, text in entries if present.search(text)]
    assert said == [], said


@pytest.mark.parametrize(("code", "params", "en", "de"), [
    ("wildwasser.event.reveal", {"seat": 0, "card": "zebra"}, "A revealed the zebra.", "A deckte die Karte Zebra auf."),
    ("wildwasser.event.roll", {"seat": 1, "face": "sun"}, "B rolled the sun.", "B würfelte die Sonne."),
    ("wildwasser.event.move", {"seat": 2, "animal": "rhino", "start": 0, "to": 3},
     "C's rhino moved from the team card to field 3.", "C: Nashorn zog von der Teamkarte auf Feld 3."),
    ("wildwasser.event.push", {"seat": 0, "tile": "die", "waterfall": "blank"},
     "A pushed the river: in came a die tile, over the waterfall went a blank tile.",
     "A schob den Fluss: Hinein kam eine Tafel mit Würfel, über den Wasserfall stürzte eine leere Tafel."),
    ("wildwasser.event.round", {"round": 2, "start_marker": 1},
     "Round 2 begins; B holds the start marker.", "Runde 2 beginnt; B hat den Startmarker."),
    ("watten.event.play", {"seat": 1, "card": "JC"}, "Seat 1 played J♣", "Platz 1 spielte B♣"),
    ("watten.event.deal", {"dealer": 0, "caller": 3}, "Seat 0 dealt; seat 3 calls trump",
     "Platz 0 hat gegeben; Platz 3 sagt Trumpf an"),
    ("watten.event.trick", {"winner": 2}, "Seat 2 won the trick", "Platz 2 machte den Stich"),
    ("wasserloch.event.played", {"seat": 1, "play": "5x2"}, "Seat 1 played 5x2", "Platz 1 legte 5x2"),
])
def test_examples_of_the_one_tense(code, params, en, de):
    assert render(code, params, "en") == en and render(code, params, "de") == de


@pytest.mark.parametrize(("lang", "one", "two"), [
    ("en", "stack: 1 tile (0 removed unseen)", "stack: 2 tiles (0 removed unseen)"),
    ("de", "Stapel: 1 Tafel (0 unbesehen entfernt)", "Stapel: 2 Tafeln (0 unbesehen entfernt)"),
])
def test_ww_2_1_the_terminal_counts_one_tile_left_in_the_stack_in_the_singular(lang, one, two):
    """The terminal's status line said "stack: 1 tiles" / „Stapel: 1 Tafeln" near the end."""
    assert render("wildwasser.ui.stack", {"n": 1, "k": 0}, lang) == one
    assert render("wildwasser.ui.stack", {"n": 2, "k": 0}, lang) == two
