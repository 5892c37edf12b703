"""A write that had no answer in time and then fails after all (docs/web-server.md, "When a
write answers late"): the person told it "may still be saved" is told it was not saved
after all, and why (`server.unsaved_after_all` and the name's, the rematch's and the
stand-in's own), the table shows the game as stored (without it), and a move so failed is
forgotten as in doubt.  Before, nobody was told: the page kept saying "may still be saved"
over a table that showed the game without it.  The page's side is the last test.

A write fails late as in test_storage_late_writes: another connection holds SQLite's write
lock longer than `storage_seconds` (0.3 s) and longer than SQLite's busy wait (1 s,
`quick`), so the request is answered 503 as in doubt and its transaction then fails."""

from __future__ import annotations

import contextlib
import json
import logging
import threading
import time

import pytest

from wasserspiele.core.messages import Reason
from wasserspiele.web.limits import Limits

from .helpers import create, humans, table_state
# (`quick`, autouse there, is used here too: a lock is given up after 1 s, a probe tried at every check)
from .test_storage_failures import _until_pong, ask_rematch, finished_game, quick  # noqa: F401
from .test_storage_late_writes import LATE, Lock, _hello, _query, answering_late
from .test_storage_in_doubt_followups import _said

LANGS = ["en", "de"]
DEADLINE = 5.0
LOCKED = {"cause": {"code": "server.db_locked", "params": {}}}   # SQLite's busy wait given up


def _late(m: dict) -> bool:
    return m["type"] == "refused" and bool(m.get("late"))


def _told(msg: dict) -> dict:
    return {k: msg.get(k) for k in ("type", "code", "reason_code", "params", "message", "late")}


def _after_all(code: str, lang: str) -> dict:
    """The refusal said, unasked, of a write in doubt that SQLite's lock then failed."""
    return {"type": "refused", "code": "storage", "reason_code": code, "params": LOCKED,
            "message": Reason(code, cause=Reason("server.db_locked")).render(lang), "late": True}


@contextlib.contextmanager
def _seats(client, t, lang: str = "en", seats=(0, 1)):
    """Sockets of `seats` of table `t` (in `lang`), their first positions read."""
    with contextlib.ExitStack() as stack:
        sockets = []
        for seat in seats:
            ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{t['id']}"))
            _hello(ws, t["seats"][seat]["token"], lang)
            sockets.append(ws)
        for ws in sockets:
            _until_pong(ws)
        yield sockets


def cancel_the_waiting_statement(other) -> None:
    """PostgreSQL: cancel the one statement waiting for the lock `other` holds (the server's
    write in doubt): its transaction fails after all."""
    import sqlalchemy as sa

    waiting = other.execute(sa.text(
        "select pid from pg_stat_activity where datname = current_database() "
        "and wait_event_type = 'Lock' and pid <> pg_backend_pid()")).scalars().all()
    assert len(waiting) == 1, waiting
    other.execute(sa.text("select pg_cancel_backend(:pid)"), {"pid": waiting[0]})


def _in_doubt_then_failed(ws, db_url: str, send: dict, in_doubt: str) -> tuple[list[dict], list[dict]]:
    """`send` on `ws` while another program holds the write lock, until the write's
    transaction fails (SQLite's busy wait given up): (what came up to the in-doubt
    refusal, what came after it up to the late one)."""
    lock = Lock(db_url)
    try:
        ws.send_text(json.dumps(send))
        first = _said(ws, lambda m: m["type"] == "refused")
        assert first[-1]["reason_code"] == in_doubt and not first[-1].get("late"), first
        then = _said(ws, _late)
    finally:
        lock.release()
    return first, then


@pytest.mark.parametrize("lang", LANGS)
def test_a_move_in_doubt_that_then_fails_is_told_not_saved_after_all_and_can_be_made_again(
        make_client, db_url, lang, caplog):
    """Its mover was told it may still be saved ("if it is, the table will show it"), and
    then nothing: the notice stayed while the table (read back without it) showed the game
    without it.  The mover's sockets are now sent a refusal, `late`, saying it was not saved
    after all and why; nothing else is said to anyone, the table and the database are
    without the move, the log has an error line, and the same move sent again is taken as
    any move (plainly `accepted`), the in-doubt memory having forgotten it."""
    client = make_client()
    t = create(client, seats=humans(3))
    answering_late(client)
    hub = client.app.state.hub
    with _seats(client, t, lang) as (ws0, ws1), caplog.at_level(logging.INFO, logger="wasserspiele.web"):
        first = table_state(client, t["id"], t["seats"][0]["token"])
        send = {"type": "move", "action": first["legal"][0], "n": 0}
        before, after = _in_doubt_then_failed(ws0, db_url, send, "server.unsaved_in_doubt")
        assert [_told(m) for m in after if m["type"] != "state"] == [_after_all("server.unsaved_after_all", lang)], after
        assert all(m["n"] == 0 for m in before + after if m["type"] == "state"), before + after
        assert all(m["type"] == "state" and m["n"] == 0 for m in _until_pong(ws1))   # nothing for the others
        assert table_state(client, t["id"])["n"] == 0                               # the stored truth
        assert _query(db_url, "select count(*) from moves where table_id = ?", t["id"]) == (0,)
        assert t["id"] not in hub.doubts                                            # forgotten as in doubt
        assert any(r.levelno == logging.ERROR and "failed after all" in r.getMessage() for r in caplog.records), \
            caplog.messages
        hub.limits = Limits()
        ws0.send_text(json.dumps(send))                                             # made again: a move as any
        said = _until_pong(ws0)
        assert [m["type"] for m in said] == ["state", "accepted"] and said[0]["n"] == 1, said
        assert said[1] == {"type": "accepted", "n": 1}, said
    assert _query(db_url, "select count(*) from moves where table_id = ?", t["id"]) == (1,)


