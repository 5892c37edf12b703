"""Wasserloch, Watten and Wildwasser on a phone held sideways, and a phone turned.

Measured (a seat's page mid-game, German; the least of each): on a phone held sideways the
board was drawn in the room its short screen leaves above the hand, 112 px high, about as
high as wide (568 × 320, 667 × 375, 740 × 360, 844 × 390): Wasserloch's places 22.4 px wide
(a choice: under the 24 px of WCAG 2.5.8), their animals' names 3.3 px high; Watten's words
of the seats 3.8 px; Wildwasser's field numbers and icons 3.4 px.  At 640 × 280 the board had
the screen's height and the words were 7.2, 8.4 and 7.4 px.  In the hand Wasserloch's names
were 6.9 px (9 px upright), Wildwasser's 8.5 px.  Upright (390 × 844) every board's words
are 10.5 px or more.  With table.js SIDEWAYS the boards are drawn as wide as the column:
places of 65 px and more, every board's and hand's words 10.2 px or more.

Turning the phone drew the board anew only with the next position: Seven Waters' pyramid
above its park stayed squeezed into the room above the hand of a phone turned sideways.

Wildwasser's river sideways: its fields, 30 units wide at a pitch of 31, stood 0.9 px apart
(3.8 px upright) and ran together into one strip; a field's number and its icon, side by
side in 30 units, ran into each other ("36+2").  The fields are 27.5 units wide, 4 apart as
upright (3.7 px at 844 × 390 and 740 × 360), the icon under the number."""

from __future__ import annotations

import os

import pytest

from .browser_support import CHROMIUM, browser, finished_table, mid_game_table, saved_name, serving, tabs  # noqa: F401
from .test_reflow_and_zoom import TARGET, settle, small_targets

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

READABLE_TEXT = 10     # px: the least font size of a board's words (as test_end_and_topbar)
GAMES = ("wasserloch", "watten", "wildwasser")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "landscape_phones")


@pytest.fixture(scope="module")
def tables(server):
    return {g: mid_game_table(server, g) for g in (*GAMES, "seven_waters")}


# tabs whose pages find the player's name saved (the page asks no name)
NAMED = saved_name("Anna")


# the board's choices (their least side), the words drawn on the board and in the hand (their
# height on the screen, the least first), and where the hand ends
MEASURE = """() => {
  const keys = JSON.parse(document.getElementById('app').dataset.keys || '[]');
  const choices = [...document.querySelectorAll('#board [data-key]')].filter((el) => keys.includes(el.dataset.key))
    .map((el) => { const b = el.getBoundingClientRect(); return [el.dataset.key, Math.min(b.width, b.height)]; });
  const words = [...document.querySelectorAll('#board svg text, #hand svg text')]
    .filter((el) => el.textContent.trim() && el.getBoundingClientRect().width > 0)
    .map((el) => [el.textContent.trim().slice(0, 20), parseFloat(getComputedStyle(el).fontSize) * el.getScreenCTM().a])
    .sort((a, b) => a[1] - b[1]);
  const hand = [...document.querySelectorAll('#hand [data-key]')].map((e) => e.getBoundingClientRect().bottom);
  return { choices, words, hand: hand.length ? Math.max(...hand) : null,
           sideways: document.documentElement.scrollWidth - innerWidth };
}"""


@pytest.mark.parametrize("game", GAMES)
def test_on_a_phone_held_sideways_the_board_s_places_are_targets_and_its_words_legible(tabs, server, tables, game):
    """568 × 320: the narrowest column of a phone held sideways (558 px), the hand below the
    first screen; 844 × 390: the column beside the log (556 px), the hand on the first screen."""
    tab = tabs("de-DE")
    for size in [(568, 320), (844, 390)]:
        page = tab.open(server, tables[game]["seats"][0]["link"], size, wait_for="#turn[data-mine='1']")
        page.wait_for_selector("#board svg")
        settle(page)
        m = page.evaluate(MEASURE)
        assert m["words"], m
        assert [w for w in m["words"] if w[1] < READABLE_TEXT - 0.05] == [], (size, m["words"][:5])
        assert [c for c in m["choices"] if c[1] < TARGET] == [], (size, m["choices"])
        assert small_targets(page) == [], size
        if size[1] >= 375:
            assert m["hand"] is not None and m["hand"] <= size[1] + 1, (size, m["hand"])
        assert m["sideways"] <= 0, size
        assert tab.errors == []


