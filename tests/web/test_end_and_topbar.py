"""The table's shared layout on a phone (390 × 844), measured in the browser: the board at
the game's end and the top bar.

A walkthrough of Watten on a phone found: at the end the board shrank to what the result
left of the screen (a 236 px board, texts of 8 px; Wildwasser's 6 px), while the page
could scroll to the result anyway; and the top bar took four rows while the name form was
asked for (title; "Your name … Save Rules"; "Hint" alone; the status line), pushing the
board down.
"""

from __future__ import annotations

import os

import pytest

from .browser_support import (CHROMIUM, GAMES, SIZES, browser,  # noqa: F401
                              finished_table, mid_game_table, serving, tabs)

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

READABLE_TEXT = 10     # px: the least font size of a board's words


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "end_and_topbar", tables_per_client=100)


@pytest.fixture(scope="module")
def finished(server):
    return {g: finished_table(server, g, {"wasserloch": None, "watten": {"target": 2}, "seven_waters": {},
                                          "wildwasser": {"players": 3}}[g]) for g in GAMES}


# the board's drawing: its scale on the screen, the scale that fills the board's width,
# its least font size (in the drawing's units and on the screen), and the result's top
BOARD = """() => {
  const board = document.querySelector('#board'), svg = board.querySelector('svg');
  const width = board.clientWidth, vb = svg.viewBox.baseVal, scale = svg.getScreenCTM().a;
  const sizes = [...board.querySelectorAll('svg text')].filter((el) => el.textContent.trim())
    .map((el) => parseFloat(getComputedStyle(el).fontSize));
  const least = Math.min(...sizes);
  return {scale, across: width / vb.width, least, leastPx: least * scale, texts: sizes.length,
          boardBottom: board.getBoundingClientRect().bottom,
          resultTop: document.querySelector('#result').getBoundingClientRect().top,
          pageHeight: document.documentElement.scrollHeight};
}"""


@pytest.mark.parametrize("game", GAMES)
def test_at_the_end_a_phone_s_board_keeps_its_size_and_the_page_scrolls_to_the_result(tabs, server, finished, game):
    """At the end the board is drawn across the play column, as tall as its drawing needs
    (it shrank to what the result left of the screen: Watten's texts 8 px, Wildwasser's
    6 px), its texts ≥ 10 px (Wildwasser's field numbers were drawn at 9.5 px even across
    the column: now 10.5); the result follows below it, the page scrolls."""
    tab = tabs()
    page = tab.open(server, finished[game]["seats"][0]["link"], "phone")
    page.wait_for_selector("#rematch")
    m = page.evaluate(BOARD)
    assert m["texts"] > 0, m
    assert m["scale"] >= 0.98 * m["across"], m        # drawn across the column, not shrunk to a thumbnail
    assert m["leastPx"] >= READABLE_TEXT - 0.05, m
    assert m["resultTop"] >= m["boardBottom"] - 1, m   # the result below the board, not over it
    page.locator("#rematch").scroll_into_view_if_needed()
    rematch = page.locator("#rematch").bounding_box()
    assert 0 <= rematch["y"] and rematch["y"] + rematch["height"] <= SIZES["phone"][1]
    assert tab.errors == []


# the top bar's parts: the title's box, the rules link's, the hint button's, and the bar's
TOPBAR = """() => Object.fromEntries([['title', '#play .topbar h1'], ['rules', '#rules-link'], ['hint', '#hint'],
  ['bar', '#play .topbar'], ['form', '#name-form']].map(([k, sel]) => {
  const b = document.querySelector(sel)?.getBoundingClientRect();
  return [k, b ? {top: b.top, bottom: b.bottom, left: b.left, right: b.right, height: b.height} : null];
}))"""


def on_one_row(a: dict, b: dict) -> bool:
    return a["top"] < b["bottom"] and b["top"] < a["bottom"]


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
@pytest.mark.parametrize("game", ["watten", "seven_waters"])
def test_on_a_phone_the_hint_button_and_the_rules_link_stand_on_the_title_s_row(tabs, server, game, locale):
    """The hint button and the rules link share the title's row at 390 px, in both
    languages, with the name form asked for (on a row of its own below) and once a name
    is given; nothing beyond the screen's edge.  In English "Hint" wrapped alone onto a
    third row (in German "Regeln Tipp" onto a row of their own)."""
    # a table of its own: the name given below is the seat's, and a named seat asks for none
    table = mid_game_table(server, game)
    tab = tabs(locale)
    page = tab.open(server, table["seats"][0]["link"], "phone")
    page.wait_for_selector("#name-form")
    for named in (False, True):
        if named:
            page.fill("#my-name", "Anna")
            page.click("#name-form button")
            page.wait_for_selector("#name-form", state="detached")
        bar = page.evaluate(TOPBAR)
        assert on_one_row(bar["title"], bar["hint"]) and on_one_row(bar["title"], bar["rules"]), bar
        assert bar["hint"]["right"] <= SIZES["phone"][0] and bar["rules"]["left"] > bar["title"]["right"], bar
        if not named:
            assert bar["form"]["top"] >= bar["title"]["bottom"] - 1, bar
            assert bar["form"]["right"] <= SIZES["phone"][0], bar
    assert tab.errors == []


@pytest.mark.parametrize("locale, over, won", [("de-DE", "Spielende.", "Spielende. Gewonnen: "),
                                               ("en-US", "Game over.", "Game over. Won by: ")])
def test_at_the_end_who_won_is_said_once_in_the_result_not_again_above_it(tabs, server, finished, locale, over,
                                                                           won):
    """The line under the title and the result box right below it both said "Spielende.
    Gewonnen: Platz 1." at a wide screen's end, one above the other; the line now says the
    game is over, the result who won (and the end's announcement says both)."""
    table = finished["wasserloch"]
    tab = tabs(locale)
    page = tab.open(server, table["seats"][0]["link"], "desktop")
    page.wait_for_selector("#result .winners")
    assert page.inner_text("#turn").strip() == over
    assert page.inner_text("#result .winners").startswith(won)
    assert page.inner_text("#table").count(won) == 1
    assert tab.errors == []


@pytest.mark.parametrize("locale, you", [("de-DE", "du"), ("en-US", "you")])
def test_wl_5_4_the_winner_reads_its_own_seat_marked_as_its_chip_is(tabs, server, finished, locale, you):
    """"Won by: seat 1." was shown and read to seat 1 as if another had won; the chips say
    "(you)" already.  A seat that did not win, and a spectator, read the seats alone."""
    table = finished["wasserloch"]
    winners = server.get(f"/api/tables/{table['id']}")["winners"]
    losers = [s["seat"] for s in table["seats"] if s["seat"] not in winners]  # (none when all tie)
    for seat, marked in [(winners[0], True)] + [(s, False) for s in losers[:1]]:
        tab = tabs(locale)
        page = tab.open(server, table["seats"][seat]["link"], "desktop")
        page.wait_for_selector("#result .winners")
        line = page.inner_text("#result .winners")
        assert (f"({you})" in line) is marked, (seat, line)
        assert tab.errors == []
