"""A name or a rematch the database refused, or answered too late (docs/web-server.md,
"When the database refuses writes"): what a player was told was not saved does not count
against them, and what was stored after all is what every page shows.

A write lands late as in test_storage_failures: another connection holds SQLite's write
lock longer than `storage_seconds` (0.3 s) but shorter than SQLite's busy wait (1 s,
`quick`), so the request is answered 503 and its write commits when the lock is released."""

from __future__ import annotations

import json
from functools import partial
import logging
import sqlite3
import time

import pytest

import wasserspiele.web.hub as hub_module
from wasserspiele.web.limits import Limits

from .helpers import auth, create, humans, table_state
# (`quick`, autouse there, is used here too: a lock is given up after 1 s, a probe tried at every check)
from .test_storage_failures import (FAULTS, Fault, _refused_for, _until_pong, ask_rematch, finished_game,  # noqa: F401
                                    quick)

LATE = Limits(storage_seconds=0.3)   # shorter than SQLite's wait for a lock (1 s in these tests)


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
    """Another program holding the database's write lock (an `sqlite3` shell in a transaction)."""

    def __init__(self, db_url: str):
        self.con = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None)
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


def test_a_name_stored_after_its_request_timed_out_is_shown_on_every_page(make_client, db_url):
    """A name whose write had no answer within `storage_seconds` was refused ("not
    available") but committed when the lock was released: the database held the new name,
    every page the old one, until a reload showed the new one unannounced.  Now it is
    pushed to every page as it is stored: what the pages show is what is stored."""
    client = make_client()
    t = create(client, seats=humans(3))
    answering_late(client)
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
        assert refused["type"] == "refused" and refused["reason_code"] == "server.db_down", refused
        assert _until_state(ws1, lambda m: m["seats"][0]["name"] == "Ann")
        assert _until_state(ws0, lambda m: m["seats"][0]["name"] == "Ann")
        assert table_state(client, t["id"])["seats"][0]["name"] == "Ann"
    assert _query(db_url, "select name from seats where table_id = ? and seat = 0", t["id"]) == ("Ann",)


def test_a_rematch_stored_after_its_request_timed_out_is_offered_to_every_seat_and_joined(make_client, db_url):
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
        assert r.status_code == 503 and r.json()["reason_code"] == "server.db_down", r.text
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
        make_client, db_url, caplog):
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
        assert r.status_code == 503 and r.json()["reason_code"] == "server.db_down", r.text
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
