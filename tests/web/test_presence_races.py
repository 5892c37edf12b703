"""Who is online across server processes, where their notices race a listening connection
that drops and returns (hub.Presence, notify.py).

Most scenarios run two or three hubs over one SQLite file with a channel of their own:
each process's notices wait in its outbox until the test commits them, and a process
hears what was committed in commit order, except while its listener is down — so the
orders PostgreSQL allows are played out exactly, which timing on a real server cannot
pin down.  The end-to-end ones run on PostgreSQL (`pg_url`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading

from wasserspiele.web import notify
from wasserspiele.web.hub import Connection, Hub
from wasserspiele.web.storage import Storage

from .helpers import create, humans, table_state
from .test_presence_processes import _drop_listener, _two_processes, online, receive_until, wait_until


class Process:
    """One server process on the test's channel: its hub, its unsent notices, its listener."""

    def __init__(self, channel: "Channel", name: str, hub: Hub):
        self.name, self.hub = name, hub
        self.outbox: list[str] = []          # queued, not committed yet
        self.listening = True
        self.heard_upto = len(channel.log)   # it hears what is committed from now on
        # the real parsing path: what a process does with a payload it hears
        self.listener = notify.Listener("postgresql+psycopg://x@localhost/x", name,
                                        lambda table_id, version: None, lambda: None, hub.presence.heard)
        hub.presence._send = self.outbox.append

    def reconnect(self) -> None:
        """Its listening connection returns (what was committed meanwhile is lost to it)."""
        self.listening = True
        self.hub.presence.reconnected()


class Channel:
    def __init__(self):
        self.log: list[str] = []
        self.procs: list[Process] = []

    async def process(self, db_url: str, name: str, **kwargs) -> Process:
        p = Process(self, name, Hub(Storage(db_url), bot_delay=30, **kwargs))
        self.procs.append(p)
        p.hub.presence.start(name)
        return p

    def commit(self, p: Process) -> None:
        """`p`'s queued notices, committed (in its order, after everything committed before)."""
        batch, p.outbox[:] = list(p.outbox), []
        self.log.extend(batch)

    def deliver(self) -> None:
        """Every listening process hears what was committed since it last heard."""
        for p in self.procs:
            if p.listening:
                while p.heard_upto < len(self.log):
                    p.heard_upto += 1
                    p.listener._handle(self.log[p.heard_upto - 1])
            else:
                p.heard_upto = len(self.log)

    def settle(self) -> None:
        """Commit and deliver until nobody has anything left to say."""
        while any(p.outbox for p in self.procs):
            for p in self.procs:
                self.commit(p)
            self.deliver()

    async def close(self) -> None:
        for p in self.procs:
            await p.hub.shutdown()
            p.hub.storage.close()


def seat_conn(seat: int) -> Connection:
    async def send(text):
        pass
    return Connection(send, seat)


async def two_processes_at_one_table(db_url, **kwargs):
    channel = Channel()
    a, b = await channel.process(db_url, "A", **kwargs), await channel.process(db_url, "B", **kwargs)
    table_a, _ = await a.hub.create({"game": "wasserloch", "options": {"players": 2}, "seats": humans(2)})
    table_b = await b.hub.open(table_a.id)
    channel.settle()  # their asks at starting, answered
    return channel, a, b, table_a, table_b


# -- 1. an `open` still queued when the listener returns ------------------------------

