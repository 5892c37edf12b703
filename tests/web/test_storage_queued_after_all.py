"""A move queued behind a move in doubt, whose write then fails after all (docs/web-server.md,
"When a write answers late"): the seats of a Wildwasser round pick at once, and one pick's
write is still running when the next is applied, so the next is queued behind it; that
write has no answer in time (the first picker is told "may still be saved", the second
`server.earlier_in_doubt`: "your move was not saved: the database did not answer in time
for the move before it, which may still be saved; the table will show the game as it is
stored once that is known") and then fails.  Before, the first picker was told it was not
saved after all (test_storage_late_failures) and the second nothing: the table, read back
when both were refused, never changed, so that page kept saying the game would be shown
"once that is known", and a bot whose pick was so refused waited out BOT_RETRY_SECONDS
(nobody else writing) before picking again.  Now the second sender is told too
(`server.earlier_unsaved_after_all`, in its page's language, with the cause) unless it has
moved since, and a bot picks again as soon as the write before its pick (or its own pick's,
in doubt) has ended.

A write fails late as in test_storage_late_failures: another connection holds SQLite's
write lock longer than `storage_seconds` and longer than SQLite's busy wait; on PostgreSQL
another session holds the table's row and the waiting statement is cancelled.  The second
pick must reach the server while the first is written: `storage_seconds` is 1 s here (0.3 s
there), SQLite's busy wait 3 s (`busy_wait_past_window`), so a loaded machine does not miss the window."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time

import pytest

import wasserspiele.web.hub as hub_module
import wasserspiele.web.storage as storage_module
from wasserspiele.core.messages import Reason
from wasserspiele.core.protocol import entry_notation
from wasserspiele.web.hub import LiveTable
from wasserspiele.web.limits import Limits

from .helpers import create, humans, table_state
# (`quick`, autouse there, is used here too: a lock is given up after 1 s)
from .test_storage_failures import _until_pong, quick  # noqa: F401
from .test_storage_in_doubt_followups import _first_write_signalled, _said
from .test_storage_late_failures import DEADLINE, LANGS, _after_all, _late, _seats, _told, cancel_the_waiting_statement
from .test_storage_late_writes import Lock

QUEUED = "server.earlier_unsaved_after_all"
WINDOW = Limits(storage_seconds=1.0)   # the time for a write, within which the second pick is queued behind it


def answering_late(client):
    """From now on `client`'s server gives a write `WINDOW.storage_seconds`."""
    client.app.state.hub.limits = WINDOW
    return client


@pytest.fixture
def busy_wait_past_window(monkeypatch):
    """SQLite waits 3 s for a lock (1 s in `quick`): longer than a write's `WINDOW`."""
    monkeypatch.setattr(storage_module, "SQLITE_BUSY_SECONDS", 3.0)


def _wildwasser(client, seats=None) -> dict:
    """A Wildwasser table of three (people unless `seats` says), its first round's picks to make."""
    return create(client, "wildwasser", {"players": 3}, seats or humans(3))


def _picks(client, t, seats) -> dict[int, str]:
    """Each of `seats`' first legal pick in the first round."""
    return {s: table_state(client, t["id"], t["seats"][s]["token"])["legal"][0] for s in seats}


def _pick(ws, action: str, n: int = 0) -> None:
    ws.send_text(json.dumps({"type": "move", "action": action, "n": n}))


def _refused(ws) -> dict:
    """The refusal `ws` is sent next (where nothing can come after it meanwhile)."""
    said = _said(ws, lambda m: m["type"] == "refused")
    assert [m["type"] for m in said].count("refused") == 1, said
    return next(m for m in said if m["type"] == "refused")


def _stored_moves(db_url: str, table_id: str) -> list[tuple[int, int]]:
    """(number, seat) of the moves the database holds for the table."""
    con = sqlite3.connect(db_url.removeprefix("sqlite:///"))
    try:
        return con.execute("select n, seat from moves where table_id = ? order by n", (table_id,)).fetchall()
    finally:
        con.close()


