"""The WebSocket of a table: hello, live states, moves, refusals, simultaneous picks."""

from __future__ import annotations

import json

import pytest
from starlette.websockets import WebSocketDisconnect

from wasserspiele import load


from .helpers import create, database_at, hello, humans, move, table_state


def refused_then_closed(ws, code):
    msg = ws.receive_json()
    assert msg["type"] == "refused"
    with pytest.raises(WebSocketDisconnect) as exc:
        ws.receive_json()
    assert exc.value.code == code
    return msg


def test_seat_and_spectator_get_their_own_views(client):
    t = create(client, seats=humans(3))
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        msg = hello(ws, t["seats"][0]["token"])
        assert msg["type"] == "state" and msg["seat"] == 0 and msg["legal"] and msg["view"]["hand"]
        assert msg["seats"][0]["online"] is True and msg["seats"][1]["online"] is False
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        msg = hello(ws, None)
        assert msg["seat"] is None and msg["legal"] == [] and msg["view"]["hand"] is None


def test_hello_is_required_and_checked(client):
    t = create(client, seats=humans(3))
    other = create(client, seats=humans(3))
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        ws.send_text(json.dumps({"type": "move", "action": "Ax1", "n": 0}))
        assert "first message must be" in refused_then_closed(ws, 4400)["reason"]
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        ws.send_text("{nope")
        assert refused_then_closed(ws, 4400)["code"] == "bad_json"
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": other["seats"][0]["token"]}))
        assert refused_then_closed(ws, 4403)["code"] == "bad_token"
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": 12}))
        assert refused_then_closed(ws, 4400)["reason"] == "token: must be a string"
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": None, "name": "x"}))
        assert "unknown field 'name'" in refused_then_closed(ws, 4400)["reason"]
    with client.websocket_connect("/ws/tables/nosuchtable") as ws:
        assert refused_then_closed(ws, 4404)["code"] == "no_table"


def test_moves_are_broadcast_to_every_seat_and_a_second_tab_takes_the_seat_over(client):
    t = create(client, seats=humans(3))
    tid, tok = t["id"], [s["token"] for s in t["seats"]]
    path = f"/ws/tables/{tid}"
    with client.websocket_connect(path) as a1, client.websocket_connect(path) as a2, \
            client.websocket_connect(path) as b, client.websocket_connect(path) as spec:
        first = hello(a1, tok[0])
        hello(a2, tok[0])                                    # the same seat in a second tab
        assert a1.receive_json()["type"] == "replaced"       # one controller per seat: the old tab is told
        hello(b, tok[1]); a2.receive_json()
        hello(spec, None)                                    # a spectator changes no one's view: no message
        a2.send_text(json.dumps({"type": "move", "action": first["legal"][0], "n": 0}))
        got = [ws.receive_json() for ws in (a2, b, spec)]
        assert [m["n"] for m in got] == [1, 1, 1]
        assert got[0]["view"]["hand"] is not None
        assert got[1]["seat"] == 1 and got[1]["legal"] and got[0]["legal"] == []
        assert got[2]["view"]["hand"] is None
        # a move based on an old position is stale
        a2.receive_json()                                    # "accepted"
        a2.send_text(json.dumps({"type": "move", "action": first["legal"][0], "n": 0}))
        msg = a2.receive_json()
        assert msg["type"] == "refused" and msg["code"] in ("stale", "not_your_turn")
        # no other seat's hand in anything seat 1 receives
        server = client.app.state.hub.tables[tid].state
        assert got[1]["view"] == server.view(1)


