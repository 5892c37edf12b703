"""Seven Waters' pyramid on small screens: a phone held sideways, and 320 px wide.

Measured (a seat's page mid-game, German): on a phone held sideways the narrow board, the
pyramid above the park, was squeezed into the room its short screen leaves: at 640 × 280
the cards to take were 22.7 px wide with an index ("10♥") of 8.8 px; at 740 × 360,
667 × 375 and 568 × 320 (the board in 7rem above the hand) 10.4 px wide with text of
4.1 px.  The pyramid now stands beside the park: up to 300 px high drawn across the column
(33.8 px, text of 13.1 px at 640 × 280); on a taller screen in the room above the hand,
the park's river, pool and theme beside its lines so that the board is no taller than the
pyramid (23.3 px, text of 9 px: the most 112 px allow the pyramid's 173 units).  There the
move bar, which ended 43 and 38 px below the screen at 667 × 375 and 740 × 360 already,
left the board 7rem: the first screen now ends with the hand (table.js foldAtHand), the hand
is 3.75rem high (its cards 36.7 px wide, 44 before) and the park 40 units narrower, and the
cards to take of a new deal's seven rows are 28.4 px wide at 667 × 375 and 29 px at
740 × 360 (23.3 px at both before); the park's lines, targets to slide onto, are 25.2 and
25.7 px high (18.1 px before).

A covered card of a phone's pyramid shows its top strip only: 16.3 px high at 320 × 568,
20 px at 390 × 844, 12.9 px sideways; each was a target (a tap brought the server's refusal)
under WCAG 2.5.8's 24 px, right above the free cards.  Strips of 24 px would need a pyramid
180 px high, more than a phone held sideways has above its hand: a covered card is no
target for a finger now (the arrow keys still reach it, Enter says why it cannot be taken).

At 320 px (a small phone, 400 % zoom) the covered cards show a strip of 16.3 px: their
index, the whole of what a covered face-up card tells (SW-3.2: face-up cards are public
even while covered), stands in it at 11.4 px, but a covered joker's word "Joker" at 9 px
(set at 11 units); it is set at 13 now (10.6 px), squeezed to the card's width.  They are
not cards to take (a tap only brings the server's refusal); the cards to take are
29.4 × 41.7 px."""

from __future__ import annotations

import os

import pytest

from .browser_support import CHROMIUM, browser, serving, tabs  # noqa: F401
from .test_reflow_and_zoom import TARGET, small_targets
from .test_seven_waters_phone import PYRAMID_TEXTS, READABLE_TEXT, a_table_with_a_covered_pyramid_joker

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "seven_waters_small")


@pytest.fixture(scope="module")
def table(server):
    """A new game (seat 0 to move, row 7 free) with a face-up joker under a later row: a
    covered joker shows only its word."""
    return a_table_with_a_covered_pyramid_joker(server)


# every pyramid card: its key, whether it is a choice now, the part of it in view (its width,
# and its height down to the top of the cards lying on it, SW-3.2) and its index's font size
PYRAMID = """() => {
  const keys = JSON.parse(document.getElementById('app').dataset.keys || '[]');
  const cards = [...document.querySelectorAll('#board [data-key^="pyr:"]')];
  const at = (el) => el.dataset.key.slice(4).split('-').map(Number);
  return cards.map((el) => {
    const [r, c] = at(el), box = el.querySelector('rect.hl').getBoundingClientRect();
    const over = cards.filter((o) => { const [r2, c2] = at(o); return r2 === r + 1 && (c2 === c || c2 === c + 1); });
    const shown = over.length ? Math.min(...over.map((o) => o.querySelector('rect.hl').getBoundingClientRect().top)) - box.top
                              : box.height;
    const text = el.querySelector('text');
    const font = text ? parseFloat(text.getAttribute('font-size')) * text.getScreenCTM().a : null;
    return { key: el.dataset.key, choice: keys.includes(el.dataset.key), width: box.width, shown, font };
  });
}"""

# the boxes on screen of the pyramid's cards, of the park's line rows, and of the board as drawn
BOXES = """() => {
  const union = (els) => {
    const bs = els.map((e) => e.getBoundingClientRect());
    return { left: Math.min(...bs.map((b) => b.left)), right: Math.max(...bs.map((b) => b.right)),
             top: Math.min(...bs.map((b) => b.top)), bottom: Math.max(...bs.map((b) => b.bottom)) };
  };
  const svg = document.querySelector('#board svg'), s = svg.getBoundingClientRect(), vb = svg.viewBox.baseVal;
  const drawn = vb.height * Math.min(s.width / vb.width, s.height / vb.height);
  const hand = [...document.querySelectorAll('#hand [data-key]')].map((e) => e.getBoundingClientRect().bottom);
  return { pyramid: union([...document.querySelectorAll('#board [data-key^="pyr:"] rect.hl')]),
           lines: union([...document.querySelectorAll('#board [data-key^="line:"]')]),
           drawn, hand: hand.length ? Math.max(...hand) : null };
}"""


