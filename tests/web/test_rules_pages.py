"""Player-facing rules: a text per game and language, served as a page, reachable
from the lobby and the table; written for players (no clause ids)."""

from __future__ import annotations

import re

import pytest

from wasserspiele.core.errors import WasserspieleError
from wasserspiele.core.registry import game_class
from wasserspiele.core.rules_text import LANGUAGES, player_rules

GAMES = ["wasserloch", "seven_waters", "watten", "wildwasser"]
# the word for each option in each language's options table (the lobby's labels)
OPTION_WORDS = {
    "en": {"players": "Players", "rounds": "Rounds", "first_player": "Start", "chase": "Driving off",
           "slide_limit": "Slides in all", "final_turns": "Turns after the last take", "target": "Points to win",
           "first_dealer": "First dealer", "raising": "Raising", "signals": "Signals",
           "signal_detection_p": "Chance a signal is caught", "jack_order": "Jack order", "follow": "Following",
           "caller": "Trump caller", "hand_value": "Points per hand", "river_flow": "River flow"},
    "de": {"players": "Spieler", "rounds": "Durchgänge", "first_player": "Start", "chase": "Vertreiben",
           "slide_limit": "Rutschen insgesamt", "final_turns": "Züge nach der letzten Karte",
           "target": "Punkte zum Sieg", "first_dealer": "Erster Geber", "raising": "Erhöhen", "signals": "Zwicken",
           "signal_detection_p": "Chance, dass Zwicken auffällt", "jack_order": "Reihenfolge der Buben",
           "follow": "Bedienen", "caller": "Wer sagt Trumpf an", "hand_value": "Punkte je Blattl",
           "river_flow": "Fließrichtung"},
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_player_rules_that_explain_every_option(game, lang):
    text = player_rules(game, lang)
    assert text.startswith("# "), "a title first"
    assert not re.search(r"\b(WL|SW|WA|WW)-\d", text), "clause ids are for developers"
    options_part = text[text.index("## Option"):]
    for o in game_class(game).option_list:
        assert f"| {OPTION_WORDS[lang][o.name]}" in options_part, o.name


def test_the_project_s_own_choices_are_in_the_rules():
    assert "J♥ > J♣ > J♠ > J♦" in player_rules("watten", "en")          # the rank table
    assert "B♥ > B♣ > B♠ > B♦" in player_rules("watten", "de")
    for lang in LANGUAGES:
        ww = player_rules("wildwasser", lang)
        assert "| 10 | 6 | 3 |" in ww and "37" in ww                     # podium points, the board


def test_unknown_rules_are_refused_with_a_reason():
    with pytest.raises(WasserspieleError, match="language"):
        player_rules("watten", "fr")
    with pytest.raises(WasserspieleError, match="unknown game"):
        player_rules("chess", "en")


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_is_served_in_both_languages(client, game, lang):
    r = client.get(f"/rules/{game}?lang={lang}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert f'<html lang="{lang}">' in r.text and "<h1>" in r.text and "<table>" in r.text
    other = "de" if lang == "en" else "en"
    assert f'href="/rules/{game}?lang={other}"' in r.text


def test_the_rules_page_follows_the_browser_language_and_refuses_unknown_games(client):
    r = client.get("/rules/watten", headers={"accept-language": "de-AT,de;q=0.9,en;q=0.5"})
    assert '<html lang="de">' in r.text
    r = client.get("/rules/chess")
    assert r.status_code == 404 and '<html lang="en">' in r.text
    # the reason as a sentence of its own on the page (its first letter a capital)
    assert "Unknown game &#x27;chess&#x27; (games: seven_waters, wasserloch, watten, wildwasser" in r.text
    r = client.get("/rules/watten?lang=fr")
    assert r.status_code == 404 and "There are no rules in the language fr (languages: en, de)" in r.text
    r = client.get("/rules/watten?lang=de-AT")  # a regional tag is its language
    assert r.status_code == 200 and '<html lang="de">' in r.text


@pytest.mark.parametrize("path, headers", [("/rules/chess?lang=de", {}),
                                           ("/rules/chess", {"accept-language": "de-AT,de;q=0.9"}),
                                           ("/rules/watten?lang=fr", {"accept-language": "de"})])
def test_a_missing_rules_page_is_said_in_the_pages_language(client, path, headers):
    """The 404 page of a German reader is German (it was English whatever the language)."""
    r = client.get(path, headers=headers)
    assert r.status_code == 404 and '<html lang="de">' in r.text
    assert "<h1>Nicht gefunden</h1>" in r.text and "Zurück zur Lobby" in r.text
    assert ("Es gibt kein Spiel namens „chess“" in r.text) or ("Es gibt keine Regeln in der Sprache fr" in r.text)


@pytest.mark.parametrize("lang, title, level", [("en", "What the levels mean", "hard"),
                                                 ("de", "Was die Spielstärken bedeuten", "schwer")])
@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_says_what_the_levels_mean_from_the_leaderboard(client, game, lang, title, level):
    from wasserspiele.bots.leaderboard import LEVEL_ORDER, read_boards
    board = read_boards()[game]
    r = client.get(f"/rules/{game}?lang={lang}")
    section = r.text[r.text.index(f"<h2>{title}</h2>"):]
    assert re.search(f"<td[^>]*>{level}</td>", section) and " ms</td>" in section
    # the header, then one row per level on the board
    assert len(re.findall("<tr[ >]", section)) == 1 + sum(board.rating(lv) is not None for lv in LEVEL_ORDER) >= 4


def test_tables_too_wide_for_a_phone_are_marked_to_stack_with_their_column_names():
    # the levels table's five columns of prose cannot sit side by side on a phone without
    # breaking words, a two-column options table can: only the first becomes cards there,
    # each cell carrying its column's name, with table roles for screen readers
    from html.parser import HTMLParser

    from wasserspiele.web.app import render_rules

    class Tables(HTMLParser):
        def __init__(self):
            super().__init__()
            self.tables: list[dict] = []
            self.cell: list[str] | None = None

        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            if tag == "table":
                self.tables.append({"attrs": attrs, "header": [], "cells": []})
            elif tag in ("th", "td"):
                self.cell = []
                self.tables[-1]["cells" if tag == "td" else "header"].append((attrs, self.cell))
            elif tag in ("thead", "tbody", "tr") and "stacks" in self.tables[-1]["attrs"].get("class", ""):
                assert attrs.get("role") == {"tr": "row"}.get(tag, "rowgroup")

        def handle_endtag(self, tag):
            if tag in ("th", "td"):
                self.cell = None

        def handle_data(self, data):
            if self.cell is not None:
                self.cell.append(data)

    page = Tables()
    page.feed(render_rules("wasserloch", "de"))
    options = next(t for t in page.tables if "".join(t["header"][0][1]) == "Option")
    levels = next(t for t in page.tables if "".join(t["header"][0][1]) == "Stufe")
    assert options["attrs"] == {} and all("data-label" not in a for a, _ in options["cells"])
    assert levels["attrs"] == {"class": "stacks", "role": "table"}
    names = ["".join(text) for _, text in levels["header"]]
    assert names[:2] == ["Stufe", "Wie sie spielt"] and len(names) == 5
    assert [a["data-label"] for a, _ in levels["cells"]] == names * (len(levels["cells"]) // 5)
    assert all(a["role"] == "cell" for a, _ in levels["cells"])