def test_bad_messages_are_refused_and_the_game_goes_on(client):
    t = create(client, seats=humans(3))
    tid, tok = t["id"], [s["token"] for s in t["seats"]]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        state = hello(ws, tok[0])
        for text, code in [("x" * 5000, "too_large"), ("[1]", "bad_message"), ("{bad", "bad_json"),
                           (json.dumps({"type": "shout"}), "bad_message"),
                           (json.dumps({"type": "move", "action": "Zx9", "n": 0}), "bad_notation"),
                           (json.dumps({"type": "move", "action": state["legal"][0]}), "bad_message")]:
            ws.send_text(text)
            msg = ws.receive_json()
            assert msg["type"] == "refused" and msg["code"] == code, (text[:20], msg)
        ws.send_bytes(b"\x00\x01")
        assert ws.receive_json()["reason"] == "messages must be JSON text, not binary"
        ws.send_text(json.dumps({"type": "ping"}))
        assert ws.receive_json() == {"type": "pong"}
        ws.send_text(json.dumps({"type": "sync"}))
        assert ws.receive_json() == state
        ws.send_text(json.dumps({"type": "move", "action": state["legal"][0], "n": 0}))
        assert ws.receive_json()["n"] == 1
        assert ws.receive_json() == {"type": "accepted", "n": 1}
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws, None)
        ws.send_text(json.dumps({"type": "move", "action": "Ax1", "n": 1}))
        assert ws.receive_json()["code"] == "spectator"


def test_wildwasser_picks_are_hidden_commitments_applied_at_once_in_any_order(make_client, db_url):
    client = make_client()
    t = create(client, "wildwasser", seats=humans(4))
    tid, tok = t["id"], [s["token"] for s in t["seats"]]
    before0 = table_state(client, tid, tok[0])
    assert before0["to_move"] == [0, 1, 2, 3]
    # seat 2 picks first: applied at once, as a commitment only seat 2 can see
    r = move(client, tid, tok[2], "pick turtle", 0)
    assert r.json() == {"type": "accepted", "n": 1}
    s2 = table_state(client, tid, tok[2])
    assert s2["my_choice"] == "pick turtle" and s2["legal"] == [] and s2["chosen"] == [2]
    s0 = table_state(client, tid, tok[0])
    assert s0["my_choice"] is None and s0["chosen"] == [2] and s0["waiting"] == [0, 1, 3]
    assert s0["view"]["seats"][2]["picked"] and s0["view"]["seats"][2]["pick"] is None
    assert all(e["event"] != "pick" or "card" not in e for e in s0["view"]["log"])
    spectator = table_state(client, tid)
    assert spectator["my_choice"] is None and spectator["waiting"] == [0, 1, 3]
    r = move(client, tid, tok[2], "pick zebra", 1)
    assert r.status_code == 409 and r.json()["error"] == "already_chosen"
    # seat 3 too; then a restart: the picks survive it, with their seats
    assert move(client, tid, tok[3], "pick cheetah", 1).json()["n"] == 2
    client.__exit__(None, None, None)
    client = make_client()
    assert table_state(client, tid, tok[2])["my_choice"] == "pick turtle"
    assert move(client, tid, tok[0], "pick zebra", 0).json() == {"type": "accepted", "n": 3}
    assert move(client, tid, tok[1], "pick rhino", 3).json()["n"] == 4
    hub_state = client.app.state.hub.tables[tid].state
    assert hub_state.record_actions()[:4] == ["2: pick turtle", "3: pick cheetah", "0: pick zebra", "pick rhino"]
    import sqlite3
    con = sqlite3.connect(db_url.removeprefix("sqlite:///"))
    rows = con.execute("select n, seat, action from moves where table_id = ? order by n", (tid,)).fetchall()
    con.close()
    assert rows == [(0, 2, "2: pick turtle"), (1, 3, "3: pick cheetah"), (2, 0, "0: pick zebra"), (3, 1, "pick rhino")]


def test_picks_buffered_by_an_older_server_become_moves_in_the_migration(tmp_path):
    """Revision 0002: a database written before picks were moves keeps every buffered pick."""
    import sqlite3

    import wasserspiele.web.storage as storage
    from wasserspiele.core.records import replay

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    database_at(url, "0001").dispose()
    game = load("wildwasser", players=3)
    setup = game.new_game(seed=5).chance.used_setup()
    con = sqlite3.connect(tmp_path / "old.sqlite3")
    con.execute("insert into tables values ('t1', 'wildwasser', '{}', 3, 5, ?, ?, 'running', null, "
                "'2026-01-01', '2026-01-01')", (json.dumps(setup), json.dumps({"2": "pick turtle"})))
    con.execute("insert into moves values ('t1', 0, 0, 'pick zebra', '2026-01-01')")
    con.commit()
    con.close()
    row = storage.Storage(url).load_table("t1")
    assert row.actions == ["pick zebra", "2: pick turtle"]
    state = replay({"game": "wildwasser", "players": 3, "setup": row.setup, "actions": row.actions})
    assert state.to_move() == (1,) and state.committed()[2] == game.parse_action("pick turtle")


