"""What players are told, and shown, when a write had no answer in time (docs/web-server.md,
"Durability"), beyond a move's own refusal (test_storage_in_doubt): a move queued behind a
move in doubt, a name and a rematch in doubt, and a table read again from the database
while a move of it is in doubt (a page reloaded after the table left memory, a load racing
the late commit, another process's commit heard while loading).

A write lands late as in test_storage_late_writes: another connection holds SQLite's write
lock longer than `storage_seconds` (0.3 s) but shorter than SQLite's busy wait (10 s,
`busy_wait`), so the request is answered 503 and its write commits when the lock is released."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import threading
import time

import pytest
from starlette.websockets import WebSocketDisconnect

import wasserspiele.web.hub as hub_module
from wasserspiele.core.messages import Reason
from wasserspiele.web.hub import Hub
from wasserspiele.web.limits import Limits
from wasserspiele.web.storage import Storage

from .helpers import auth, create, humans, move, table_state
# (`quick`, autouse there, is used here too: a lock is given up after 1 s, a probe tried at every check)
from .test_storage_failures import _until_pong, ask_rematch, finished_game, quick  # noqa: F401
from .test_storage_in_doubt import _moves_stored, _until_shown
from .test_storage_late_writes import LATE, Lock, _hello, _query, _until_state, answering_late, busy_wait  # noqa: F401

LANGS = ["en", "de"]
DEADLINE = 5.0


def _wait(ok, what: str, seconds: float = DEADLINE) -> None:
    """Until `ok()` holds, within `seconds` (the server works in its own threads)."""
    deadline = time.monotonic() + seconds
    while not ok():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)   # asking again under a deadline


def _said(ws, want, seconds: float = DEADLINE) -> list[dict]:
    """What `ws` is sent until a message `want` accepts is among it (asking with pings)."""
    said: list[dict] = []
    deadline = time.monotonic() + seconds
    while not any(want(m) for m in said):
        assert time.monotonic() < deadline, said
        said += _until_pong(ws)
        time.sleep(0.02)
    return said


def _page_there_first(monkeypatch, hub, seat: int | None) -> None:
    """A catch-up of the table (`load_since`) reads only once a page of `seat` is attached
    to it, as a page that opened the table is before anything happens there."""
    since = hub.storage.load_since

    def attached(tid) -> bool:
        try:   # (read from the storage thread while the server's loop may change it)
            return any(c.seat == seat for c in list(hub.tables[tid].conns))
        except (KeyError, RuntimeError):
            return False

    def after_the_page(tid, n):
        _wait(lambda: attached(tid), "no page was attached")
        return since(tid, n)

    monkeypatch.setattr(hub.storage, "load_since", after_the_page)


def _in_doubt_message(code: str, lang: str) -> dict:
    return {"code": "storage", "reason_code": code, "params": {}, "message": Reason(code).render(lang)}


def _refusal(msg: dict) -> dict:
    return {k: msg.get(k) for k in ("code", "reason_code", "params", "message")}


# -- a move queued behind a move in doubt --------------------------------------------------

def _first_write_signalled(monkeypatch, storage) -> threading.Event:
    """An event set as the first transaction of moves begins (the storage thread's side)."""
    save = storage.save_batch
    writing = threading.Event()

    def signalled(batch):
        writing.set()
        return save(batch)

    monkeypatch.setattr(storage, "save_batch", signalled)
    return writing


@pytest.mark.parametrize("lang", LANGS)
def test_a_move_queued_behind_a_move_in_doubt_is_told_that_one_may_still_be_saved_and_shown_the_stored_game(
        make_client, db_url, monkeypatch, busy_wait, lang):
    """A move applied while the move before it was being written, whose write then had no
    answer in time, was refused "an earlier move could not be saved: the database is not
    available; please try again" — while that move was very likely saved a moment later.
    It is told the truth: it was not saved, the move before it had no answer in time and
    may still be saved, the table shows the game as stored once that is known.  Both pages
    end showing the stored game (the move in doubt, stored late; not the queued one)."""
    client = make_client()
    t = create(client, seats=humans(3))
    answering_late(client)
    hub = client.app.state.hub
    storage = hub.storage
    writing = _first_write_signalled(monkeypatch, storage)
    tokens = [s["token"] for s in t["seats"]]
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws0, \
            client.websocket_connect(f"/ws/tables/{t['id']}") as ws1, \
            client.websocket_connect(f"/ws/tables/{t['id']}") as ws2:
        first = _hello(ws0, tokens[0], lang)
        wss = [ws0, ws1, ws2]
        _hello(ws1, tokens[1], lang)
        _hello(ws2, tokens[2], lang)
        for ws in wss:
            _until_pong(ws)
        lock = Lock(db_url)
        try:
            ws0.send_text(json.dumps({"type": "move", "action": first["legal"][0], "n": 0}))
            assert writing.wait(DEADLINE)                    # its transaction waits for the lock ...
            live = hub.tables[t["id"]].state                  # ... and the next seat moves on top of it
            seat = live.to_move()[0]
            second = str(live.legal_actions(seat)[0])
            wss[seat].send_text(json.dumps({"type": "move", "action": second, "n": 1}))
            theirs = _said(wss[seat], lambda m: m["type"] == "refused")
            mine = _said(ws0, lambda m: m["type"] == "refused")
            hub.limits = Limits()                             # (what follows: the default time)
        finally:
            lock.release()                                    # within the first write's busy wait
        assert [_refusal(m) for m in mine if m["type"] == "refused"] == \
            [_in_doubt_message("server.unsaved_in_doubt", lang)], mine
        assert [_refusal(m) for m in theirs if m["type"] == "refused"] == \
            [_in_doubt_message("server.earlier_in_doubt", lang)], theirs
        words = Reason("server.earlier_in_doubt").render(lang)
        assert Reason("server.earlier_unsaved", cause=Reason("server.db_down")).render(lang) != words
        assert {"en": "may still be saved", "de": "kann noch gespeichert werden"}[lang] in words
        # the move in doubt was stored: every page shows it, the queued move nowhere
        said = _said(ws0, lambda m: m["type"] == "accepted")     # its mover told it was stored after all
        assert [m["n"] for m in said if m["type"] == "state"] == [1], said
        assert [m for m in said if m["type"] != "state"] == [{"type": "accepted", "n": 1, "late": True}], said
        for ws in wss[1:]:
            assert _until_state(ws, lambda m: m["n"] == 1)["n"] == 1
        assert _moves_stored(db_url, t["id"]) == 1
        assert table_state(client, t["id"])["n"] == 1
        # the queued move, never written, can be made now
        again = move(client, t["id"], tokens[seat], second, 1)
        assert again.status_code == 200, again.text
    assert _moves_stored(db_url, t["id"]) == 2


# -- a name and a rematch in doubt ----------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_a_name_in_doubt_is_told_it_may_still_be_saved_and_sent_again_is_stored_once(
        make_client, db_url, busy_wait, lang):
    """A name whose write had no answer in time was refused "the database is not available;
    please try again" — and then stored a moment later.  It is told the name may still be
    saved and every page will show it; sent again (while the first still waits, and once it
    is shown) the same name is stored and shown, never refused "too many"."""
    client = make_client(limits=Limits(name_rate=0.0, name_burst=2))
    t = create(client, seats=humans(3))
    client.app.state.hub.limits = Limits(storage_seconds=LATE.storage_seconds, name_rate=0.0, name_burst=2)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws0, \
            client.websocket_connect(f"/ws/tables/{t['id']}") as ws1:
        _hello(ws0, t["seats"][0]["token"], lang)
        _hello(ws1, t["seats"][1]["token"], lang)
        _until_pong(ws0)
        lock = Lock(db_url, check_same_thread=False)
        released = threading.Timer(0.3, lock.release)
        try:
            ws0.send_text(json.dumps({"type": "name", "name": "Ann"}))
            refused = ws0.receive_json()                       # after 0.3 s: no answer
            client.app.state.hub.limits = Limits(name_rate=0.0, name_burst=2)   # the default time
            released.start()                                   # within both writes' busy wait
            ws0.send_text(json.dumps({"type": "name", "name": "Ann"}))   # sent again, the first waiting
            again = _said(ws0, lambda m: m["type"] == "state" and m["seats"][0]["name"] == "Ann")
        finally:
            released.join()
        assert _refusal(refused) == _in_doubt_message("server.name_in_doubt", lang), refused
        assert Reason("server.name_in_doubt").render(lang) != Reason("server.db_down").render(lang)
        assert [m for m in again if m["type"] == "refused"] == [], again
        assert _until_state(ws1, lambda m: m["seats"][0]["name"] == "Ann")
        time.sleep(0.2)                                        # (the first's late commit heard meanwhile)
        ws0.send_text(json.dumps({"type": "name", "name": "Ann"}))   # once shown: nothing to do
        assert _until_pong(ws0) == []
    assert _query(db_url, "select name from seats where table_id = ? and seat = 0", t["id"]) == ("Ann",)


