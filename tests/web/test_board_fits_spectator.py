"""On a wide screen (1024 × 768, 1280 × 800, 1440 × 900, 1920 × 1080) a spectator's and the
replay's play column has no blank band below the board: the game's details take the room
a player's hand and move bar take.

A board drawn wider than its room's shape (Seven Waters' pyramid beside a park, 2.2 times as
wide as high, at every wide size; Watten's table at 1024 × 768) is as wide as the column and
cannot grow taller.  A player has the hand and the move bar below it; a spectator and the
replay had nothing, and the column ended under the board: 205–334 px of the screen's
height blank (Seven Waters' spectator 241–334 px, its replay 205–298 px; Watten's
spectator 106 px at 1024 × 768), with the other seat's park folded in the side column.
The details (Seven Waters' other park, Watten's hands played) now stand there, unfolded.
A board as high as its room (Wasserloch's, Wildwasser's) keeps its details beside it.
Measured in the browser: the screen's height below the lowest part of the play column.

Met on the way: a detail opened by its reader was folded again at every move (the side
column was drawn anew), and the keyboard focus on its title went to the page's body (in
the replay, once the park shown changed, into the board, where the arrow keys no longer
stepped the replay).
"""

from __future__ import annotations

import os

import pytest

from .browser_support import (BOARD_MEASURE, CHROMIUM, browser, finished_table,  # noqa: F401
                              mid_game_table, serving, tabs)

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

WIDE = {"1024x768": (1024, 768), "1280x800": (1280, 800), "1440x900": (1440, 900), "1920x1080": (1920, 1080)}
NARROW = (700, 900)  # below the 760 px where the log moves under the table (style.css)
LOCALES = ["en-US", "de-DE"]
# the most of the screen's height left blank below the column's content: an eighth (96 px
# at 768 px, 135 px at 1080 px), less than a player's hand and move bar take
BLANK_SHARE = 1 / 8
BLANK = 4            # px of the board's box above or below the drawn board: rounding
REPLAY_STEPS = 3     # the replay is looked at a few moves in, a position with pieces out

# the screen below the play column's lowest part; the details under the board and in the side column
COLUMN = """() => {
  const parts = [...document.getElementById('play').children].filter(e => e.getBoundingClientRect().height > 0);
  const under = [...document.querySelectorAll('#under > .panel')];
  return { blank: innerHeight - Math.max(...parts.map(e => e.getBoundingClientRect().bottom)),
           under: under.map(p => p.id), open: under.filter(p => p.open).map(p => p.id),
           underBottom: Math.max(0, ...under.map(p => p.getBoundingClientRect().bottom)),
           beside: [...document.querySelectorAll('#side > .panel')].map(p => p.id),
           besideOpen: [...document.querySelectorAll('#side > .panel')].filter(p => p.open).map(p => p.id) };
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "board_fits_spectator", tables_per_client=50)


@pytest.fixture(scope="module")
def tables(server):
    middle = {g: mid_game_table(server, g) for g in ("seven_waters", "watten", "wasserloch")}
    ended = {g: finished_table(server, g, {"target": 2} if g == "watten" else None) for g in ("seven_waters", "watten")}
    return middle, ended


def open_wide(tabs, server, link: str, size, locale: str):
    """The locale's tab at `link`, loaded at `size`, its board drawn."""
    tab = tabs(locale)
    page = tab.open(server, link, WIDE.get(size, size))
    page.wait_for_selector("#board svg")
    return tab, page


def assert_column_filled(page, where: str) -> dict:
    """Little blank below the column, the board fitting its box, the details under the
    board unfolded and on the screen, and the page one screen."""
    c, m = page.evaluate(COLUMN), page.evaluate(BOARD_MEASURE)
    assert c["blank"] <= BLANK_SHARE * m["screen"], (
        f"{where}: {c['blank']:.0f} px blank below the play column (of {m['screen']} px; "
        f"details under the board {c['under']}, beside it {c['beside']})")
    assert m["above"] <= BLANK and m["below"] <= BLANK, f"{where}: the board's box does not fit it: {m}"
    assert c["open"] == c["under"] and c["underBottom"] <= m["screen"], f"{where}: {c}"
    assert m["down"] <= 0 and m["sideways"] <= 0, f"{where}: the page scrolls ({m['down']}, {m['sideways']} px)"
    return c


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", list(WIDE))
def test_a_spectator_s_seven_waters_column_on_a_wide_screen_has_no_blank_band_below_the_board(
        tabs, server, tables, size, locale):
    middle, _ = tables
    tab, page = open_wide(tabs, server, middle["seven_waters"]["spectator_link"], size, locale)
    c = assert_column_filled(page, f"spectator {size} ({locale})")
    # what fills it: the other seat's park, which was folded in the side column
    assert c["under"] == ["park-1"] or c["under"] == ["park-0"], c
    assert not tab.errors


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", list(WIDE))
def test_the_seven_waters_replay_s_column_on_a_wide_screen_has_no_blank_band_below_the_board(
        tabs, server, tables, size, locale):
    _, ended = tables
    tab, page = open_wide(tabs, server, f"/replay/{ended['seven_waters']['id']}", size, locale)
    for k in range(1, REPLAY_STEPS + 1):
        page.click("#next")
        page.wait_for_selector(f"#turn[data-n='{k}']")
        assert_column_filled(page, f"replay step {k} {size} ({locale})")
    assert not tab.errors


