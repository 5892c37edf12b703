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

The same channel carries who is online (hub.Presence), in payloads of their own whose
second word holds a colon, which no table id has, and which never have the three words
of a move notice (a process of the version before logs them as malformed and ignores
them):

    <origin> presence:open <seq> <table> <seat>    the seat was opened here: it is online
                                                   here, and any other process closes its
                                                   connection of the seat ("replaced")
    <origin> presence:here <seq> <table>=<seats> ...   the seats (comma-separated, maybe
                                                   none) online here at each table: a
                                                   change, or the heartbeat that renews them
    <origin> presence:bye                          this process stops: none of its seats is online
    <origin> presence:ask                          this process (re)started listening: the
                                                   others announce their seats now

`seq` counts the process's presence notices: PostgreSQL delivers only one of identical
payloads sent in one transaction, and a "here" may rightly repeat an earlier one.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Callable, Iterable

import sqlalchemy as sa

from .storage import NOTIFY_CHANNEL

log = logging.getLogger("wasserspiele.web")


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as psycopg's own connection string."""
    u = sa.engine.make_url(url).set(drivername="postgresql")
    return u.render_as_string(hide_password=False)


PRESENCE = "presence:"           # the second word of every presence notice starts so
OPEN, HERE, BYE, ASK = "presence:open", "presence:here", "presence:bye", "presence:ask"
MAX_PAYLOAD = 7900              # PostgreSQL refuses a payload of 8000 bytes or more

_notify = sa.text("SELECT pg_notify(:channel, :payload)")


def send_notices(engine: sa.Engine, payloads: list[str]) -> None:
    """NOTIFY every payload, in one transaction and in this order (a blocking call)."""
    with engine.begin() as conn:
        for payload in payloads:
            conn.execute(_notify, {"channel": NOTIFY_CHANNEL, "payload": payload})


def here_payloads(origin: str, items: Iterable[tuple[str, Iterable[int]]], next_seq: Callable[[], int]) -> list[str]:
    """"here" notices for (table, seats) pairs, as few as fit in PostgreSQL's payload limit."""
    out: list[str] = []
    words: list[str] = []
    size = 0
    for table_id, seats in items:
        word = f"{table_id}={','.join(str(s) for s in sorted(seats))}"
        if words and size + len(word) + 1 > MAX_PAYLOAD - 80:  # room for the origin, kind and seq
            out.append(" ".join([origin, HERE, str(next_seq()), *words]))
            words, size = [], 0
        words.append(word)
        size += len(word) + 1
    if words:
        out.append(" ".join([origin, HERE, str(next_seq()), *words]))
    return out


def parse_here(words: list[str]) -> dict[str, frozenset[int]]:
    """The (table -> seats) of a "here" notice's words after its seq; ValueError if malformed."""
    got = {}
    for word in words:
        table_id, _, seats = word.partition("=")
        if not table_id or not _:
            raise ValueError(word)
        got[table_id] = frozenset(int(s) for s in seats.split(",")) if seats else frozenset()
    return got


class Listener:
    """LISTEN on `url` and call `on_notice(table_id, version)` for other processes' writes,
    and `on_presence(origin, kind, words)` for every presence notice, this process's own
    too (hub.Presence tells by them which of its own came before another's)."""

    def __init__(self, url: str, origin: str, on_notice: Callable[[str, int], None],
                 on_reconnect: Callable[[], None],
                 on_presence: Callable[[str, str, list[str]], None] | None = None):
        self.url = libpq_url(url)
        self.origin = origin
        self.on_notice = on_notice
        self.on_reconnect = on_reconnect
        self.on_presence = on_presence
        self.ready = asyncio.Event()   # set while listening (tests wait on it)
        self.heard = 0                 # notifications from other processes

    async def run(self) -> None:
        import psycopg
        first = True
        while True:
            try:
                # named, so pg_stat_activity tells the processes' listening connections apart
                async with await psycopg.AsyncConnection.connect(
                        self.url, autocommit=True, application_name=f"wasserspiele-listen-{self.origin}"[:63]) as conn:
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
        words = payload.split(" ")
        if len(words) >= 2 and words[1].startswith(PRESENCE):
            if self.on_presence is not None:
                try:
                    self.on_presence(words[0], words[1], words[2:])
                except ValueError:
                    log.warning("ignored a malformed notification %r", payload)
                except Exception:  # a fault here must not end the listening connection
                    log.exception("handling the notification %r failed", payload)
            return
        try:
            origin, table_id, version = words
            version_n = int(version)
        except ValueError:
            log.warning("ignored a malformed notification %r", payload)
            return
        if origin != self.origin:
            self.heard += 1
            self.on_notice(table_id, version_n)