@pytest.mark.parametrize("lang", LANGS)
def test_a_rematch_in_doubt_is_told_it_may_still_be_made_and_asked_again_makes_one_table(
        make_client, db_url, busy_wait, lang):
    """A rematch whose write had no answer in time was refused "the database is not
    available; please try again", and was made a moment later.  It is told the rematch may
    still be saved, that the table will show it and that asking again takes the player to
    it; asked again while the first still waits, exactly one rematch is made, and both
    answers and the table's pages name that one."""
    client = make_client()
    t = finished_game(client)
    answering_late(client)
    hub = client.app.state.hub
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws1:
        assert "rematch" not in _hello(ws1, t["seats"][1]["token"])
        lock = Lock(db_url, check_same_thread=False)
        released = threading.Timer(0.3, lock.release)
        try:
            first = ask_rematch(client, t, 0, lang)            # after 0.3 s: no answer
            hub.limits = Limits()                              # the default time
            released.start()
            second = ask_rematch(client, t, 0, lang)           # asked again, the first still waiting
        finally:
            released.join()
        assert first.status_code == 503, first.text
        body = first.json()
        assert (body["error"], body["reason_code"], body["params"]) == ("storage", "server.rematch_in_doubt", {}), body
        assert body["message"] == Reason("server.rematch_in_doubt").render(lang), body
        assert second.status_code == 200, second.text
        made = second.json()["id"]
        shown = _until_state(ws1, lambda m: "rematch" in m)["rematch"]
        assert shown == made
        assert _query(db_url, "select rematch from tables where id = ?", t["id"]) == (made,)
        joined = ask_rematch(client, t, 1)
        assert joined.status_code == 200 and joined.json()["id"] == made, joined.text
    time.sleep(0.2)                                            # (the first's late commit heard meanwhile)
    assert _query(db_url, "select count(*) from tables where id != ?", t["id"]) == (1,)   # one rematch


