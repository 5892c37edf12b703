"""Limits a public server needs: tables and bot seats per client and per server, sockets
per table and per client, spectators that cost one message each, idle tables leaving
memory, start-up resuming only tables where a bot is to move, bots in a bounded pool."""

from __future__ import annotations

import json

import pytest
from starlette.websockets import WebSocketDisconnect

from wasserspiele.web.limits import Limits

from .helpers import create, hello, humans, move, table_state

BOTS = [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]


def test_tables_per_client_and_per_server_are_limited(make_client):
    client = make_client(limits=Limits(tables_per_client=2, tables_per_server=3))
    for _ in range(2):
        create(client, seats=humans(3))
    r = client.post("/api/tables", json={"game": "wasserloch", "seats": humans(3)})
    assert r.status_code == 429 and r.json()["error"] == "too_many" and "2 open tables" in r.json()["reason"]
    client.__exit__(None, None, None)
    other = make_client(limits=Limits(tables_per_client=5, tables_per_server=3))   # the same database
    create(other, seats=humans(3))     # a third table: still within the server's limit of 3 ...
    r = other.post("/api/tables", json={"game": "wasserloch", "seats": humans(3)})
    assert r.status_code == 503 and "most open tables" in r.json()["reason"]     # ... a fourth is not


def test_a_finished_table_no_longer_counts(make_client):
    client = make_client(limits=Limits(tables_per_client=1))
    t = create(client, options={"players": 2, "rounds": 1}, seats=humans(2))
    assert client.post("/api/tables", json={"game": "seven_waters", "seats": humans(2)}).status_code == 429
    from .helpers import play_first_legal
    play_first_legal(client, t, 1000)
    create(client, "seven_waters", seats=humans(2))


def test_bot_seats_per_client_and_per_server_are_limited(make_client):
    client = make_client(limits=Limits(bot_seats_per_client=3, bot_seats_per_server=100))
    create(client, seats=BOTS)
    r = client.post("/api/tables", json={"game": "wasserloch", "seats": BOTS})
    assert r.status_code == 429 and "bot seats" in r.json()["reason"]
    create(client, seats=humans(3))   # tables without bots are still fine
    client.__exit__(None, None, None)
    client = make_client(limits=Limits(bot_seats_per_server=2))
    r = client.post("/api/tables", json={"game": "wasserloch", "seats": BOTS})
    assert r.status_code == 503 and "most bot seats" in r.json()["reason"]


def test_sockets_per_table_and_per_client_are_limited(make_client):
    client = make_client(limits=Limits(sockets_per_table=5, sockets_per_client=3))
    t = create(client, seats=humans(3))   # 3 of its 5 kept for the seats: room for 2 spectators
    u = create(client, seats=humans(3))
    with client.websocket_connect(f"/ws/tables/{t['id']}") as a, client.websocket_connect(f"/ws/tables/{t['id']}") as b:
        hello(a, None), hello(b, None)
        with client.websocket_connect(f"/ws/tables/{t['id']}") as c:
            c.send_text(json.dumps({"type": "hello", "token": None}))
            msg = c.receive_json()
            assert msg["code"] == "too_many" and "this table" in msg["reason"]
            with pytest.raises(WebSocketDisconnect) as closed:
                c.receive_json()
            assert closed.value.code == 4429
        with client.websocket_connect(f"/ws/tables/{u['id']}") as d:
            hello(d, None)                                          # the client's third
            with client.websocket_connect(f"/ws/tables/{u['id']}") as e:
                e.send_text(json.dumps({"type": "hello", "token": None}))
                assert "connections open" in e.receive_json()["reason"]
    with client.websocket_connect(f"/ws/tables/{t['id']}") as f:   # closed ones no longer count
        assert hello(f, None)["n"] == 0


def test_spectators_cost_one_message_each_not_one_per_pair(client):
    t = create(client, seats=humans(3))
    table = client.portal.call(client.app.state.hub.open, t["id"])
    from wasserspiele.web.hub import Connection
    sent = []

    def sink(seat):
        async def send(text):
            sent.append(seat)
        return send
    spectators = 200

    async def attach_many():
        for _ in range(spectators):
            table.attach(Connection(sink(None), None))
    client.portal.call(attach_many)
    tok = t["seats"][0]["token"]
    assert move(client, t["id"], tok, table_state(client, t["id"], tok)["legal"][0], 0).status_code == 200

    async def drained():
        for c in list(table.conns):
            await c.drain()
    client.portal.call(drained)
    assert len(sent) == 2 * spectators        # one on joining, one for the move: linear


