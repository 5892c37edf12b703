"""Every connection to PostgreSQL carries libpq's TCP keepalives and a connect timeout
(storage.LIBPQ_CONNECT): the listening connection only ever waits, and one dropped
without a word (a NAT or a load balancer forgetting an idle connection, a host gone)
was waited on for ever — no other process's move or presence reached this process again.
The probes fail such a socket within about a minute and the listener reconnects."""

from __future__ import annotations

import asyncio

import pytest

from wasserspiele.web import notify
from wasserspiele.web.storage import LIBPQ_CONNECT, make_engine

psycopg = pytest.importorskip("psycopg")

EXPECTED = {k: str(v) for k, v in LIBPQ_CONNECT.items()}


def carried(parameters: dict) -> dict:
    return {k: parameters.get(k) for k in EXPECTED}


def test_the_engine_s_connections_to_postgresql_carry_keepalives_and_a_connect_timeout(pg_url):
    engine = make_engine(pg_url)
    try:
        with engine.connect() as conn:
            assert carried(conn.connection.dbapi_connection.info.get_parameters()) == EXPECTED
    finally:
        engine.dispose()


def test_the_listening_connection_carries_keepalives(pg_url, monkeypatch):
    opened = []
    connect = psycopg.AsyncConnection.connect

    async def recording(*args, **kwargs):
        conn = await connect(*args, **kwargs)
        opened.append(conn)
        return conn

    monkeypatch.setattr(psycopg.AsyncConnection, "connect", recording)

    async def main():
        listener = notify.Listener(pg_url, "test-origin", lambda *_: None, lambda: None)
        task = asyncio.create_task(listener.run())
        try:
            await asyncio.wait_for(listener.ready.wait(), 30)
            return carried(opened[0].info.get_parameters())
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    assert asyncio.run(main()) == EXPECTED