def test_an_open_queued_across_a_listener_reconnect_still_wins_against_an_older_open(db_url):
    """Process A opens seat 0 (its `open` still queued), its listener drops and returns, and
    process B opens seat 0 with an `open` committed before A's.  A's is the newest: A keeps
    its connection and B closes its own.  A forgot its queued `open` on reconnecting and
    took B's for the newer one: both closed theirs, and the seat had no connection anywhere
    although the player's newest tab was open."""
    async def scenario():
        channel, a, b, table_a, table_b = await two_processes_at_one_table(db_url)
        newest = seat_conn(0)
        table_a.attach(newest, tab="tab-2")           # its `open` waits to be sent ...
        a.listening = False
        a.reconnect()                                 # ... across a reconnect of A's listener
        older = seat_conn(0)
        table_b.attach(older, tab="tab-1")
        channel.commit(b)                             # B's `open` is committed first,
        channel.commit(a)                             # then A's
        channel.deliver()
        channel.settle()
        got = (newest.closed, older.closed, 0 in table_a.online_seats(), 0 in table_b.online_seats())
        await channel.close()
        return got

    newest_closed, older_closed, online_a, online_b = asyncio.run(scenario())
    assert (newest_closed, older_closed) == (False, True)   # exactly one connection: the newest
    assert online_a and online_b


def test_an_open_lost_while_the_listener_was_down_gives_way_to_a_newer_open(db_url):
    """The other order: A's `open` is committed while A's listener is down (A never hears it
    back), then B opens seat 0.  B's is the newer: A closes its connection once a later
    notice of its own (the full list it sends on reconnecting) comes back without its
    `open` before it, and B keeps its own."""
    async def scenario():
        channel, a, b, table_a, table_b = await two_processes_at_one_table(db_url)
        older = seat_conn(0)
        table_a.attach(older, tab="tab-1")
        a.listening = False
        channel.commit(a)                             # committed while A does not listen
        channel.deliver()
        a.reconnect()
        newer = seat_conn(0)
        table_b.attach(newer, tab="tab-2")
        channel.commit(b)
        channel.deliver()                             # A hears B's `open` before its own list
        channel.settle()
        got = (older.closed, newer.closed, 0 in table_a.online_seats(), 0 in table_b.online_seats())
        await channel.close()
        return got

    older_closed, newer_closed, online_a, online_b = asyncio.run(scenario())
    assert (older_closed, newer_closed) == (True, False)
    assert online_a and online_b


def test_an_open_whose_notice_was_never_sent_gives_way_to_the_other_process(db_url, monkeypatch):
    """A's `open` never reached the database (the send failed): B, which opened the seat in
    between, never heard it and keeps its connection, so A, which deferred B's `open` while
    its own was out, closes its own."""
    async def scenario():
        channel, a, b, table_a, table_b = await two_processes_at_one_table(db_url)
        del a.hub.presence._send                      # A sends through the database ...

        def down(engine, payloads):
            raise OSError("the database is down")
        monkeypatch.setattr(notify, "send_notices", down)   # ... which refuses (B's go to the channel)
        mine = seat_conn(0)
        table_a.attach(mine)
        theirs = seat_conn(0)
        table_b.attach(theirs)
        channel.commit(b)
        channel.deliver()                             # A hears B's `open`: its own is still out
        kept_meanwhile = not mine.closed
        await asyncio.wait_for(asyncio.shield(a.hub.presence._sender), 30)   # A's sending fails
        channel.settle()
        got = (kept_meanwhile, mine.closed, theirs.closed)
        await channel.close()
        return got

    kept_meanwhile, mine_closed, theirs_closed = asyncio.run(scenario())
    assert kept_meanwhile and mine_closed and not theirs_closed


def test_an_open_committed_unheard_after_a_rival_heard_before_the_drop_keeps_the_seat(db_url):
    """A opens seat 0 (its `open` queued), B opens seat 0 and A hears it while its own is out;
    A's listener drops, A's `open` is committed (after B's: B closes its connection) and A
    misses it.  Once A's full list is back, A's `open` is known not heard: it was committed
    after every `open` A heard before the drop, so A's is the newer and A keeps its
    connection.  A closed it instead (as if it had never been sent): the seat had no
    connection anywhere."""
    async def scenario():
        channel, a, b, table_a, table_b = await two_processes_at_one_table(db_url)
        mine = seat_conn(0)
        table_a.attach(mine, tab="tab-2")             # A's `open` queued
        theirs = seat_conn(0)
        table_b.attach(theirs, tab="tab-1")
        channel.commit(b)
        channel.deliver()                             # A hears B's `open` while its own is out
        a.listening = False
        channel.commit(a)
        channel.deliver()                             # B closes its own; A misses its `open`
        a.reconnect()
        channel.settle()
        got = (mine.closed, theirs.closed, 0 in table_a.online_seats(), 0 in table_b.online_seats())
        await channel.close()
        return got

    mine_closed, theirs_closed, online_a, online_b = asyncio.run(scenario())
    assert (mine_closed, theirs_closed) == (False, True)   # exactly one connection: the newest
    assert online_a and online_b


