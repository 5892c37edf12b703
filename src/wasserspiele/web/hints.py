"""Hints: the expert bot's search for a seat that asks, in the pool the bots share.

A hint is an expert search (0.1-1.3 s of a worker), so nothing a client sends may queue
searches without bound in front of the bots' moves:

* one search per table, seat and move number: a request while it runs waits for it and
  gets its answer, and the answer is kept for that move (`LiveTable.hints`), so asking
  again is free;
* each client may ask `hint_rate` a second, `hint_burst` at once (429 too_many; an
  answer already worked out does not count);
* the server searches at most `limits.hint_searches()` hints at once (503 too_many), so
  a bot's move waits behind at most that many searches, whatever the hint requests;
* a search whose every requester has gone is taken out of the pool's queue if it has
  not started; one already running finishes (stopping a worker process mid-search would
  cost a new worker) and still counts as in flight until it does, its answer is kept.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from ..core.messages import Reason
from .botpool import BotPool
from .hub import LiveTable, Refused
from .limits import ClientRates, Limits


@dataclass
class Search:
    work: cf.Future                    # in the pool
    answer: asyncio.Future            # the same, for the event loop
    waiting: int = 0                  # requests waiting for it
    key: tuple = field(default=())


class Hints:
    def __init__(self, bots: BotPool, limits: Limits):
        self.bots, self.limits = bots, limits
        self.rates = ClientRates(limits.hint_rate, limits.hint_burst)
        self.searches: dict[tuple[str, int, int], Search] = {}
        self.in_flight = 0   # searches queued or running in the pool
        self.started = 0     # searches ever started (for tests and figures)

    async def ask(self, table: LiveTable, seat: int, client: str) -> tuple[str, int]:
        """The expert's move for `seat` at the table's current move, and that move's number."""
        n = table.n
        known = table.hints.get((seat, n))
        if known is not None:
            return known, n
        if not self.rates.take(client):
            raise Refused("too_many", Reason("server.hint_rate", rate=self.limits.hint_rate,
                                             burst=self.limits.hint_burst), 429)
        key = (table.id, seat, n)
        search = self.searches.get(key)
        if search is None:
            most = self.limits.hint_searches()
            if self.in_flight >= most:
                raise Refused("too_many", Reason("server.hints_busy", most=most), 503)
            search = self._start(key, table, seat, n)
        search.waiting += 1
        try:
            return await asyncio.shield(search.answer), n
        finally:
            search.waiting -= 1
            if search.waiting == 0 and not search.answer.done():
                search.work.cancel()   # nobody waits any more: out of the queue if not started

    def _start(self, key: tuple[str, int, int], table: LiveTable, seat: int, n: int) -> Search:
        work = self.bots.submit(table.state.record(), seat, "expert", n, f"hint:{table.seed}:{seat}:{n}")
        search = Search(work, asyncio.wrap_future(work), key=key)
        self.searches[key] = search
        self.in_flight += 1
        self.started += 1

        def done(answer: asyncio.Future) -> None:
            self.in_flight -= 1
            self.searches.pop(key, None)
            if answer.cancelled():
                return
            exc = answer.exception()  # retrieved here: no warning when nobody waited
            if exc is None:
                # kept for the move it was asked at; older moves' answers are of no use
                table.hints = {k: v for k, v in table.hints.items() if k[1] == n}
                table.hints[(seat, n)] = answer.result()
            elif isinstance(exc, BrokenProcessPool):
                self.bots._executor = None

        search.answer.add_done_callback(done)
        return search
