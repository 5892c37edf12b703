"""The server side of the table's people features: one controller per seat (a second tab
takes over and the first is told), a rematch with the same seats, the expert's hint."""

from __future__ import annotations

from .helpers import auth, create, hello, humans, move, play_first_legal, table_state


def test_a_second_connection_for_a_seat_takes_over_and_the_first_is_told(client):
    t = create(client, options={"players": 2}, seats=humans(2))
    token = t["seats"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{t['id']}") as first:
        assert hello(first, token)["seat"] == 0
        with client.websocket_connect(f"/ws/tables/{t['id']}") as second:
            assert hello(second, token)["seat"] == 0
            seen = [first.receive_json() for _ in range(1)]
            while seen[-1]["type"] != "replaced":
                seen.append(first.receive_json())
            assert "another tab" in seen[-1]["reason"]
            online = table_state(client, t["id"])["seats"][0]["online"]
            assert online is True                   # the new connection holds the seat


def test_a_rematch_has_the_same_game_options_and_seats_and_each_seat_its_own_link(client):
    t = create(client, options={"players": 2, "rounds": 1, "chase": "adjacent"},
               seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    r = client.post(f"/api/tables/{t['id']}/rematch", headers=auth(t["seats"][0]["token"]))
    assert r.status_code == 409 and r.json()["error"] == "running"
    two = create(client, options={"players": 2, "rounds": 1, "chase": "adjacent"}, seats=humans(2))
    play_first_legal(client, two, 400)
    assert table_state(client, two["id"])["terminal"]
    r = client.post(f"/api/tables/{two['id']}/rematch", headers=auth(two["seats"][0]["token"]), json={"seats": []})
    assert r.status_code == 400 and "seats" in r.json()["reason"]  # a rematch takes no fields
    assert "rematch" not in table_state(client, two["id"])          # and none was made
    a = client.post(f"/api/tables/{two['id']}/rematch", headers=auth(two["seats"][0]["token"]), json={}).json()
    b = client.post(f"/api/tables/{two['id']}/rematch", headers=auth(two["seats"][1]["token"])).json()
    assert a["id"] == b["id"] != two["id"]                      # one rematch, joined by both
    assert a["link"] != b["link"] and "#seat=0&token=" in a["link"] and "#seat=1&token=" in b["link"]
    new_token = b["link"].split("token=")[1]
    fresh = table_state(client, a["id"], new_token)
    assert fresh["seat"] == 1 and not fresh["terminal"] and [s["kind"] for s in fresh["seats"]] == ["human", "human"]
    assert table_state(client, two["id"])["rematch"] == a["id"]   # the old table points to it
    record = client.get(f"/api/tables/{two['id']}/record").json()
    assert record["options"] == {"rounds": 1, "chase": "adjacent"} and record["players"] == 2


def test_a_hint_is_one_of_my_legal_moves_and_only_on_my_turn(client):
    t = create(client, options={"players": 2}, seats=humans(2))
    mine = table_state(client, t["id"], t["seats"][0]["token"])
    r = client.get(f"/api/tables/{t['id']}/hint", headers=auth(t["seats"][0]["token"]))
    assert r.status_code == 200 and r.json()["action"] in mine["legal"] and r.json()["n"] == mine["n"]
    r = client.get(f"/api/tables/{t['id']}/hint", headers=auth(t["seats"][1]["token"]))
    assert r.status_code == 409 and "your turn" in r.json()["reason"]
    assert client.get(f"/api/tables/{t['id']}/hint").status_code == 401
    assert move(client, t["id"], t["seats"][0]["token"], mine["legal"][0], mine["n"]).status_code == 200


def test_a_player_names_the_seat_and_every_seat_list_shows_it(client, make_client, db_url):
    import json
    t = create(client, options={"players": 2}, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        hello(ws, t["seats"][0]["token"])
        ws.send_text(json.dumps({"type": "name", "name": "  Anna   Maria "}))
        msg = ws.receive_json()
        while msg.get("type") != "state" or msg["seats"][0]["name"] is None:
            msg = ws.receive_json()
        assert msg["seats"][0]["name"] == "Anna Maria" and msg["seats"][1]["name"] is None
        ws.send_text(json.dumps({"type": "name", "name": "x" * 41}))
        while msg.get("type") != "refused":
            msg = ws.receive_json()
        assert msg["code"] == "bad_name" and "at most 40" in msg["reason"]
    assert client.get("/api/tables?status=running").json()["tables"][0]["seats"][0]["name"] == "Anna Maria"
    client.app.state.hub.forget(t["id"])
    assert table_state(client, t["id"])["seats"][0]["name"] == "Anna Maria"     # kept in the database
