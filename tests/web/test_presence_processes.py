"""Who is online, shared by the server processes of one PostgreSQL database (hub.Presence):
a seat open through one process is online in every other, opening it through another
process replaces the first connection, and a process that vanishes stops counting."""

from __future__ import annotations

import asyncio
import json
import time

import sqlalchemy as sa

from wasserspiele.web import notify
from wasserspiele.web.hub import Connection, Hub
from wasserspiele.web.storage import Storage

from .helpers import create, hello, humans, table_state

FAST = {"presence_heartbeat": 0.2, "presence_expiry": 1.0}  # the crash test's short clock


def wait_until(check, what: str, seconds: float = 5.0) -> float:
    """Poll `check` until it holds; how long that took (fails after `seconds`)."""
    started = time.monotonic()
    while not check():
        assert time.monotonic() - started < seconds, what
        time.sleep(0.02)
    return time.monotonic() - started


def online(client, table_id: str, seat: int) -> bool:
    return table_state(client, table_id)["seats"][seat]["online"]


def receive_until(ws, wanted):
    """Messages from `ws` until one satisfies `wanted` (called once it is known to be sent)."""
    while True:
        msg = ws.receive_json()
        if wanted(msg):
            return msg


def _two_processes(make_client, pg_url, **kwargs):
    one, two = make_client(pg_url, **kwargs), make_client(pg_url, **kwargs)
    t = create(one, options={"players": 2}, seats=humans(2))
    return one, two, t


def test_a_seat_open_through_one_process_is_online_in_the_other_until_it_closes(make_client, pg_url):
    """The expiry is the production 30 s here: going offline is announced, not waited out."""
    one, two, t = _two_processes(make_client, pg_url)
    url = f"/ws/tables/{t['id']}"
    with two.websocket_connect(url) as watcher:                       # a spectator through process two
        assert hello(watcher)["seats"][0]["online"] is False
        with one.websocket_connect(url) as a:                         # seat 0 through process one
            assert hello(a, t["seats"][0]["token"])["seat"] == 0
            wait_until(lambda: online(two, t["id"], 0), "process two never showed seat 0 online")
            receive_until(watcher, lambda m: m.get("type") == "state" and m["seats"][0]["online"])
            assert online(two, t["id"], 1) is False
        took = wait_until(lambda: not online(two, t["id"], 0), "process two kept seat 0 online after it closed")
        assert took < 5.0
        receive_until(watcher, lambda m: m.get("type") == "state" and not m["seats"][0]["online"])


def test_opening_a_seat_through_another_process_replaces_the_first_connection(make_client, pg_url):
    one, two, t = _two_processes(make_client, pg_url)
    url, token = f"/ws/tables/{t['id']}", t["seats"][0]["token"]
    hub_one = one.app.state.hub
    with one.websocket_connect(url) as a:
        assert hello(a, token)["seat"] == 0
        wait_until(lambda: online(two, t["id"], 0), "process two never showed seat 0 online")
        with two.websocket_connect(url) as b:
            assert hello(b, token)["seat"] == 0
            wait_until(lambda: not any(c.seat == 0 for c in hub_one.tables[t["id"]].conns),
                       "process one kept its connection of seat 0")
            told = receive_until(a, lambda m: m.get("type") == "replaced")
            assert told["reason"] == "this seat was opened in another tab or window"  # as within one process
            b.send_text(json.dumps({"type": "ping"}))                  # the newer one stays
            assert receive_until(b, lambda m: m.get("type") in ("pong", "replaced"))["type"] == "pong"
            assert online(one, t["id"], 0) and online(two, t["id"], 0)
            origin_one = hub_one.storage.origin
            wait_until(lambda: origin_one not in two.app.state.hub.presence.remote.get(t["id"], {}),
                       "process one still announces seat 0")


def test_a_process_that_vanishes_without_a_goodbye_is_offline_within_the_expiry(make_client, pg_url):
    one, two, t = _two_processes(make_client, pg_url, **FAST)
    with one.websocket_connect(f"/ws/tables/{t['id']}") as a:
        assert hello(a, t["seats"][0]["token"])["seat"] == 0
        wait_until(lambda: online(two, t["id"], 0), "process two never showed seat 0 online")
        time.sleep(3 * FAST["presence_expiry"])                        # the heartbeats renew it
        assert online(two, t["id"], 0)
        one.portal.call(lambda: one.app.state.hub.presence._beat.cancel())  # process one goes silent
        took = wait_until(lambda: not online(two, t["id"], 0), "seat 0 stayed online after its process fell silent")
        assert took < FAST["presence_expiry"] + 1.0
        assert any(c.seat == 0 for c in one.app.state.hub.tables[t["id"]].conns)  # (its socket is still open)


