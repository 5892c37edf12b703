"""A server left running for weeks: what it holds in memory settles back once games end
and clients leave.  Each test counts a structure after many tables or sockets (not
timings): tables nobody watches are a bounded cache of the database (`unwatched_tables`),
whatever is read, finished or abandoned, and stay readable from the database."""

from __future__ import annotations

import json
import time

from wasserspiele.web.limits import Limits

from .helpers import create, hello, humans, move, table_state

ROOMY = dict(tables_per_client=10_000, tables_per_server=10_000, bot_seats_per_client=10_000,
             bot_seats_per_server=10_000)
SHORT = {"players": 2, "rounds": 1}   # a short Wasserloch
BOTS = [{"kind": "bot", "level": "easy"}] * 2


def _wait_over(client, table_id, seconds=60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if table_state(client, table_id)["terminal"]:
            return
        time.sleep(0.01)
    raise AssertionError(f"table {table_id} did not end")


def test_tables_read_one_after_another_are_a_bounded_cache_not_ten_minutes_of_them(make_client):
    """Reading many tables (a lobby's links, a crawler, players who never come back) kept
    every one in memory for `idle_seconds` (600 s): 60 tables read, 60 games held.  At most
    `unwatched_tables` stay; the others come back from the database when asked for, with
    their moves."""
    client = make_client(limits=Limits(unwatched_tables=5, **ROOMY))
    hub = client.app.state.hub
    tables = [create(client, options=SHORT, seats=humans(2)) for _ in range(60)]
    assert len(hub.tables) <= 6
    first = tables[0]
    tok = first["seats"][0]["token"]
    legal = table_state(client, first["id"], tok)["legal"]
    assert move(client, first["id"], tok, legal[0], 0).status_code == 200   # long gone from memory
    for t in tables:
        assert table_state(client, t["id"])["table"] == t["id"]
        assert len(hub.tables) <= 6
    assert table_state(client, first["id"])["n"] == 1                      # its move was stored


def test_finished_games_leave_memory_and_their_replays_stay_readable(make_client):
    """All-bot games that end, then their records and replays read: the finished tables
    stayed in memory for ten minutes each (the figure grew with every game); now at most
    `unwatched_tables` of them do."""
    client = make_client(limits=Limits(unwatched_tables=3, **ROOMY), bot_delay=0.0, bot_pool="inline")
    hub = client.app.state.hub
    ids = [create(client, options=SHORT, seats=BOTS)["id"] for _ in range(16)]
    for table_id in ids:
        _wait_over(client, table_id)
    assert len(hub.tables) <= 4
    for table_id in ids:
        record = client.get(f"/api/tables/{table_id}/record").json()
        total = len(record["actions"])
        step = client.get(f"/api/tables/{table_id}/replay/{total}").json()
        assert step["terminal"] and step["total"] == total
        assert len(hub.tables) <= 4


def test_abandoned_and_watched_tables_a_socket_left_join_the_cache_and_watched_ones_stay(make_client):
    """A seat that played a move over its socket and left (the game abandoned half-way)
    puts its table at rest: it joins the bounded cache.  A table someone watches is never
    pushed out, however many others are read."""
    client = make_client(limits=Limits(unwatched_tables=2, **ROOMY))
    hub = client.app.state.hub
    watched = create(client, options=SHORT, seats=humans(2))
    with client.websocket_connect(f"/ws/tables/{watched['id']}") as spectator:
        hello(spectator, None)
        for _ in range(12):
            t = create(client, options=SHORT, seats=humans(2))
            tok = t["seats"][0]["token"]
            with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
                state = hello(ws, tok)
                ws.send_text(json.dumps({"type": "move", "action": state["legal"][0], "n": 0}))
                while ws.receive_json()["type"] != "accepted":
                    pass
        assert watched["id"] in hub.tables                                   # watched: kept
        assert len(hub.tables) <= 3 + 1
    assert len(hub.tables) <= 3
    assert table_state(client, t["id"], tok)["n"] == 1                        # abandoned, still there


def test_a_move_to_a_table_that_left_memory_while_its_request_waited_is_applied(make_client, monkeypatch):
    """A table may leave memory while a move's request awaits its body (the cache's bound,
    the idle sweep): the move is applied to the table as loaded anew, not refused as
    `reload` (503) for a copy that left."""
    from wasserspiele.web import app as app_module

    client = make_client(limits=Limits(**ROOMY))
    hub = client.app.state.hub
    t = create(client, options=SHORT, seats=humans(2))
    tok = t["seats"][0]["token"]
    legal = table_state(client, t["id"], tok)["legal"]
    old = hub.tables[t["id"]]
    read_body = app_module._json_body

    async def body_read_while_the_table_leaves(request):
        hub.tables.pop(t["id"], None)    # as the sweep or the cache's bound would meanwhile
        return await read_body(request)

    monkeypatch.setattr(app_module, "_json_body", body_read_while_the_table_leaves)
    r = move(client, t["id"], tok, legal[0], 0)
    assert r.status_code == 200, r.text
    assert hub.tables[t["id"]] is not old and table_state(client, t["id"])["n"] == 1