@pytest.mark.parametrize("size", list(WIDE))
def test_watten_s_spectator_and_replay_on_a_wide_screen_have_no_blank_band_below_the_board(tabs, server, tables, size):
    """Watten's table is drawn wider than its room at 1024 × 768 only (106 px blank below a
    spectator's); at the other sizes it is as high as its room, as before."""
    middle, ended = tables
    for where, link in (("spectator", middle["watten"]["spectator_link"]), ("replay", f"/replay/{ended['watten']['id']}")):
        tab, page = open_wide(tabs, server, link, size, "en-US")
        if where == "replay":
            page.click("#next")
            page.wait_for_selector("#turn[data-n='1']")
        assert_column_filled(page, f"watten {where} {size}")
        assert not tab.errors


def test_a_board_as_high_as_its_room_keeps_its_details_folded_beside_it(tabs, server, tables):
    """Wasserloch's board fills the column's height: nothing moves under it, the board keeps
    its whole room (the screen less the strips above it, as before)."""
    middle, _ = tables
    tab, page = open_wide(tabs, server, middle["wasserloch"]["spectator_link"], "1920x1080", "en-US")
    c, m = page.evaluate(COLUMN), page.evaluate(BOARD_MEASURE)
    assert c["under"] == [] and c["beside"] == ["gone", "scores"] and c["besideOpen"] == [], c
    assert m["boardBottom"] >= m["screen"] - 12, m
    assert not tab.errors


def test_the_details_under_the_board_go_back_beside_it_when_the_screen_narrows(tabs, server, tables):
    """Below 760 px the log follows the play column: the park returns to the side column,
    folded, and comes back under the board, unfolded, when the window is wide again."""
    middle, _ = tables
    tab, page = open_wide(tabs, server, middle["seven_waters"]["spectator_link"], "1280x800", "en-US")
    assert page.evaluate(COLUMN)["under"], page.evaluate(COLUMN)
    for size in ("narrow", "1440x900"):
        w, h = WIDE.get(size, NARROW)
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_function(f"innerHeight === {h} && innerWidth === {w}")
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => r(true)))")  # the resize handled
        c = page.evaluate(COLUMN)
        if size == "narrow":
            assert c["under"] == [] and len(c["beside"]) == 1 and c["besideOpen"] == [], c
        else:
            assert_column_filled(page, f"resized to {size}")
    assert not tab.errors


def test_a_panel_opened_or_folded_by_its_reader_stays_so_at_the_next_move(tabs, server, tables):
    """A spectator who opened a detail in the side column (Wasserloch's cards gone) saw it
    folded again at the next move: every move drew the side column anew, its details folded,
    and the keyboard focus on its title went to the page's body.  In the replay a park
    folded under the board stays folded at the next step."""
    middle, ended = tables
    table = middle["wasserloch"]
    tab, page = open_wide(tabs, server, table["spectator_link"], "1280x800", "en-US")
    page.focus("#gone > summary")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.getElementById('gone').open")
    n = server.get(f"/api/tables/{table['id']}")["n"]
    seat = server.get(f"/api/tables/{table['id']}")["waiting"][0]
    token = table["seats"][seat]["token"]
    mine = server.get(f"/api/tables/{table['id']}", token)
    server.post(f"/api/tables/{table['id']}/moves", {"action": mine["legal"][0], "n": mine["n"]}, token)
    page.wait_for_selector(f"#turn:not([data-n='{n}'])")
    assert page.evaluate("() => document.getElementById('gone').open"), "the opened panel was folded by the move"
    assert page.evaluate("() => document.activeElement.matches('#gone > summary')"), (
        page.evaluate("() => document.activeElement.outerHTML.slice(0, 80)"))
    assert not tab.errors
    tab, page = open_wide(tabs, server, f"/replay/{ended['seven_waters']['id']}", "1280x800", "en-US")
    page.click("#next")
    page.wait_for_selector("#turn[data-n='1']")
    park = page.evaluate(COLUMN)["under"][0]
    page.click(f"#{park} summary")
    page.click("#prev")
    page.wait_for_selector("#turn[data-n='0']")
    page.click("#next")
    page.wait_for_selector("#turn[data-n='1']")
    assert page.evaluate(f"() => document.getElementById('{park}').open") is False
    assert not tab.errors


def test_the_focus_on_a_detail_s_title_stays_on_it_as_the_replay_steps(tabs, server, tables):
    """A keyboard reader on the title of Seven Waters' other park steps the replay with the
    arrow keys: the focus stays on the park's title, also where the park shown changes
    with the seat to move (park-0 for park-1); it went to the page's body."""
    _, ended = tables
    tab, page = open_wide(tabs, server, f"/replay/{ended['seven_waters']['id']}", "1280x800", "en-US")
    page.focus(".panel > summary")
    titles = []
    for k in range(1, REPLAY_STEPS + 1):
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(f"#turn[data-n='{k}']")
        titles.append(page.evaluate("() => document.activeElement.matches('.panel > summary') && document.activeElement.id"))
    assert all(titles), titles
    assert len(set(titles)) > 1, f"the park shown did not change in {REPLAY_STEPS} steps: {titles}"
    assert not tab.errors