# -- a table read again while a move of it is in doubt --------------------------------------

def test_a_page_reloaded_while_its_move_is_in_doubt_is_shown_the_move_stored_while_the_table_loads(
        make_client, db_url, monkeypatch, busy_wait):
    """The table left memory after a move's write had no answer in time (its page reloaded,
    the cache keeping no table at rest), and was read again for the reloaded page just
    before that write committed: the commit's news found no table in memory, and the copy
    read showed the game without the move for good, while the database held it (the next
    move there lost its race).  Now the table read again catches up: the page is shown the
    move and told it was stored after all, and the move sent again is told so too."""
    client = make_client(limits=Limits(unwatched_tables=0))
    t = create(client, seats=humans(3))
    hub = client.app.state.hub
    hub.limits = Limits(storage_seconds=LATE.storage_seconds, unwatched_tables=0)
    storage = hub.storage
    token = t["seats"][0]["token"]
    heard = threading.Event()
    stored_late = hub._moves_stored_late

    def hearing(progress):
        stored_late(progress)
        heard.set()

    monkeypatch.setattr(hub.committer, "late", hearing)   # (given the hub's method when the hub was made)
    lock = Lock(db_url, check_same_thread=False)
    released = []

    def release() -> None:
        if not released:
            released.append(True)
            lock.release()

    try:
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            first = _hello(ws, token)
            ws.send_text(json.dumps({"type": "move", "action": first["legal"][0], "n": 0}))
            said = _said(ws, lambda m: m["type"] == "refused")
            assert said[-1]["reason_code"] == "server.unsaved_in_doubt", said
            hub.limits = Limits(unwatched_tables=0)        # (what follows: the default time)
        # the page reloads: its socket closed, the table leaves memory (nobody else watching)
        _wait(lambda: t["id"] not in hub.tables, "the table never left memory")
        read = storage.load_table

        def read_before_the_commit(table_id):
            row = read(table_id)                           # the move not stored yet ...
            release()                                      # ... and now it is, and heard of
            assert heard.wait(DEADLINE)
            return row

        monkeypatch.setattr(storage, "load_table", read_before_the_commit)
        _page_there_first(monkeypatch, hub, 0)
        with client.websocket_connect(f"/ws/tables/{t['id']}") as again:
            assert _hello(again, token)["n"] == 0          # (true when it was read)
            monkeypatch.setattr(storage, "load_table", read)
            said = _said(again, lambda m: m["type"] == "accepted")
            assert [m["n"] for m in said if m["type"] == "state"] == [1], said
            assert [m for m in said if m["type"] != "state"] == [{"type": "accepted", "n": 1, "late": True}], said
            assert table_state(client, t["id"])["n"] == 1 == _moves_stored(db_url, t["id"])
            again.send_text(json.dumps({"type": "move", "action": first["legal"][0], "n": 0}))
            said = _until_pong(again)
            assert [(m["type"], m["reason_code"]) for m in said] == [("refused", "server.stored_after_all")], said
    finally:
        release()
    assert _moves_stored(db_url, t["id"]) == 1