# the board's drawing, its width over its height
ASPECT = "() => { const vb = document.querySelector('#board svg').viewBox.baseVal; return vb.width / vb.height; }"


BOARD_HEIGHT = "() => document.getElementById('board').getBoundingClientRect().height"


@pytest.mark.parametrize("game", ["wasserloch", "seven_waters"])
def test_a_phone_turned_sideways_and_back_draws_its_board_anew_without_a_move(tabs, server, tables, game):
    """Wasserloch's waterhole (a circle upright, a row sideways); Seven Waters' pyramid above
    its park upright, beside it sideways (its web.js LANDSCAPE: 560 to 760 px wide).  Turned
    back, the board is as high as before: the column's fit on the resize, made with the board
    still drawn sideways, was kept as its least height, and the waterhole stayed at about half
    its height (361 → 190 px at 390 × 844) for the rest of the game."""
    # (the page is turned by its viewport: the tab's next link sets its own)
    tab = tabs("de-DE")
    page = tab.open(server, tables[game]["seats"][0]["link"], (360, 740), wait_for="#turn[data-mine='1']")
    page.wait_for_selector("#board svg")
    settle(page)
    n = page.get_attribute("#turn", "data-n")
    upright, high = page.evaluate(ASPECT), page.evaluate(BOARD_HEIGHT)
    assert upright < 1.5, upright
    page.set_viewport_size({"width": 740, "height": 360})
    page.wait_for_function(f"() => ({ASPECT})() > 2")
    page.set_viewport_size({"width": 360, "height": 740})
    page.wait_for_function(f"() => ({ASPECT})() < 1.5")
    settle(page)
    assert page.evaluate(ASPECT) == pytest.approx(upright)
    assert page.evaluate(BOARD_HEIGHT) >= high - 1, (high, page.evaluate(BOARD_HEIGHT))
    assert page.get_attribute("#turn", "data-n") == n   # no position came in between
    assert tab.errors == []


def test_the_replay_turned_sideways_draws_its_board_anew_without_a_step(tabs, server):
    # the replay gave its board's picker no redraw: a phone turned kept the upright waterhole,
    # squeezed into the room above the step buttons, until the next step
    ended = finished_table(server, "wasserloch")
    tab = tabs("de-DE")
    page = tab.open(server, f"/replay/{ended['id']}", (360, 740), wait_for="#replay-bar")
    page.wait_for_selector("#board svg")
    step = page.inner_text("#step")
    assert page.evaluate(ASPECT) < 1.5
    page.set_viewport_size({"width": 740, "height": 360})
    page.wait_for_function(f"() => ({ASPECT})() > 2")
    assert page.inner_text("#step") == step
    assert tab.errors == []


# Wildwasser's fields: each one's box, and the boxes of its number and its icon
FIELDS = """() => [...document.querySelectorAll('#board svg g[role=img]:has(> title)')].filter((g) => g.querySelector(':scope > rect'))
  .map((g) => {
    const box = (el) => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
    return { field: box(g.querySelector(':scope > rect')), texts: [...g.querySelectorAll(':scope > text')].map((t) => [t.textContent, box(t)]) };
  })"""


def row_gaps(fields) -> list[float]:
    """The gaps between a field and the next one to its right in the same row."""
    boxes = sorted((f["field"] for f in fields), key=lambda b: (round(b[1]), b[0]))
    return [b[0] - a[2] for a, b in zip(boxes, boxes[1:]) if abs(a[1] - b[1]) < 1 and b[0] > a[2] - 1]