@pytest.mark.parametrize("lang", LANGS)
def test_ww_3_1_a_pick_queued_behind_a_pick_in_doubt_that_then_fails_is_told_not_saved_after_all(
        make_client, db_url, monkeypatch, busy_wait_past_window, lang):
    """Seat 0's pick is being written (the lock held elsewhere) when seat 1's is applied and
    queued behind it; seat 0's has no answer in time, seat 1's is refused as queued behind
    a move in doubt, and seat 0's then fails.  Both are told it: seat 0 its move was not
    saved after all, seat 1 that the move before its own was not, so neither was its own
    (in its page's language, with the cause); seat 2 is told nothing, the table and the
    database hold neither pick, and seat 1's pick made again is taken as any move."""
    client = make_client()
    t = _wildwasser(client)
    answering_late(client)
    hub = client.app.state.hub
    picks = _picks(client, t, (0, 1))
    writing = _first_write_signalled(monkeypatch, hub.storage)
    with _seats(client, t, lang, seats=(0, 1, 2)) as (ws0, ws1, ws2):
        lock = Lock(db_url)
        try:
            _pick(ws0, picks[0])
            assert writing.wait(DEADLINE)                    # its transaction waits for the lock ...
            _pick(ws1, picks[1])                              # ... and seat 1's pick is queued behind it
            mine = _said(ws0, _late, 2 * DEADLINE)            # the lock outlasts SQLite's wait: failed
            theirs = _said(ws1, _late)
        finally:
            lock.release()
        for said, in_doubt, after_all in ((mine, "server.unsaved_in_doubt", "server.unsaved_after_all"),
                                          (theirs, "server.earlier_in_doubt", QUEUED)):
            refused = [m for m in said if m["type"] != "state"]
            assert [(m["reason_code"], m.get("late")) for m in refused] == [(in_doubt, None), (after_all, True)], said
            assert _told(refused[1]) == _after_all(after_all, lang)
        assert all(m["n"] == 0 for m in mine + theirs if m["type"] == "state"), mine + theirs
        assert [m for m in _until_pong(ws2) if m["type"] != "state"] == []   # nothing for the others
        assert [m for m in _until_pong(ws1) if m["type"] != "state"] == []   # said once
        assert table_state(client, t["id"])["n"] == 0                        # the stored truth
        assert _stored_moves(db_url, t["id"]) == []
        hub.limits = Limits()
        _pick(ws1, picks[1])                                                 # made again: a move as any
        said = _said(ws1, lambda m: m["type"] == "accepted")
        assert [m for m in said if m["type"] != "state"] == [{"type": "accepted", "n": 1}], said
    assert _stored_moves(db_url, t["id"]) == [(0, 1)]


def test_ww_3_1_a_pick_queued_behind_one_in_doubt_and_made_again_before_that_one_fails_is_not_told_so(
        make_client, db_url, monkeypatch):
    """Seat 1, refused as queued behind seat 0's pick in doubt, picks again (the database
    takes that write at once) before seat 0's write fails: its page was answered by that
    pick, which the table shows, and it is told nothing more; seat 0 is told its pick was
    not saved after all."""
    client = make_client()
    t = _wildwasser(client)
    answering_late(client)
    hub = client.app.state.hub
    picks = _picks(client, t, (0, 1))
    save = hub.storage.save_batch
    writing, release = threading.Event(), threading.Event()

    def first_held_then_locked(batch):
        if writing.is_set():
            return save(batch)
        writing.set()                     # seat 0's pick: held past its time, then locked out
        assert release.wait(DEADLINE)
        lock = Lock(db_url)
        try:
            return save(batch)
        finally:
            lock.release()

    monkeypatch.setattr(hub.storage, "save_batch", first_held_then_locked)
    with _seats(client, t, "de", seats=(0, 1)) as (ws0, ws1):
        try:
            _pick(ws0, picks[0])
            assert writing.wait(DEADLINE)
            _pick(ws1, picks[1])
            assert _refused(ws1)["reason_code"] == "server.earlier_in_doubt"
            assert _refused(ws0)["reason_code"] == "server.unsaved_in_doubt"
            _pick(ws1, picks[1])                              # made again, and stored at once
            said = _said(ws1, lambda m: m["type"] == "accepted")
            assert [m for m in said if m["type"] != "state"] == [{"type": "accepted", "n": 1}], said
        finally:
            release.set()
        mine = _said(ws0, _late)
        assert [_told(m) for m in mine if m["type"] != "state"] == [_after_all("server.unsaved_after_all", "de")]
        assert [m for m in _until_pong(ws1) if m["type"] != "state"] == []
    assert _stored_moves(db_url, t["id"]) == [(0, 1)]