def seat_page(tab, server, table, size):
    """Seat 0's page of `table` loaded in `tab` at `size`, its board drawn."""
    page = tab.open(server, table["seats"][0]["link"], size, wait_for="#turn[data-mine='1']")
    page.wait_for_selector("#board svg")
    return page


def test_sw_3_2_on_small_screens_the_cards_to_take_are_24_px_targets_and_every_index_is_legible(tabs, server,
                                                                                               table):
    """640 × 280: a phone held sideways below its browser's bars; 320 × 568: a small phone,
    where the covered cards show a strip of 16 px with their index (not a defect)."""
    tab = tabs("de-DE")
    for size in [(640, 280), (320, 568)]:
        page = seat_page(tab, server, table, size)
        cards = page.evaluate(PYRAMID)
        choices = [c for c in cards if c["choice"]]
        assert choices, cards   # seat 0 is to move: the free cards are choices
        assert [c for c in choices if c["width"] < TARGET or c["shown"] < TARGET] == [], (size, choices)
        # every index drawn (a back has none) at a size one reads
        assert [c for c in cards if c["font"] is not None and c["font"] < READABLE_TEXT] == [], (size, cards)
        # a covered card's index stands in the strip in view, not under the row in front of it
        assert [x for x in page.evaluate(PYRAMID_TEXTS) if not x[2]] == [], size
        assert small_targets(page) == [], size
        assert page.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0, size
        assert tab.errors == []


def test_sw_3_2_on_a_phone_held_sideways_the_pyramid_takes_the_board_s_height_beside_the_park(tabs, server,
                                                                                             table):
    """667 × 375: the board keeps to the room above the hand (the hand on the first screen);
    the park beside the pyramid and no taller, so that the pyramid is drawn as large as that
    room allows (it took 45 % of the board's height above the park)."""
    tab = tabs("de-DE")
    page = seat_page(tab, server, table, (667, 375))
    m = page.evaluate(BOXES)
    assert m["pyramid"]["right"] <= m["lines"]["left"], m        # beside, not above
    assert m["lines"]["bottom"] <= m["pyramid"]["bottom"] + 1, m
    assert m["pyramid"]["bottom"] - m["pyramid"]["top"] >= 0.95 * m["drawn"], m
    assert m["hand"] is None or m["hand"] <= 375 + 1, m
    assert [x for x in page.evaluate(PYRAMID_TEXTS) if not x[2]] == []
    assert page.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0
    assert tab.errors == []


# every pyramid card and hand card: its key, whether it is a choice, its box's width and the
# part of it in view (down to the top of the cards lying on it), and the middle of that part
CARDS = """() => {
  const keys = JSON.parse(document.getElementById('app').dataset.keys || '[]');
  const cards = [...document.querySelectorAll('#board [data-key^="pyr:"], #hand [data-key]')];
  const at = (el) => el.dataset.key.startsWith('pyr:') ? el.dataset.key.slice(4).split('-').map(Number) : null;
  const face = (el) => el.querySelector('rect.hl').getBoundingClientRect();
  return cards.map((el) => {
    const box = face(el), pos = at(el);
    const over = pos ? cards.filter((o) => { const p = at(o); return p && p[0] === pos[0] + 1 && (p[1] === pos[1] || p[1] === pos[1] + 1); })
                     : [];
    const shown = over.length ? Math.min(...over.map((o) => face(o).top)) - box.top : box.height;
    return { key: el.dataset.key, choice: keys.includes(el.dataset.key), width: +box.width.toFixed(1),
             shown: +shown.toFixed(1), x: box.left + box.width / 2 + scrollX, y: box.top + shown / 2 + scrollY };
  });
}"""

# what the page sends on its socket, kept in window.__sent (a move a tap sent is seen at once:
# the picker sends it within the click)
SENDS = """
  window.__sent = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) { window.__sent.push(String(data)); return send.call(this, data); };
"""