def test_an_open_committed_unheard_and_a_newer_open_missed_too_leave_exactly_one_connection(db_url):
    """A's `open` is committed while A's listener is down, then B opens seat 0 and A misses
    that too.  A hears no rival, so it cannot tell whose is the newer: it says its `open`
    again and B gives way — one connection stays.  A kept its connection without a word
    and B kept its own: two connections of one seat."""
    async def scenario():
        channel, a, b, table_a, table_b = await two_processes_at_one_table(db_url)
        mine = seat_conn(0)
        table_a.attach(mine, tab="tab-1")
        a.listening = False
        channel.commit(a)
        channel.deliver()                             # B hears A's `open`; A misses it
        theirs = seat_conn(0)
        table_b.attach(theirs, tab="tab-2")
        channel.commit(b)
        channel.deliver()                             # A misses B's `open` too
        a.reconnect()
        channel.settle()
        got = (mine.closed, theirs.closed, 0 in table_a.online_seats(), 0 in table_b.online_seats())
        await channel.close()
        return got

    mine_closed, theirs_closed, online_a, online_b = asyncio.run(scenario())
    assert [mine_closed, theirs_closed].count(False) == 1, (mine_closed, theirs_closed)
    assert online_a and online_b


class CommitReplyLost:
    """An engine whose COMMIT reaches the server (the notices go on the channel) while its
    reply is lost: the send fails although it was committed."""

    def __init__(self, channel: "Channel"):
        self.channel, self.pending = channel, []

    @contextlib.contextmanager
    def connect(self):
        yield self

    @contextlib.contextmanager
    def begin(self):  # (for `engine.begin()` too)
        yield self
        self.commit()

    def execute(self, statement, params):
        self.pending.append(params["payload"])

    def commit(self):
        self.channel.log.extend(self.pending)
        self.pending = []
        raise OSError("server closed the connection unexpectedly")


def test_an_open_whose_send_failed_at_its_commit_is_not_taken_for_never_sent(db_url):
    """B opens seat 0 while A's `open` of it is out; A's send fails at its COMMIT, which the
    server did commit.  A must not read the failure as "never sent" (then B, hearing A's
    `open` after its own, closes its connection while A closes its own too): A's `open`
    comes back after B's, so A's is the newer and stays."""
    async def scenario():
        channel, a, b, table_a, table_b = await two_processes_at_one_table(db_url)
        del a.hub.presence._send                      # A sends through its engine
        engine, a.hub.storage.engine = a.hub.storage.engine, CommitReplyLost(channel)
        mine = seat_conn(0)
        table_a.attach(mine)
        theirs = seat_conn(0)
        table_b.attach(theirs)
        channel.commit(b)
        channel.deliver()                             # A hears B's `open`: its own is out
        await asyncio.wait_for(asyncio.shield(a.hub.presence._sender), 30)   # committed; "failed"
        channel.deliver()
        channel.settle()
        a.hub.storage.engine = engine
        got = (mine.closed, theirs.closed)
        await channel.close()
        return got

    mine_closed, theirs_closed = asyncio.run(scenario())
    assert (mine_closed, theirs_closed) == (False, True)


