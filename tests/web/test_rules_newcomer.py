"""A newcomer learns each game from its rules page and what the table says: every word the
table shows for a game is explained on that page, in both languages, and each page walks
through a first turn.  The words are read from the catalogues, so a table text that
changes without its rules page changing fails here."""

from __future__ import annotations

import re

import pytest

from wasserspiele.core.messages import catalogue
from wasserspiele.core.rules_text import LANGUAGES, player_rules

GAMES = ["wasserloch", "seven_waters", "watten", "wildwasser"]

# What the table shows a player of the game (seat chips, header, buttons, legends, the
# last actions), by catalogue key: a newcomer who reads one of these must find it on the
# rules page.  The words around placeholders are what is looked for.
SHARED = ["web.your_turn", "web.log", "web.hint"]
TABLE_WORDS = {
    "wasserloch": ["web.pile", "wasserloch.web.play_button", "wasserloch.web.drove", "wasserloch.web.gone",
                   "wasserloch.web.round", "web.score"],
    "seven_waters": ["seven_waters.web.line", "seven_waters.web.score_hidden_theme", "seven_waters.web.discarded",
                     "seven_waters.web.extra", "seven_waters.web.cat.slides", "seven_waters.web.cat.river",
                     "seven_waters.web.cat.pool", "seven_waters.web.cat.theme", "seven_waters.web.cat.hand",
                     "seven_waters.web.cat.discards"],
    "watten": ["watten.web.phase.trump", "watten.web.phase.signal", "watten.web.phase.play", "watten.web.trump",
               "watten.web.signal_none", "watten.web.signal", "watten.web.sig_seat", "watten.web.calls",
               "watten.web.dealer", "watten.web.partner", "watten.web.value", "watten.web.target",
               "watten.web.us_them", "watten.web.results"],
    "wildwasser": ["wildwasser.web.ph.pick", "wildwasser.web.ph.resolve", "wildwasser.web.stack",
                   "wildwasser.web.waiting_n", "wildwasser.web.chip_cue", "wildwasser.web.legend_icons",
                   "wildwasser.web.legend_seats", "wildwasser.web.icon.plus", "wildwasser.web.ev.roll",
                   "wildwasser.web.ev.enter", "wildwasser.web.ev.move"],
}
FIRST_TURN = {"de": "## Dein erster Zug", "en": "## Your first turn"}
OPTIONS = {"de": "## Optionen", "en": "## Options"}


def flat(text: str) -> str:
    """A page as a reader sees it: no emphasis marks, one space between words, any case."""
    return " ".join(text.replace("*", "").split()).casefold()


def fragments(msg) -> list[str]:
    """The fixed words of a catalogue text: the parts between its placeholders and between
    the items of a legend ("⚀ Würfel · ⚑ Startmarker"); the plural form for a plural."""
    text = msg[-1] if isinstance(msg, tuple) else msg
    parts = re.split(r"\{[^}]*\}| · ", text)
    words = [p.strip(" .:;,·").casefold() for p in parts]
    return [w for w in words if len(w) > 1]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_every_word_the_table_shows_is_on_the_rules_page(game, lang):
    page = flat(player_rules(game, lang))
    entries = catalogue(lang).entries
    missing = [(key, w) for key in SHARED + TABLE_WORDS[game] for w in fragments(entries[key]) if w not in page]
    assert not missing, missing


@pytest.mark.parametrize("lang", LANGUAGES)
def test_wildwasser_names_the_letters_its_track_draws_the_animals_by(lang):
    # the track and the hand show each animal by the initial of its name (web.js `initial`)
    entries = catalogue(lang).entries
    letters = " ".join(entries[f"wildwasser.web.sp.{sp}"][0].upper()
                       for sp in ("cheetah", "zebra", "rhino", "meerkat", "turtle"))
    assert f"({letters})" in player_rules("wildwasser", lang)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_each_rules_page_walks_through_a_first_turn_before_the_options(game, lang):
    text = player_rules(game, lang)
    assert FIRST_TURN[lang] in text
    section = text[text.index(FIRST_TURN[lang]):text.index(OPTIONS[lang])]
    assert section.count("\n## ") == 0 and len(section) > 300, "a section of its own, with an example"
    assert ("Beispiel:" if lang == "de" else "Example:") in section


@pytest.mark.parametrize("game", GAMES)
def test_both_languages_of_a_rules_page_are_kept_in_step(game):
    # the same sections, tables and bullet lists in the same order: a section added in one
    # language only is caught
    def shape(text: str) -> list[str]:
        return [("##" if line.startswith("## ") else "|" if line.startswith("|---") else "*")
                for line in text.splitlines() if line.startswith(("## ", "|---", "* "))]

    assert shape(player_rules(game, "de")) == shape(player_rules(game, "en"))



