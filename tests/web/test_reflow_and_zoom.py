"""The pages for people who enlarge them (WCAG 2.2 AA), in English and German.

An audit measured the lobby, a table of each game mid-game, a finished one, a spectator's
view, a replay and the rules pages at 320 CSS px wide (a 1280 px window at 400 %) and
256 px high, with the browser's text size at 200 % (the root's font size doubled), with the
text spacing of WCAG 1.4.12 injected, and the targets of every choice (WCAG 2.5.8).  What
it found:

* 1.4.4, text at 200 % on a 1280 × 800 screen: the play column's parts keep the least
  heights table.js measured at the usual size (keepTallest), and they were squeezed to
  them: the status line, the name form, the seats and the board were drawn over each other
  (Watten's topbar 93 px high over 324 px of content).  The lobby's form, buttons and lists
  stayed at 16 px (the page's body had a size in px) when the rest doubled.  On a phone
  the page scrolled sideways (the name form held to one line, 125 px; Seven Waters' column
  41 px; the lobby's menus and long words at 320 px; Wildwasser's result).
* 1.4.10 at 320 × 256: the header's "Language" stood 4 px above the page's top and its menu
  4 px below the bar; every board was drawn in the 112 px left between the seats and the
  hand, a thumbnail (Seven Waters' cards 11 × 15 px).  A rules table of Wildwasser ran
  10 px past a 320 px screen (German).
* 2.5.8: Seven Waters' board on a screen narrower than 375 px was squeezed above the hand:
  the cards to take 17.5 px wide at 320 × 568, the lines to slide onto 19.7 px high (and
  19.7 px apart) at 360 × 640; in a window of 1024 × 256 12.6 px and 14.3 px.
* 1.4.12: with the spacing, a Wildwasser seat chip's "⚑ 3 noch am Start" ran 5 px out of its
  chip and the page scrolled sideways at 320 px; Wildwasser's rules tables 31 px (English)
  and 63 px (German).
* The lobby stayed blank when `GET /api/games` failed (the server or the network).
"""

from __future__ import annotations

import json
import os

import pytest

from wasserspiele.core.messages import render

from .browser_support import (BOARD_MEASURE, CHROMIUM, GAMES, browser, cut_chip_parts, finished_table,  # noqa: F401
                              mid_game_table, serving, tabs)

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

LOCALES = ["en-US", "de-DE"]
ZOOM_400 = (320, 256)          # 1280 × 1024 at 400 %
TEXT_200 = "html { font-size: 200% !important; }"
# the CSS of the text-spacing bookmarklet WCAG's techniques use for 1.4.12
SPACING = ("* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; }"
           " p { margin-bottom: 2em !important; }")
TARGET = 24                     # CSS px, WCAG 2.5.8


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "reflow", tables_per_client=50)


@pytest.fixture(scope="module")
def tables(server):
    made = {g: mid_game_table(server, g) for g in GAMES}
    made["replay"] = finished_table(server, "watten", {"target": 2})
    made["wildwasser_over"] = finished_table(server, "wildwasser")
    return made


