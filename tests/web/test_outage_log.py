"""What an operator reads in the log while the database is gone (docs/web-server.md, Logs):
each background activity — announcing who is online, listening for the other processes,
the requests' reads (a load balancer's /healthz) — says its failure once per outage, with
its cause, and once that it works again; before, each attempt was a warning of its own
(the listener's once a second, several lines each), and the return went unsaid."""

from __future__ import annotations

import asyncio
import logging
import socket

import pytest
import sqlalchemy as sa

from wasserspiele.web import notify
from wasserspiele.web.hub import Connection, Hub
from wasserspiele.web.storage import Storage

from .helpers import humans


def _gone(*_args, **_kwargs):
    """What a driver raises for a database that refuses the connection."""
    raise sa.exc.OperationalError("SELECT 1", {}, Exception("connection refused"))


async def _ignore(text: str) -> None:
    """A connection's socket that takes whatever it is sent."""


def _said(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "wasserspiele.web" and r.levelno >= logging.WARNING]


def test_healthz_while_the_database_is_gone_is_said_once_with_its_cause_and_once_back(client, caplog, monkeypatch):
    """Every /healthz logged "storage failed during GET /healthz" while the database was
    gone: a line every few seconds from a load balancer, for the whole outage."""
    storage = client.app.state.hub.storage
    with caplog.at_level(logging.INFO, logger="wasserspiele.web"):
        with monkeypatch.context() as m:
            m.setattr(storage, "ping", _gone)
            assert [client.get("/healthz").status_code for _ in range(5)] == [503] * 5
        assert client.get("/healthz").status_code == 200
        assert client.get("/healthz").status_code == 200
    said = _said(caplog)
    assert len(said) == 2, said
    assert said[0].startswith("storage: reading the database fails: the database cannot be reached") and \
        "connection refused" in said[0], said
    assert said[1].startswith("storage: reading the database works again") and "(5 attempts failed)" in said[1], said
    assert all("\n" not in s and "sqlalche.me" not in s for s in said), said


def test_announcing_who_is_online_while_the_database_is_gone_is_said_once_and_once_back(db_url, caplog, monkeypatch):
    """Presence's notices failed with a warning at every heartbeat and every change (with
    SQLAlchemy's text: a link on a line of its own)."""
    tried, sent = [], []

    def refused(engine, payloads):
        tried.append(payloads)
        _gone()

    async def scenario():
        hub = Hub(Storage(db_url), bot_delay=30, presence_heartbeat=0.05)
        table, _ = await hub.create({"game": "wasserloch", "options": {"players": 2}, "seats": humans(2)})
        with monkeypatch.context() as m:
            m.setattr(notify, "send_notices", refused)
            hub.presence.start("A")
            table.attach(Connection(_ignore, 0), tab="p")   # a seat online: every heartbeat lists it
            await asyncio.sleep(0.5)                  # about 10 heartbeats, each one refused
            failed = len(tried)
        monkeypatch.setattr(notify, "send_notices", lambda engine, payloads: sent.append(payloads))
        await asyncio.sleep(0.3)
        hub.presence.origin = None
        await hub.shutdown()
        hub.storage.close()
        return failed, sent

    with caplog.at_level(logging.INFO, logger="wasserspiele.web"):
        failed, sent = asyncio.run(scenario())
    said = _said(caplog)
    assert failed >= 3 and sent, (failed, sent)
    assert len(said) == 2, said
    assert said[0].startswith("storage: announcing who is online fails: the database cannot be reached"), said
    assert said[1].startswith("storage: announcing who is online works again"), said
    assert all("\n" not in s and "sqlalche.me" not in s for s in said), said


def test_a_listener_that_cannot_reconnect_says_so_once(caplog):
    """The listener tries again every second: each try was a warning of two or three lines."""
    pytest.importorskip("psycopg")
    with socket.socket() as s:                        # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    listener = notify.Listener(f"postgresql+psycopg://x@127.0.0.1:{port}/x", "A", lambda *a: None, lambda: None)

    async def scenario():
        task = asyncio.ensure_future(listener.run())
        await asyncio.sleep(2.5)                      # three tries at least
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass

    with caplog.at_level(logging.INFO, logger="wasserspiele.web"):
        asyncio.run(scenario())
    said = _said(caplog)
    assert len(said) == 1, said
    assert said[0].startswith("storage: listening for the other processes' moves fails: the database cannot be "
                              "reached") and "\n" not in said[0], said