def test_a_move_in_doubt_stored_while_its_table_was_out_of_memory_is_told_so_when_sent_again(
        make_client, db_url, busy_wait):
    """The table left memory after a move's write had no answer in time, and the write
    committed meanwhile: read again, the table shows the move (it is stored), but what the
    process knew of it — a move in doubt — was its copy's, gone with it: the move sent
    again was refused as stale ("based on move 0, but the game is at move 1"), not told it
    was the player's own, stored after all.  The process keeps it, not the copy."""
    client = make_client(limits=Limits(unwatched_tables=0))
    t = create(client, seats=humans(3))
    hub = client.app.state.hub
    hub.limits = Limits(storage_seconds=LATE.storage_seconds, unwatched_tables=0)
    token = t["seats"][0]["token"]
    lock = Lock(db_url)
    try:
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            first = _hello(ws, token, "de")
            action = first["legal"][0]
            ws.send_text(json.dumps({"type": "move", "action": action, "n": 0}))
            said = _said(ws, lambda m: m["type"] == "refused")
            assert said[-1]["reason_code"] == "server.unsaved_in_doubt", said
            hub.limits = Limits(unwatched_tables=0)
        _wait(lambda: t["id"] not in hub.tables, "the table never left memory")
    finally:
        lock.release()
    _wait(lambda: _moves_stored(db_url, t["id"]) == 1, "the move in doubt was never stored")
    _until_shown(client, t["id"], 1)                       # read again: the stored game
    r = client.post(f"/api/tables/{t['id']}/moves?lang=de", headers=auth(token),
                    content=json.dumps({"action": action, "n": 0}))
    assert r.status_code == 409, r.text
    assert (r.json()["reason_code"], r.json()["params"]) == ("server.stored_after_all", {"n": 1}), r.text
    assert r.json()["message"] == Reason("server.stored_after_all", n=1).render("de")
    assert _moves_stored(db_url, t["id"]) == 1


async def _another_process_moves(db_url: str, table_id: str, action: str) -> int:
    """Seat 0 plays `action` at the table through another process (a second Hub on the same
    SQLite file), which stores it; the version it committed."""
    other = Hub(Storage(db_url), bot_delay=30)
    try:
        there = await other.open(table_id)
        await there.submit(0, action, 0)
        return there.version
    finally:
        await other.shutdown()
        other.storage.close()


