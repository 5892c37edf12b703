"""A move whose write had no answer in time is in doubt, not unsaved (docs/web-server.md,
"When a write answers late"): its transaction goes on and may still commit, so its mover
is told that it may still be saved and that the table will show it, not "could not be
saved ... please try again" as for a write the database refused (a full disk); and a
mover who sends it again once it has been stored is told that their move was stored
after all, not refused as stale by their own move.

A write lands late as in test_storage_late_writes: another connection holds SQLite's write
lock longer than `storage_seconds` (0.3 s) but shorter than SQLite's busy wait (10 s,
`busy_wait`, for every test here), so the request is answered 503 and its write commits
when the lock is released."""

from __future__ import annotations

import json
import sqlite3
import threading
import time

import pytest

from wasserspiele.core.messages import Reason
from wasserspiele.web.limits import Limits

from .browser_support import browser  # noqa: F401  (fixture: the page test asks for it once Playwright is there)
from .helpers import auth, create, humans, move, table_state
# (`quick`, autouse there, is used here too: a probe tried at every check)
from .test_storage_failures import Fault, quick  # noqa: F401
from .test_storage_late_writes import Lock, _query, answering_late, busy_wait  # noqa: F401

pytestmark = pytest.mark.usefixtures("busy_wait")

LANGS = ["en", "de"]


def _moves_stored(db_url: str, table_id: str) -> int:
    return _query(db_url, "select count(*) from moves where table_id = ?", table_id)[0]


def _until_shown(client, table_id: str, n: int, seconds: float = 5.0) -> None:
    """Until the server's table (as any client reads it) is at move `n`, within `seconds`."""
    deadline = time.monotonic() + seconds
    while table_state(client, table_id)["n"] != n:
        assert time.monotonic() < deadline, "the move stored late was never shown"
        time.sleep(0.05)   # asking again under a deadline


def _in_doubt(client, db_url, t, lang="en"):
    """Seat 0's first move sent over HTTP while another program holds the write lock past
    `storage_seconds`, the lock released afterwards (within SQLite's busy wait: the write
    commits): (the refused answer, the moves seat 0 had, the first of which it sent, its token)."""
    token = t["seats"][0]["token"]
    legal = table_state(client, t["id"], token)["legal"]
    action = legal[0]
    lock = Lock(db_url)
    try:
        r = client.post(f"/api/tables/{t['id']}/moves?lang={lang}", headers=auth(token),
                        content=json.dumps({"action": action, "n": 0}))
        client.app.state.hub.limits = Limits()   # (what follows: the default time)
    finally:
        lock.release()
    return r, legal, token


@pytest.mark.parametrize("lang", LANGS)
def test_a_move_with_no_answer_in_time_is_told_it_may_still_be_saved_not_that_it_was_not(make_client, db_url, lang):
    """A move whose write timed out was answered as a full disk's is: 503, "the move could
    not be saved: the database is not available; please try again", although its
    transaction went on and committed a moment later.  It is answered 503 `storage` (no
    ruling on the move: the page frames it so) with a reason of its own, which says the
    move may still be saved and that the table will show it, not to try again; a write the
    database refused keeps saying it was not saved, and why."""
    client = make_client()
    t = create(client, seats=humans(3))
    answering_late(client)
    r, _, _ = _in_doubt(client, db_url, t, lang)
    assert r.status_code == 503, r.text
    body = r.json()
    assert (body["error"], body["reason_code"], body["params"]) == ("storage", "server.unsaved_in_doubt", {}), body
    assert body["message"] == Reason("server.unsaved_in_doubt").render(lang), body
    not_saved = Reason("server.unsaved", cause=Reason("server.db_down")).render(lang)
    assert body["message"] != not_saved, body
    again = {"en": "try again", "de": "noch einmal"}[lang]
    assert again not in body["message"], body            # it may be stored: trying again is not the advice
    _until_shown(client, t["id"], 1)                       # and it was, after all
    assert _moves_stored(db_url, t["id"]) == 1

    # a write the database refuses outright (a full disk) is not in doubt: not saved, and why
    t2 = create(client, seats=humans(3))
    mine = table_state(client, t2["id"], t2["seats"][0]["token"])
    fault = Fault("full", client, db_url)
    fault.on()
    try:
        r = client.post(f"/api/tables/{t2['id']}/moves?lang={lang}", headers=auth(t2["seats"][0]["token"]),
                        content=json.dumps({"action": mine["legal"][0], "n": 0}))
    finally:
        fault.off()
    assert r.status_code == 503 and r.json()["reason_code"] == "server.unsaved", r.text
    assert r.json()["params"]["cause"]["code"] == "server.db_full", r.text


