"""The rematch of a finished table is stored with it: every seat that asks for it, after a
reload, a closed tab, a restart or through another server process, joins the one table
the first seat made, with its own token there; two racing requests make one table."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading

import sqlalchemy as sa

from wasserspiele.web.storage import Storage

from .helpers import auth, create, database_at, hello, humans, play_first_legal, table_state


def finished_game(client, seats=None):
    t = create(client, options={"players": 2, "rounds": 1}, seats=seats or humans(2))
    play_first_legal(client, t, 400)
    assert table_state(client, t["id"])["terminal"]
    return t


def ask(client, table, seat):
    """Seat `seat` asks for the rematch: (its id, the seat's token there)."""
    r = client.post(f"/api/tables/{table['id']}/rematch", headers=auth(table["seats"][seat]["token"]))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["link"].startswith(f"/table/{body['id']}#seat={seat}&token=")
    return body["id"], body["link"].split("token=")[1]


def tables_in(db_url):
    con = sqlite3.connect(db_url.removeprefix("sqlite:///"))
    try:
        return con.execute("select count(*) from tables").fetchone()[0]
    finally:
        con.close()


def test_a_rematch_is_found_again_after_the_finished_table_left_memory(client, db_url):
    """The tester's case: A starts the rematch, B sees "Go to the rematch", B reloads."""
    t = finished_game(client)
    hub = client.app.state.hub
    with client.websocket_connect(f"/ws/tables/{t['id']}") as b:
        assert "rematch" not in hello(b, t["seats"][1]["token"])
        a_id, a_token = ask(client, t, 0)
        msg = b.receive_json()
        assert msg["rematch"] == a_id                   # B's button says "Go to the rematch"
    assert t["id"] not in hub.tables                    # nobody watches the finished table: dropped
    with client.websocket_connect(f"/ws/tables/{t['id']}") as b:   # B reloads the page
        assert hello(b, t["seats"][1]["token"])["rematch"] == a_id
    b_id, b_token = ask(client, t, 1)
    assert b_id == a_id and b_token != a_token          # the same table, B's own token
    assert table_state(client, a_id, b_token)["seat"] == 1
    assert table_state(client, a_id, a_token)["seat"] == 0
    hub.forget(a_id)
    hub.forget(t["id"])
    assert ask(client, t, 1) == (b_id, b_token)         # asking again: the same link
    assert ask(client, t, 0) == (a_id, a_token)
    assert table_state(client, a_id, b_token)["seat"] == 1     # B's claim is in the database
    assert tables_in(db_url) == 2                       # one rematch, nothing more


def test_a_rematch_survives_a_restart_and_brings_the_names(make_client, db_url):
    client = make_client()
    t = finished_game(client)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        hello(ws, t["seats"][1]["token"])
        ws.send_text(json.dumps({"type": "name", "name": "Berta"}))
        while ws.receive_json().get("seats", [{}, {}])[1].get("name") != "Berta":
            pass
    a_id, a_token = ask(client, t, 0)
    client.__exit__(None, None, None)
    client = make_client()
    assert table_state(client, t["id"])["rematch"] == a_id
    b_id, b_token = ask(client, t, 1)
    assert b_id == a_id
    fresh = table_state(client, a_id, b_token)
    assert fresh["seat"] == 1 and not fresh["terminal"] and fresh["seats"][1]["name"] == "Berta"
    assert table_state(client, a_id, a_token)["seat"] == 0
    with client.websocket_connect(f"/ws/tables/{a_id}") as ws:  # B plays there
        assert hello(ws, b_token)["seat"] == 1
    assert tables_in(db_url) == 2


def test_a_seat_token_of_the_finished_table_is_no_token_at_the_rematch(client):
    t = finished_game(client)
    a_id, _ = ask(client, t, 0)
    r = client.get(f"/api/tables/{a_id}", headers=auth(t["seats"][1]["token"]))
    assert r.status_code == 403 and r.json()["error"] == "bad_token"
    assert table_state(client, a_id)["seats"][1]["kind"] == "human"   # B's seat waits for B


def test_a_rematch_with_a_bot_seat_keeps_the_bot(make_client):
    import time

    from .helpers import move
    client = make_client(bot_delay=0.0)
    t = create(client, options={"players": 2, "rounds": 1}, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    token, deadline = t["seats"][0]["token"], time.monotonic() + 60
    while not (mine := table_state(client, t["id"], token))["terminal"]:
        assert time.monotonic() < deadline, "the game did not end"
        if mine["legal"]:
            move(client, t["id"], token, mine["legal"][0], mine["n"])
        else:
            time.sleep(0.01)   # the bot's turn
    a_id, a_token = ask(client, t, 0)
    seats = table_state(client, a_id, a_token)["seats"]
    assert [(s["kind"], s["level"]) for s in seats] == [("human", None), ("bot", "easy")]
    assert ask(client, t, 0)[0] == a_id


def _two_processes(db_url):
    """Two hubs on one database, as two server processes would be (each its own memory)."""
    from wasserspiele.web.hub import Hub
    return [Hub(Storage(db_url), bot_delay=30) for _ in range(2)]


def test_two_racing_requests_make_one_rematch_the_database_decides(client, db_url):
    t = finished_game(client)
    tokens = [s["token"] for s in t["seats"]]

    async def scenario():
        hubs = _two_processes(db_url)
        olds = [await h.open(t["id"]) for h in hubs]   # both hold the table: no rematch in memory
        start = threading.Barrier(2)
        for h in hubs:                                  # both ask the database at the same moment
            real = h.storage.create_rematch

            def together(*args, real=real):
                start.wait(10)
                return real(*args)
            h.storage.create_rematch = together
        made = await asyncio.gather(hubs[0].rematch(olds[0], 0, tokens[0]),
                                    hubs[1].rematch(olds[1], 1, tokens[1]))
        for h in hubs:
            del h.storage.create_rematch
        # the one that lost the race still thinks there is none ... and is told by the database
        hubs[1].tables.pop(t["id"])
        stale = await hubs[1].open(t["id"])
        stale.rematch = None
        hubs[1].storage.rematch_of = lambda table_id: None
        again = await hubs[1].rematch(stale, 1, tokens[1])
        # seat 1 claimed its seat through hubs[1]; hubs[0] holds the new table from before
        seat_at_0 = None
        if made[0][0] in hubs[0].tables:
            seat_at_0 = await hubs[0].tables[made[0][0]].seat_of(made[1][1])
        for h in hubs:
            await h.shutdown()
            h.storage.close()
        return made, again, seat_at_0

    made, again, seat_at_0 = asyncio.run(scenario())
    (a_id, a_token), (b_id, b_token) = made
    assert a_id == b_id and again == (b_id, b_token) and a_token != b_token
    assert tables_in(db_url) == 2                       # the loser's table was never written
    assert seat_at_0 in (None, 1)
    client.app.state.hub.forget(t["id"])
    assert table_state(client, a_id, a_token)["seat"] == 0
    assert table_state(client, a_id, b_token)["seat"] == 1
    assert table_state(client, t["id"])["rematch"] == a_id


def test_a_seat_claimed_in_another_process_is_taken_where_the_rematch_is_held(client, db_url):
    """A plays the rematch in this process; B asks for it through another one and then
    comes here: this process reads the seat's token again instead of refusing B."""
    t = finished_game(client)
    a_id, a_token = ask(client, t, 0)
    with client.websocket_connect(f"/ws/tables/{a_id}") as a:
        assert hello(a, a_token)["seat"] == 0
        assert client.app.state.hub.tables[a_id].seats[1].token_hash is None

        async def elsewhere():
            (other,) = _two_processes(db_url)[:1]
            old = await other.open(t["id"])
            got = await other.rematch(old, 1, t["seats"][1]["token"])
            await other.shutdown()
            other.storage.close()
            return got
        b_id, b_token = asyncio.run(elsewhere())
        assert b_id == a_id
        with client.websocket_connect(f"/ws/tables/{a_id}") as b:
            assert hello(b, b_token)["seat"] == 1


def test_the_database_makes_no_rematch_of_a_game_not_over_there(client, db_url):
    """A game is over in memory before its last move is committed: the rematch waits for
    the database to say so (else the version it bumps would refuse that last move)."""
    import dataclasses
    running = create(client, options={"players": 2, "rounds": 1}, seats=humans(2))
    over = finished_game(client)
    s = Storage(db_url)
    row = s.load_table(running["id"])
    fresh = dataclasses.replace(row, id="fresh1", seats=[dataclasses.replace(x, token_hash=None) for x in row.seats])
    assert s.create_rematch(running["id"], fresh) == (None, row.version)
    assert s.load_table("fresh1") is None and s.load_table(running["id"]).version == row.version
    version = s.load_table(over["id"]).version
    assert s.create_rematch(over["id"], fresh) == ("fresh1", version + 1)
    assert s.create_rematch(over["id"], dataclasses.replace(fresh, id="fresh2")) == ("fresh1", version + 1)
    assert s.load_table("fresh2") is None and s.rematch_of(over["id"]) == "fresh1"
    s.close()


def test_the_rematch_migration_keeps_the_tables_of_an_older_database(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = database_at(url, "0004")
    with engine.begin() as conn:
        conn.execute(sa.text("insert into tables (id, game, options, players, seed, setup, status, created, "
                             "updated) values ('t1', 'wasserloch', '{}', 2, 5, '{}', 'over', '2026-01-01', "
                             "'2026-01-01')"))
        conn.execute(sa.text("insert into moves values ('t1', 0, 0, 'Ax1', '2026-01-01')"))
    engine.dispose()
    s = Storage(url)
    row = s.load_table("t1")
    assert row.rematch is None and row.actions == ["Ax1"] and s.rematch_of("t1") is None
    s.close()


# -- PostgreSQL: two server processes' apps on one database ------------------------------

def test_postgresql_two_processes_share_one_rematch(make_client, pg_url):
    import time

    one, two = make_client(pg_url), make_client(pg_url)
    t = finished_game(one)
    with two.websocket_connect(f"/ws/tables/{t['id']}") as b:      # B watches through process two
        assert "rematch" not in hello(b, t["seats"][1]["token"])
        a_id, a_token = ask(one, t, 0)                                 # A asks through process one
        held = two.app.state.hub.tables[t["id"]]
        deadline = time.monotonic() + 10
        while held.rematch != a_id:                     # process two hears of it (NOTIFY) ...
            assert time.monotonic() < deadline, "process two did not hear of the rematch"
            time.sleep(0.02)
        while b.receive_json().get("rematch") != a_id:  # ... and pushes it to B
            pass
    b_id, b_token = ask(two, t, 1)
    assert b_id == a_id and b_token != a_token
    for client in (one, two):                                          # either process, either seat
        assert table_state(client, a_id, a_token)["seat"] == 0
        assert table_state(client, a_id, b_token)["seat"] == 1

    # two requests at once, one through each process: one table, joined by both
    t = finished_game(one)
    answers = {}

    def asking(client, seat):
        answers[seat] = ask(client, t, seat)
    racing = [threading.Thread(target=asking, args=(c, seat)) for c, seat in ((one, 0), (two, 1))]
    for th in racing:
        th.start()
    for th in racing:
        th.join(30)
    (a_id, a_token), (b_id, b_token) = answers[0], answers[1]
    assert a_id == b_id and a_token != b_token
    for client in (one, two):
        assert table_state(client, a_id, a_token)["seat"] == 0
        assert table_state(client, a_id, b_token)["seat"] == 1
        assert table_state(client, t["id"])["rematch"] == a_id
    engine = sa.create_engine(pg_url)
    with engine.connect() as conn:
        made = conn.execute(sa.text("select count(*) from tables where created >= "
                                    "(select created from tables where id = :id)"), {"id": t["id"]}).scalar()
    engine.dispose()
    assert made == 2                                                   # the finished table and one rematch