def test_ww_3_1_a_pick_in_doubt_whose_number_another_pick_took_is_told_so_when_a_later_pick_is_in_doubt(
        make_client, db_url, monkeypatch):
    """Seat 0's pick is in doubt when seat 1's, made again, is stored in its place (move 1);
    then seat 2's pick has no answer in time either.  The moves in doubt at numbers the
    position has passed are settled then: seat 0's never will be, another pick has its
    number.  Before, it was dropped there unsaid, so when its write then failed nobody
    told seat 0, whose page kept saying its pick might still be saved.  Now it is told at
    once, "another move came first", and only once."""
    client = make_client()
    t = _wildwasser(client)
    answering_late(client)
    hub = client.app.state.hub
    picks = _picks(client, t, (0, 1, 2))
    save = hub.storage.save_batch
    first, release, third, ended = threading.Event(), threading.Event(), threading.Event(), threading.Event()
    calls = []

    def first_held_then_locked_third_held(batch):
        calls.append(batch)
        if len(calls) == 1:                # seat 0's pick: held past its time, then locked out
            first.set()
            assert release.wait(2 * DEADLINE)
            lock = Lock(db_url)
            try:
                return save(batch)
            finally:
                lock.release()
                ended.set()
        if len(calls) == 3:                # seat 2's pick: held past its time, then stored
            assert third.wait(2 * DEADLINE)
        return save(batch)

    monkeypatch.setattr(hub.storage, "save_batch", first_held_then_locked_third_held)
    with _seats(client, t, "en", seats=(0, 1, 2)) as (ws0, ws1, ws2):
        try:
            _pick(ws0, picks[0])
            assert first.wait(DEADLINE)
            _pick(ws1, picks[1])
            assert _refused(ws1)["reason_code"] == "server.earlier_in_doubt"
            assert _refused(ws0)["reason_code"] == "server.unsaved_in_doubt"
            _pick(ws1, picks[1])                              # made again, and stored at once: move 1
            _said(ws1, lambda m: m["type"] == "accepted")
            _pick(ws2, picks[2], 1)                           # no answer in time either
            assert _refused(ws2)["reason_code"] == "server.unsaved_in_doubt"
            mine = _said(ws0, _late)
            third.set()
            _said(ws2, lambda m: m["type"] == "accepted")      # seat 2's pick, stored late, is told so
            release.set()                                      # (then seat 0's write fails: locked out)
            assert ended.wait(DEADLINE)
        finally:
            third.set()
            release.set()
        told = [m for m in mine if m["type"] != "state"]
        assert [(m["reason_code"], m["params"], m["late"]) for m in told] == [
            ("server.unsaved_after_all", {"cause": {"code": "server.raced", "params": {}}}, True)], told
        time.sleep(0.1)
        assert [m for m in _until_pong(ws0) if m["type"] != "state"] == [], "told twice"
    assert _stored_moves(db_url, t["id"]) == [(0, 1), (1, 2)]