def _drop_listener(client, pg_url) -> None:
    """End the process's listening connection from the database's side."""
    name = f"wasserspiele-listen-{client.app.state.hub.storage.origin}"[:63]
    engine = sa.create_engine(pg_url)
    with engine.connect() as conn:
        dropped = conn.execute(sa.text("select count(pg_terminate_backend(pid)) from pg_stat_activity "
                                       "where application_name = :name"), {"name": name}).scalar()
    engine.dispose()
    assert dropped == 1


def test_after_its_listening_connection_returns_a_process_announces_its_seats_again(make_client, pg_url):
    """Heartbeats every 10 s: only announcing on reconnecting tells process two within 5 s."""
    one, two, t = _two_processes(make_client, pg_url)
    with one.websocket_connect(f"/ws/tables/{t['id']}") as a:
        assert hello(a, t["seats"][0]["token"])["seat"] == 0
        wait_until(lambda: online(two, t["id"], 0), "process two never showed seat 0 online")
        for dropped in (one, two):  # the announcing process's connection, then the other's
            two.portal.call(two.app.state.hub.presence.remote.clear)   # as if process two had missed it
            assert not online(two, t["id"], 0)
            _drop_listener(dropped, pg_url)
            wait_until(lambda: online(two, t["id"], 0), "seat 0 was not announced again", seconds=5.0)


def test_a_process_started_later_shows_the_seats_already_online_at_once(make_client, pg_url):
    """It asks when it starts: it need not wait for the others' next heartbeat (10 s)."""
    one, two, t = _two_processes(make_client, pg_url)
    with one.websocket_connect(f"/ws/tables/{t['id']}") as a:
        assert hello(a, t["seats"][0]["token"])["seat"] == 0
        wait_until(lambda: online(two, t["id"], 0), "process two never showed seat 0 online")
        three = make_client(pg_url)
        wait_until(lambda: online(three, t["id"], 0), "a process started later showed seat 0 offline")


def test_of_two_processes_opening_one_seat_at_once_the_later_open_on_the_channel_wins(db_url):
    """The notices reach every process in one order: a process whose own `open` is not back
    from the channel yet holds the newer connection and keeps it."""
    async def scenario():
        storage = Storage(db_url)
        hub = Hub(storage, bot_delay=30)
        table, _ = await hub.create({"game": "wasserloch", "options": {"players": 2}, "seats": humans(2)})
        sent = []
        hub.presence._send = sent.append
        hub.presence.start("me")

        async def send(text):
            pass
        conn = Connection(send, 0)
        table.attach(conn)
        words = sent[-1].split(" ")
        assert words[:2] == ["me", notify.OPEN] and words[3:] == [table.id, "0"]
        hub.presence.heard("other", notify.OPEN, ["1", table.id, "0"])   # sent before ours: ours is newer
        kept = not conn.closed
        hub.presence.heard("me", notify.OPEN, words[2:])                 # ours comes back
        hub.presence.heard("other", notify.OPEN, ["2", table.id, "0"])   # sent after ours: theirs is newer
        replaced = conn.closed
        online = table.online_seats()
        await hub.shutdown()
        storage.close()
        return kept, replaced, online, sent, table.id

    kept, replaced, online, sent, table_id = asyncio.run(scenario())
    assert kept and replaced
    assert 0 in online                                   # the seat is still online, in the other process
    here = sent[-2].split(" ")
    assert here[1] == notify.HERE and here[3:] == [f"{table_id}="]   # replaced: no seat online here now
    assert sent[-1].split(" ")[1] == notify.BYE          # the shutdown's goodbye


def test_presence_notices_never_read_as_moves_by_either_parser():
    """A process of the version before reads `<origin> <table> <version>`: every presence
    notice fails that parse; the new parser still hands move notices on as before."""
    seq = iter(range(1, 100))
    payloads = [f"o {notify.OPEN} 1 T 0", f"o {notify.BYE}", f"o {notify.ASK}",
                *notify.here_payloads("o", [("T", [0, 2], {})], lambda: next(seq)),
                *notify.here_payloads("o", [("T", [], {})], lambda: next(seq))]

    def old_parse(payload):
        origin, table_id, version = payload.split(" ")
        return int(version)
    for p in payloads:
        try:
            old_parse(p)
        except ValueError:
            continue
        raise AssertionError(f"{p!r} reads as a move notice")
    moves, presence = [], []
    listener = notify.Listener("postgresql+psycopg://x@localhost/x", "me",
                               lambda t, v: moves.append((t, v)), lambda: None,
                               lambda o, k, w: presence.append((o, k, w)))
    listener._handle("other Tab1 7")
    listener._handle("me Tab1 8")                         # its own move: ignored, as before
    for p in payloads:
        listener._handle(p)
    assert moves == [("Tab1", 7)]
    assert [k for _, k, _ in presence] == [notify.OPEN, notify.BYE, notify.ASK, notify.HERE, notify.HERE]
    assert notify.read_here(presence[3][2][1:]).tables == {"T": frozenset({0, 2})}
    assert notify.read_here(presence[4][2][1:]).tables == {"T": frozenset()}


