"""The pages when the message catalogue (`GET /api/messages/LANG`) cannot be loaded.

Every word of the lobby, a table and a replay comes from the catalogue (i18n.js): when its
request failed (the server answered 500, the network dropped it, the answer was no JSON)
the module's top-level await rejected, the page's script never ran and the page stayed
blank but for its header, with an uncaught error.  The page says what failed in both
languages (it cannot know the catalogue's words), its own language first, and offers to
try again; once the catalogue comes the page draws as usual.  The rules pages are rendered
by the server and need no catalogue in the browser."""

from __future__ import annotations

import os

import pytest

from .browser_support import (CHROMIUM, TIMEOUT_MS, browser, mid_game_table, new_context, open_page,  # noqa: F401
                              serving)

if not os.path.exists(CHROMIUM):
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)", allow_module_level=True)
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

# how the request fails, and the words each language gives for it
FAILURES = {
    "500": ({"status": 500, "body": "Internal Server Error"},
            "der Server antwortete mit Fehler 500", "the server answered with error 500"),
    "network": (None, "keine Verbindung zum Server", "no connection to the server"),
    "not_json": ({"status": 200, "body": "<html>proxy login</html>", "content_type": "text/html"},
                 "seine Antwort war nicht lesbar", "its answer could not be read"),
}
DE_WHAT = "Die Texte dieser Seite konnten nicht vom Server geladen werden"
EN_WHAT = "The words of this page could not be loaded from the server"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serving(tmp_path_factory, "page_failures")


def failing(page, answer, times: int) -> dict:
    """The page's first `times` requests for a catalogue fail as `answer` says (None: the
    network drops them); later ones reach the server.  Returns the count of requests."""
    seen = {"n": 0}

    def route(r):
        seen["n"] += 1
        if seen["n"] > times:
            r.continue_()
        elif answer is None:
            r.abort("connectionfailed")
        else:
            r.fulfill(**answer)
    page.route("**/api/messages/**", route)
    return seen


# each failure once, each page (the lobby, a table) in each language once
CASES = [("lobby", "de-DE", "500"), ("lobby", "en-US", "network"), ("table", "de-DE", "not_json"),
         ("table", "en-US", "network")]


def test_a_page_whose_catalogue_fails_says_so_in_both_languages_and_tries_again(browser, server):
    table = mid_game_table(server, "seven_waters")
    pages = {"lobby": ("/", "body[data-lobby='ready']"), "table": (table["seats"][0]["link"], "#turn[data-mine='1']")}
    for which, locale, how in CASES:
        (link, ready), (answer, de, en) = pages[which], FAILURES[how]
        ctx = new_context(browser, "phone", locale)
        try:
            page = ctx.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            seen = failing(page, answer, 2)
            page.goto(server.base + link)
            notice = page.wait_for_selector("#app #load-failure [role=alert]")
            texts = page.eval_on_selector_all("#load-failure [role=alert] p", "ps => ps.map(p => [p.lang, p.textContent])")
            first = locale[:2]
            assert texts[0][0] == first, texts   # the page's language first
            assert sorted(texts) == [["de", f"{DE_WHAT}: {de}."], ["en", f"{EN_WHAT}: {en}."]], (which, how)
            button = page.locator("#load-failure button")
            assert button.inner_text().replace("\n", " ").split(" · ") == (
                ["Erneut versuchen", "Try again"] if first == "de" else ["Try again", "Erneut versuchen"])
            # a second failure: the notice stays, and its button still tries again
            button.click()
            page.wait_for_function("() => !document.querySelector('#load-failure button[aria-busy]')")
            assert notice.is_visible() and seen["n"] == 2, (which, how, seen)
            button.click()
            page.wait_for_selector(ready)
            assert page.locator("#load-failure").count() == 0
            assert seen["n"] == 3, (which, how, seen)
            assert errors == [], (which, how)
            if which == "lobby":
                # the rules pages are the server's, worded without the browser's catalogue
                failing(page, None, 99)
                page.goto(f"{server.base}/rules/seven_waters?lang={locale[:2]}")
                assert page.locator("main.rules h1").count() and page.locator("#load-failure").count() == 0
        finally:
            ctx.close()


@pytest.mark.parametrize("locale, other, said", [
    ("en-US", "de", "Deutsch could not be loaded from the server: the page stays in English."),
    ("de-DE", "en", "English konnte nicht vom Server geladen werden: Die Seite bleibt auf Deutsch."),
])
def test_a_language_whose_words_fail_to_load_leaves_the_page_and_its_menu_in_their_own(browser, server, locale,
                                                                                         other, said):
    # the menu's change handler awaited the other catalogue without a catch: the menu showed
    # the new language over a page still in the old one, and the error went uncaught
    ctx, page, errors = open_page(browser, server, "/", "phone", locale, wait_for="body[data-lobby='ready']")
    try:
        heading = page.inner_text("main h1, main h2")
        failing(page, {"status": 503, "body": "busy"}, 1)
        page.select_option("#lang", other)
        page.wait_for_function("() => document.getElementById('lang-failed').textContent !== ''")
        assert page.inner_text("#lang-failed").startswith(said)
        assert page.input_value("#lang") == locale[:2]                  # the menu back at the page's language
        assert page.evaluate("document.documentElement.lang") == locale[:2]
        assert page.inner_text("main h1, main h2") == heading
        assert said in page.inner_text("#announce")
        page.select_option("#lang", other)                             # the next try reaches the server
        page.wait_for_function(f"() => document.documentElement.lang === '{other}'")
        assert page.inner_text("#lang-failed") == "" and not page.locator("#lang-failed").is_visible()
        assert errors == []
    finally:
        ctx.close()
