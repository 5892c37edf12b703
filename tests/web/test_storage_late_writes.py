"""A name or a rematch the database refused, or answered too late (docs/web-server.md,
"When the database refuses writes"): what a player was told was not saved does not count
against them, and what was stored after all is what every page shows.

A write lands late as in test_storage_failures: another connection holds SQLite's write
lock longer than `storage_seconds` (0.3 s) but shorter than SQLite's busy wait (10 s where
the late commit must come, `busy_wait`; else 1 s, `quick`), so the request is answered 503
and its write commits when the lock is released."""

from __future__ import annotations

import contextlib
import json
from functools import partial
import logging
import sqlite3
import time

import pytest

import wasserspiele.web.hub as hub_module
import wasserspiele.web.storage as storage_module
from wasserspiele.web.limits import Limits

from .helpers import create, humans, table_state
# (`quick`, autouse there, is used here too: a lock is given up after 1 s, a probe tried at every check)
from .test_storage_failures import (FAULTS, Fault, _refused_for, _until_pong, ask_rematch, finished_game,  # noqa: F401
                                    quick)

LATE = Limits(storage_seconds=0.3)   # shorter than SQLite's wait for a lock (1 s or 10 s in these tests)


@pytest.fixture
def busy_wait(quick, monkeypatch):
    """SQLite waits 10 s for a lock: a write in doubt must commit once the lock is released,
    however loaded the machine.  `quick`'s 1 s (3 s once, at load 19) ran out in CI before
    the request answered late had ended and the test released the lock: the write failed
    after all ("the move stored late was never shown")."""
    monkeypatch.setattr(storage_module, "SQLITE_BUSY_SECONDS", 10.0)


def answering_late(client):
    """From now on `client`'s server gives a write `LATE.storage_seconds` (the table was
    set up and played with the default limits: 0.3 s for every move of a game timed out
    on a loaded machine, "the move could not be saved")."""
    client.app.state.hub.limits = LATE
    return client


def _query(db_url: str, sql: str, *params):
    con = sqlite3.connect(db_url.removeprefix("sqlite:///"))
    try:
        return con.execute(sql, params).fetchone()
    finally:
        con.close()


class Lock:
    """Another program holding the database's write lock (an `sqlite3` shell in a
    transaction); with `check_same_thread=False` another thread may release it."""

    def __init__(self, db_url: str, check_same_thread: bool = True):
        self.con = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None,
                                   check_same_thread=check_same_thread)
        self.con.execute("BEGIN IMMEDIATE")

    def release(self) -> None:
        self.con.execute("ROLLBACK")
        self.con.close()


def _hello(ws, token, lang="en") -> dict:
    ws.send_text(json.dumps({"type": "hello", "token": token, "lang": lang}))
    msg = ws.receive_json()
    assert msg["type"] == "state", msg
    return msg


