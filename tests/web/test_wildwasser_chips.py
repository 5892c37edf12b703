"""Wildwasser's table says what its symbols mean, in English and German.

A playtest found: the seat chips showed ⚑ and ✓ that nothing explained, and the board's
fields ⚀ ▤ ⇶ ⚑ neither; the log told a start marker left where it lay as "goes to A" (A
had it), a meerkat's cards taken back (WW-3.2) and the last round (WW-5.2) as "A acts.",
a push (WW-4.4) without the animals it washed back, a roll that did nothing (WW-3.3) and
the game's end (WW-5.1/5.2) without why; the buttons of a revealed card said "Move" and
"Take the action", not how far or which action (WW-3.2)."""

from __future__ import annotations

import os

import pytest

from wasserspiele.games.wildwasser.view import _event

from .browser_support import (CHROMIUM, SIZES, browser, cut_chip_parts, serving,  # noqa: F401
                              tabs)

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

WORDS = {
    "en-US": {"⚑": "holds the start marker", "✓": "has picked a card",
              "legend": "⚑ start marker · ✓ card picked", "field15": "Field 15: start marker, put it on any team card",
              "icons": "⚀ die · ⚑ start marker · ▤ cards back · ⇶ push",
              "fields": ["Field 10: die, roll and move the animal shown",
                         "Field 22: cards back, take your revealed cards back into your hand",
                         "Field 29: push, push the river"]},
    "de-DE": {"⚑": "hat den Startmarker", "✓": "hat eine Karte gewählt",
              "legend": "⚑ Startmarker · ✓ Karte gewählt",
              "field15": "Feld 15: Startmarker, lege ihn auf eine beliebige Teamkarte",
              # the icons by the seed's names (WW-4.3): "Karten auf die Hand", "Baumstammtafel",
              # "das gewürfelte Tier"
              "icons": "⚀ Würfel · ⚑ Startmarker · ▤ Karten auf die Hand · ⇶ Baumstammtafel",
              "fields": ["Feld 10: Würfel, würfle und ziehe das gewürfelte Tier",
                         "Feld 22: Karten auf die Hand, nimm alle deine aufgedeckten Karten wieder auf die Hand",
                         "Feld 29: Baumstammtafel, schiebe eine neue Tafel in den Fluss"]},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "ww_chips")


@pytest.fixture(scope="module")
def table(server):
    """Three humans; seat 1 has picked its card (its chip shows ✓), seat 0 holds the marker."""
    t = server.post("/api/tables", {"game": "wildwasser", "options": {"players": 3},
                                    "seats": [{"kind": "human"}] * 3})
    token = t["seats"][1]["token"]
    mine = server.get(f"/api/tables/{t['id']}", token)
    server.post(f"/api/tables/{t['id']}/moves", {"action": "pick zebra", "n": mine["n"]}, token)
    return t


@pytest.mark.parametrize("locale", list(WORDS))
@pytest.mark.parametrize("size", list(SIZES))
def test_the_chip_symbols_are_named_and_a_legend_on_the_board_says_them(tabs, server, table, locale, size):
    words = WORDS[locale]
    tab = tabs(locale)
    page = tab.open(server, table["seats"][0]["link"], size)
    page.wait_for_selector("#seats [data-seat='1'] .ww-symbol")
    symbols = page.eval_on_selector_all("#seats .seat-chip", """chips => chips.map(c =>
        [...c.querySelectorAll('.ww-symbol')].map(s => [s.textContent, s.getAttribute('aria-label'), s.title, s.getAttribute('role')]))""")
    assert symbols[0] == [["⚑", words["⚑"], words["⚑"], "img"]], symbols
    assert symbols[1] == [["✓", words["✓"], words["✓"], "img"]], symbols
    assert symbols[2] == [], symbols
    # the legend stands on the board, seen whole beside the chips, at a size one can read
    legend = page.evaluate("""() => {
        const el = [...document.querySelectorAll('#board .ww-legend')][0];
        const b = el.getBoundingClientRect(), svg = el.ownerSVGElement.getBoundingClientRect();
        return { text: el.textContent, inside: b.left >= svg.left - 1 && b.right <= svg.right + 1 && b.top >= svg.top - 1,
                 height: b.height, inView: b.bottom <= innerHeight && b.right <= innerWidth };
      }""")
    assert legend["text"] == words["legend"] and legend["inside"] and legend["inView"], legend
    assert legend["height"] >= 9, legend  # px: no smaller than the chips' own words on a phone, about
    # the fields' icons say what they do when pointed at
    titles = page.eval_on_selector_all("#board svg title", "ts => ts.map(t => t.textContent)")
    assert words["field15"] in titles
    assert set(words["fields"]) <= set(titles), titles
    icons = page.eval_on_selector_all("#board .ww-legend", "ls => ls.map(l => l.textContent)")
    assert icons[-1] == words["icons"], icons
    assert cut_chip_parts(page) == []
    assert tab.errors == []