def test_a_move_in_doubt_that_failed_and_was_made_again_is_never_told_saved_after_all(
        make_client, db_url, monkeypatch):
    """The in-doubt memory kept a move whose transaction had failed: once made again (and
    stored as any move), the next move stored late at that table (a bot's, here) settled it
    as one of the moves in doubt stored after all, and its mover was sent `accepted` with
    `late` — "your move was saved after all: the database answered late" over a move the
    server had accepted at once.  Forgotten as it fails, it is never said so."""
    client = make_client(bot_delay=0.2)
    t = create(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}])
    answering_late(client)
    hub = client.app.state.hub
    save = hub.storage.save_batch
    gate, gated = threading.Event(), []

    def bots_late(batch):   # the bots' writes wait (past `storage_seconds`) until the test lets them commit
        if any(seat != 0 for p in batch for seat, _ in p.moves):
            gated.append(batch)
            assert gate.wait(DEADLINE)
        return save(batch)

    with _seats(client, t, seats=(0,)) as (ws0,):
        first = table_state(client, t["id"], t["seats"][0]["token"])
        send = {"type": "move", "action": first["legal"][0], "n": 0}
        _, after = _in_doubt_then_failed(ws0, db_url, send, "server.unsaved_in_doubt")
        assert after[-1]["reason_code"] == "server.unsaved_after_all", after
        monkeypatch.setattr(hub.storage, "save_batch", bots_late)
        try:
            ws0.send_text(json.dumps(send))                                         # made again, stored at once
            said = _said(ws0, lambda m: m["type"] == "accepted")
            assert [m for m in said if m["type"] == "accepted"] == [{"type": "accepted", "n": 1}], said
            deadline = time.monotonic() + DEADLINE
            while not (gated and hub.writes.failing):                               # the bot's write in doubt
                assert time.monotonic() < deadline, "the bot's write was never in doubt"
                said += _until_pong(ws0)
                time.sleep(0.02)   # asking again under a deadline
        finally:
            gate.set()                                                              # it commits, late
        said += _said(ws0, lambda m: m["type"] == "state" and m["n"] >= 2)          # the bot's move shown
        said += _until_pong(ws0)
    assert [m for m in said if m["type"] not in ("state", "pong")] == [{"type": "accepted", "n": 1}], said
    assert _query(db_url, "select seat from moves where table_id = ? and n = 0", t["id"]) == (0,)


def test_postgresql_a_move_in_doubt_that_then_fails_is_told_not_saved_after_all(make_client, pg_url):
    """The same on PostgreSQL: the table's row locked by another session past
    `storage_seconds`, the move is answered as in doubt; its statement, still waiting for
    the row, is then cancelled (as an operator, or a `lock_timeout`, would), and its mover
    is told it was not saved after all; the table and the database are without it."""
    import sqlalchemy as sa

    client = make_client(pg_url)
    t = create(client, seats=humans(3))
    answering_late(client)
    first = table_state(client, t["id"], t["seats"][0]["token"])
    engine = sa.create_engine(pg_url)
    try:
        with _seats(client, t, "de", seats=(0,)) as (ws0,):
            other = engine.connect()             # another session holds the table's row
            held = other.begin()
            try:
                other.execute(sa.text("select 1 from tables where id = :id for update"), {"id": t["id"]})
                ws0.send_text(json.dumps({"type": "move", "action": first["legal"][0], "n": 0}))
                said = _said(ws0, lambda m: m["type"] == "refused")
                assert said[-1]["reason_code"] == "server.unsaved_in_doubt", said
                cancel_the_waiting_statement(other)
                said = _said(ws0, _late)
            finally:
                held.rollback()
                other.close()
        told = [m for m in said if m["type"] != "state"]
        assert [(m["code"], m["reason_code"], m["late"]) for m in told] == \
            [("storage", "server.unsaved_after_all", True)], said
        cause = told[0]["params"]["cause"]["code"]           # (the cancelled statement's, as PostgreSQL says it)
        assert told[0]["message"] == Reason("server.unsaved_after_all", cause=Reason(cause)).render("de"), told
        assert table_state(client, t["id"])["n"] == 0
        with engine.connect() as conn:
            assert conn.execute(sa.text("select count(*) from moves where table_id = :id"),
                                {"id": t["id"]}).scalar() == 0
    finally:
        engine.dispose()