def test_ww_3_1_a_bot_s_pick_queued_behind_a_pick_in_doubt_that_then_fails_is_made_again_at_once(
        make_client, db_url, monkeypatch):
    """The bot at seat 1 picks while seat 0's pick is being written: queued behind it, it is
    refused when that write has no answer in time, and the write then fails.  The bot picks
    again on the position as stored as soon as that is known (before, it waited until the
    database took another write or BOT_RETRY_SECONDS passed: here a minute, nobody else
    writing); the game then goes on from the stored record, which replays as the table
    shows it."""
    monkeypatch.setattr(hub_module, "BOT_RETRY_SECONDS", 60.0)
    client = make_client(bot_delay=0.05)
    hub = client.app.state.hub
    save = hub.storage.save_batch
    writing, release, queued = threading.Event(), threading.Event(), threading.Event()

    def live_history() -> int:
        try:   # (read from the storage thread while the server's loop may change it)
            return len(hub.tables[t["id"]].state.history)
        except KeyError:
            return 0

    def first_held_then_locked(batch):
        if writing.is_set():
            return save(batch)
        writing.set()                     # seat 0's pick: the bot picks now, queued behind it
        deadline = time.monotonic() + DEADLINE
        while live_history() < 2 and time.monotonic() < deadline:
            time.sleep(0.01)   # asking again under a deadline
        if live_history() >= 2:
            queued.set()
        assert release.wait(DEADLINE)     # held past its time, then locked out
        lock = Lock(db_url)
        try:
            return save(batch)
        finally:
            lock.release()

    async def bots_pause_until_written(seconds: float) -> None:
        """A bot's pick waits for seat 0's write to begin (then for its own delay)."""
        while not writing.is_set():
            await asyncio.sleep(0.01)   # asking again: the write begins in a storage thread
        await asyncio.sleep(seconds)

    # (before the table is made: its bot begins thinking at once)
    monkeypatch.setattr(hub.storage, "save_batch", first_held_then_locked)
    monkeypatch.setattr(hub_module, "_pause", bots_pause_until_written)
    t = _wildwasser(client, [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "human"}])
    answering_late(client)   # (the bot's pick is queued well within it)
    picks = _picks(client, t, (0, 2))
    with _seats(client, t, "en", seats=(0, 2)) as (ws0, ws2):
        try:
            _pick(ws0, picks[0])
            assert _refused(ws0)["reason_code"] == "server.unsaved_in_doubt"
            assert queued.is_set(), "the bot's pick was not queued behind seat 0's"
        finally:
            release.set()
        mine = _said(ws0, _late)
        assert [_told(m) for m in mine if m["type"] != "state"] == [_after_all("server.unsaved_after_all", "en")]
        deadline = time.monotonic() + DEADLINE
        while _stored_moves(db_url, t["id"]) != [(0, 1)]:   # the bot's pick, made again at once
            assert time.monotonic() < deadline, (_stored_moves(db_url, t["id"]), hub.tables[t["id"]].n)
            time.sleep(0.02)   # asking again under a deadline
        hub.limits = Limits()
        for seat, ws in ((0, ws0), (2, ws2)):   # the people pick on the position as stored
            _pick(ws, picks[seat], 1)
            said = _said(ws, lambda m: m["type"] in ("accepted", "refused"))
            assert [m["type"] for m in said if m["type"] != "state"] == ["accepted"], said
        shown = table_state(client, t["id"])
        assert shown["n"] >= 3, shown
        stored = LiveTable.state_of(hub.storage.load_table(t["id"]))
        live = hub.tables[t["id"]].state
        assert [entry_notation(e) for e in stored.history] == [entry_notation(e) for e in live.history]
        assert [m[1] for m in _stored_moves(db_url, t["id"])][:3] == [1, 0, 2]


