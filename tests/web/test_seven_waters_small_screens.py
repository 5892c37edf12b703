"""Seven Waters' pyramid on small screens: a phone held sideways, and 320 px wide.

Measured (a seat's page mid-game, German): on a phone held sideways the narrow board, the
pyramid above the park, was squeezed into the room its short screen leaves: at 640 × 280
the cards to take were 22.7 px wide with an index ("10♥") of 8.8 px; at 740 × 360,
667 × 375 and 568 × 320 (the board in 7rem above the hand) 10.4 px wide with text of
4.1 px.  The pyramid now stands beside the park: up to 300 px high drawn across the column
(33.8 px, text of 13.1 px at 640 × 280); on a taller screen in the room above the hand,
the park's river, pool and theme beside its lines so that the board is no taller than the
pyramid (23.3 px, text of 9 px: the most 112 px allow the pyramid's 173 units).

At 320 px (a small phone, 400 % zoom) the covered cards show a strip of 16.3 px: their
index, the whole of what a covered face-up card tells (SW-3.2: face-up cards are public
even while covered), stands in it at 11.4 px, but a covered joker's word "Joker" at 9 px
(set at 11 units); it is set at 13 now (10.6 px), squeezed to the card's width.  They are
not cards to take (a tap only brings the server's refusal); the cards to take are
29.4 × 41.7 px."""

from __future__ import annotations

import os

import pytest

from .browser_support import CHROMIUM, browser, open_page, serving  # noqa: F401
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


def seat_page(browser, server, table, size):
    ctx, page, errors = open_page(browser, server, table["seats"][0]["link"], size, "de-DE",
                                  wait_for="#turn[data-mine='1']")
    page.wait_for_selector("#board svg")
    return ctx, page, errors


def test_sw_3_2_on_small_screens_the_cards_to_take_are_24_px_targets_and_every_index_is_legible(browser, server,
                                                                                               table):
    """640 × 280: a phone held sideways below its browser's bars; 320 × 568: a small phone,
    where the covered cards show a strip of 16 px with their index (not a defect)."""
    for size in [(640, 280), (320, 568)]:
        ctx, page, errors = seat_page(browser, server, table, size)
        try:
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
            assert errors == []
        finally:
            ctx.close()


def test_sw_3_2_on_a_phone_held_sideways_the_pyramid_takes_the_board_s_height_beside_the_park(browser, server,
                                                                                             table):
    """667 × 375: the board keeps to the room above the hand (the hand on the first screen);
    the park beside the pyramid and no taller, so that the pyramid is drawn as large as that
    room allows (it took 45 % of the board's height above the park)."""
    ctx, page, errors = seat_page(browser, server, table, (667, 375))
    try:
        m = page.evaluate(BOXES)
        assert m["pyramid"]["right"] <= m["lines"]["left"], m        # beside, not above
        assert m["lines"]["bottom"] <= m["pyramid"]["bottom"] + 1, m
        assert m["pyramid"]["bottom"] - m["pyramid"]["top"] >= 0.95 * m["drawn"], m
        assert m["hand"] is None or m["hand"] <= 375 + 1, m
        assert [x for x in page.evaluate(PYRAMID_TEXTS) if not x[2]] == []
        assert page.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0
        assert errors == []
    finally:
        ctx.close()