LOG = [
    {"i": 1, "event": "round", "seat": None, "round": 3, "start_marker": 0},
    # the start marker's moves as the view gives them (its `how`, worked out once for the
    # terminal and the page): kept, left with another, taken, handed on, moved by a third
    # seat (C's marker put on B by A)
    *(_event(i, ("marker", seat, to, before), None) for i, seat, to, before in
      ((2, 0, 0, 0), (3, 1, 0, 0), (4, 1, 1, 0), (5, 1, 2, 1), (6, 0, 1, 2))),
    {"i": 7, "event": "cards", "seat": 2},
    {"i": 8, "event": "last_round", "seat": None},
    {"i": 9, "event": "push", "seat": 2, "tile": None, "tile_kind": None, "waterfall": "T05", "waterfall_kind": "+1",
     "washed": [[0, "rhino"]]},
    {"i": 10, "event": "nothing", "seat": 1, "why": "cheetah"},
    {"i": 11, "event": "end", "seat": None, "why": "tiles"},
]


def log_lines(page, view: dict) -> list[str]:
    return page.evaluate("""async (view) => {
        const game = (await import('/static/games/wildwasser.js')).default;
        return game.logLines(view);
      }""", view)


@pytest.mark.parametrize("locale, want", [
    ("en-US", ["Round 3 begins.", "{0} kept the start marker.", "{1} left the start marker with {0}.",
               "{1} took the start marker from {0}.", "{1} gave the start marker to {2}.",
               "{0} moved the start marker from {2} to {1}.",
               "{2} took all revealed cards back.", "The stack is empty: this is the last round.",
               "{2} pushed the river.", "{0}'s rhino was washed back to the team card.",
               "Nothing happened for {1} (the cheetah has already finished).", "The game is over: the log tiles have run out."]),
    ("de-DE", ["Runde 3 beginnt.", "{0} behielt den Startmarker.", "{1} ließ den Startmarker bei {0}.",
               "{1} nahm sich den Startmarker von {0}.", "{1} gab den Startmarker an {2}.",
               "{0} legte den Startmarker von {2} zu {1}.",
               "{2} nahm alle aufgedeckten Karten zurück auf die Hand.",
               "Der Stapel ist leer: dies ist die letzte Runde.",
               "{2} schob den Fluss.", "{0}: Nashorn musste zurück auf die Teamkarte.",
               "Für {1} passierte nichts (der Gepard ist schon im Ziel).",
               "Das Spiel ist vorbei: die Baumstammtafeln sind ausgegangen."])])
def test_ww_4_3_the_log_says_where_the_marker_went_and_every_event_in_words(tabs, server, table, locale, want):
    tab = tabs(locale)
    page = tab.open(server, table["seats"][0]["link"], "desktop")
    # the seats as a sentence names them, the line's first letter a capital (i18n.js seatInText, sentence)
    names = page.evaluate("async () => { const { seatInText } = await import('/static/i18n.js'); return [0, 1, 2].map(seatInText); }")
    assert log_lines(page, {"log": LOG}) == [(lambda x: x[0].upper() + x[1:])(w.format(*names)) for w in want]
    assert tab.errors == []


@pytest.mark.parametrize("locale, want", [
    ("en-US", {"move": "Move the rhino 3 fields", "rhino": "Roll the die", "zebra": "Push the river",
               "meerkat": "Take your revealed cards back"}),
    ("de-DE", {"move": "Nashorn 3 Felder ziehen", "rhino": "Würfeln", "zebra": "Den Fluss schieben",
               "meerkat": "Aufgedeckte Karten zurücknehmen"})])
def test_ww_3_2_a_cards_buttons_say_how_far_it_moves_and_which_action_it_takes(tabs, server, table, locale, want):
    tab = tabs(locale)
    page = tab.open(server, table["seats"][0]["link"], "desktop")
    got = page.evaluate("""async () => {
        const game = (await import('/static/games/wildwasser.js')).default;
        const view = (card) => ({ card, speeds: { cheetah: 5, zebra: 4, rhino: 3, meerkat: 2, turtle: 1 } });
        return { move: game.label("move", view("rhino")), rhino: game.label("action", view("rhino")),
                 zebra: game.label("action", view("zebra")), meerkat: game.label("action", view("meerkat")) };
      }""")
    assert got == want
    assert tab.errors == []
