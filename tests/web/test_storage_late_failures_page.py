"""The table's page and writes with no answer in time (docs/web-server.md, "When a write
answers late"): a move said to be maybe still saved whose write then fails is said not to
be saved after all, in place of the in-doubt notice (test_storage_late_failures has the
server's side); a bot's taking over a seat said to be maybe still saved gives way once the
table shows the bot, as the name's and the rematch's in-doubt notices do.

Another program holds the served database's write lock (an `sqlite3` connection in a
transaction) past the server's time for a write (`STORAGE_SECONDS`); released within
SQLite's wait for the lock (5 s) the write commits, held beyond it the write fails."""

from __future__ import annotations

import sqlite3

import pytest

from wasserspiele.core.messages import Reason

from .browser_support import browser  # noqa: F401  (fixture)

PAGE_STORAGE_SECONDS = 1.0   # the served app's time for a write (15 s by default); SQLite waits 5 s for a lock
STAND_IN_SECONDS = 1         # an absent seat may be handed to a bot this soon (60 s by default)


@pytest.fixture(scope="module")
def late_server(tmp_path_factory):
    """A server (a subprocess) whose writes are given `PAGE_STORAGE_SECONDS`."""
    from .browser_support import serving
    yield from serving(tmp_path_factory, "late_failures", STORAGE_SECONDS=PAGE_STORAGE_SECONDS,
                       STAND_IN_SECONDS=STAND_IN_SECONDS)


def _sentence(reason: Reason, lang: str) -> str:
    words = reason.render(lang)
    return words[0].upper() + words[1:]          # a reason alone is shown as a sentence


def _write_lock(srv) -> sqlite3.Connection:
    holder = sqlite3.connect(srv.db_url.removeprefix("sqlite:///"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    return holder


def test_the_table_page_says_a_move_in_doubt_that_then_failed_was_not_saved_after_all(browser, late_server):
    """The page said the move "may still be saved: if it is, the table will show it" and
    kept saying so after its write had failed, over the position without it.  The in-doubt
    notice now gives way to "not saved after all" and why; the position stays the stored
    one, and the move can be made again."""
    from .browser_support import open_page
    from .test_browser import BUTTON, current_n
    from .test_browser_friends import play_until_waiting_for, two_humans
    from .test_stale_tab_and_reconnect import click_one_move

    srv, lang = late_server, "de"
    table = two_humans(srv)
    play_until_waiting_for(srv, table, 0)
    ctx, page, errors = open_page(browser, srv, table["seats"][0]["link"], size="phone", locale="de-DE",
                                  wait_for="#turn[data-mine='1']")
    n = current_n(page)
    in_doubt = _sentence(Reason("server.unsaved_in_doubt"), lang)
    failed = _sentence(Reason("server.unsaved_after_all", cause=Reason("server.db_locked")), lang)
    holder = _write_lock(srv)                # another program holds the write lock ...
    try:
        click_one_move(page, "#notice.refused")           # ... past the server's time for the write
        page.wait_for_selector(f"#notice:has-text({in_doubt!r})")
        page.wait_for_selector(f"#notice:has-text({failed!r})", timeout=15_000)   # ... and past SQLite's wait
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert in_doubt not in page.inner_text("#notice")
    assert page.get_attribute("#notice", "role") == "alert"   # said, as every refusal is, as it comes
    assert current_n(page) == n == srv.get(f"/api/tables/{table['id']}")["n"]
    again = f"#turn:not([data-n='{n}'])"
    if page.locator(BUTTON).count():                      # made again (the card is still picked) ...
        page.locator(BUTTON).first.click()
        page.wait_for_selector(again)
    else:
        click_one_move(page, again)
    # ... and taken as any move
    assert current_n(page) == n + 1 == srv.get(f"/api/tables/{table['id']}")["n"]
    assert errors == []
    ctx.close()


def test_the_table_page_s_stand_in_in_doubt_gives_way_once_the_table_shows_the_bot(browser, late_server):
    """"The change of who plays this seat may still be saved: if it is, the table will show
    it" stayed on the page after the table showed the bot playing the seat, until the next
    notice; the name's and the rematch's gave way.  It gives way too."""
    from .browser_support import open_page
    from .test_browser_friends import play_until_waiting_for, two_humans

    srv, lang = late_server, "en"
    table = two_humans(srv)
    play_until_waiting_for(srv, table, 0)             # the bot, once there, has no move to make
    ctx, page, errors = open_page(browser, srv, table["seats"][0]["link"], size="phone", locale="en-US",
                                  wait_for="#stand-in-1")
    in_doubt = _sentence(Reason("server.stand_in_in_doubt"), lang)
    holder = _write_lock(srv)                # another program holds the write lock ...
    try:
        page.click("#stand-in-1")                         # ... past the server's time for the write
        page.wait_for_selector(f"#notice:has-text({in_doubt!r})", timeout=15_000)
    finally:
        holder.execute("ROLLBACK")                       # within SQLite's wait: the write commits
        holder.close()
    page.wait_for_selector("#stand-in-1", state="detached")   # the table shows the bot: no offer any more
    page.wait_for_function("() => !(document.querySelector('#notice')?.innerText || '').includes("
                           f"{in_doubt[1:]!r})")
    assert srv.get(f"/api/tables/{table['id']}")["seats"][1]["stand_in"] is not None
    assert errors == []
    ctx.close()