def test_one_process_on_sqlite_shares_no_presence(client):
    hub = client.app.state.hub
    assert not hub.presence.active and hub.presence._beat is None


# -- found while adapting test_multiprocess to one tab per seat -----------------------------

def test_a_move_queued_on_one_that_lost_a_race_is_never_written_on_top_of_the_winner(db_url):
    """Two moves applied here one on the other (seat 0's, then the reply it allowed) are
    queued together while another process commits its own first move.  The first loses
    (Conflict); the second, based on version v+1, found the row at v+1 — the other
    process's — and was written on top of a position it was never checked against: two
    picks of one seat in a Wildwasser phase, a table whose record no longer replays."""
    from wasserspiele.web.hub import Refused
    from wasserspiele.web.storage import Progress

    async def scenario():
        storage, other = Storage(db_url), Storage(db_url)
        hub = Hub(storage, bot_delay=30)
        table, _ = await hub.create({"game": "seven_waters", "seats": humans(2)})
        first = [str(a) for a in table.state.legal_actions(0)]
        theirs = first[-1]                       # the other process's move for seat 0
        real, calls = storage.save_batch, []

        def racing(batch):
            if not calls:                        # the other process commits first
                other.save_batch([Progress(table.id, 0, [(0, theirs)], None, "running", None, table_version0)])
            calls.append(len(batch))
            real(batch)
        storage.save_batch = racing
        table_version0 = table.version
        async with table.lock:
            saved1, _ = table._accept(0, first[0], 0, True)       # applied here, queued
            seat = table.state.to_move()[0]
            reply = str(table.state.legal_actions(seat)[0])
            saved2, _ = table._accept(seat, reply, 1, True)       # the reply, queued on it
        results = await asyncio.gather(table._stored(saved1), table._stored(saved2), return_exceptions=True)
        stored = other.load_table(table.id).actions
        await hub.shutdown()
        storage.close()
        other.close()
        return results, stored, theirs

    results, stored, theirs = asyncio.run(scenario())
    assert all(isinstance(r, Refused) for r in results), results
    assert stored == [theirs]                            # only the winner's move


def test_a_notice_heard_while_own_moves_are_unsaved_is_not_lost(db_url):
    """The table's version counts its unsaved moves: a notice of the other process's
    version v+2, heard while this one's two moves (v+1, v+2) were losing their race and the
    table was being reloaded from a read taken before that commit, was dropped as "already
    there" — and its clients stayed a move behind until the next one (the Wildwasser run of
    test_multiprocess with one tab per seat stalled so)."""
    from wasserspiele.web.hub import LiveTable
    from wasserspiele.web.storage import Progress

    async def scenario():
        storage, other = Storage(db_url), Storage(db_url)
        hub = Hub(storage, bot_delay=30)
        table, _ = await hub.create({"game": "seven_waters", "seats": humans(2)})
        loop = asyncio.get_running_loop()
        v0 = table.version
        mine = [str(a) for a in table.state.legal_actions(0)]
        theirs = []

        def their_move(version):  # the other process's next move, committed
            state = LiveTable.state_of(other.load_table(table.id))
            seat = state.to_move()[0]
            text = str(state.legal_actions(seat)[-1])
            other.save_batch([Progress(table.id, version - v0, [(seat, text)], None, "running", None, version)])
            theirs.append(text)  # (a sequential move: the record does not name its seat)

        real_save, real_load, reloads = storage.save_batch, storage.load_table, []

        def racing_save(batch):
            if not reloads and other.load_table(table.id).version == v0:
                their_move(v0)                   # they commit first: ours conflict
            real_save(batch)

        def late_load(table_id):
            row = real_load(table_id)            # the reload reads v0+1 ...
            if not reloads:
                reloads.append(row.version)
                their_move(v0 + 1)               # ... and they commit v0+2 right after
                loop.call_soon_threadsafe(hub.on_notice, table.id, v0 + 2)
            return row
        storage.save_batch, storage.load_table = racing_save, late_load
        async with table.lock:
            saved1, _ = table._accept(0, mine[0], 0, True)
            seat = table.state.to_move()[0]
            saved2, _ = table._accept(seat, str(table.state.legal_actions(seat)[0]), 1, True)
        await asyncio.gather(table._stored(saved1), table._stored(saved2), return_exceptions=True)
        for _ in range(100):
            await asyncio.sleep(0.02)
            if not hub._tasks:
                break
        got = (reloads, table.version - v0, table.n, other.load_table(table.id).actions == theirs)
        await hub.shutdown()
        storage.close()
        other.close()
        return got

    reloads, version, n, stored = asyncio.run(scenario())
    assert reloads and stored              # theirs only: ours lost the race, both
    assert (version, n) == (2, 2)          # caught up with both of their moves
