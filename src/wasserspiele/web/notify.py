"""How several server processes hear of each other's moves: PostgreSQL LISTEN/NOTIFY.

Every write of a table sends `NOTIFY wasserspiele, '<origin> <table> <version>'` inside
its own transaction (storage.save_batch), and each process LISTENs on one connection of
its own.  Why this and not Redis pub/sub: the notification is part of the transaction,
so it is delivered exactly when the move is committed and never for a move that rolled
back; there is no second service to run, secure and keep alive; and the database the
moves must go through anyway is the only shared dependency.  The payload names only
the table and its new version — each process reads the moves themselves from the
database (storage.load_since) and pushes them to its own WebSocket clients.  If the
listening connection drops, notifications may have been missed, so on reconnecting
every table in memory is reloaded.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Callable

import sqlalchemy as sa

from .storage import NOTIFY_CHANNEL

log = logging.getLogger("wasserspiele.web")


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as psycopg's own connection string."""
    u = sa.engine.make_url(url).set(drivername="postgresql")
    return u.render_as_string(hide_password=False)


class Listener:
    """LISTEN on `url` and call `on_notice(table_id, version)` for other processes' writes."""

    def __init__(self, url: str, origin: str, on_notice: Callable[[str, int], None],
                 on_reconnect: Callable[[], None]):
        self.url = libpq_url(url)
        self.origin = origin
        self.on_notice = on_notice
        self.on_reconnect = on_reconnect
        self.ready = asyncio.Event()   # set while listening (tests wait on it)
        self.heard = 0                 # notifications from other processes

    async def run(self) -> None:
        import psycopg
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    if not first:
                        self.on_reconnect()
                    first = False
                    self.ready.set()
                    async for note in conn.notifies():
                        self._handle(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.ready.clear()
                log.warning("listening for other processes' moves failed (%s); retrying", exc)
                await asyncio.sleep(1.0)  # back off before reconnecting

    def _handle(self, payload: str) -> None:
        try:
            origin, table_id, version = payload.split(" ")
            version_n = int(version)
        except ValueError:
            log.warning("ignored a malformed notification %r", payload)
            return
        if origin != self.origin:
            self.heard += 1
            self.on_notice(table_id, version_n)