def test_while_the_database_stalls_the_outbox_keeps_one_full_list_and_every_open(db_url, monkeypatch):
    """The database stalls: every heartbeat queued another full list behind the stuck one,
    without bound.  A new full list now replaces the `here`s still queued (the fence of a
    reconnection moving to it); the `open`s stay, in their order, and every notice goes out
    in the order of its number once the database is back."""
    async def scenario():
        hub = Hub(Storage(db_url), bot_delay=30, presence_heartbeat=0.05)
        table, _ = await hub.create({"game": "wasserloch", "options": {"players": 2}, "seats": humans(2)})
        gate, sent = threading.Event(), []

        def stalled(engine, payloads):
            sent.append(list(payloads))
            gate.wait(30)
        monkeypatch.setattr(notify, "send_notices", stalled)
        hub.presence.start("A")
        table.attach(seat_conn(0), tab="p")
        started = asyncio.get_running_loop().time()
        while not sent and asyncio.get_running_loop().time() - started < 30:
            await asyncio.sleep(0.01)                 # the first batch is stuck in the database
        table.attach(seat_conn(1), tab="q")           # an `open` queued behind it
        hub.presence.reconnected()                    # and a fence: the list sent on reconnecting
        await asyncio.sleep(1.0)                      # about 20 heartbeats
        queued, fence = list(hub.presence._outbox), hub.presence._fence
        gate.set()
        await asyncio.wait_for(asyncio.shield(hub.presence._sender), 30)
        hub.presence.origin = None
        await hub.shutdown()
        hub.storage.close()
        return queued, fence, sent

    queued, fence, sent = asyncio.run(scenario())
    kinds = [p.split(" ")[1] for p in queued]
    assert kinds.count(notify.HERE) == 1 and kinds[-1] == notify.HERE, kinds
    assert kinds.index(notify.OPEN) < kinds.index(notify.ASK)   # in their order
    assert fence == int(queued[-1].split(" ")[2])    # the fence moved to the list that replaced its own
    seqs = [int(p.split(" ")[2]) for batch in sent for p in batch if p.split(" ")[1] != notify.ASK]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)


# -- 2. stale entries after the listener returns ---------------------------------------

def test_after_its_listener_returns_a_process_drops_at_once_what_the_others_no_longer_report(db_url):
    """B closes seat 0 while A's listener is down: A missed B's `here`.  On reconnecting A
    asks, B answers with everything it has online (nothing), and A drops B's entry at once
    instead of showing seat 0 online until it expires (30 s)."""
    async def scenario():
        channel, a, b, table_a, table_b = await two_processes_at_one_table(db_url)
        conn = seat_conn(0)
        table_b.attach(conn)
        channel.settle()
        before = 0 in table_a.online_seats()
        a.listening = False
        table_b.detach(conn)
        channel.commit(b)
        channel.deliver()                             # A misses B's `here` without seat 0
        a.reconnect()
        channel.settle()
        got = (before, table_a.online_seats(), a.hub.presence.remote.get(table_a.id, {}))
        await channel.close()
        return got

    before, online_a, remote = asyncio.run(scenario())
    assert before
    assert 0 not in online_a and "B" not in remote


def test_after_its_listener_returns_a_process_drops_a_seat_the_other_holds_at_another_table_no_more(db_url):
    """B still has seats online, at another table: its answer lists every table it has, so
    A drops B's entry of the table it left (a `here` names only the tables it lists)."""
    async def scenario():
        channel, a, b, table_a, table_b = await two_processes_at_one_table(db_url)
        other_b, _ = await b.hub.create({"game": "wasserloch", "options": {"players": 2}, "seats": humans(2)})
        left, stays = seat_conn(1), seat_conn(0)
        table_b.attach(left)
        other_b.attach(stays)
        channel.settle()
        a.listening = False
        table_b.detach(left)
        channel.commit(b)
        channel.deliver()
        a.reconnect()
        channel.settle()
        got = (a.hub.presence.online(table_a.id), a.hub.presence.online(other_b.id))
        await channel.close()
        return got

    at_left, at_stays = asyncio.run(scenario())
    assert at_left == frozenset() and at_stays == frozenset({0})