# -- the first-turn examples are what the engine and the table do -----------------------
def _said(key: str, args: dict, lang: str, who: str = "WHO") -> str:
    """A table line as the page quotes it: without the seat's name it starts with."""
    from wasserspiele.core.messages import render
    return flat(render(key, {"who": who, **args}, lang).replace(who, "", 1).lstrip(": "))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_wl_4_2_the_wasserloch_first_turn_example_drives_off_as_the_page_says(lang):
    # one 5 on place 5, place 4 empty, two 3s; you hold two 5s and play them: the three 5s
    # skip the empty place and drive off the 3s, 2 cards of loot
    from collections import Counter

    from wasserspiele import load

    hands = ["3", "3", "7", "7", "7", "5", "8", "8", "8", "2", "5", "5", "A", "A", "6"]  # seats 1, 2, 0
    left = Counter({v: 8 for v in "A2345678"})
    left.subtract(hands)
    state = load("wasserloch", players=3, first_player=1, rounds=1).new_game(
        setup={"decks": [hands + [v for v in "A2345678" for _ in range(left[v])]]})
    state.apply("3x2")
    state.apply("5x1")
    assert state.view(0)["waterhole"][2:5] == [2, 0, 1] and state.view(0)["hand"][4] == 2
    state.apply("5x2")
    drive = state.view(None)["recent"][-1]
    assert (drive["seat"], drive["drove_off"], drive["loot"]) == (0, "3", 2) and state.scores()[0] == 2
    page = flat(player_rules("wasserloch", lang))
    assert _said("wasserloch.web.drove", {"v": drive["drove_off"], "n": drive["loot"]}, lang) in page
    assert _said("wasserloch.web.play_button", {"v": "5", "n": 2}, lang) in page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_sw_4_3a_the_seven_waters_first_turn_example_is_a_slide_with_an_extra_action(lang):
    # line 1 is 4♣, the hand A♦ 5♦ and a joker: A♦ with the joker as a 3 is a slide at
    # line 1, and a finished slide gives an extra action (the same seat moves again)
    from wasserspiele import load

    mine = ["4C", "KD", "4D", "8D", "5S", "3H", "KS", "8S", "6D", "3D"]
    hand = ["AD", "5D", "X1"]
    rest = [c for c in (f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK") if c not in mine + hand] + ["X2"]
    deck = rest[:28] + mine + rest[28:38] + hand + rest[38:41]
    state = load("seven_waters").new_game(setup={"deck": deck})
    slide = next(a for a in state.legal_actions(0) if str(a) == "slide 1 AD X1=3")
    state.apply(slide, 0)
    assert state.to_move() == (0,)
    page = player_rules("seven_waters", lang)
    assert "A♦ ★=3" in page and "4♣ (Σ 4)" in page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_wa_3_2_the_watten_first_turn_example_marks_only_the_cards_that_follow(lang):
    # hearts trump, seat 3 (right of dealer 0) leads the 9♦; holding A♥ Q♥ 10♣ 8♦ 7♦ you
    # must follow with a diamond
    from games.watten.helpers import start

    state = start({3: "9D 9C 9H 9S 8C", 0: "AH QH TC 8D 7D"}, trump="H")
    state.apply("9D")
    assert sorted(str(a) for a in state.legal_actions(0)) == ["7D", "8D"]
    page = player_rules("watten", lang)
    assert {"de": "A♥ D♥ 10♣ 8♦ 7♦", "en": "A♥ Q♥ 10♣ 8♦ 7♦"}[lang] in page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_ww_4_1_the_wildwasser_first_turn_example_moves_as_the_table_reports(lang):
    # a rhino on field 3; your meerkat leaves its team card for field 2 (+1), passes the
    # occupied field 3 and stops on 4: the page quotes the table's lines for it
    from wasserspiele import load
    from wasserspiele.core.messages import render

    state = load("wildwasser", players=2, first_player=1).new_game(seed=1)
    state.apply("pick meerkat", 0)
    state.apply("pick rhino", 1)
    state.apply("move", 1)
    state.apply("move", 0)
    events = [e for e in state.view(None)["log"] if e.get("seat") == 0 and e["event"] in ("move", "icon")]
    assert [(e["event"], e.get("start"), e.get("to"), e.get("field")) for e in events] == [
        ("move", 0, 2, None), ("icon", None, None, 2), ("move", 2, 4, None)]
    page = flat(player_rules("wildwasser", lang))
    animal = render("wildwasser.web.sp.meerkat", {}, lang)
    assert _said("wildwasser.web.ev.enter", {"a": animal, "to": 2}, lang) in page
    assert _said("wildwasser.web.ev.move", {"a": animal, "from": 2, "to": 4}, lang) in page
    assert _said("wildwasser.web.ev.icon", {"i": render("wildwasser.web.icon.plus", {}, lang), "f": 2}, lang) in page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_ww_3_2_the_rules_page_says_what_each_face_of_the_die_moves(lang):
    # the table reports "The die showed 2.": the page must say which animal a number moves
    # (the one with that speed) and what the sun does; faces and speeds from the board
    import json
    from pathlib import Path

    import wasserspiele.games.wildwasser as ww
    from wasserspiele.core.messages import render

    board = json.loads((Path(ww.__file__).parent / "board.json").read_text())
    by_speed = {str(v["speed"]): sp for sp, v in board["species"].items()}
    page = flat(player_rules("wildwasser", lang))
    entries = catalogue(lang).entries
    for face in board["die"]:
        if face in by_speed:
            assert flat(f"{face} {entries[f'wildwasser.web.sp.{by_speed[face]}']}") in page, face
        else:
            assert flat(render("wildwasser.face.sun", {}, lang).split()[-1]) in page, face


@pytest.mark.parametrize("lang, gap", [("de", "Position 1 bleibt leer"), ("en", "slot 1 stays empty")])
def test_ww_5_2_the_rules_page_says_the_river_still_moves_when_the_stack_is_empty(lang, gap):
    # the seed's "alternative end": the last push still shifts the river, leaving a gap the
    # page's "empty slot" rule then applies to; the page did not say where a gap comes from
    end = player_rules("wildwasser", lang).split("\n## ")
    section = next(s for s in end if s.startswith(("Spielende", "End of the game")))
    assert gap in " ".join(section.split())
