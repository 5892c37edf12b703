"""Seven Waters' board at a phone's size and at the game's end, measured in the browser.

A playtest found, on a phone (390 × 844): the pyramid and the park drawn with cards about
24 px wide (the board, a pyramid of full cards above a park of full cards, scaled down to
the height left between the seats and the hand); at the game's end the board shrank to a
thumbnail of the empty pyramid beside the park (cards of 15 px); and on every screen the
word "Joker" of a pyramid joker hidden under the row of cards in front of it.  The other
seat's park in the side column of a wide screen came out at 28 px cards and 9 px labels.
"""

from __future__ import annotations

import os

import pytest

from .browser_support import (CHROMIUM, SIZES, Server, browser,  # noqa: F401
                              finished_table, mid_game_table, serving, store_finished, tabs)

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

READABLE_CARD = 35     # px: a card's face (its outline) at least this wide shows rank and suit plainly
READABLE_TEXT = 10     # px: the least font size of a label


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "seven_waters_phone", tables_per_client=100)


# every card's face within `root`: its key (if it can be chosen), width, and box
CARD_BOXES = """(root) => [...document.querySelectorAll(root + ' .card > rect.hl')].map((r) => {
  const b = r.getBoundingClientRect();
  return [r.parentElement.dataset.key || '', +b.width.toFixed(1), b.left, b.right];
})"""

# the park's row labels within `root`, with their font size on the screen and their box
PARK_LABELS = r"^(Leine \d|Σ -?\d+|Kanal|Becken.*|Motto)$"
LABELS = """([root, pattern]) => {
  const re = new RegExp(pattern);
  return [...document.querySelectorAll(root + ' svg text')].filter((el) => re.test(el.textContent.trim())).map((el) => {
    const b = el.getBoundingClientRect();
    return [el.textContent.trim(), +(parseFloat(el.getAttribute('font-size')) * el.getScreenCTM().a).toFixed(1),
            b.left, b.right];
  });
}"""

# the texts of the pyramid's cards, each with whether the points across its middle (near
# its left end, its middle, near its right end) show it: a card drawn over it hides it
PYRAMID_TEXTS = """() => [...document.querySelectorAll('#board [data-key^="pyr:"] text:first-of-type')].map((el) => {
  const b = el.getBoundingClientRect();
  const shown = [0.15, 0.5, 0.85].every((f) => {
    const hit = document.elementFromPoint(b.left + f * b.width, b.top + b.height / 2);
    return Boolean(hit && el.closest('.card').contains(hit));
  });
  return [el.closest('[data-key]').dataset.key, el.textContent, shown];
})"""


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.fixture(scope="module")
def middle(server):
    return mid_game_table(server, "seven_waters", 14, seed=7)


@pytest.fixture(scope="module")
def finished(server):
    return finished_table(server, "seven_waters", {}, seed=3)


def test_sw_3_2_on_a_phone_the_pyramid_and_the_park_have_cards_of_a_readable_size(tabs, server, middle):
    """Phone, mid-game: every card of the pyramid and of the park is at least 35 px wide
    (was about 24), on the screen without scrolling sideways; the labels stay ≥ 10 px; and
    a covered pyramid card's rank and suit (its top strip) are not hidden by the row in
    front of it."""
    tab = tabs("de-DE")
    page = tab.open(server, middle["seats"][0]["link"], "phone")
    cards = page.evaluate(CARD_BOXES, "#board")
    pyramid = [c for c in cards if c[0].startswith("pyr:")]
    park = [c for c in cards if not c[0].startswith("pyr:")]
    assert len(pyramid) >= 15 and len(park) >= 10, cards   # 14 moves in: most of the pyramid, the lines' 10 cards
    small = [c for c in cards if c[1] < READABLE_CARD]
    assert small == [], small
    width = SIZES["phone"][0]
    assert [c for c in cards if c[2] < 0 or c[3] > width] == []
    assert no_sideways_scroll(page)
    labels = page.evaluate(LABELS, ["#board", PARK_LABELS])
    assert len(labels) == 4 * 2 + 3, labels
    assert [x for x in labels if x[1] < READABLE_TEXT] == [], labels
    hidden = [x for x in page.evaluate(PYRAMID_TEXTS) if not x[2]]
    assert hidden == [], hidden
    assert tab.errors == []


@pytest.mark.parametrize("size", list(SIZES))
def test_sw_5_1_at_the_end_the_board_shows_the_parks_readable(tabs, server, finished, size):
    """At the end the pyramid is empty (SW-5.1): the board showed its empty outlines beside
    a park of 15 px cards (phone) or 25 px (desktop).  Now it shows the parks that were
    scored, cards ≥ 35 px and labels ≥ 10 px; both parks side by side on a wide screen."""
    tab = tabs("de-DE")
    page = tab.open(server, finished["seats"][0]["link"], size)
    page.wait_for_selector("#rematch")
    cards = page.evaluate(CARD_BOXES, "#board")
    assert len(cards) >= 10, cards   # at least the lines of one park
    small = [c for c in cards if c[1] < READABLE_CARD]
    assert small == [], small
    width = SIZES[size][0]
    assert [c for c in cards if c[2] < 0 or c[3] > width] == []
    labels = page.evaluate(LABELS, ["#board", PARK_LABELS])
    parks = 2 if size == "desktop" else 1
    assert len(labels) == parks * (4 * 2 + 3), labels
    assert [x for x in labels if x[1] < READABLE_TEXT] == [], labels
    board = page.eval_on_selector("#board", "b => b.textContent")
    assert ("Platz 1" in board) == (size == "desktop"), board
    assert no_sideways_scroll(page)
    assert tab.errors == []