def test_idle_tables_leave_memory_and_come_back_from_the_database(make_client):
    client = make_client(limits=Limits(idle_seconds=0))
    t = create(client, seats=humans(3))
    tok = t["seats"][0]["token"]
    assert move(client, t["id"], tok, table_state(client, t["id"], tok)["legal"][0], 0).status_code == 200
    hub = client.app.state.hub
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        hello(ws, None)
        assert client.portal.call(_sweep, hub) == 0                # watched: it stays
    assert client.portal.call(_sweep, hub) == 1 and t["id"] not in hub.tables
    assert table_state(client, t["id"], tok)["n"] == 1               # back from the database
    assert t["id"] in hub.tables


async def _sweep(hub):
    return hub.sweep()


def test_start_up_resumes_only_tables_where_a_bot_is_to_move(make_client):
    client = make_client()
    people = create(client, seats=humans(3))
    bots_next = create(client, seats=[{"kind": "bot", "level": "easy"}, *humans(2)])
    after_human = create(client, seats=BOTS)                       # a human is to move first
    client.__exit__(None, None, None)
    client = make_client()
    loaded = set(client.app.state.hub.tables)
    assert bots_next["id"] in loaded and people["id"] not in loaded and after_human["id"] not in loaded


def test_bots_think_in_worker_processes(make_client):
    """The default pool: bots run in another process, and the table's game goes on."""
    import os
    import time
    client = make_client(bot_delay=0.0, bot_pool="process", limits=Limits(bot_workers=1))
    t = create(client, options={"players": 2, "rounds": 1},
               seats=[{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}])
    deadline = time.monotonic() + 120
    while not table_state(client, t["id"])["terminal"]:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)
    pool = client.app.state.hub.bots._executor
    pids = {p.pid for p in pool._processes.values()}
    assert len(pids) == 1 and os.getpid() not in pids


def test_limits_come_from_the_environment_with_clear_errors():
    lim = Limits.from_env({"WASSERSPIELE_TABLES_PER_CLIENT": "7", "WASSERSPIELE_MESSAGE_RATE": "2.5"})
    assert lim.tables_per_client == 7 and lim.message_rate == 2.5 and lim.sockets_per_table == 100
    with pytest.raises(ValueError, match="WASSERSPIELE_TABLES_PER_CLIENT='many': not an int"):
        Limits.from_env({"WASSERSPIELE_TABLES_PER_CLIENT": "many"})
    with pytest.raises(ValueError, match="must be a number ≥ 0"):
        Limits(idle_seconds=float("nan"))


def _gone(pid: int, within: float) -> bool:
    import os
    import time
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:  # our own child: reap it, or it lingers as a zombie that kill(0) still finds
            if os.waitpid(pid, os.WNOHANG)[0] == pid:
                return True
        except ChildProcessError:
            pass
        time.sleep(0.05)
    return False


def test_closing_the_bot_pool_stops_its_workers_at_once():
    from wasserspiele.web.botpool import BotPool, _ready
    pool = BotPool(1, "process")
    pool.warm()
    pid = pool._pool().submit(_ready).result(timeout=120)
    pool.close()
    assert _gone(pid, within=10), "a bot worker outlived its pool"


def test_a_killed_server_leaves_no_bot_worker_behind(tmp_path):
    """kill -9 gives the server no chance to close its pool: the workers notice on their own."""
    import os
    import signal
    import subprocess
    import sys
    script = ("from wasserspiele.web.botpool import BotPool, _ready\n"
              "import time\n"
              "pool = BotPool(1, 'process')\n"
              "print(pool._pool().submit(_ready).result(timeout=120), flush=True)\n"
              "time.sleep(600)\n")
    server = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        worker = int(server.stdout.readline())
        os.kill(server.pid, signal.SIGKILL)
        server.wait(30)
        assert _gone(worker, within=10), "the bot worker outlived its killed server"
    finally:
        if server.poll() is None:
            server.kill()
