"""WW-5.1 on the page: the log's last line names who got three animals across the finish
line, by the names the page gives the seats; it said "Das Spiel ist vorbei: jemand hat
drei Tiere im Ziel." (web.js logLines, the view's end event and its `finishers`)."""

from __future__ import annotations

import os

import pytest

from wasserspiele.games.wildwasser.view import _event
from web.browser_support import CHROMIUM, browser, name_the_seats, serving, tabs  # noqa: F401

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "ww_end_line")


@pytest.fixture(scope="module")
def table(server):
    t = server.post("/api/tables", {"game": "wildwasser", "options": {"players": 3},
                                    "seats": [{"kind": "human"}] * 3})
    name_the_seats(server, t, ["Anna", "Bert", "Cleo"])
    return t


@pytest.mark.parametrize("locale, one, two, tiles", [
    ("en-US", "The game is over: Bert has three animals across the finish line.",
     "The game is over: Anna and Cleo have three animals each across the finish line.",
     "The game is over: the log tiles have run out."),
    ("de-DE", "Das Spiel ist vorbei: Bert hat drei Tiere im Ziel.",
     "Das Spiel ist vorbei: Anna und Cleo haben je drei Tiere im Ziel.",
     "Das Spiel ist vorbei: die Baumstammtafeln sind ausgegangen."),
])
def test_ww_5_1_the_page_s_log_names_who_ended_the_game(tabs, server, table, locale, one, two, tiles):
    tab = tabs(locale)
    page = tab.open(server, table["seats"][0]["link"], "desktop")
    page.wait_for_function("() => document.querySelector('#seats .seat-chip[data-seat=\"2\"]')?.textContent.includes('Cleo')")
    ends = [_event(1, ("end", -1, "finish", (1,)), None), _event(1, ("end", -1, "finish", (0, 2)), None),
            _event(1, ("end", -1, "tiles", ()), None)]
    got = page.evaluate("""async (ends) => {
        const game = (await import('/static/games/wildwasser.js')).default;
        return ends.map((e) => game.logLines({ log: [e] }));
      }""", ends)
    assert got == [[one], [two], [tiles]]
    assert tab.errors == []


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_ww_3_1_a_page_that_picked_is_told_it_chose_not_that_it_is_not_its_turn(tabs, server, locale):
    """A player who picked this round's card and taps another was told „Du bist nicht am Zug.“,
    as if the pick had not counted; the others are still picking."""
    from wasserspiele.core.messages import render
    t = server.post("/api/tables", {"game": "wildwasser", "options": {"players": 2},
                                    "seats": [{"kind": "human"}] * 2})
    tab = tabs(locale)
    page = tab.open(server, t["seats"][0]["link"], "desktop", "#turn[data-mine='1']")
    page.locator("#hand [data-key].clickable").first.click()
    page.wait_for_selector("#turn:not([data-mine='1'])")
    page.locator("#hand [data-key]").first.dispatch_event("click")   # (a tap: it is drawn dimmed, not hidden)
    lang = locale[:2]
    page.wait_for_selector("#notice")
    assert page.inner_text("#notice") == render("web.already_chosen_now", {}, lang)
    assert tab.errors == []