def _until_state(ws, ok, seconds=5.0) -> dict:
    """The first state pushed to `ws` that `ok` accepts, within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for msg in _until_pong(ws):
            if msg["type"] == "state" and ok(msg):
                return msg
        time.sleep(0.05)   # asking again (a ping) under a deadline
    pytest.fail("no such state was pushed")


def _late_table(make_client):
    """A client whose storage answers late (`answering_late`) and a new table of three people."""
    client = make_client()
    t = create(client, seats=humans(3))
    answering_late(client)
    return client, t


@pytest.mark.parametrize("kind,cause", FAULTS)
def test_names_the_database_refused_are_given_back_once_it_takes_writes_and_a_flood_writes_nothing(
        make_client, db_url, monkeypatch, kind, cause):
    """A seat's name changes refused for storage counted against its rate (`name_burst`):
    a player who tried twice while the disk was full was refused "too many name changes"
    once it had room again, for changes that never happened.  They are given back once the
    database takes writes; until then they count, so a client sending names all through
    an outage makes no more writes than the rate allows (and is told each time that the
    name cannot be saved, and why, rather than "too many")."""
    client = make_client(limits=Limits(name_rate=0.0, name_burst=2))   # two changes, never more
    t = create(client, seats=humans(3))
    fault = Fault(kind, client, db_url)
    monkeypatch.setattr(hub_module, "PROBE_SECONDS", 60.0)   # one probe of the database for the whole flood
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        _hello(ws, t["seats"][0]["token"], "de")
        fault.on()
        try:
            tried = []
            for i in range(8):
                ws.send_text(json.dumps({"type": "name", "name": f"Ann {i}"}))
                said = _until_pong(ws)
                assert len(said) == 1, said
                _refused_for(said[0], "server.name_unsaved", cause, "de")
                tried.append(fault.disk.writes_tried)
        finally:
            fault.off()
        assert tried[1] - tried[0] >= 1 and tried[-1] - tried[1] <= 1, tried   # 2 writes, then one probe at most
        assert _query(db_url, "select name from seats where table_id = ? and seat = 0", t["id"]) == (None,)
        monkeypatch.setattr(hub_module, "PROBE_SECONDS", 0.0)
        for name in ("Bea", "Cleo"):                          # the two changes the outage took back
            ws.send_text(json.dumps({"type": "name", "name": name}))
            said = _until_pong(ws)
            assert [m["type"] for m in said] == ["state"] and said[0]["seats"][0]["name"] == name, said
        ws.send_text(json.dumps({"type": "name", "name": "Dora"}))
        said = _until_pong(ws)                                # two made: the limit as ever
        assert [(m["code"], m["reason_code"]) for m in said] == [("too_many", "server.name_rate")], said
    assert _query(db_url, "select name from seats where table_id = ? and seat = 0", t["id"]) == ("Cleo",)


def test_a_name_stored_after_its_request_timed_out_is_shown_on_every_page(make_client, db_url, busy_wait):
    """A name whose write had no answer within `storage_seconds` was refused (then "not
    available", now "may still be saved") but committed when the lock was released: the
    database held the new name, every page the old one, until a reload showed the new one
    unannounced.  Now it is pushed to every page as it is stored: what the pages show is
    what is stored."""
    client, t = _late_table(make_client)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws0, \
            client.websocket_connect(f"/ws/tables/{t['id']}") as ws1:
        _hello(ws0, t["seats"][0]["token"])
        _hello(ws1, t["seats"][1]["token"])
        _until_pong(ws0)
        lock = Lock(db_url)
        try:
            ws0.send_text(json.dumps({"type": "name", "name": "Ann"}))
            refused = ws0.receive_json()                       # after 0.3 s: no answer
        finally:
            lock.release()                                     # within the write's busy wait
        # (told it may still be saved, not "not available": test_storage_in_doubt_followups)
        assert refused["type"] == "refused" and refused["reason_code"] == "server.name_in_doubt", refused
        assert _until_state(ws1, lambda m: m["seats"][0]["name"] == "Ann")
        assert _until_state(ws0, lambda m: m["seats"][0]["name"] == "Ann")
        assert table_state(client, t["id"])["seats"][0]["name"] == "Ann"
    assert _query(db_url, "select name from seats where table_id = ? and seat = 0", t["id"]) == ("Ann",)


def test_a_rematch_stored_after_its_request_timed_out_is_offered_to_every_seat_and_joined(make_client, db_url, busy_wait):
    """A rematch whose write had no answer within `storage_seconds` was refused but
    committed: the finished table linked it in the database, but its pages offered
    "Rematch" rather than "Join the rematch" until a reload.  It is kept (a new table
    stored late is removed, nobody having its links; here every seat can ask for its own)
    and shown at once; its player asking again joins it with the seat's derived token."""
    client = make_client()
    t = finished_game(client)
    answering_late(client)

    ask = partial(ask_rematch, client, t)

    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws1:
        assert "rematch" not in _hello(ws1, t["seats"][1]["token"])
        lock = Lock(db_url)
        try:
            r = ask(0)
        finally:
            lock.release()
        assert r.status_code == 503 and r.json()["reason_code"] == "server.rematch_in_doubt", r.text
        shown = _until_state(ws1, lambda m: "rematch" in m)["rematch"]
        assert _query(db_url, "select rematch from tables where id = ?", t["id"]) == (shown,)
        assert table_state(client, t["id"])["rematch"] == shown
        for seat in (0, 1):                                    # the one refused too: the same table
            joined = ask(seat)
            assert joined.status_code == 200 and joined.json()["id"] == shown, joined.text
            token = joined.json()["link"].split("token=")[1]
            assert table_state(client, shown, token)["seat"] == seat
    assert _query(db_url, "select count(*) from tables where id != ?", t["id"]) == (1,)   # one rematch


def test_a_rematch_seat_claimed_after_its_request_timed_out_is_given_without_another_write(
        make_client, db_url, caplog, busy_wait):
    """The second seat's place at the rematch, stored only after its request had been
    answered 503, was not known to the rematch in memory: asking again wrote it once more,
    and while the database refused writes the player was refused again, for a place that
    was theirs in the database.  Now asking again gives the link without a write."""
    client = make_client()
    t = finished_game(client)
    answering_late(client)

    ask = partial(ask_rematch, client, t)

    made = ask(0)
    assert made.status_code == 200, made.text
    rematch = made.json()["id"]
    with caplog.at_level(logging.WARNING, logger="wasserspiele.web"):
        lock = Lock(db_url)
        try:
            r = ask(1)
        finally:
            lock.release()
        assert r.status_code == 503 and r.json()["reason_code"] == "server.rematch_in_doubt", r.text
        deadline = time.monotonic() + 5
        while _query(db_url, "select token_hash from seats where table_id = ? and seat = 1", rematch) == (None,) \
                or not any("was claimed only after" in m for m in caplog.messages):
            assert time.monotonic() < deadline, caplog.messages
            time.sleep(0.02)   # polling the database file and the log, under a deadline
    fault = Fault("read_only", client, db_url)
    fault.on()
    try:
        joined = ask(1)
    finally:
        fault.off()
    assert joined.status_code == 200 and joined.json()["id"] == rematch, joined.text
    assert table_state(client, rematch, joined.json()["link"].split("token=")[1])["seat"] == 1


def _sent(ws, move_n: int, action: str) -> None:
    ws.send_text(json.dumps({"type": "move", "action": action, "n": move_n}))


@contextlib.contextmanager
def _two_seats(client, t):
    """Seats 0 and 1 of table `t` on their sockets, and seat 0's first position (its moves)."""
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws0, \
            client.websocket_connect(f"/ws/tables/{t['id']}") as ws1:
        first = _hello(ws0, t["seats"][0]["token"])
        _hello(ws1, t["seats"][1]["token"])
        _until_pong(ws0)
        yield ws0, ws1, first


def _answer(ws, before: int | None = None) -> list[dict]:
    """What `ws` is sent for its move: the positions (each still at move `before`, if given), then the answer."""
    said = [ws.receive_json()]
    while said[-1]["type"] == "state":
        assert before is None or said[-1]["n"] == before, said
        said.append(ws.receive_json())
    return said


def _until_accepted(ws, seconds: float = 5.0) -> list[dict]:
    """What `ws` is sent until an `accepted` is among it, asking again (a ping) under a deadline."""
    said: list[dict] = []
    deadline = time.monotonic() + seconds
    while not any(m["type"] == "accepted" for m in said):
        assert time.monotonic() < deadline, said
        said += _until_pong(ws)
        time.sleep(0.02)
    return said


def test_a_move_stored_after_its_request_timed_out_is_shown_on_every_page_and_its_mover_told(
        make_client, db_url, busy_wait):
    """A move whose transaction had no answer within `storage_seconds` was refused ("could
    not be saved") and the table read back without it, but the transaction committed when
    the lock was released: the database held the move, every page the position before it
    (the mover's too), and the next move was refused as stale.  Now the move is pushed to
    every page as it is stored, and the mover is told it was accepted after all."""
    client, t = _late_table(make_client)
    with _two_seats(client, t) as (ws0, ws1, first):
        lock = Lock(db_url)
        try:
            _sent(ws0, 0, first["legal"][0])
            said = _answer(ws0, before=0)                     # after 0.3 s: no answer (the position read back first)
            client.app.state.hub.limits = Limits()             # (the reads that follow: the default time)
            time.sleep(0.1)
        finally:
            lock.release()                                     # within the write's busy wait
        # (told it may still be saved, not that it was not: test_storage_in_doubt)
        assert said[-1]["type"] == "refused" and said[-1]["reason_code"] == "server.unsaved_in_doubt", said
        theirs = _until_state(ws1, lambda m: m["n"] == 1)
        said = _until_accepted(ws0)
        assert [m["n"] for m in said if m["type"] == "state"] == [1], said        # shown, once
        assert [m for m in said if m["type"] != "state"] == [{"type": "accepted", "n": 1, "late": True}], said
        assert said[-1]["type"] == "accepted"                                     # after the position
        assert table_state(client, t["id"])["n"] == 1
        _sent(ws0, 0, first["legal"][0])            # sent again (a second click): told it was stored, not stale
        said = _until_pong(ws0)
        assert [(m["type"], m["reason_code"], m["params"]) for m in said] == \
            [("refused", "server.stored_after_all", {"n": 1})], said
        assert theirs["to_move"] == [1] and theirs["legal"], theirs         # the next move is taken
        _sent(ws1, 1, theirs["legal"][0])
        said = _until_pong(ws1)
        assert [m["type"] for m in said] == ["state", "accepted"] and said[0]["n"] == 2, said
    assert _query(db_url, "select count(*) from moves where table_id = ?", t["id"]) == (2,)


def test_a_move_stored_before_the_table_is_read_back_is_accepted_not_refused(make_client, db_url, busy_wait, monkeypatch):
    """A move whose transaction commits after `storage_seconds` but before the table is read
    back was refused although the position read back, pushed to every page, held it: the
    mover's page showed its move and "could not be saved" over it.  It is accepted."""
    client, t = _late_table(make_client)
    hub = client.app.state.hub
    storage = hub.storage
    read, save = storage.load_table, storage.save_batch

    def save_late(batch):              # this write is given 0.3 s; the read-back after it the default
        hub.limits = Limits()
        return save(batch)

    def read_once_stored(table_id):   # the read-back, slower than the commit
        deadline = time.monotonic() + 5
        while _query(db_url, "select count(*) from moves where table_id = ?", table_id) == (0,):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        return read(table_id)

    with _two_seats(client, t) as (ws0, ws1, first):
        monkeypatch.setattr(storage, "load_table", read_once_stored)
        monkeypatch.setattr(storage, "save_batch", save_late)
        lock = Lock(db_url)
        try:
            _sent(ws0, 0, first["legal"][0])
            time.sleep(0.5)                                    # answered by now, were it not read back
        finally:
            lock.release()
        said = _answer(ws0)
        assert [m["type"] for m in said] == ["state", "accepted"] and said[0]["n"] == 1, said
        assert said[1] == {"type": "accepted", "n": 1}, said
        assert _until_state(ws1, lambda m: m["n"] == 1)
        time.sleep(0.2)                                        # (the late commit heard meanwhile)
        assert [m["type"] for m in _until_pong(ws0)] == [], "told twice"
    assert _query(db_url, "select count(*) from moves where table_id = ?", t["id"]) == (1,)


@pytest.mark.parametrize("read_late", [0.0, 0.5])
def test_a_move_sent_again_while_the_first_is_in_doubt_is_stored_once(make_client, db_url, monkeypatch, read_late, busy_wait):
    """The mover, told the move could not be saved, sends it again while the first
    transaction still waits for the lock: both wait, one commits and the other finds the
    version taken.  The move is stored and shown once, its mover told once — that it was
    stored (`accepted`, late).  `read_late`: the table's read of what was stored late takes
    that long, so the losing write's failure is heard first (as on a loaded machine in CI):
    its mover was told "not saved after all" and never that it was stored, the table
    showing the move."""
    client, t = _late_table(make_client)
    storage = client.app.state.hub.storage
    with _two_seats(client, t) as (ws0, ws1, first):
        lock = Lock(db_url)
        try:
            for _ in range(2):
                _sent(ws0, 0, first["legal"][0])
                said = _answer(ws0, before=0)
                assert said[-1]["reason_code"] == "server.unsaved_in_doubt", said
            client.app.state.hub.limits = Limits()             # (the reads that follow: the default time)
            if read_late:
                load_since = storage.load_since
                monkeypatch.setattr(storage, "load_since",
                                    lambda *a: time.sleep(read_late) or load_since(*a))
        finally:
            lock.release()
        assert _until_state(ws1, lambda m: m["n"] == 1)
        said = _until_accepted(ws0)
        time.sleep(0.3)
        said += _until_pong(ws0)
        assert [m["n"] for m in said if m["type"] == "state"] == [1], said
        assert [m for m in said if m["type"] != "state"] == [{"type": "accepted", "n": 1, "late": True}], said
    assert _query(db_url, "select count(*) from moves where table_id = ?", t["id"]) == (1,)
    assert table_state(client, t["id"])["n"] == 1


def test_a_move_never_stored_after_its_request_timed_out_leaves_the_table_as_it_was(make_client, db_url):
    """A move refused for no answer in time whose transaction then fails too (the lock held
    beyond SQLite's wait): every page keeps the position before it, and it can be made again."""
    client, t = _late_table(make_client)
    with _two_seats(client, t) as (ws0, ws1, first):
        lock = Lock(db_url)
        try:
            _sent(ws0, 0, first["legal"][0])
            said = _answer(ws0)
            assert said[-1]["reason_code"] == "server.unsaved_in_doubt", said   # (in doubt then: it is not stored yet)
            time.sleep(1.5)                                    # beyond the busy wait (1 s): it fails
        finally:
            lock.release()
        time.sleep(0.2)
        said = _until_pong(ws0)     # its mover is told it was not saved after all (test_storage_late_failures)
        assert [m["reason_code"] for m in said if m["type"] != "state"] == ["server.unsaved_after_all"], said
        assert all(m["n"] == 0 for m in said if m["type"] == "state"), said
        assert all(m["type"] == "state" and m["n"] == 0 for m in _until_pong(ws1))
        assert table_state(client, t["id"])["n"] == 0
        client.app.state.hub.limits = Limits()
        _sent(ws0, 0, first["legal"][0])
        said = _until_pong(ws0)
        assert [m["type"] for m in said] == ["state", "accepted"] and said[0]["n"] == 1, said
    assert _query(db_url, "select count(*) from moves where table_id = ?", t["id"]) == (1,)
