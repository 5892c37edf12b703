"""What one client and the whole server may use: tables, bot seats, sockets, messages.

Every limit has a safe default for a small public server and can be changed with an
environment variable `WASSERSPIELE_<NAME>` (e.g. `WASSERSPIELE_TABLES_PER_CLIENT=50`) or
by passing `Limits(...)` to `create_app`.  A client is its address as the server sees it
(behind a reverse proxy, run uvicorn with `--forwarded-allow-ips` naming the proxy, never
'*', and have the proxy set X-Forwarded-For, so that this is the player's address and
cannot be forged, see deploy/).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
from dataclasses import dataclass, fields, replace

from ..core.messages import Reason, shown


@dataclass(frozen=True)
class Limits:
    # open tables (running, with a move or a creation in the last `open_hours`)
    tables_per_client: int = 20
    tables_per_server: int = 2_000
    bot_seats_per_client: int = 40
    bot_seats_per_server: int = 800
    open_hours: float = 24.0
    # WebSocket connections, counted per server process
    sockets_per_table: int = 100
    sockets_per_client: int = 40
    # messages one WebSocket may send: `message_rate` a second on average, `message_burst` at
    # once; the burst stays below the outbox cap so refusals arrive before any cap closes a socket
    message_rate: float = 50.0
    message_burst: int = 100
    # name changes of one seat (each is a database write): `name_rate` a second on average,
    # `name_burst` at once; a name that changes nothing is free
    name_rate: float = 0.1
    name_burst: int = 5
    # hints (the expert's search, in the bots' pool): each client may ask `hint_rate` a second
    # on average, `hint_burst` at once (an answer already worked out for that move is free);
    # the server searches at most `hints_in_flight` at once (0: half the bot workers, at
    # least 1), so a bot's move never waits behind more than that many hints
    hint_rate: float = 0.2
    hint_burst: int = 5
    hints_in_flight: int = 0
    # bots think in this many worker processes (0: one less than the CPUs, at least one)
    bot_workers: int = 0
    # a table nobody watches or has touched for this long leaves memory (reloaded when asked for)
    idle_seconds: float = 600.0
    # tables kept in memory that no socket watches and no bot is moving at (running or
    # finished: a cache of the database, for the requests that come in a row, such as a
    # replay's steps); beyond this many the least recently used leave memory at once, so
    # that reading many tables (a crawler, a lobby's links) never holds more in memory
    unwatched_tables: int = 200
    # a storage call that takes longer is answered 503 (the database is stalled)
    storage_seconds: float = 15.0
    # a human seat with no connection in any server process for this long, while its game
    # runs, may be handed to a bot by another seated player (hub.LiveTable.stand_in): long
    # enough for a reload, a phone waking up or a train's tunnel, short enough that the
    # others are not kept waiting for someone who has left
    stand_in_seconds: float = 60.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not value >= 0:
                raise ValueError(f"limit {f.name}: {shown(value)} must be a number ≥ 0")

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, **overrides) -> "Limits":
        """The defaults, changed by `WASSERSPIELE_<NAME>` variables, then by `overrides`."""
        env = os.environ if environ is None else environ
        values = {}
        for f in fields(cls):
            text = env.get(f"WASSERSPIELE_{f.name.upper()}")
            if text is not None:
                kind = int if f.type in ("int", int) else float
                try:
                    values[f.name] = kind(text)
                except ValueError:
                    raise ValueError(f"WASSERSPIELE_{f.name.upper()}={shown(text)}: not a{'n' if kind is int else ''} "
                                     f"{kind.__name__}") from None
        return replace(cls(**values), **overrides)

    def open_since(self, now: dt.datetime) -> dt.datetime:
        """When a table touched since then still counts as open (`open_hours` before `now`);
        a window reaching before the calendar's start (`inf` for "forever", or 10**8 hours)
        counts every running table, rather than failing every table's creation."""
        try:
            return now - dt.timedelta(hours=self.open_hours)
        except OverflowError:
            return dt.datetime.min.replace(tzinfo=now.tzinfo)

    def workers(self) -> int:
        return self.bot_workers or max(1, (os.cpu_count() or 2) - 1)

    def hint_searches(self) -> int:
        return self.hints_in_flight or max(1, self.workers() // 2)


class RateLimit:
    """A token bucket (a WebSocket's messages, a seat's name changes): `rate` a second,
    `burst` at once."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, float(burst)
        self.allowance = self.burst
        self.last = asyncio.get_running_loop().time()

    def take(self) -> bool:
        self._refill()
        if self.allowance < 1.0:
            return False
        self.allowance -= 1.0
        return True

    def give_back(self, n: int) -> None:
        """Return `n` tokens taken for what did not happen after all (names the database
        refused), up to `burst` as ever."""
        self._refill()
        self.allowance = min(self.burst, self.allowance + n)

    def _refill(self) -> None:
        now = asyncio.get_running_loop().time()
        self.allowance = min(self.burst, self.allowance + (now - self.last) * self.rate)
        self.last = now


class ClientRates:
    """A token bucket per client address (`RateLimit`); a bucket that has filled up again
    is forgotten, so the table stays as small as the clients that used it lately."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.buckets: dict[str, RateLimit] = {}

    def take(self, client: str) -> bool:
        if len(self.buckets) >= 1024:
            self._forget_full()
        bucket = self.buckets.get(client)
        if bucket is None:
            bucket = self.buckets[client] = RateLimit(self.rate, self.burst)
        return bucket.take()

    def _forget_full(self) -> None:
        now = asyncio.get_running_loop().time()
        for client, b in list(self.buckets.items()):
            if b.allowance + (now - b.last) * b.rate >= b.burst:
                del self.buckets[client]


class SocketCounter:
    """Open WebSockets per client address in this process."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.by_client: dict[str, int] = {}

    def open(self, client: str) -> Reason | None:
        """Count one more socket of `client` (at its upgrade, before its hello), or say why
        it is one too many."""
        if self.by_client.get(client, 0) >= self.limits.sockets_per_client:
            return Reason("server.client_sockets", most=self.limits.sockets_per_client)
        self.by_client[client] = self.by_client.get(client, 0) + 1
        return None

    def table_full(self, spectators: int, seat: int | None, players: int) -> Reason | None:
        """Why a table takes no more sockets, if it does not.  A seat holder is never refused
        (a seat has one socket at a time, the newest): `players` of `sockets_per_table` are
        kept for its seats, and spectators (`spectators` open now) get the room left."""
        if seat is None and spectators >= self.limits.sockets_per_table - players:
            return Reason("server.table_sockets", most=self.limits.sockets_per_table)
        return None

    def close(self, client: str) -> None:
        left = self.by_client.get(client, 0) - 1
        if left > 0:
            self.by_client[client] = left
        else:
            self.by_client.pop(client, None)