def test_another_process_s_move_heard_while_the_table_loads_is_shown(make_client, db_url, monkeypatch):
    """Another process's commit heard (its NOTIFY) while this process was reading the table
    from the database, after that read: the news found no table in memory and was dropped,
    and the copy read showed the game without that move until something else made it read
    the table again.  It is caught up once loaded.  (The other process is a second Hub on
    the same SQLite file; its notice is given to this one as its listener would.)"""
    client = make_client()
    t = create(client, seats=humans(3))
    hub = client.app.state.hub
    token = t["seats"][0]["token"]
    action = table_state(client, t["id"], token)["legal"][0]
    hub.tables.pop(t["id"])                                  # not in memory here (never opened)
    loop = client.portal.call(asyncio.get_running_loop)
    read = hub.storage.load_table

    def read_before_the_other_commit(table_id):
        row = read(table_id)
        version = asyncio.run(_another_process_moves(db_url, t["id"], action))
        asyncio.run_coroutine_threadsafe(_notice(hub, table_id, version), loop).result(DEADLINE)
        return row

    async def _notice(h, table_id, version):
        h.on_notice(table_id, version)

    monkeypatch.setattr(hub.storage, "load_table", read_before_the_other_commit)
    _page_there_first(monkeypatch, hub, 0)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        assert _hello(ws, token)["n"] == 0
        monkeypatch.setattr(hub.storage, "load_table", read)
        assert _until_state(ws, lambda m: m["n"] == 1)["n"] == 1
    assert table_state(client, t["id"])["n"] == 1 == _moves_stored(db_url, t["id"])


# -- the table's page -------------------------------------------------------------------

from .browser_support import browser  # noqa: E402,F401  (fixture: asked for by page_browser)
from .test_storage_in_doubt import in_doubt_server, page_browser  # noqa: E402,F401  (fixtures)