@pytest.mark.parametrize("size", [(320, 568), (390, 844), (667, 375), (740, 360), (1280, 800)])
def test_sw_3_2_every_card_a_finger_can_tap_is_24_px_both_ways(tabs, server, table, size):
    """WCAG 2.5.8: a pyramid or hand card that shows less than 24 px either way is no target.
    A covered card of a phone's pyramid shows a strip of 12.9 to 20 px, and a tap there sent
    the move to take it (refused by the server); a tap there does nothing now (also Safari's,
    a click with no pointerType), and Enter on it still asks (the keyboard's click).  The cards to take and the hand's cards show 24 px
    both ways."""
    # (what a tap selected or was refused is the page's: the tab's next link is loaded anew)
    tab = tabs("de-DE", SENDS)
    page = tab.open(server, table["seats"][0]["link"], size, wait_for="#turn[data-mine='1']")
    page.wait_for_selector("#board svg")
    cards = page.evaluate(CARDS)
    choices = [c for c in cards if c["choice"]]
    assert [c for c in cards if c["key"].startswith("pyr:") and c["choice"]], cards
    assert [c for c in choices if min(c["width"], c["shown"]) < TARGET] == [], (size, choices)
    small = [c for c in cards if min(c["width"], c["shown"]) < TARGET]
    page.evaluate("() => { window.__sent.length = 0; }")
    tapped = []
    for c in small:
        page.evaluate("([x, y]) => scrollTo(0, Math.max(0, y - innerHeight / 2))", [c["x"], c["y"]])
        at = page.evaluate("([x, y]) => [x - scrollX, y - scrollY]", [c["x"], c["y"]])
        page.mouse.click(*at)
        moves = [m for m in page.evaluate("() => window.__sent") if '"move"' in m]
        if moves or page.locator("#board .selected").count():
            tapped.append((c, moves))
    assert tapped == [], (size, tapped)
    if small:
        # Safari's click is a MouseEvent with no pointerType (a tap there was sent, and refused)
        key = small[0]["key"]
        page.evaluate("""(key) => document.querySelector(`#board [data-key='${key}'] rect.hl`)
          .dispatchEvent(new MouseEvent("click", { bubbles: true, detail: 1 }))""", key)
        page.wait_for_timeout(300)
        assert [m for m in page.evaluate("() => window.__sent") if '"move"' in m] == [], size
        assert page.locator("#board .refused-here").count() == 0
        # the keyboard still asks why a covered card cannot be taken
        page.focus(f"#board [data-key='{key}']")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"#board [data-key='{key}'].refused-here")
    assert tab.errors == []


@pytest.mark.parametrize("size", [(667, 375), (740, 360)])
def test_sw_3_2_on_a_phone_held_sideways_the_cards_to_take_are_larger_and_the_hand_on_the_first_screen(
        tabs, server, table, size):
    """A new deal (seven rows, the board at its tallest): the cards to take were 23.3 px wide
    at both sizes, the board kept to 7rem above the hand with the move bar below the screen
    anyway.  The board takes the move bar's room: 28 px or more, the hand still ending on the
    first screen, the move bar right below it; the park's lines, targets of 18.1 px, are 24."""
    tab = tabs("de-DE")
    page = seat_page(tab, server, table, size)
    cards = page.evaluate(PYRAMID)
    choices = [c for c in cards if c["choice"]]
    assert choices and min(c["width"] for c in choices) >= 28, (size, choices)
    m = page.evaluate(BOXES)
    assert m["hand"] is not None and m["hand"] <= size[1] + 1, (size, m)
    actions = page.evaluate("() => document.querySelector('#play .actions').getBoundingClientRect().top")
    assert m["hand"] <= actions + 1, (size, m, actions)
    # the lines to slide onto (targets of the player's own park): 24 px high (18.1 before)
    lines = page.evaluate("""() => [...document.querySelectorAll('#board [data-key^="line:"]')]
      .map((el) => +el.getBoundingClientRect().height.toFixed(1))""")
    assert len(lines) == 4 and min(lines) >= TARGET, (size, lines)
    assert page.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0
    assert tab.errors == []


def test_sw_3_2_at_844_by_390_beside_the_log_the_cards_to_take_are_24_px_targets_with_the_hand_in_view(
        tabs, server, table):
    """844 × 390 (a phone held sideways, the log beside the table): the board, as high as its
    column is wide, kept 7rem above the hand beside a 17rem log; the cards to take of a new
    deal were 23.3 px wide, under WCAG 2.5.8's 24.  The log gives the board 3rem and the board
    takes the room under the hand (style.css, table.js foldAtHand): 24 px or more, the hand
    still ending on the first screen."""
    tab = tabs("de-DE")
    page = seat_page(tab, server, table, (844, 390))
    cards = page.evaluate(PYRAMID)
    choices = [c for c in cards if c["choice"]]
    assert choices and min(c["width"] for c in choices) >= TARGET, choices
    m = page.evaluate(BOXES)
    assert m["hand"] is not None and m["hand"] <= 390 + 1, m
    lines = page.evaluate("""() => [...document.querySelectorAll('#board [data-key^="line:"]')]
      .map((el) => +el.getBoundingClientRect().height.toFixed(1))""")
    assert len(lines) == 4 and min(lines) >= TARGET, lines
    assert page.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0
    assert tab.errors == []
