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
of a move notice (a process of the version before presence logs them as malformed and
ignores them):

    <origin> presence:open <seq> <table> <seat>    the seat was opened here: it is online
                                                   here, and any other process closes its
                                                   connection of the seat ("replaced")
    <origin> presence:here <seq> <table>=<seats> ...   the seats (comma-separated, maybe
                                                   none) online here at each table: a
                                                   change, or a full list (the heartbeat
                                                   that renews them, an answer to an ask)
    <origin> presence:bye                          this process stops: none of its seats is online
    <origin> presence:ask                          this process (re)started listening: the
                                                   others answer with their full lists now

`seq` counts the process's presence notices: PostgreSQL delivers only one of identical
payloads sent in one transaction, and a "here" may rightly repeat an earlier one.  It also
orders a process's own notices: they are committed in the order of their numbers, so one
heard back means every earlier one was heard back before it or never will be.

A "here" may carry words that are not a table (they start with `+`, which no table id
has, and end in `=` so that the version before reads them as a table with no seat, which
changes nothing):

    +tab:<table>:<seat>:<key>=     the connection of that seat here is the page whose hello
                                   said `tab` (its key: `tab_key`), so a reconnecting page
                                   knows its own stale connection from another tab's
    +all:<part>:<parts>=           this "here" is part of a full list (the answer to an
                                   "ask", a heartbeat): once the last part is heard, the
                                   tables the list left out have no seat online there

Compatibility (processes of two versions run together during a rolling upgrade): a
process reads what it knows of a notice and ignores the rest — a kind it does not know,
words after those it reads, a word of a "here" that is neither `<table>=<seats>` nor an
addition it knows, a field a move notice gains after its three — logging each kind of
oddity once, at debug level.  A notice of a kind this version sends that lacks what every
version puts in it (an "open" without seq, table and seat, a "here" without its seq) is a
bug, not a later version: logged as malformed, at warning level.  A later version therefore
only adds: a new kind, words at the end, or `+` words in a "here"; what a word means never
changes (a change of meaning is a new kind).  And as the version before this one rejected
an "open" of more words, a "here" word without `=` and unknown kinds, this version adds
only `+...=` words, which it reads without a complaint.  That version answers an "ask" only
when it has a seat online and never sends `+all`: what a process missed of it while not
listening goes by the one heartbeat given after a reconnection (hub.Presence).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from dataclasses import dataclass, field
from typing import Callable, Iterable

import sqlalchemy as sa

from .storage import LIBPQ_CONNECT, NOTIFY_CHANNEL, Outage

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
    """NOTIFY every payload, in one transaction and in this order (a blocking call).
    MaybeSent if the COMMIT failed (they may be on the channel); any other exception: they
    are not."""
    with engine.connect() as conn:  # (closed without a commit: rolled back)
        conn.begin()
        for payload in payloads:
            conn.execute(_notify, {"channel": NOTIFY_CHANNEL, "payload": payload})
        try:
            conn.commit()
        except Exception as exc:
            raise MaybeSent(exc) from exc


def tab_key(tab: str) -> str:
    """A page's tab id as it travels in a "here": short, of letters and digits only (the
    page's own id may hold any character, a space or a comma too)."""
    return hashlib.sha256(tab.encode("utf-8", "replace")).hexdigest()[:16]


class Once:
    """Log each kind of oddity once, at debug level: a notice a later version sends may
    come every few seconds, and what this version cannot read of it is expected.  (One
    per listener: hub.Presence hands what it did not read back to the listener.)"""

    LIMIT = 64  # kinds remembered (a peer sending nonsense must not grow the set without end)

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def __call__(self, what: str, payload: str, why: object = "") -> None:
        if what in self.seen or len(self.seen) >= self.LIMIT:
            return
        self.seen.add(what)
        log.debug("ignored what this version does not read of a notification (%s%s%s), "
                  "from now on without a word: %r", what, ": " if why else "", why, payload)


class MaybeSent(Exception):
    """Sending failed at the COMMIT itself: the notices may have been committed (the
    server's reply lost) or not — hub.Presence must not read them as never sent."""


def read_open(words: list[str]) -> tuple[int, str, int]:
    """An "open" notice's words after its kind: (seq, table, seat); ValueError if it has
    fewer or they are not numbers (the words after them are a later version's)."""
    if len(words) < 3:
        raise ValueError("an open names its seq, a table and a seat")
    return int(words[0]), words[1], int(words[2])


