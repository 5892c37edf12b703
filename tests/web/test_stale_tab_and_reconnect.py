"""A seat's page that cannot play right now (its seat taken over by another tab, its
connection lost) keeps saying so whatever the player clicks, and never drops a move
without a word: a replaced tab says why nothing is sent; a move chosen while reconnecting
is kept and sent once the connection is back (the server's move number guards it)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("playwright.sync_api")

from .browser_support import TIMEOUT_MS, Server, browser, new_context, serving  # noqa: F401  (fixture)
from .test_browser import BUTTON, current_n
from .test_browser_friends import play_until_waiting_for, two_humans

LOCALES = [("en-US", "en"), ("de-DE", "de")]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "stale_tab")


def words(server, lang: str) -> dict[str, str]:
    """The page's texts in `lang`, as the page fetches them."""
    return server.get(f"/api/messages/{lang}")["messages"]


# the page's sockets, kept where a test can close them (the page keeps its own in a closure)
KEEP_SOCKETS = """window.__sockets = [];
window.WebSocket = class extends WebSocket {
  constructor(...args) { super(...args); window.__sockets.push(this); }
};"""


def seat_page(browser, server, link: str, locale: str, errors: list[str]):
    ctx = new_context(browser, "phone", locale=locale)
    ctx.add_init_script(KEEP_SOCKETS)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + link)
    page.wait_for_selector("#turn[data-mine='1']")
    return page


def click_one_move(page, done_selector: str) -> None:
    """One move chosen by clicking, as a player does: a card (and a button, should the card
    leave a choice), until `done_selector` shows what the page made of it."""
    page.locator("#hand .clickable").first.click()
    page.wait_for_selector(f"{done_selector}, {BUTTON}")
    if page.locator(done_selector).count() == 0:
        page.locator(BUTTON).first.click()
        page.wait_for_selector(done_selector)


@pytest.mark.parametrize("locale,lang", LOCALES)
def test_a_replaced_tab_keeps_saying_so_and_says_why_a_click_sends_nothing(browser, server, locale, lang):
    table = two_humans(server)
    play_until_waiting_for(server, table, 0)
    link = table["seats"][0]["link"]
    n = server.get(f"/api/tables/{table['id']}")["n"]
    text = words(server, lang)
    errors: list[str] = []
    old = seat_page(browser, server, link, locale, errors)
    seat_page(browser, server, link, locale, errors)            # the same seat in another tab
    old.wait_for_selector("#notice #take-back")

    # a click on a piece of a legal move (the first the page lists)
    move_key = json.loads(old.get_attribute("#app", "data-keys"))[0]
    old.locator(f"[data-key={json.dumps(move_key)}]").first.click(force=True)
    old.wait_for_selector("#notice-more")
    # still "replaced", still the way to take the seat back, and why the click did nothing
    notice = old.inner_text("#notice")
    assert text["web.replaced"] in notice and text["web.replaced_click"] in notice
    assert old.locator("#notice #take-back").count() == 1
    # no "Your turn." in a tab that cannot play
    assert old.inner_text("#turn") == text["web.replaced_turn"]
    assert old.get_attribute("#turn", "data-mine") == "0"
    assert old.locator(f"{BUTTON}, .clickable").count() == 0    # no move offered
    # a click on a piece that is no move says the same, and the notice stays
    old.locator("#hand [data-key]:not(.clickable), #board [data-key]:not(.clickable)").first.click(force=True)
    assert text["web.replaced"] in old.inner_text("#notice") and old.locator("#take-back").count() == 1
    assert server.get(f"/api/tables/{table['id']}")["n"] == n  # nothing was played from it

    old.click("#take-back")                                      # and the seat comes back here
    old.wait_for_selector("#turn[data-mine='1']")
    assert old.locator("#take-back").count() == 0
    assert old.inner_text("#turn") == text["web.your_turn"]
    assert errors == []


@pytest.mark.parametrize("locale,lang", LOCALES)
def test_a_move_chosen_while_reconnecting_is_sent_once_the_connection_is_back(browser, tmp_path, locale, lang):
    db = f"sqlite:///{tmp_path / 'reconnect.sqlite3'}"
    srv = Server(db, log_path=str(tmp_path / "server.log")).start()
    try:
        table = two_humans(srv)
        play_until_waiting_for(srv, table, 0)
        text = words(srv, lang)
        errors: list[str] = []
        page = seat_page(browser, srv, table["seats"][0]["link"], locale, errors)
        n = current_n(page)
        srv.stop()                                               # the connection drops
        page.wait_for_selector(f"#notice:has-text({text['web.reconnecting']!r})")

        click_one_move(page, "#notice-more")
        # the notice still says the connection is being made anew, and that the move waits
        notice = page.inner_text("#notice")
        assert text["web.reconnecting"] in notice and text["web.move_waits"] in notice
        assert page.inner_text("#turn") == text["web.your_turn"]   # the position is still this one
        # a second click meanwhile does not queue a second move
        if page.locator(BUTTON).count():
            page.locator(BUTTON).first.click()
        elif page.locator("#hand .clickable").count():
            page.locator("#hand .clickable").first.click()

        srv = Server(db, port=srv.port, log_path=str(tmp_path / "server.log")).start()
        page.wait_for_function("(n) => +document.querySelector('#turn').dataset.n > n", arg=n)
        page.wait_for_function("() => !document.querySelector('#notice')")
        assert srv.get(f"/api/tables/{table['id']}")["n"] == n + 1   # sent once, played once
        assert page.get_attribute("#turn", "data-mine") == "0"
        assert errors == []
    finally:
        srv.stop()


@pytest.mark.parametrize("locale,lang", LOCALES)
def test_a_move_chosen_while_reconnecting_is_dropped_with_a_word_when_the_game_moved_on(browser, server, locale, lang):
    table = two_humans(server)
    play_until_waiting_for(server, table, 0)
    text = words(server, lang)
    errors: list[str] = []
    page = seat_page(browser, server, table["seats"][0]["link"], locale, errors)
    n = current_n(page)
    # the connection drops and cannot be made anew for now (Chromium's offline mode keeps
    # an open socket open: it is closed as a lost connection would close it)
    page.context.set_offline(True)
    page.evaluate("() => window.__sockets.forEach((s) => s.close())")
    page.wait_for_selector(f"#notice:has-text({text['web.reconnecting']!r})")
    click_one_move(page, "#notice-more")
    # meanwhile the seat's move is made elsewhere (its link on another device)
    mine = server.get(f"/api/tables/{table['id']}", table["seats"][0]["token"])
    server.post(f"/api/tables/{table['id']}/moves", {"action": mine["legal"][-1], "n": mine["n"]},
                table["seats"][0]["token"])
    page.context.set_offline(False)
    page.wait_for_function("(n) => +document.querySelector('#turn').dataset.n > n", arg=n)
    page.wait_for_selector(f"#notice:has-text({text['web.move_not_sent']!r})")
    assert text["web.reconnecting"] not in page.inner_text("#notice")
    assert server.get(f"/api/tables/{table['id']}")["n"] == n + 1   # the click was not played as well
    assert errors == []
