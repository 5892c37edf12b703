"""In the browser: the lobby's list says which seats a bot plays for a friend who left
("Mensch (Bot spielt)"), and a player whose move was first refused as "could not be saved"
and then stored after all is told so (the notice and the live region), the position with
the move drawn.  In German, as the players' browsers ask."""

from __future__ import annotations

import sqlite3

import pytest

pytest.importorskip("playwright.sync_api")

from wasserspiele.core.messages import Reason, render

from .browser_support import ANNOUNCEMENTS, browser, open_page, said, serving, wait_to_hear  # noqa: F401 (fixture)
from .test_browser import current_n
from .test_browser_friends import play_until_waiting_for, two_humans
from .test_stale_tab_and_reconnect import click_one_move

STORAGE_SECONDS = 1.0   # the server's time for a write (15 s by default); SQLite waits 5 s for a lock


@pytest.fixture(scope="module")
def lobby_server(tmp_path_factory):
    yield from serving(tmp_path_factory, "stand_in_lobby", STAND_IN_SECONDS=0)


@pytest.fixture(scope="module")
def late_server(tmp_path_factory):
    yield from serving(tmp_path_factory, "late_move", STORAGE_SECONDS=STORAGE_SECONDS)


def de(code: str, **params) -> str:
    return render(f"web.{code}", params, "de")


def test_the_lobby_says_a_bot_plays_for_the_friend_who_left(browser, lobby_server):
    """The lobby listed "Mensch, Mensch" for a table where a bot played one of the seats
    for its absent player: a friend looking for a game saw both players as seated."""
    srv = lobby_server
    table = two_humans(srv)
    tid = table["id"]
    srv.post(f"/api/tables/{tid}/stand-in", {"seat": 1, "level": "easy"}, table["seats"][0]["token"])
    ctx, page, errors = open_page(browser, srv, "/", locale="de-DE", wait_for="body[data-lobby='ready']")
    entry = page.locator(f"a[data-table='{tid}']")
    text = entry.inner_text()
    seat_words = text.split(" · ")[-1].split(" — ")[0]
    assert seat_words == f"{de('human')}, {de('seat_bot_plays', who=de('human'))}" == "Mensch, Mensch (Bot spielt)", text
    # the link's name, as a screen reader reads it, says it too
    assert page.get_by_role("link", name=de("seat_bot_plays", who=de("human")), exact=False).count() >= 1
    assert errors == []
    ctx.close()


def test_a_move_first_refused_as_not_saved_and_stored_late_is_told_to_its_player(browser, late_server):
    """The database answered the move too late (another program held its write lock past the
    server's `storage_seconds`): the page said "the move could not be saved", then the move
    was stored after all and the position with it drawn, but the page never said so — the
    server's `accepted` with `late` was ignored.  Now it says so in the notice and the live
    region, once, over the position that holds the move."""
    srv = late_server
    table = two_humans(srv)
    play_until_waiting_for(srv, table, 0)
    ctx, page, errors = open_page(browser, srv, table["seats"][0]["link"], size="phone", locale="de-DE",
                                  init_script=ANNOUNCEMENTS, wait_for="#turn[data-mine='1']")
    n = current_n(page)
    # (no answer in time: told that the move may still be saved)
    unsaved = Reason("server.unsaved_in_doubt").render("de")
    holder = sqlite3.connect(srv.db_url.removeprefix("sqlite:///"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")        # another program holds the write lock ...
    try:
        click_one_move(page, "#notice.refused")           # ... past the server's time for the write
        page.wait_for_selector(f"#notice:has-text({unsaved[1:]!r})")
        assert current_n(page) == n
    finally:
        holder.execute("ROLLBACK")                       # within SQLite's wait: the write commits
        holder.close()
    told = de("move_saved_late")
    assert told in wait_to_hear(page, told)
    page.wait_for_selector(f"#notice:has-text({told!r})")
    assert page.inner_text("#notice") == told
    assert current_n(page) == n + 1 == srv.get(f"/api/tables/{table['id']}")["n"]   # the position with the move
    page.wait_for_timeout(300)
    assert said(page).count(told) == 1, said(page)
    assert errors == []
    ctx.close()