@pytest.mark.parametrize("locale,lang", [("en-US", "en"), ("de-DE", "de")])
def test_the_table_page_says_a_rematch_in_doubt_may_still_be_made_and_then_offers_it(
        page_browser, in_doubt_server, locale, lang):
    """The finished table's page, its "Rematch" answered after the server's time for the
    write, said "The database is not available; please try again" („Die Datenbank ist
    nicht erreichbar …") — and the rematch was made a moment later.  It says the rematch
    may still be saved and that asking again takes the player to it; once stored, the
    refusal gives way to the button "Go to the rematch", which leads to that one table."""
    import re
    import sqlite3

    from wasserspiele.core.messages import catalogue

    from .browser_support import finished_table, open_page

    srv = in_doubt_server
    table = finished_table(srv)
    ctx, page, errors = open_page(page_browser, srv, table["seats"][0]["link"], size="phone", locale=locale,
                                  wait_for="#rematch")
    words = Reason("server.rematch_in_doubt").render(lang)
    shown = words[0].upper() + words[1:]                # a reason alone is shown as a sentence
    holder = sqlite3.connect(srv.db_url.removeprefix("sqlite:///"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")        # another program holds the write lock ...
    try:
        page.click("#rematch")                            # ... past the server's time for the write
        page.wait_for_selector(f"#notice:has-text({shown!r})", timeout=15_000)
        assert catalogue(lang).text("server.db_down")[1:] not in page.inner_text("#notice")
    finally:
        holder.execute("ROLLBACK")                       # within SQLite's wait: the write commits
        holder.close()
    join = catalogue(lang).text("web.join_rematch")
    page.wait_for_selector(f"#rematch:has-text({join!r})")
    assert page.locator("#notice").count() == 0 or words[1:] not in page.inner_text("#notice")
    made = srv.get(f"/api/tables/{table['id']}")["rematch"]
    assert made
    page.click("#rematch")                                # asking again: that table, not a second one
    page.wait_for_url(re.compile(f"/table/{made}#"))
    assert srv.get(f"/api/tables/{table['id']}")["rematch"] == made
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("locale,lang", [("en-US", "en"), ("de-DE", "de")])
def test_the_table_page_says_a_name_in_doubt_may_still_be_saved_and_then_shows_it(
        page_browser, in_doubt_server, locale, lang):
    """A name sent from the table's page, its write answered after the server's time, was
    refused "The database is not available; please try again" and shown a moment later
    under that refusal.  It is said to be maybe still saved; once stored, the seat shows
    it and the refusal gives way."""
    import sqlite3

    from .browser_support import open_page
    from .test_browser_friends import two_humans

    srv = in_doubt_server
    table = two_humans(srv)
    ctx, page, errors = open_page(page_browser, srv, table["seats"][0]["link"], size="phone", locale=locale,
                                  wait_for="#name-form")
    words = Reason("server.name_in_doubt").render(lang)
    shown = words[0].upper() + words[1:]
    page.fill("#my-name", "Ann")
    holder = sqlite3.connect(srv.db_url.removeprefix("sqlite:///"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")        # another program holds the write lock ...
    try:
        page.press("#my-name", "Enter")                   # ... past the server's time for the write
        page.wait_for_selector(f"#notice:has-text({shown!r})", timeout=15_000)
    finally:
        holder.execute("ROLLBACK")                       # within SQLite's wait: the write commits
        holder.close()
    page.wait_for_selector("#seats [data-seat='0'] .who[title='Ann']")
    assert page.locator("#notice").count() == 0 or words[1:] not in page.inner_text("#notice")
    assert srv.get(f"/api/tables/{table['id']}")["seats"][0]["name"] == "Ann"
    assert errors == []
    ctx.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_stand_in_in_doubt_is_told_it_may_still_be_saved_and_the_table_then_shows_the_bot(
        make_client, db_url, busy_wait, lang):
    """A bot asked to play for an absent player, whose write had no answer in time, was
    refused "the database is not available; please try again" — and then stored a moment
    later, the bot playing.  It is told the change may still be saved and the table will
    show it; once stored, every page shows the bot in the seat (asking again is refused as
    "already", nothing stored twice)."""
    client = make_client(limits=Limits(stand_in_seconds=0))
    t = create(client, options={"players": 2}, seats=humans(2))
    client.app.state.hub.limits = Limits(storage_seconds=LATE.storage_seconds, stand_in_seconds=0)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws0:
        _hello(ws0, t["seats"][0]["token"], lang)
        _until_pong(ws0)
        lock = Lock(db_url, check_same_thread=False)
        released = threading.Timer(0.3, lock.release)
        try:
            ws0.send_text(json.dumps({"type": "stand_in", "seat": 1, "level": "easy"}))
            said = _said(ws0, lambda m: m["type"] == "refused")   # after 0.3 s: no answer
            refused = next(m for m in said if m["type"] == "refused")
            released.start()                                   # within the write's busy wait
            shown = _until_state(ws0, lambda m: m["seats"][1]["stand_in"] == "easy")
        finally:
            released.join()
    assert _refusal(refused) == _in_doubt_message("server.stand_in_in_doubt", lang), refused
    assert shown["seats"][1]["stand_in"] == "easy"
    assert _query(db_url, "select stand_in from seats where table_id = ? and seat = 1", t["id"]) == ("easy",)


def _run_apart(coro):
    """`asyncio.run(coro)` in a thread of its own: this module's browser tests leave
    Playwright's loop running in the main thread, where `asyncio.run` is refused."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def _slow_reads(monkeypatch, storage, count: int) -> None:
    """The next `count` reads of a whole table answer only after the server's time for them."""
    read = storage.load_table
    left = [count]

    def slow(table_id):
        if left[0] > 0:
            left[0] -= 1
            time.sleep(LATE.storage_seconds + 0.2)
        return read(table_id)
    monkeypatch.setattr(storage, "load_table", slow)


def _two_seats_answering_late(make_client):
    """A client whose storage answers late (stand-ins at once) and a new table of two people."""
    client = make_client(limits=Limits(stand_in_seconds=0))
    t = create(client, options={"players": 2}, seats=humans(2))
    client.app.state.hub.limits = Limits(storage_seconds=LATE.storage_seconds, stand_in_seconds=0)
    return client, t


def _stand_in_stored_late(client, db_url, monkeypatch, ws0, slow: int) -> None:
    """Seat 0 asks for a bot in seat 1; the write is stored after its request had ended, and
    the table's reload that follows finds the database `slow` times too slow to answer."""
    lock = Lock(db_url, check_same_thread=False)
    released = threading.Timer(0.3, lock.release)
    try:
        ws0.send_text(json.dumps({"type": "stand_in", "seat": 1, "level": "easy"}))
        _said(ws0, lambda m: m["type"] == "refused")   # after 0.3 s: no answer
        _slow_reads(monkeypatch, client.app.state.hub.storage, slow)
        released.start()
    finally:
        released.join()


def test_a_write_stored_late_whose_reload_is_answered_late_is_read_again_and_shown(
        make_client, db_url, busy_wait, monkeypatch):
    """The table is read back after a write stored late, in the background.  A read past
    `storage_seconds` (a loaded machine, in CI) ended that task unseen ("Task exception was
    never retrieved"), and every page went on showing the seat without its bot while the
    bot played.  The database is asked again."""
    client, t = _two_seats_answering_late(make_client)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws0:
        _hello(ws0, t["seats"][0]["token"])
        _until_pong(ws0)
        _stand_in_stored_late(client, db_url, monkeypatch, ws0, slow=hub_module.RELOAD_TRIES - 1)
        shown = _until_state(ws0, lambda m: m["seats"][1]["stand_in"] == "easy", seconds=DEADLINE * 2)
    assert shown["seats"][1]["stand_in"] == "easy"


def test_a_table_whose_reload_finds_no_answer_at_all_is_dropped_and_its_pages_load_it_as_stored(
        make_client, db_url, busy_wait, monkeypatch, caplog):
    """A database that never answers the reload in time: the table leaves memory, its pages'
    sockets close (they reconnect), and a page that reconnects is shown the stored bot."""
    client, t = _two_seats_answering_late(make_client)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws0:
        _hello(ws0, t["seats"][0]["token"])
        _until_pong(ws0)
        _stand_in_stored_late(client, db_url, monkeypatch, ws0, slow=hub_module.RELOAD_TRIES)
        with pytest.raises(WebSocketDisconnect):
            _said(ws0, lambda m: False, seconds=DEADLINE * 2)
    assert f"table {t['id']}: cannot read it back (no answer); it is dropped from memory" in caplog.text
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws0:
        assert _hello(ws0, t["seats"][0]["token"])["seats"][1]["stand_in"] == "easy"


def test_another_process_s_move_whose_catch_up_finds_no_answer_in_time_is_read_again_and_shown(
        make_client, db_url, monkeypatch):
    """Another process's move heard (NOTIFY) while this database answers late: the catch-up's
    read had no answer in time, and so did the reload after it, which ended the task unseen —
    every page kept showing the game without the move.  The table is read again."""
    client = make_client()
    t = create(client, seats=humans(3))
    hub = client.app.state.hub
    token = t["seats"][0]["token"]
    action = table_state(client, t["id"], token)["legal"][0]
    loop = client.portal.call(asyncio.get_running_loop)

    async def notice(version):
        hub.on_notice(t["id"], version)

    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        assert _hello(ws, token)["n"] == 0
        version = _run_apart(_another_process_moves(db_url, t["id"], action))
        hub.limits = LATE
        slow = LATE.storage_seconds + 0.2
        read_since = hub.storage.load_since
        monkeypatch.setattr(hub.storage, "load_since", lambda *a: time.sleep(slow) or read_since(*a))
        _slow_reads(monkeypatch, hub.storage, hub_module.RELOAD_TRIES - 1)
        asyncio.run_coroutine_threadsafe(notice(version), loop).result(DEADLINE)
        assert _until_state(ws, lambda m: m["n"] == 1, seconds=DEADLINE * 2)["n"] == 1


def test_background_work_that_fails_is_logged_with_its_cause_as_it_ends(db_url, caplog):
    """A background task's failure was Python's "Task exception was never retrieved" when the
    task happened to be collected (as the reload above), or nothing at all."""
    async def scenario():
        hub = Hub(Storage(db_url), bot_delay=30)

        async def reading_the_table():
            raise TimeoutError("no answer within 0.3 s")
        try:
            hub._background(reading_the_table())
            await asyncio.sleep(0)   # the task runs and ends
            await asyncio.sleep(0)   # its done-callback runs
            return len(hub._tasks)
        finally:
            await hub.shutdown()
            hub.storage.close()

    assert _run_apart(scenario()) == 0
    failed = [r for r in caplog.records if r.getMessage().startswith("background work ")]
    assert [r.getMessage() for r in failed] == [
        "background work test_background_work_that_fails_is_logged_with_its_cause_as_it_ends.<locals>."
        "scenario.<locals>.reading_the_table failed"]
    assert isinstance(failed[0].exc_info[1], TimeoutError) and failed[0].levelname == "ERROR"