def a_table_with_a_covered_pyramid_joker(server: Server) -> dict:
    """A new table whose pyramid holds a joker in rows 1–6, under a later row (two jokers
    among 54 cards: about two deals in three)."""
    for _ in range(40):
        table = server.post("/api/tables", {"game": "seven_waters", "seats": [{"kind": "human"}] * 2})
        pyramid = server.get(f"/api/tables/{table['id']}")["view"]["pyramid"]
        if any(c and c.startswith("X") for row in pyramid[:6] for c in row):
            return table
    raise RuntimeError("no covered joker in 40 deals")


@pytest.fixture(scope="module")
def joker_table(server):
    """One such table for every size (nobody moves at it)."""
    return a_table_with_a_covered_pyramid_joker(server)


@pytest.mark.parametrize("size", list(SIZES))
def test_sw_2_2_the_word_joker_on_a_pyramid_joker_is_not_covered(tabs, server, joker_table, size):
    """The word "Joker" stood at the foot of the card, under the row of cards in front of
    it; it stands at its top now, in the strip that stays in view."""
    page = tabs("de-DE").open(server, joker_table["seats"][0]["link"], size)
    jokers = [x for x in page.evaluate(PYRAMID_TEXTS) if x[1] == "Joker"]
    assert jokers, page.evaluate(PYRAMID_TEXTS)
    assert all(shown for _key, _text, shown in jokers), jokers


def test_sw_the_other_park_beside_a_wide_board_is_drawn_at_its_size(tabs, server, middle):
    """The other seat's park, opened in the side column of a 1280 × 800 screen, was the
    board's park shrunk to the column: cards of 28 px, labels of 9 px.  Its tiles are
    ≥ 35 px wide and its labels ≥ 10 px, within the column."""
    # (the park opened goes with the page: the tab's next link is loaded anew)
    tab = tabs("de-DE")
    page = tab.open(server, middle["seats"][0]["link"], "desktop")
    page.click("#side details:has([data-park]) summary")
    page.wait_for_selector("[data-park] svg")
    cards = page.evaluate(CARD_BOXES, "[data-park]")
    assert len(cards) >= 10, cards
    assert [c for c in cards if c[1] < READABLE_CARD] == [], cards
    side = page.eval_on_selector("#side", "s => [s.getBoundingClientRect().left, s.getBoundingClientRect().right]")
    assert [c for c in cards if c[2] < side[0] or c[3] > side[1]] == []
    labels = page.evaluate(LABELS, ["[data-park]", PARK_LABELS])
    assert len(labels) == 4 * 2 + 3, labels
    assert [x for x in labels if x[1] < READABLE_TEXT] == [], labels
    assert tab.errors == []


@pytest.mark.parametrize("locale, words", [
    ("de-DE", ["Becken: ★=♣ 6♣", "Joker nehmen", "Kanal: ★=10 B♣"]),
    ("en-US", ["Pool: ★=♣ 6♣", "Take Joker", "River: ★=10 J♣"]),
])
def test_sw_2_2_a_joker_in_a_move_s_words_reads_as_what_it_stands_for(tabs, server, middle, locale, words):
    """SW-2.2: a joker declared as a suit in the pool was written "★=C" on its button and in
    the log (the shared card text reads a declaration as a rank), and a joker taken from
    the pyramid "★ nehmen".  They read "★=♣" and "Joker nehmen" now."""
    page = tabs(locale).open(server, middle["seats"][0]["link"], "desktop")
    view = {"pyramid": [["X1"]]}
    said = page.evaluate("""async (view) => {
      const game = (await import('/static/games/seven_waters.js')).default;
      return [game.label('pool X1=C 6C', view), game.label('take 1-1', view), game.label('river X2=T JC', view)];
    }""", view)
    assert said == words