def test_after_its_listener_returns_the_seats_of_a_process_that_stopped_meanwhile_go_within_a_heartbeat(db_url):
    """C stopped (its goodbye missed) while A's listener was down: nobody answers for it, so
    its entries count one heartbeat more after A's reconnection is on the channel, not
    until they expire (30 s)."""
    async def scenario():
        channel = Channel()
        # a heartbeat of 1 s: `just_after` holds even if a loaded machine stalls the test a while
        a = await channel.process(db_url, "A", presence_heartbeat=1.0, presence_expiry=30.0)
        c = await channel.process(db_url, "C", presence_heartbeat=1.0, presence_expiry=30.0)
        table_a, _ = await a.hub.create({"game": "wasserloch", "options": {"players": 2}, "seats": humans(2)})
        table_c = await c.hub.open(table_a.id)
        channel.settle()
        table_c.attach(seat_conn(1))
        channel.settle()
        before = 1 in table_a.online_seats()
        a.listening = False
        await c.hub.presence.stop()
        channel.commit(c)
        channel.deliver()                             # A misses C's goodbye
        channel.procs.remove(c)
        a.reconnect()
        channel.settle()
        just_after = 1 in table_a.online_seats()
        started = asyncio.get_running_loop().time()
        while 1 in table_a.online_seats() and asyncio.get_running_loop().time() - started < 15:
            await asyncio.sleep(0.05)
        later = 1 in table_a.online_seats()           # gone in a heartbeat or so, long before expiry
        await c.hub.shutdown()
        c.hub.storage.close()
        await channel.close()
        return before, just_after, later

    before, just_after, later = asyncio.run(scenario())
    assert before and just_after                      # (it might only be slow to answer)
    assert not later


def test_after_its_listening_connection_returns_a_process_drops_what_the_others_no_longer_report(make_client, pg_url):
    """End to end on PostgreSQL: process one believes process two has seat 0 of a second
    table online (as if it had missed process two's `here`); once one's listening
    connection drops and returns, that entry goes within seconds, not after 30 s."""
    one, two, t = _two_processes(make_client, pg_url)
    other = create(one, options={"players": 2}, seats=humans(2))
    origin_two = two.app.state.hub.storage.origin
    with two.websocket_connect(f"/ws/tables/{t['id']}") as a:
        a.send_text(json.dumps({"type": "hello", "token": t["seats"][0]["token"], "tab": "page-1"}))
        assert a.receive_json()["seat"] == 0
        wait_until(lambda: online(one, t["id"], 0), "process one never showed seat 0 online")
        one.portal.call(one.app.state.hub.presence.heard, origin_two, notify.HERE, ["999", f"{other['id']}=1"])
        assert online(one, other["id"], 1)
        _drop_listener(one, pg_url)
        wait_until(lambda: not online(one, other["id"], 1), "a stale entry stayed after the reconnect", seconds=5.0)
        assert online(one, t["id"], 0)                # what process two does report stays


def test_a_full_list_too_long_for_one_notice_drops_what_it_left_out_only_once_all_of_it_is_heard(db_url):
    """A full list of many tables comes in several notices (PostgreSQL's payload limit):
    a table it leaves out is dropped after its last part, not after its first."""
    async def scenario():
        channel = Channel()
        me = await channel.process(db_url, "me")
        seq = iter(range(1, 10_000))
        tables = [(f"t{i:04}", [0, 1], {0: notify.tab_key("page")}) for i in range(600)]
        parts = notify.here_payloads("other", tables, lambda: next(seq), full=True)
        me.listener._handle("other presence:here 0 gone=1")          # said before: not in the list
        me.listener._handle(parts[0])
        after_first = me.hub.presence.online("gone")
        for p in parts[1:]:
            me.listener._handle(p)
        got = (parts, after_first, me.hub.presence.online("gone"), me.hub.presence.online("t0599"),
               me.hub.presence.remote["t0000"]["other"][2])
        await channel.close()
        return got

    parts, after_first, gone, last, tabs = asyncio.run(scenario())
    assert len(parts) > 1 and all(len(p.encode()) < notify.MAX_PAYLOAD for p in parts)
    assert all(p.split(" ")[-1] == f"+all:{i}:{len(parts)}=" for i, p in enumerate(parts, 1))
    assert after_first == frozenset({1}) and gone == frozenset()
    assert last == frozenset({0, 1}) and tabs == {0: notify.tab_key("page")}