def here_payloads(origin: str, items: Iterable[tuple[str, Iterable[int], dict[int, str]]],
                  next_seq: Callable[[], int], full: bool = False) -> list[str]:
    """"here" notices for (table, seats, {seat: tab key}) items, as few as fit in
    PostgreSQL's payload limit; `full`: they list everything online here (an empty list
    too: one notice saying so)."""
    chunks: list[list[str]] = []
    words: list[str] = []
    size = 0
    for table_id, seats, tabs in items:
        group = [f"{table_id}={','.join(str(s) for s in sorted(seats))}"]
        group += [f"+tab:{table_id}:{seat}:{key}=" for seat, key in sorted(tabs.items()) if seat in seats]
        length = sum(len(w) + 1 for w in group)
        if words and size + length > MAX_PAYLOAD - 120:  # room for the origin, kind, seq and part
            chunks.append(words)
            words, size = [], 0
        words += group  # a table's words stay in one notice
        size += length
    if words or (full and not chunks):
        chunks.append(words)
    out = []
    for i, words in enumerate(chunks, 1):
        part = [f"+all:{i}:{len(chunks)}="] if full else []
        out.append(" ".join([origin, HERE, str(next_seq()), *words, *part]))
    return out


@dataclass
class Here:
    """What a "here" says, as far as this version reads it."""
    tables: dict[str, frozenset[int]] = field(default_factory=dict)
    tabs: dict[str, dict[int, str]] = field(default_factory=dict)  # table -> seat -> tab key
    part: tuple[int, int] | None = None                              # (part, parts) of a full list
    unread: list[str] = field(default_factory=list)                   # words this version does not know


def read_here(words: list[str]) -> Here:
    """A "here" notice's words after its seq; what it cannot read goes to `unread`."""
    got = Here()
    tabs = []
    for word in words:
        name, eq, value = word.partition("=")
        if name.startswith("+"):
            what = name[1:].split(":")
            try:
                if what[0] == "tab" and len(what) == 4 and what[3]:
                    tabs.append((what[1], int(what[2]), what[3]))
                    continue
                if what[0] == "all" and len(what) == 3:
                    part, parts = int(what[1]), int(what[2])
                    if 1 <= part <= parts:
                        got.part = (part, parts)
                        continue
            except ValueError:
                pass
            got.unread.append(word)  # an addition of a later version (or nonsense): ignored
            continue
        try:
            if not name or not eq:
                raise ValueError(word)
            got.tables[name] = frozenset(int(s) for s in value.split(",")) if value else frozenset()
        except ValueError:
            got.unread.append(word)
    for table_id, seat, key in tabs:  # a tab names a seat of a table the notice lists
        if seat in got.tables.get(table_id, ()):
            got.tabs.setdefault(table_id, {})[seat] = key
    return got


class Listener:
    """LISTEN on `url` and call `on_notice(table_id, version)` for other processes' writes,
    and `on_presence(origin, kind, words)` for every presence notice, this process's own
    too (hub.Presence tells by them which of its own came before another's); it returns
    what of the notice this version does not read (said once), if anything, and raises
    ValueError for a notice it cannot read at all."""

    def __init__(self, url: str, origin: str, on_notice: Callable[[str, int], None],
                 on_reconnect: Callable[[], None],
                 on_presence: Callable[[str, str, list[str]], str | None] | None = None):
        self.url = libpq_url(url)
        self.origin = origin
        self.on_notice = on_notice
        self.on_reconnect = on_reconnect
        self.on_presence = on_presence
        self.ready = asyncio.Event()   # set while listening (tests wait on it)
        self.heard = 0                 # notifications from other processes
        self.ignored = Once()          # what it could not read, said once
        # its reconnections failing (tried every second), said once per outage
        self.outage = Outage("listening for the other processes' moves", log)

    async def run(self) -> None:
        import psycopg
        first = True
        while True:
            try:
                # named, so pg_stat_activity tells the processes' listening connections apart;
                # with keepalives, so a connection dropped without a word fails (LIBPQ_CONNECT)
                async with await psycopg.AsyncConnection.connect(
                        self.url, autocommit=True, application_name=f"wasserspiele-listen-{self.origin}"[:63],
                        **LIBPQ_CONNECT) as conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    if not first:
                        self.on_reconnect()
                    first = False
                    self.ready.set()
                    self.outage.succeeded()
                    async for note in conn.notifies():
                        self._handle(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self.ready.clear()
                self.outage.failed(exc)  # (retried every second: said once, and once it is back)
                await asyncio.sleep(1.0)  # back off before reconnecting

    def _handle(self, payload: str) -> None:
        # what this version cannot read of a later version's notice is ignored and said once
        # at debug level (during a rolling upgrade such a process sends it at every
        # heartbeat); a notice of a kind this version sends that it cannot read is a bug: a
        # warning
        words = payload.split(" ")
        if len(words) >= 2 and words[1].startswith(PRESENCE):
            if self.on_presence is not None:
                try:
                    unread = self.on_presence(words[0], words[1], words[2:])
                except ValueError as exc:
                    log.warning("ignored a malformed notification (%s): %r", exc, payload)
                except Exception:  # a fault here must not end the listening connection
                    log.exception("handling the notification %r failed", payload)
                else:
                    if unread:
                        self.ignored(unread, payload)
            return
        try:
            origin, table_id, version = words[:3]  # (a later version may add fields)
            version_n = int(version)
        except ValueError:
            self.ignored("not a move notice", payload)
            return
        if len(words) > 3:
            self.ignored("move: more words", payload)
        if origin != self.origin:
            self.heard += 1
            self.on_notice(table_id, version_n)