# -- SW-5.3: the tie-break in the result box --------------------------------------------------
@pytest.fixture(scope="module")
def tied(tmp_path_factory):
    """A server holding two games played to an end with equal totals: one the larger pool
    decided ("swpool"), one a draw ("swdraw")."""
    from games.seven_waters.helpers import random_game_ending

    tmp = tmp_path_factory.mktemp("sw_tied")
    url = f"sqlite:///{tmp / 'tied.sqlite3'}"
    for name, pools_equal in (("pool", False), ("draw", True)):
        store_finished(url, random_game_ending(pools_equal), f"sw{name}")
    srv = Server(url, log_path=str(tmp / "server.log")).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.mark.parametrize("locale, pool_words, draw_words", [
    ("en-US", "Both have {n} points; the larger pool decides: {who} wins.",
     "Both have {n} points and equally large pools: a draw."),
    ("de-DE", "Beide haben {n} Punkte; das größere Wellenbecken entscheidet: {who} gewinnt.",
     "Beide haben {n} Punkte und gleich große Wellenbecken: unentschieden."),
])
def test_sw_5_3_the_result_box_says_how_equal_totals_were_decided(tabs, tied, locale, pool_words, draw_words):
    """SW-5.3 at the end of a game with equal totals: the result box words the engine's
    `decided_by` ("pool": the larger pool's seat wins; "draw"), in the page's language."""
    tab = tabs(locale)
    for name, words in (("pool", pool_words), ("draw", draw_words)):
        view = tied.get(f"/api/tables/sw{name}")["view"]
        assert view["decided_by"] == name and view["totals"][0] == view["totals"][1], view["totals"]
        page = tab.open(tied, f"/table/sw{name}", "desktop", wait_for="#result table.score")
        # the winner as a sentence names a seat ("seat 0" in English, "Platz 0")
        who = page.evaluate("async (n) => (await import('/static/i18n.js')).seatInText(n)", view["winners"][0])
        assert page.inner_text("#tie-break") == words.format(n=view["totals"][0], who=who)
        assert tab.errors == []


def a_table_with_a_joker_in_hand(server: Server) -> dict:
    """A new table at which seat 0 took a joker from the pyramid's free row and seat 1 took
    a card after it: seat 0 to move, a joker in hand (SW-2.2: two jokers among 54 cards)."""
    for _ in range(60):
        table = server.post("/api/tables", {"game": "seven_waters", "seats": [{"kind": "human"}] * 2})
        path, (zero, one) = f"/api/tables/{table['id']}", (s["token"] for s in table["seats"])
        seen = server.get(path, zero)
        pyramid = seen["view"]["pyramid"]
        jokers = [a for a in seen["legal"] if a.startswith("take ")
                  and (pyramid[int(a[5:].split("-")[0]) - 1][int(a.split("-")[1]) - 1] or "").startswith("X")]
        if not jokers:
            continue
        server.post(f"{path}/moves", {"action": jokers[0], "n": seen["n"]}, zero)
        other = server.get(path, one)
        server.post(f"{path}/moves", {"action": other["legal"][0], "n": other["n"]}, one)
        return table
    raise RuntimeError("no joker to take in 60 deals")


BOARD_HEIGHT = "() => document.getElementById('board').getBoundingClientRect().height"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_sw_2_2_a_joker_selected_and_cleared_gives_the_board_its_room_back(tabs, server, size):
    """A joker selected shows a button for each value it may stand for (19 in all): the move
    bar kept that height for the rest of the game, and on a phone the board went from 385 to
    128 px high (ranks of 4.6 px) for good.  Once the selection is cleared the board is as
    high as before it."""
    table = a_table_with_a_joker_in_hand(server)
    page = tabs("de-DE").open(server, table["seats"][0]["link"], size)
    before = page.evaluate(BOARD_HEIGHT)
    page.locator('#hand [data-key^="hand:X"].clickable').first.click()
    page.wait_for_function("() => document.querySelectorAll('#actions button[data-action]').length > 8")
    assert page.evaluate(BOARD_HEIGHT) < before - 20      # the buttons take their room meanwhile
    page.keyboard.press("Escape")
    page.wait_for_selector("#actions #clear", state="detached")
    assert page.evaluate(BOARD_HEIGHT) == pytest.approx(before, abs=1)


def test_sw_4_4_a_line_tapped_after_cards_says_why_the_slide_is_refused(tabs, server):
    """A line tapped after a card was chosen said "first choose the cards from your hand"
    whatever the reason: here no slide may be built (`slide_limit` 0, SW-4.4), and the
    page says so, as the server words it.  Choosing another piece then drops that notice."""
    table = server.post("/api/tables", {"game": "seven_waters", "options": {"slide_limit": 0},
                                        "seats": [{"kind": "human"}] * 2})
    path, (zero, one) = f"/api/tables/{table['id']}", (s["token"] for s in table["seats"])
    for token in (zero, one):                                  # one card each
        seen = server.get(path, token)
        server.post(f"{path}/moves", {"action": seen["legal"][0], "n": seen["n"]}, token)
    page = tabs("de-DE").open(server, table["seats"][0]["link"], "phone")
    page.locator('#hand [data-key^="hand:"].clickable').first.click()
    page.locator('#board [data-key="line:1"]').click(force=True)      # not lit: aria-disabled
    page.wait_for_selector("#notice:has-text('SW-4.4')")
    assert page.locator("#board [data-key='line:1'].refused-here").count() == 1
    assert server.get(path)["n"] == 2                          # nothing was played
    page.locator("#hand [data-key].selected").click()         # the card put back: the notice goes
    page.wait_for_selector("#notice", state="detached")