def _stand_in_table(make_client):
    client = make_client(limits=Limits(stand_in_seconds=0))
    t = create(client, options={"players": 2}, seats=humans(2))
    client.app.state.hub.limits = Limits(storage_seconds=LATE.storage_seconds, stand_in_seconds=0)
    return client, t


@pytest.mark.parametrize("lang", LANGS)
def test_a_name_in_doubt_that_then_fails_is_told_not_saved_after_all(make_client, db_url, lang):
    """A name told "may still be saved: if it is, every page will show it" whose write then
    failed: the seat's sockets are told it was not saved after all; the name stays the
    stored one everywhere."""
    client = make_client()
    t = create(client, seats=humans(3))
    answering_late(client)
    with _seats(client, t, lang) as (ws0, ws1):
        _, after = _in_doubt_then_failed(ws0, db_url, {"type": "name", "name": "Ann"}, "server.name_in_doubt")
        assert [_told(m) for m in after if m["type"] != "state"] == \
            [_after_all("server.name_unsaved_after_all", lang)], after
        assert [m for m in _until_pong(ws1) if m["type"] != "state"] == []
        assert table_state(client, t["id"])["seats"][0]["name"] is None
    assert _query(db_url, "select name from seats where table_id = ? and seat = 0", t["id"]) == (None,)


@pytest.mark.parametrize("lang", LANGS)
def test_a_stand_in_in_doubt_that_then_fails_is_told_not_saved_after_all(make_client, db_url, lang):
    """A bot asked to play for an absent player, told "may still be saved: if it is, the
    table will show it", whose write then failed: the asking seat is told the change was
    not saved after all; the seat is still its player's, in memory and in the database."""
    client, t = _stand_in_table(make_client)
    with _seats(client, t, lang, seats=(0,)) as (ws0,):
        _, after = _in_doubt_then_failed(ws0, db_url, {"type": "stand_in", "seat": 1, "level": "easy"},
                                         "server.stand_in_in_doubt")
        assert [_told(m) for m in after if m["type"] != "state"] == \
            [_after_all("server.stand_in_unsaved_after_all", lang)], after
        assert table_state(client, t["id"])["seats"][1]["stand_in"] is None
    assert _query(db_url, "select stand_in from seats where table_id = ? and seat = 1", t["id"]) == (None,)


def test_a_rematch_in_doubt_that_then_fails_is_told_not_saved_after_all_and_asked_again_is_made(
        make_client, db_url):
    """The rematch, asked for over HTTP and answered "may still be saved", whose write then
    failed: the asking seat's socket at the finished table is told it was not saved after
    all (the other seat's is not); no rematch exists, and asking again makes one."""
    client = make_client()
    t = finished_game(client)
    answering_late(client)
    with _seats(client, t, "de") as (ws0, ws1):
        lock = Lock(db_url)
        try:
            r = ask_rematch(client, t, 0)
            assert r.status_code == 503 and r.json()["reason_code"] == "server.rematch_in_doubt", r.text
            after = _said(ws0, _late)
        finally:
            lock.release()
        assert [_told(m) for m in after if m["type"] != "state"] == \
            [_after_all("server.rematch_unsaved_after_all", "de")], after
        assert [m for m in _until_pong(ws1) if m["type"] != "state"] == []
        assert "rematch" not in table_state(client, t["id"])
        assert _query(db_url, "select rematch from tables where id = ?", t["id"]) == (None,)
        client.app.state.hub.limits = Limits()
        made = ask_rematch(client, t, 0)
        assert made.status_code == 200, made.text
    assert _query(db_url, "select rematch from tables where id = ?", t["id"]) == (made.json()["id"],)


def test_every_write_told_it_may_still_be_saved_has_words_for_not_saved_after_all():
    """Each kind of write a person is told may still be saved (a move's own, a name, a
    rematch, a stand-in, and a move queued behind a move in doubt, whose fate is that one's:
    test_storage_queued_after_all) has its words for "not saved after all" in both
    languages, naming the cause (the tests above render them on both sides alike, which a
    missing entry would pass)."""
    from wasserspiele.core.messages import catalogue
    from wasserspiele.web.hub import AFTER_ALL, IN_DOUBT, Stored

    assert set(AFTER_ALL) == set(IN_DOUBT) | {Stored.MOVE}
    for code in AFTER_ALL.values():
        for lang in LANGS:
            assert catalogue(lang).has(code) and "{cause}" in catalogue(lang).text(code), (code, lang)