def overlap(a, b) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def test_ww_sideways_the_river_s_fields_stand_apart_as_upright_and_their_words_apart(tabs, server, tables):
    """667 × 375, 740 × 360, 844 × 390, 568 × 320: neighbouring fields stand at least 0.9 times
    as far apart as upright (390 × 844), 3 px at least (0.9 px before); a field's number and
    its icon do not overlap ("36" and "+2" did by 5 units) and stay within their field."""
    link = tables["wildwasser"]["seats"][0]["link"]
    tab = tabs("de-DE")
    page = tab.open(server, link, (390, 844), wait_for="#turn[data-mine='1']")
    page.wait_for_selector("#board svg")
    upright = min(row_gaps(page.evaluate(FIELDS)))
    assert upright > 3, upright
    for size in [(667, 375), (740, 360), (844, 390), (568, 320)]:
        page = tab.open(server, link, size, wait_for="#turn[data-mine='1']")
        page.wait_for_selector("#board svg")
        assert page.evaluate(ASPECT) > 2, size   # the sideways board
        fields = page.evaluate(FIELDS)
        assert len(fields) >= 30, fields
        gaps = row_gaps(fields)
        assert len(gaps) >= 30 and min(gaps) >= max(3, 0.9 * upright), (size, min(gaps), upright)
        crowded = [[t for t, _ in f["texts"]] for f in fields
                   if len(f["texts"]) == 2 and overlap(f["texts"][0][1], f["texts"][1][1])]
        assert crowded == [], (size, crowded)
        out = [t for f in fields for t, b in f["texts"]
               if b[0] < f["field"][0] - 0.5 or b[2] > f["field"][2] + 0.5]
        assert out == [], (size, out)
        assert tab.errors == []


@pytest.mark.parametrize("game", GAMES)
def test_at_740_by_360_the_hand_ends_on_the_first_screen_with_the_status_on_the_title_s_row(
        tabs, server, tables, game):
    """740 × 360, German, a named seat (the page asks no name): the game's status stood on a
    row of its own under the title, the rules link and the hint button, and the hand ended 10
    px below the screen (370 px).  The status stands on the title's row, its words on two
    lines: the hand ends on the first screen.  (While a name is asked for, the form keeps its
    place on the title's row and the status follows it; in German it wraps to a row of its own
    there, as before.)"""
    tab = tabs("de-DE", NAMED)
    page = tab.open(server, tables[game]["seats"][0]["link"], (740, 360), wait_for="#turn[data-mine='1']")
    page.wait_for_selector("#board svg")
    assert page.locator(".topbar .name-form").count() == 0
    m = page.evaluate(MEASURE)
    assert m["hand"] is not None and m["hand"] <= 360 + 1, m["hand"]
    # the status is on the title's row: its top above the title's bottom
    rows = page.evaluate("""() => [document.querySelector('.topbar h1'), document.querySelector('.topbar .status-text')]
      .map((el) => el.getBoundingClientRect()).map((b) => [b.top, b.bottom])""")
    assert rows[1][0] < rows[0][1], rows
    assert m["sideways"] <= 0
    assert tab.errors == []