@pytest.mark.parametrize("lang", LANGS)
def test_a_move_in_doubt_sent_again_once_stored_is_told_it_was_stored_after_all(make_client, db_url, lang):
    """The player told their move might not be saved sent it again once it had been stored
    (an API client after `retry-after`, a person clicking again): it was refused as stale,
    "your move was based on move 0, but the game is at move 1", which did not say that move
    1 was their own.  Now the refusal says their move 1 was stored after all (409 `stale`:
    the client reads the position again); nothing is stored twice."""
    client = make_client()
    t = create(client, seats=humans(3))
    answering_late(client)
    r, legal, token = _in_doubt(client, db_url, t, lang)
    action = legal[0]
    assert (r.status_code, r.json()["error"]) == (503, "storage"), r.text   # (its words: the test above)
    _until_shown(client, t["id"], 1)
    r = client.post(f"/api/tables/{t['id']}/moves?lang={lang}", headers=auth(token),
                    content=json.dumps({"action": action, "n": 0}))
    assert r.status_code == 409, r.text
    body = r.json()
    assert (body["error"], body["reason_code"], body["params"]) == ("stale", "server.stored_after_all", {"n": 1}), body
    assert body["message"] == Reason("server.stored_after_all", n=1).render(lang), body
    assert _moves_stored(db_url, t["id"]) == 1 and table_state(client, t["id"])["n"] == 1


def test_only_the_same_seat_sending_the_same_move_at_the_same_number_is_told_it_was_stored(make_client, db_url):
    """The refusal says "your move was stored" only to the seat whose move it was, for that
    very move based on that very number: another seat at the old number, the same seat with
    another move, and the same move once its seat has moved again are refused as stale."""
    client = make_client()
    t = create(client, seats=humans(3))
    answering_late(client)
    _, legal, token = _in_doubt(client, db_url, t)
    action = legal[0]
    _until_shown(client, t["id"], 1)
    tokens = [s["token"] for s in t["seats"]]

    other = move(client, t["id"], tokens[1], table_state(client, t["id"], tokens[1])["legal"][0], 0)
    assert (other.status_code, other.json()["reason_code"]) == (409, "server.stale"), other.text
    assert len(legal) > 1, legal                         # another move seat 0 had at move 0
    different = move(client, t["id"], token, legal[1], 0)
    assert (different.status_code, different.json()["reason_code"]) == (409, "server.stale"), different.text

    # the seat moves again: its old move sent now is plainly stale
    for _ in range(10):
        state = table_state(client, t["id"])
        mover = state["to_move"][0]
        mine = table_state(client, t["id"], tokens[mover])
        assert move(client, t["id"], tokens[mover], mine["legal"][0], mine["n"]).status_code == 200
        if mover == 0:
            break
    again = move(client, t["id"], token, action, 0)
    assert (again.status_code, again.json()["reason_code"]) == (409, "server.stale"), again.text


def test_a_move_sent_again_that_loses_its_race_to_the_first_is_told_it_was_stored(
        make_client, db_url, monkeypatch):
    """The move sent again while the first, in doubt, still waits for the lock: the table
    was read back without the first, so the second is applied and written too, and finds
    the version taken by the first (a race lost).  It was refused as "another move came
    first" — the player's own.  It is told its move was stored after all."""
    client = make_client()
    t = create(client, seats=humans(3))
    answering_late(client)
    hub = client.app.state.hub
    storage = hub.storage
    save = storage.save_batch
    saves = []

    def second_after_first(batch):  # the second write starts once the first has committed
        saves.append(batch)
        if len(saves) == 2:
            deadline = time.monotonic() + 5
            while _moves_stored(db_url, t["id"]) == 0:
                assert time.monotonic() < deadline
                time.sleep(0.02)
        return save(batch)

    monkeypatch.setattr(storage, "save_batch", second_after_first)
    token = t["seats"][0]["token"]
    action = table_state(client, t["id"], token)["legal"][0]
    lock = Lock(db_url, check_same_thread=False)
    released = threading.Timer(0.3, lock.release)
    try:
        first = move(client, t["id"], token, action, 0)
        assert (first.status_code, first.json()["error"]) == (503, "storage"), first.text
        hub.limits = Limits()                           # the second has all the time it needs
        released.start()                                # the first commits while the second waits
        second = move(client, t["id"], token, action, 0)
    finally:
        released.join()
    assert len(saves) == 2
    assert second.status_code == 409, second.text
    assert (second.json()["reason_code"], second.json()["params"]) == ("server.stored_after_all", {"n": 1}), second.text
    assert _moves_stored(db_url, t["id"]) == 1
    _until_shown(client, t["id"], 1)


# -- the table's page ---------------------------------------------------------------------

PAGE_STORAGE_SECONDS = 1.0   # the served app's time for a write (15 s by default); SQLite waits 5 s for a lock