def test_ww_3_1_a_bot_s_own_pick_in_doubt_that_then_fails_is_made_again_at_once(make_client, db_url, monkeypatch):
    """The bot's own pick has no answer in time and then fails: it picks again as soon as
    that is known (before, it waited out BOT_RETRY_SECONDS, here a minute, nobody else
    writing: its turn unplayed, and a person queued behind it told the game was without
    its pick)."""
    monkeypatch.setattr(hub_module, "BOT_RETRY_SECONDS", 60.0)
    client = make_client(bot_delay=0.05)
    hub = client.app.state.hub
    save = hub.storage.save_batch
    held = threading.Event()

    def first_held_then_locked(batch):
        if held.is_set():
            return save(batch)
        held.set()                        # the bot's first pick: held until its request is answered ...
        deadline = time.monotonic() + DEADLINE
        while not hub.writes.failing:     # (counted as the request gives up)
            assert time.monotonic() < deadline, "the bot's write was never in doubt"
            time.sleep(0.01)   # asking again under a deadline
        lock = Lock(db_url)               # ... then locked out past SQLite's wait
        try:
            return save(batch)
        finally:
            lock.release()

    monkeypatch.setattr(hub.storage, "save_batch", first_held_then_locked)   # (before its bot thinks)
    hub.limits = Limits(storage_seconds=0.3)
    t = _wildwasser(client, [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "human"}])
    deadline = time.monotonic() + 2 * DEADLINE
    while _stored_moves(db_url, t["id"]) != [(0, 1)]:   # failed once, then made again at once
        assert time.monotonic() < deadline, (_stored_moves(db_url, t["id"]), hub.writes.failing)
        time.sleep(0.02)   # asking again under a deadline
    assert held.is_set()


def test_postgresql_a_pick_queued_behind_a_pick_in_doubt_that_then_fails_is_told_not_saved_after_all(
        make_client, pg_url, monkeypatch):
    """The same on PostgreSQL: another session holds the table's row, seat 0's pick waits for
    it past `storage_seconds`, seat 1's is queued behind it and refused; the waiting statement
    is then cancelled, and both are told, in German, with PostgreSQL's cause."""
    import sqlalchemy as sa

    client = make_client(pg_url)
    t = _wildwasser(client)
    answering_late(client)
    hub = client.app.state.hub
    picks = _picks(client, t, (0, 1))
    writing = _first_write_signalled(monkeypatch, hub.storage)
    engine = sa.create_engine(pg_url)
    try:
        with _seats(client, t, "de", seats=(0, 1)) as (ws0, ws1):
            other = engine.connect()             # another session holds the table's row
            held = other.begin()
            try:
                other.execute(sa.text("select 1 from tables where id = :id for update"), {"id": t["id"]})
                _pick(ws0, picks[0])
                assert writing.wait(DEADLINE)
                _pick(ws1, picks[1])
                assert _refused(ws1)["reason_code"] == "server.earlier_in_doubt"
                assert _refused(ws0)["reason_code"] == "server.unsaved_in_doubt"
                cancel_the_waiting_statement(other)
                mine = _said(ws0, _late)
                theirs = _said(ws1, _late)
            finally:
                held.rollback()
                other.close()
        told = {code: [m for m in said if m["type"] != "state"] for code, said in
                (("server.unsaved_after_all", mine), (QUEUED, theirs))}
        for code, said in told.items():
            assert [(m["code"], m["reason_code"], m["late"]) for m in said] == [("storage", code, True)], said
            cause = said[0]["params"]["cause"]["code"]       # (the cancelled statement's, as PostgreSQL says it)
            assert said[0]["message"] == Reason(code, cause=Reason(cause)).render("de"), said
        assert table_state(client, t["id"])["n"] == 0
        with engine.connect() as conn:
            assert conn.execute(sa.text("select count(*) from moves where table_id = :id"),
                                {"id": t["id"]}).scalar() == 0
    finally:
        engine.dispose()