# the bottom of the hand's box and of its cards, and of the strips above the board
FOLD = """() => {
  const bottom = (el) => el ? el.getBoundingClientRect().bottom : null;
  const cards = [...document.querySelectorAll('#hand [data-key]')].map(bottom);
  return { hand: bottom(document.getElementById('hand')), cards: cards.length ? Math.max(...cards) : null,
           seats: bottom(document.getElementById('seats')), hint: document.getElementById('hint').getBoundingClientRect().height };
}"""


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_at_568_by_320_the_hand_ends_on_the_first_screen(tabs, server, tables, game, locale):
    """568 × 320 (a small phone held sideways), a named seat: the header, the title row (43.6 px
    in German, its status on two lines below the title's baseline), the "Your turn." strip, the
    seats' two rows and the gaps between them left the board its 7rem only above a hand whose
    box ended at 342.6 px (English) and 354.3 px (German), below the screen.  Drawn tighter,
    the hand ends on the first screen; the board keeps its size (its places targets, its
    words legible: the test above), the hint button stays a target, nothing scrolls sideways."""
    tab = tabs(locale, NAMED)
    page = tab.open(server, tables[game]["seats"][0]["link"], (568, 320), wait_for="#turn[data-mine='1']")
    page.wait_for_selector("#board svg")
    settle(page)
    assert page.locator(".topbar .name-form").count() == 0
    fold = page.evaluate(FOLD)
    assert fold["cards"] is not None and fold["cards"] <= fold["hand"] + 0.5, fold
    assert fold["hand"] <= 320, fold
    assert fold["hint"] >= TARGET, fold
    m = page.evaluate(MEASURE)
    assert [w for w in m["words"] if w[1] < READABLE_TEXT - 0.05] == [], m["words"][:5]
    assert [c for c in m["choices"] if c[1] < TARGET] == [], m["choices"]
    assert small_targets(page) == []
    assert m["sideways"] <= 0
    assert tab.errors == []


@pytest.fixture(scope="module")
def refusable(server):
    """A Watten table whose seat 0, to move in the play phase, holds a card it may not play
    (WA-3.2: a suit to follow): the tables of the server's seeded deals, the first that has one."""
    for moves in range(9, 30):
        table = mid_game_table(server, "watten", moves)
        view = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])
        if view.get("view", {}).get("phase") == "play" and len(view.get("legal", [])) < len(view["view"]["hand"]):
            return table
    raise AssertionError("no seeded Watten deal gave seat 0 a card it may not play")


# the box of an element, or None
BOX = "(sel) => { const el = document.querySelector(sel); if (!el) return null; const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; }"


@pytest.mark.parametrize("size", [(568, 320), (740, 360), (844, 390)])
def test_wa_3_2_a_refusal_on_a_phone_held_sideways_leaves_the_hand_where_it_was(tabs, server, refusable, size):
    """A card Watten's rules refuse (WA-3.2, a suit to follow), tapped on a phone held sideways:
    the notice ("Nicht erlaubt: Pik muss bedient werden (D♠ auf der Hand)") stood between the
    board and the hand and pushed the hand below the screen (at 568 × 320 its cards from 312 to
    356 px). It stands over the "Your turn." strip and the seats, the board and the hand
    uncovered and where they were; a tap on it puts it away, and plays nothing."""
    tab = tabs("de-DE", NAMED)
    page = tab.open(server, refusable["seats"][0]["link"], size, wait_for="#turn[data-mine='1']")
    page.wait_for_selector("#board svg")
    settle(page)
    keys = page.evaluate("JSON.parse(document.getElementById('app').dataset.keys || '[]')")
    refused = [k for k in page.eval_on_selector_all("#hand [data-key]", "els => els.map(e => e.dataset.key)")
               if k not in keys]
    assert refused, "seat 0 holds no card it may not play"
    hand, board = page.evaluate(BOX, "#hand"), page.evaluate(BOX, "#board")
    assert hand[3] <= size[1], hand
    n = page.get_attribute("#turn", "data-n")
    page.click(f"#hand [data-key='{refused[0]}']", force=True)  # drawn aria-disabled: a tap on it is still heard
    page.wait_for_selector("#notice.refused")
    settle(page)
    assert "bedient" in page.inner_text("#notice")
    notice = page.evaluate(BOX, "#notice")
    assert page.evaluate(BOX, "#hand") == hand and page.evaluate(BOX, "#board") == board
    assert notice[3] <= board[1] and 0 <= notice[1], (notice, board)  # over the strip and the seats, on the screen
    page.click("#notice")
    page.wait_for_selector("#notice", state="detached")
    assert page.get_attribute("#turn", "data-n") == n and page.evaluate(BOX, "#hand") == hand
    assert tab.errors == []