# -- 3. a page's own stale connection in another process --------------------------------

def _hello(ws, token, tab, resume=False):
    ws.send_text(json.dumps({"type": "hello", "token": token, "tab": tab, **({"resume": True} if resume else {})}))
    return ws.receive_json()


def test_a_page_resuming_through_another_process_replaces_its_own_stale_connection_there(make_client, pg_url):
    """A page's socket through process one dropped without process one noticing; the page
    reconnects on its own (`resume`, the same `tab`) through process two.  It is its own
    connection, not another tab's: process two takes it and process one's stale connection
    is the one closed.  A page of another tab resuming is still told "replaced"."""
    one, two, t = _two_processes(make_client, pg_url)
    url, token = f"/ws/tables/{t['id']}", t["seats"][0]["token"]
    hub_one = one.app.state.hub
    with one.websocket_connect(url) as stale:
        assert _hello(stale, token, "page-1")["seat"] == 0
        wait_until(lambda: online(two, t["id"], 0), "process two never showed seat 0 online")
        with two.websocket_connect(url) as elsewhere:    # another tab's page, resuming
            assert _hello(elsewhere, token, "page-2", resume=True)["type"] == "replaced"
        assert not stale_closed(hub_one, t["id"])
        with two.websocket_connect(url) as back:         # the page itself, resuming
            first = _hello(back, token, "page-1", resume=True)
            assert first["type"] == "state" and first["seat"] == 0
            receive_until(stale, lambda m: m.get("type") == "replaced")
            wait_until(lambda: stale_closed(hub_one, t["id"]), "process one kept the stale connection")
            back.send_text(json.dumps({"type": "ping"}))
            assert receive_until(back, lambda m: m.get("type") in ("pong", "replaced"))["type"] == "pong"
            assert table_state(one, t["id"])["seats"][0]["online"]


def stale_closed(hub, table_id) -> bool:
    return not any(c.seat == 0 and not c.closed for c in hub.tables[table_id].conns)


def test_a_page_resuming_is_its_own_only_where_the_other_process_named_its_tab(db_url):
    """Process B knows which page holds each seat from A's announcements: the same page
    resuming through B takes the seat, another page resuming is replaced, and a seat whose
    holder A named no page (an API client, an older version) counts as another's."""
    async def scenario():
        channel, a, b, table_a, table_b = await two_processes_at_one_table(db_url)
        table_a.attach(seat_conn(0), tab="page-1")
        table_a.attach(seat_conn(1))
        channel.settle()
        got = (table_b.seat_held_elsewhere(0, "page-1"), table_b.seat_held_elsewhere(0, "page-2"),
               table_b.seat_held_elsewhere(0, None), table_b.seat_held_elsewhere(1, "page-1"))
        await channel.close()
        return got

    assert asyncio.run(scenario()) == (False, True, True, True)


# -- 4. notices of another version -------------------------------------------------------