def sideways(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")


def settle(page) -> None:
    """Two frames: a style just added laid out, and table.js's measuring after a resize done."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))")


# WCAG 2.5.8: a target under 24 × 24 px passes if a circle of 24 px drawn around its centre
# meets no other target and no such circle of another undersized target.
SMALL_TARGETS = """([sels, size]) => {
  const els = [...new Set(sels.flatMap((s) => [...document.querySelectorAll(s)]))].filter((el) => {
    const b = el.getBoundingClientRect();
    return b.width > 0 && b.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  });
  const rects = els.map((el) => el.getBoundingClientRect());
  const small = (b) => b.width < size || b.height < size;
  const centre = (b) => [b.left + b.width / 2, b.top + b.height / 2];
  const out = [];
  els.forEach((el, i) => {
    const b = rects[i];
    if (!small(b)) return;
    const [x, y] = centre(b);
    const near = els.find((o, j) => {
      if (j === i || o.contains(el) || el.contains(o)) return false;
      const c = rects[j];
      if (Math.hypot(Math.max(c.left - x, 0, x - c.right), Math.max(c.top - y, 0, y - c.bottom)) < size / 2) return true;
      const [ox, oy] = centre(c);
      return small(c) && Math.hypot(ox - x, oy - y) < size;
    });
    const what = (e) => e.dataset.key || e.dataset.action || e.id || e.textContent.trim().slice(0, 30);
    if (near) out.push(`${what(el)}: ${b.width.toFixed(1)} × ${b.height.toFixed(1)} px, too near ${what(near)}`);
  });
  return out;
}"""


def small_targets(page) -> list[str]:
    """The targets of a seat's page, its legal choices, its move buttons and the controls
    above the board, that are too small and too near another (WCAG 2.5.8)."""
    keys = json.loads(page.get_attribute("#app", "data-keys") or "[]")
    sels = [f"[data-key={json.dumps(k)}]" for k in keys]
    sels += ["#actions button", "#play .topbar a", "#play .topbar button", "#play .topbar input", "header a",
             "header select"]
    return page.evaluate(SMALL_TARGETS, [sels, TARGET])


def seat_page(tab, server, tables, game, size):
    """Seat 0's page of `tables[game]` loaded in `tab` at `size`, its board drawn and measured."""
    page = tab.open(server, tables[game]["seats"][0]["link"], size, wait_for="#turn[data-mine='1']")
    page.wait_for_selector("#board svg")
    settle(page)
    return page


# ----------------------------------------------------------------------- 1.4.10 reflow

# the header's parts standing out of the header's bar (above the page's top, below the bar)
HEADER_OUT = """() => {
  const bar = document.querySelector('header').getBoundingClientRect();
  return [...document.querySelectorAll('header a, header label, header select')].filter((el) => {
    const b = el.getBoundingClientRect();
    return b.top < bar.top - 0.5 || b.bottom > bar.bottom + 0.5 || b.top < -0.5;
  }).map((el) => `${el.tagName} ${el.textContent.trim().slice(0, 20)}`);
}"""


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", GAMES)
def test_at_400_percent_zoom_the_board_is_drawn_across_the_column_not_as_a_thumbnail(tabs, server, tables, game,
                                                                                      locale):
    """320 × 256: the page scrolls down only; the board is drawn as wide as its column (the
    page scrolls to the hand and the buttons below it); every choice a 24 px target; the
    header holds its words."""
    tab = tabs(locale)
    page = seat_page(tab, server, tables, game, ZOOM_400)
    m = page.evaluate(BOARD_MEASURE)
    assert m["sideways"] <= 0, f"{game} ({locale}): the page scrolls sideways by {m['sideways']} px"
    assert m["narrower"] <= 2, (f"{game} ({locale}): the board is drawn {m['drawn']:.0f} px high, "
                                f"{m['narrower']:.0f} px narrower than its column")
    assert small_targets(page) == []
    assert page.evaluate(HEADER_OUT) == []
    assert not tab.errors


@pytest.mark.parametrize("locale", LOCALES)
def test_at_400_percent_zoom_the_replay_the_lobby_and_the_rules_scroll_only_down(tabs, server, tables, locale):
    """Wildwasser's rules in German: the table of the river's parts ran 10 px past a 320 px
    screen ("29: Baumstammtafel,"), and the page scrolled sideways."""
    tab = tabs(locale)
    page = tab.open(server, f"/replay/{tables['replay']['id']}", ZOOM_400, wait_for="#step")
    page.click("#next")
    page.wait_for_selector("#turn[data-n='1']")
    settle(page)
    m = page.evaluate(BOARD_MEASURE)
    assert m["sideways"] <= 0 and m["narrower"] <= 2, m
    assert page.evaluate(HEADER_OUT) == []
    # the lobby and the rules follow in the same page at the same size (tab.errors keeps
    # the errors of all of them)
    page.goto(server.base + "/")
    page.wait_for_selector("body[data-lobby='ready']")
    assert sideways(page) <= 0
    assert page.evaluate(HEADER_OUT) == []
    for game in GAMES:
        page.goto(f"{server.base}/rules/{game}?lang={locale[:2]}")
        page.wait_for_selector("main.rules")
        assert sideways(page) <= 0, f"the rules of {game} ({locale})"
    assert not tab.errors


# ----------------------------------------------------------------------- 2.5.8 target size

@pytest.mark.parametrize("size", [(320, 568), (360, 640), (390, 844), (1280, 800), (1024, 256)],
                         ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("game", GAMES)
def test_every_choice_is_a_target_of_24_px_or_spaced_as_one(tabs, server, tables, game, size):
    """Seven Waters' cards to take and lines to slide onto were 17.5 px wide (320 × 568) and
    19.7 px high, 19.7 px apart (360 × 640); in a window of 1024 × 256 its board stood 7rem
    high beside the log, the cards 12.6 px wide, the lines 14.3 px high."""
    tab = tabs("de-DE" if size[0] < 390 else "en-US")
    page = seat_page(tab, server, tables, game, size)
    assert small_targets(page) == []
    assert sideways(page) <= 0
    assert not tab.errors


# ----------------------------------------------------------------------- 1.4.4 text at 200 %

# the play column's parts (its children), in order: one drawn over the next, or its content
# running out of its box
PARTS_OVER_EACH_OTHER = """() => {
  const kids = [...document.getElementById('play').children].filter((n) => n.getBoundingClientRect().height > 0);
  const out = [];
  kids.forEach((n, i) => {
    const b = n.getBoundingClientRect();
    if (!n.matches('.board, .result') && n.scrollHeight > n.clientHeight + 1)
      out.push(`${n.className}: content ${n.scrollHeight} px in ${n.clientHeight} px`);
    const next = kids[i + 1];
    if (next && next.getBoundingClientRect().top < b.bottom - 1)
      out.push(`${n.className} (to ${b.bottom.toFixed(0)}) under ${next.className} (from ${next.getBoundingClientRect().top.toFixed(0)})`);
  });
  return out;
}"""


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("game", GAMES)
def test_with_the_text_at_200_percent_the_table_s_parts_are_not_drawn_over_each_other(tabs, server, tables, game,
                                                                                       locale):
    # (the style added goes with the page: the tab's next link is loaded anew)
    tab = tabs(locale)
    page = seat_page(tab, server, tables, game, (1280, 800))
    page.add_style_tag(content=TEXT_200)
    settle(page)
    assert page.evaluate(PARTS_OVER_EACH_OTHER) == []
    # the column scrolls to the hand and the buttons: each can be brought into view
    for sel in ["#hand [data-key]", "#actions"]:
        if page.locator(sel).count():
            page.locator(sel).first.scroll_into_view_if_needed()
            box = page.locator(sel).first.bounding_box()
            assert box and 0 <= box["y"] and box["y"] + box["height"] <= 800 + 1, (sel, box)
    assert sideways(page) <= 0
    assert not tab.errors


@pytest.mark.parametrize("size", [(390, 844), (320, 640)], ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("locale", LOCALES)
def test_with_the_text_at_200_percent_on_a_phone_no_page_scrolls_sideways(tabs, server, tables, size, locale):
    """The name form held to one line ran 125 px past a 390 px phone; Seven Waters' column
    grew to 421 px; the lobby's "nur der Gegner" menu and "(Wettbewerbsfassung)." ran past
    a 320 px one; Wildwasser's result carried its table's hidden column heads past the
    screen.  A data table may scroll in its own box (WCAG 1.4.10), the page not."""
    pages = [("/", "body[data-lobby='ready']"), (f"/replay/{tables['replay']['id']}", "#step"),
             (tables["wildwasser_over"]["seats"][0]["link"], "#turn[data-terminal='1']")]
    pages += [(tables[g]["seats"][0]["link"], "#turn[data-mine='1']") for g in GAMES]
    pages += [(tables[g]["spectator_link"], "#turn") for g in GAMES]
    pages += [(f"/rules/{g}?lang={locale[:2]}", "main.rules") for g in GAMES]
    tab = tabs(locale)
    wide, errors = [], []
    for link, ready in pages:
        page = tab.open(server, link, size, wait_for=ready)
        page.add_style_tag(content=TEXT_200)
        settle(page)
        if sideways(page) > 0:
            wide.append(f"{link.split('#')[0]}: {sideways(page)} px")
        errors += tab.errors   # (each link's own: the next open clears them)
    assert wide == []
    assert not errors


# each element with text of its own (outside the pictures) and its font size in px
FONT_SIZES = """() => Object.fromEntries([...document.querySelectorAll('body *')].filter((el) =>
  !el.closest('svg') && el.getClientRects().length && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())
).map((el, i) => [`${i} ${el.tagName} ${el.textContent.trim().slice(0, 30)}`, parseFloat(getComputedStyle(el).fontSize)]))"""


@pytest.mark.parametrize("locale", LOCALES)
def test_with_the_text_at_200_percent_all_the_lobby_s_words_are_twice_as_large(tabs, server, tables, locale):
    """The form's labels, its menus, the "Create table" button and the tables' links stayed
    at 16 px: the body's size was given in px."""
    tab = tabs(locale)
    page = tab.open(server, "/", (1280, 800), wait_for="body[data-lobby='ready']")
    before = page.evaluate(FONT_SIZES)
    page.add_style_tag(content=TEXT_200)
    settle(page)
    after = page.evaluate(FONT_SIZES)
    assert before.keys() == after.keys()
    assert [k for k in before if after[k] < 1.95 * before[k]] == []
    assert sideways(page) <= 0
    assert not tab.errors


# ----------------------------------------------------------------------- 1.4.12 text spacing

# text cut off by a box that hides what overflows it (not the screen readers' hidden words)
CLIPPED = """() => [...document.querySelectorAll('body *')].filter((el) => {
  if (!el.getClientRects().length || el.closest('svg, .sr-only')) return false;
  const s = getComputedStyle(el);
  if (s.clipPath !== 'none') return false;
  const hides = (v) => v === 'hidden' || v === 'clip';
  return (hides(s.overflowX) && el.scrollWidth > el.clientWidth + 1) || (hides(s.overflowY) && el.scrollHeight > el.clientHeight + 1);
}).map((el) => `${el.className} ${el.textContent.trim().slice(0, 30)}`)"""


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("where", [*GAMES, "lobby", "replay", "rules"])
def test_with_the_text_spacing_of_1_4_12_nothing_is_cut_off_at_320_px(tabs, server, tables, where, locale):
    """Wildwasser's seat chip "⚑ 3 noch am Start" ran 5 px out of its chip (and the page 1 px
    sideways)."""
    tab = tabs(locale)
    if where in GAMES:
        page = seat_page(tab, server, tables, where, (320, 640))
    else:
        link, ready = {"lobby": ("/", "body[data-lobby='ready']"),
                       "replay": (f"/replay/{tables['replay']['id']}", "#step"),
                       "rules": (f"/rules/wildwasser?lang={locale[:2]}", "main.rules")}[where]
        page = tab.open(server, link, (320, 640), wait_for=ready)
    page.add_style_tag(content=SPACING)
    settle(page)
    assert sideways(page) <= 0
    assert cut_chip_parts(page) == []
    assert page.evaluate(CLIPPED) == []
    assert page.evaluate(HEADER_OUT) == []
    assert not tab.errors


# ----------------------------------------------------------------------- the lobby without its games

CRASH = {"error": "internal", "reason_code": "server.crashed", "params": {}}


@pytest.mark.parametrize("how, locale", [("network", "de-DE"), ("crash", "en-US"), ("plain-500", "de-DE")])
def test_the_lobby_says_why_its_games_did_not_load_and_tries_again(tabs, server, how, locale):
    """A failed GET /api/games left the lobby blank (an uncaught error in the console)."""
    lang = locale[:2]
    reason = {"network": render("web.lobby_failed_network", {}, lang),
              "crash": render("server.crashed", {}, lang),
              "plain-500": render("web.lobby_failed_server", {}, lang)}[how]
    failing = {"on": True}

    def answer(route):
        if not failing["on"]:
            return route.continue_()
        if how == "network":
            return route.abort()
        if how == "crash":
            return route.fulfill(status=500, content_type="application/json", body=json.dumps(CRASH))
        return route.fulfill(status=500, content_type="text/plain", body="Internal Server Error")

    tab = tabs(locale)
    # the route is the page's: it goes with this test (its language chosen below goes with
    # the storage the tab's next link clears)
    tab.page.route("**/api/games", answer)
    try:
        page = tab.open(server, "/", "phone", wait_for="#lobby-error")
        assert page.inner_text("#lobby-error") == render("web.lobby_failed", {"reason": reason}, lang)
        assert page.get_attribute("#lobby-error", "role") == "alert"
        assert page.inner_text("#lobby-retry") == render("web.try_again", {}, lang)
        # still failing: said again, the button keeps the focus
        page.click("#lobby-retry")
        page.wait_for_selector("#lobby-retry:not([disabled])")
        page.wait_for_function("document.activeElement && document.activeElement.id === 'lobby-retry'")
        # the other language: the same words in it
        other = "en" if lang == "de" else "de"
        page.select_option("#lang", other)
        page.wait_for_function("([l, text]) => document.documentElement.lang === l "
                               "&& document.getElementById('lobby-error')?.innerText === text",
                               arg=[other, render("web.lobby_failed", {"reason": {
                                   "network": render("web.lobby_failed_network", {}, other),
                                   "crash": render("server.crashed", {}, other),
                                   "plain-500": render("web.lobby_failed_server", {}, other)}[how]}, other)])
        # the server answers again: the lobby is drawn
        failing["on"] = False
        page.click("#lobby-retry")
        page.wait_for_selector("body[data-lobby='ready']")
        assert page.locator("#game option").count() == len(GAMES)
        assert page.locator("#lobby-error").count() == 0
        assert not tab.errors
    finally:
        tab.page.unroute("**/api/games", answer)