@pytest.fixture(scope="module")
def in_doubt_server(tmp_path_factory):
    """A server (a subprocess) whose writes are given `PAGE_STORAGE_SECONDS`."""
    from .browser_support import serving
    yield from serving(tmp_path_factory, "in_doubt", STORAGE_SECONDS=PAGE_STORAGE_SECONDS)


@pytest.fixture(scope="module")
def page_browser(request):
    """The browser fixture, this module's other tests running without Playwright too."""
    pytest.importorskip("playwright.sync_api")
    return request.getfixturevalue("browser")


@pytest.mark.parametrize("locale,lang", [("en-US", "en"), ("de-DE", "de")])
def test_the_table_page_says_a_move_in_doubt_may_still_be_saved(page_browser, in_doubt_server, locale, lang):
    """The page said "The move could not be saved: the database is not available; please
    try again" („Der Zug konnte nicht gespeichert werden …") over a move that was stored a
    moment later.  It now says the move may still be saved and the table will show it (the
    refusal's own reason, worded by the catalogue, no rule's "Refused:"), and once the move
    is stored, that it was saved after all, the position with it drawn."""
    from wasserspiele.core.messages import catalogue, render

    from .browser_support import ANNOUNCEMENTS, open_page, wait_to_hear
    from .test_browser import current_n
    from .test_browser_friends import play_until_waiting_for, two_humans
    from .test_stale_tab_and_reconnect import click_one_move

    srv = in_doubt_server
    table = two_humans(srv)
    play_until_waiting_for(srv, table, 0)
    ctx, page, errors = open_page(page_browser, srv, table["seats"][0]["link"], size="phone", locale=locale,
                                  init_script=ANNOUNCEMENTS, wait_for="#turn[data-mine='1']")
    n = current_n(page)
    words = Reason("server.unsaved_in_doubt").render(lang)
    shown = words[0].upper() + words[1:]                # a reason alone is shown as a sentence
    holder = sqlite3.connect(srv.db_url.removeprefix("sqlite:///"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")        # another program holds the write lock ...
    try:
        click_one_move(page, "#notice.refused")           # ... past the server's time for the write
        page.wait_for_selector(f"#notice:has-text({shown!r})")
        notice = page.inner_text("#notice")
        refused = catalogue(lang).text("web.refused").split("{reason}")[0]
        assert refused not in notice, notice                # no ruling on the move
        assert Reason("server.unsaved", cause=Reason("server.db_down")).render(lang)[1:] not in notice, notice
        assert current_n(page) == n
    finally:
        holder.execute("ROLLBACK")                       # within SQLite's wait: the write commits
        holder.close()
    told = render("web.move_saved_late", {}, lang)
    assert told in wait_to_hear(page, told)
    page.wait_for_selector(f"#notice:has-text({told!r})")
    assert current_n(page) == n + 1 == srv.get(f"/api/tables/{table['id']}")["n"]
    assert errors == []
    ctx.close()


def test_postgresql_a_move_in_doubt_is_told_so_and_sent_again_once_stored_is_told_it_was_stored(make_client, pg_url):
    """The same on PostgreSQL (where the process also hears its own commit's NOTIFY): the
    table's row locked by another session past `storage_seconds`, the move is answered as
    in doubt; the lock released, it commits, and the same move sent again is told it was
    stored after all."""
    import sqlalchemy as sa

    client = make_client(pg_url)
    t = create(client, seats=humans(3))
    answering_late(client)
    token = t["seats"][0]["token"]
    action = table_state(client, t["id"], token)["legal"][0]
    engine = sa.create_engine(pg_url)
    try:
        other = engine.connect()             # another session holds the table's row
        held = other.begin()
        try:
            other.execute(sa.text("select 1 from tables where id = :id for update"), {"id": t["id"]})
            r = client.post(f"/api/tables/{t['id']}/moves?lang=de", headers=auth(token),
                            content=json.dumps({"action": action, "n": 0}))
            client.app.state.hub.limits = Limits()
        finally:
            held.rollback()                  # the move's transaction goes on and commits
            other.close()
        assert r.status_code == 503, r.text
        assert (r.json()["error"], r.json()["reason_code"]) == ("storage", "server.unsaved_in_doubt"), r.text
        assert r.json()["message"] == Reason("server.unsaved_in_doubt").render("de"), r.text
        _until_shown(client, t["id"], 1)
        again = move(client, t["id"], token, action, 0)
        assert again.status_code == 409, again.text
        assert (again.json()["reason_code"], again.json()["params"]) == ("server.stored_after_all", {"n": 1}), again.text
        with engine.connect() as conn:
            assert conn.execute(sa.text("select count(*) from moves where table_id = :id"),
                                {"id": t["id"]}).scalar() == 1
    finally:
        engine.dispose()