def test_notices_of_a_later_version_are_read_for_what_they_share_and_never_logged_as_malformed(db_url, caplog):
    """A rolling upgrade: notices with words, kinds and fields this version does not know
    are read for what it knows, the rest ignored, each oddity logged once at debug level."""
    async def scenario():
        channel = Channel()
        me = await channel.process(db_url, "me")
        table, _ = await me.hub.create({"game": "wasserloch", "options": {"players": 2}, "seats": humans(2)})
        moves = []
        me.listener.on_notice = lambda table_id, version: moves.append((table_id, version))
        with caplog.at_level(logging.DEBUG, logger="wasserspiele.web"):
            for _ in range(2):
                me.listener._handle(f"later presence:open 1 {table.id} 0 v=2 tab=xyz")   # a field more
                me.listener._handle(f"later2 presence:here 2 {table.id}=1 colour:blue +v3=")
                me.listener._handle(f"later presence:wave 3 {table.id} 0")               # a kind more
                me.listener._handle("later presence:ask 4 v=2")
                me.listener._handle(f"later {table.id} 7 v=2")                           # a move, a field more
                me.listener._handle("later")                                             # nothing to read
        got = (me.hub.presence.online(table.id), moves)
        await channel.close()
        return got

    seats, moves = asyncio.run(scenario())
    assert seats == frozenset({0, 1})
    assert moves == [(moves[0][0], 7)] * 2
    records = [r for r in caplog.records if r.name == "wasserspiele.web"]
    assert not [r for r in records if r.levelno >= logging.WARNING], [r.getMessage() for r in records]
    told = [r.getMessage() for r in records if r.levelno == logging.DEBUG]
    assert told and len(told) == len(set(told))       # each oddity once, not at every notice


def test_a_notice_of_a_kind_this_version_sends_that_it_cannot_read_is_a_warning(db_url, caplog):
    """Every version sends an `open` with its seq, table and seat and a `here` with its seq
    (later ones only add): one without them is a bug, logged at warning each time — not
    taken for a later version's notice and said once at debug level."""
    async def scenario():
        channel = Channel()
        me = await channel.process(db_url, "me")
        with caplog.at_level(logging.DEBUG, logger="wasserspiele.web"):
            for _ in range(2):
                me.listener._handle("other presence:open")                   # words fewer
                me.listener._handle("other presence:open 1 T x")             # no seat
                me.listener._handle("other presence:here x T=1")             # no seq
        await channel.close()

    asyncio.run(scenario())
    warned = [r.getMessage() for r in caplog.records if r.name == "wasserspiele.web" and r.levelno == logging.WARNING]
    assert len(warned) == 6, warned


def previous_version_reads(payload: str) -> None:
    """How the version before this one (the first with presence) read a presence notice:
    ValueError for what it logged as malformed and ignored."""
    words = payload.split(" ")
    kind, rest = words[1], words[2:]
    if kind in (notify.BYE, notify.ASK):
        return
    int(rest[0])
    if kind == notify.OPEN:
        if len(rest) != 3:
            raise ValueError("open")
        int(rest[2])
    elif kind == notify.HERE:
        for word in rest[1:]:
            table_id, eq, seats = word.partition("=")
            if not table_id or not eq:
                raise ValueError(word)
            [int(s) for s in seats.split(",")] if seats else []
    else:
        raise ValueError(kind)


def test_the_version_before_reads_every_notice_this_one_sends(db_url):
    """This version's additions (a page's tab, a full list's parts) are made so that a
    process of the version before, still running during a rolling upgrade, reads every
    notice as before and complains of none; and none reads as a move notice to the
    version before presence (`<origin> <table> <version>`)."""
    async def scenario():
        channel = Channel()
        me = await channel.process(db_url, "me")
        table, _ = await me.hub.create({"game": "wasserloch", "options": {"players": 2}, "seats": humans(2)})
        table.attach(seat_conn(0), tab="page-1 with spaces=and,commas")
        table.attach(seat_conn(1))
        me.hub.presence.announce_all()
        me.hub.presence.heard("other", notify.ASK, [])
        me.reconnect()
        await channel.close()
        return me.outbox

    payloads = asyncio.run(scenario())
    assert {p.split(" ")[1] for p in payloads} == {notify.OPEN, notify.HERE, notify.ASK, notify.BYE}
    for p in payloads:
        previous_version_reads(p)
        words = p.split(" ")
        assert not (len(words) == 3 and words[2].isdigit()), p