def test_a_flood_of_messages_is_refused_before_any_cap_closes_the_socket(client):
    t = create(client, seats=humans(3))
    burst = client.app.state.hub.limits.message_burst
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        state = hello(ws, t["seats"][0]["token"])
        for _ in range(1000):
            ws.send_text(json.dumps({"type": "ping"}))
        ws.send_text(json.dumps({"type": "sync"}))
        answers = []
        while not answers or answers[-1].get("type") != "state":   # until the sync is answered
            answers.append(ws.receive_json())
            if answers[-1].get("code") == "too_many" and len(answers) > 1000:
                ws.send_text(json.dumps({"type": "sync"}))            # the sync itself was too many
        refused = [a for a in answers if a["type"] == "refused"]
        pongs = answers.count({"type": "pong"})
        assert refused and all(a["code"] == "too_many" for a in refused)
        assert burst <= pongs < 1000 and pongs + len(refused) + 1 >= 1000  # every message answered
        while True:                          # the allowance refills: a move is taken again
            ws.send_text(json.dumps({"type": "move", "action": state["legal"][0], "n": 0}))
            msg = ws.receive_json()
            if msg.get("code") != "too_many":
                break
        assert msg["n"] == 1


def test_the_page_sends_security_headers(client):
    r = client.get("/")
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["referrer-policy"] == "no-referrer" and r.headers["x-content-type-options"] == "nosniff"


def test_a_pick_seen_before_other_seats_picked_is_not_stale(client):
    """Other seats' hidden picks change nothing a picking seat knew: its pick still counts."""
    t = create(client, "wildwasser", seats=humans(4))
    tid, tok = t["id"], [s["token"] for s in t["seats"]]
    assert move(client, tid, tok[1], "pick zebra", 0).json()["n"] == 1
    assert move(client, tid, tok[0], "pick rhino", 0).json()["n"] == 2     # seen at move 0
    r = move(client, tid, tok[2], "pick turtle", 0)                         # seen at move 0
    assert r.status_code == 200 and r.json()["n"] == 3
    r = move(client, tid, tok[3], "pick cheetah", 5)                        # a move from the future
    assert r.status_code == 400 and r.json()["reason_code"] == "server.move_number_ahead"


def test_a_seat_that_moves_again_cannot_reuse_the_old_move_number(db_url):
    """Seven Waters' extra actions: the same seat decides twice in a row; a second tab's move
    based on the first decision is stale."""
    import asyncio
    import random

    from wasserspiele.web.hub import Hub, Refused
    from wasserspiele.web.storage import Storage

    async def scenario():
        storage = Storage(db_url)
        hub = Hub(storage, bot_delay=30)
        rng = random.Random(3)
        found = 0
        for _ in range(20):
            table, _ = await hub.create({"game": "seven_waters", "seats": humans(2)})
            while not table.state.is_terminal() and found < 3:
                seat, n = table.state.current_seat, table.n
                await table.submit(seat, str(rng.choice(list(table.state.legal_actions(seat)))), n)
                if not table.state.is_terminal() and table.state.current_seat == seat:
                    again = str(table.state.legal_actions(seat)[0])
                    try:
                        await table.submit(seat, again, n)
                    except Refused as exc:
                        assert exc.code == "stale"
                        found += 1
                    else:
                        raise AssertionError("a move based on the previous decision was accepted")
            if found >= 3:
                break
        await hub.shutdown()
        storage.close()
        return found

    assert asyncio.run(scenario()) >= 1


def test_a_finished_table_nobody_watches_leaves_memory_and_still_replays(client):
    t = create(client, options={"players": 2, "rounds": 1}, seats=humans(2))
    from .helpers import play_first_legal
    play_first_legal(client, t, 500)
    hub = client.app.state.hub
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        assert hello(ws, None)["terminal"] is True
        assert t["id"] in hub.tables
    import time
    deadline = time.monotonic() + 5
    while t["id"] in hub.tables:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert client.get(f"/api/tables/{t['id']}/replay/1").json()["step"] == 1
