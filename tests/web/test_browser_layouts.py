"""The table on screens the other browser tests do not use: a phone held sideways, a small
phone, tablets, a large desktop, and a window zoomed to 200 % (1280 × 800 at 200 % is
640 × 400 CSS px).  On each: nothing scrolls sideways, every legal choice can be tapped
(no other element lies over it, even after scrolling to it), and where the screen is
tall enough the hand is on the first screen."""

from __future__ import annotations

import json
import os

import pytest

from .browser_support import (CHROMIUM, GAMES, Server, browser, finished_table, mid_game_table,  # noqa: F401
                              tabs)

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

LAYOUTS = {
    "landscape-844x390": (844, 390),
    "landscape-667x375": (667, 375),
    "small-320x568": (320, 568),
    "tablet-768x1024": (768, 1024),
    "tablet-1024x768": (1024, 768),
    "desktop-1920x1080": (1920, 1080),
    "zoom200-640x400": (640, 400),
}
# a small phone's column is too narrow for the whole seat list of four in German beside
# a first-time player's name form: there the hand may start on the first screen and end
# a few pixels below it (the page scrolls, nothing covers it)
HAND_ON_FIRST_SCREEN = [name for name in LAYOUTS if not name.startswith("small")]


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("layouts")
    srv = Server(f"sqlite:///{tmp / 'layouts.sqlite3'}", log_path=str(tmp / "server.log")).start()
    try:
        made = {g: mid_game_table(srv, g) for g in GAMES}
        made["replay"] = finished_table(srv, "watten", {"target": 2})
        yield srv, made
    finally:
        srv.stop()


def sideways_scroll(page) -> int:
    return page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")


# Each element scrolled to (as a tap would need), then the point at its centre asked for
# the element there: the element itself or a part of it, not the log or another panel
# drawn over it, and not beside the screen.
UNREACHABLE = """(sels) => {
  const out = [];
  for (const el of sels.flatMap((s) => [...document.querySelectorAll(s)])) {
    el.scrollIntoView({ block: 'center', inline: 'center' });
    const b = el.getBoundingClientRect();
    const x = b.left + b.width / 2, y = b.top + b.height / 2;
    const what = el.dataset.key || el.dataset.action || el.id || el.textContent.slice(0, 30);
    if (b.width === 0 || b.height === 0) { out.push(`${what}: not drawn`); continue; }
    if (x < 0 || x > innerWidth || y < 0 || y > innerHeight) { out.push(`${what}: off the screen at ${x},${y}`); continue; }
    const top = document.elementFromPoint(x, y);
    if (!top || !(top === el || el.contains(top))) {
      out.push(`${what}: under ${top ? (top.id || top.closest('[id]')?.id || top.tagName) : 'nothing'}`);
    }
  }
  window.scrollTo(0, 0);
  return out;
}"""


def legal_selectors(page) -> list[str]:
    keys = json.loads(page.get_attribute("#app", "data-keys") or "[]")
    return [f"[data-key={json.dumps(k)}]" for k in keys] + ["#actions > *"]


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
@pytest.mark.parametrize("layout", list(LAYOUTS))
@pytest.mark.parametrize("game", GAMES)
def test_a_seat_mid_game_scrolls_not_sideways_and_every_choice_can_be_tapped(tabs, tables, game, layout, locale):
    srv, made = tables
    tab = tabs(locale)
    page = tab.open(srv, made[game]["seats"][0]["link"], LAYOUTS[layout], "#turn[data-mine='1']")
    assert sideways_scroll(page) <= 0
    selectors = legal_selectors(page)
    assert len(selectors) > 1
    assert page.evaluate(UNREACHABLE, selectors) == []
    if layout in HAND_ON_FIRST_SCREEN:
        assert page.evaluate("() => window.scrollY") == 0
        bottoms = page.eval_on_selector_all("#hand [data-key]", "els => els.map(e => e.getBoundingClientRect().bottom)")
        if not bottoms:  # a seat may hold no card mid-game (a Seven Waters deal, one CI run): its hand's own box
            bottoms = page.eval_on_selector_all("#hand", "els => els.map(e => e.getBoundingClientRect().bottom)")
        assert bottoms and max(bottoms) <= LAYOUTS[layout][1] + 1, f"the hand ends at {max(bottoms, default=None)}"
    assert tab.errors == []


@pytest.mark.parametrize("layout", ["landscape-844x390", "landscape-667x375", "small-320x568", "zoom200-640x400"])
def test_choices_offered_as_buttons_are_not_under_the_log_on_a_short_screen(tabs, tables, layout):
    """A Watten hand begins with trump named by buttons (the dealer's right): on a screen too
    short for the whole play column the buttons used to lie under the log box."""
    srv, _ = tables
    table = srv.post("/api/tables", {"game": "watten", "seats": [{"kind": "human"}] * 4})
    tab = tabs("de-DE")
    page = tab.open(srv, table["seats"][3]["link"], LAYOUTS[layout], "#actions button[data-action]")
    assert page.locator("#actions button[data-action]").count() > 1
    assert sideways_scroll(page) <= 0
    assert page.evaluate(UNREACHABLE, ["#actions button[data-action]"]) == []
    assert tab.errors == []


@pytest.mark.parametrize("locale", ["de-DE", "en-US"])
@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_the_lobby_a_spectator_and_the_replay_scroll_not_sideways(tabs, tables, layout, locale):
    srv, made = tables
    pages = [("/", "body[data-lobby='ready']"), (f"/replay/{made['replay']['id']}", "#step")]
    pages += [(made[g]["spectator_link"], "#turn") for g in GAMES]
    tab = tabs(locale)
    for path, ready in pages:
        page = tab.open(srv, path, LAYOUTS[layout], ready)
        assert sideways_scroll(page) <= 0, path
        if path.startswith("/replay/"):
            assert page.evaluate(UNREACHABLE, ["#replay-bar button", "#replay-bar select"]) == []
        assert tab.errors == [], path
