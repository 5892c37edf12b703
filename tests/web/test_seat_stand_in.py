"""A bot for an absent player (hub.LiveTable.stand_in, seat_back): a human seat with no
connection anywhere for `stand_in_seconds` may be handed to a bot by another seated
player; the bot really moves for it, the hand-over is stored (a restart keeps it, other
processes hear of it), and the player who comes back with their link has the seat again.
Every reason it cannot be done is a refusal in the client's language."""

from __future__ import annotations

import asyncio
import json
import time

from starlette.testclient import TestClient

from wasserspiele.web import hub as hub_module
from wasserspiele.web.app import create_app
from wasserspiele.web.botpool import BotPool
from wasserspiele.web.hub import Hub
from wasserspiele.web.limits import Limits
from wasserspiele.web.storage import Storage

from .helpers import auth, create, hello, humans, move, play_first_legal, table_state

NOW = Limits(stand_in_seconds=0)        # the seat may be handed over as soon as it is offline
MINUTE = Limits(stand_in_seconds=60)    # the default's wait (driven by a clock of the test's)
TWO = {"game": "wasserloch", "options": {"players": 2}}


def two_humans(client):
    return create(client, options={"players": 2}, seats=humans(2))


def receive_until(ws, wanted):
    """Messages until one is `wanted`; a refusal not wanted fails at once (no waiting for ever)."""
    while True:
        msg = ws.receive_json()
        if wanted(msg):
            return msg
        assert msg["type"] != "refused", msg


def state_of(ws):
    return receive_until(ws, lambda m: m["type"] == "state")


def refusal_of(ws):
    return receive_until(ws, lambda m: m["type"] == "refused")


def ask(ws, seat, level="easy"):
    ws.send_text(json.dumps({"type": "stand_in", "seat": seat, "level": level}))


def hello_lang(ws, token, lang):
    ws.send_text(json.dumps({"type": "hello", "token": token, "lang": lang}))
    return ws.receive_json()


def wait_for(check, what, seconds=20.0):
    started = time.monotonic()
    while True:
        got = check()
        if got:
            return got
        assert time.monotonic() - started < seconds, what
        time.sleep(0.05)


# -- the hand-over --------------------------------------------------------------------

def test_a_seated_player_hands_an_absent_seat_to_a_bot_which_then_moves_for_it(make_client):
    client = make_client(bot_delay=0, limits=NOW)
    t = two_humans(client)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        first = hello(ws, t["seats"][0]["token"])
        # seat 1 has never come: it may be handed over (0: now); seat 0 is here: not
        assert first["seats"][1]["stand_in_after"] == 0 and first["seats"][1]["stand_in"] is None
        assert first["seats"][0]["stand_in_after"] is None
        ask(ws, 1, "easy")
        msg = receive_until(ws, lambda m: m["type"] == "state" and m["seats"][1]["stand_in"])
        assert msg["seats"][1] == {**msg["seats"][1], "kind": "human", "stand_in": "easy", "online": False,
                                   "stand_in_after": None}
    # play on: seat 0 moves when it is its turn; the bot's moves for seat 1 come by themselves
    storage, token = client.app.state.hub.storage, t["seats"][0]["token"]
    while True:
        mine = table_state(client, t["id"], token)
        by_bot = [a for seat, a in storage.load_since(t["id"], 0)[0] if seat == 1]
        if len(by_bot) >= 3 or mine["terminal"]:
            break
        if mine["legal"]:
            assert move(client, t["id"], token, mine["legal"][0], mine["n"]).status_code == 200
        else:
            wait_for(lambda: table_state(client, t["id"])["n"] > mine["n"], "the bot did not move for seat 1")
    assert len(by_bot) >= 3 or (mine["terminal"] and by_bot), by_bot
    spectator = table_state(client, t["id"])
    assert spectator["seats"][1]["stand_in"] == "easy"


def test_the_hand_over_works_over_http_with_a_seat_token_too(make_client):
    client = make_client(limits=NOW)
    t = two_humans(client)
    r = client.post(f"/api/tables/{t['id']}/stand-in", headers=auth(t["seats"][0]["token"]),
                    json={"seat": 1, "level": "medium"})
    assert r.status_code == 200, r.text
    assert r.json()["seats"][1]["stand_in"] == "medium" and r.json()["seat"] == 0
    r = client.post(f"/api/tables/{t['id']}/stand-in", json={"seat": 1, "level": "medium"})
    assert r.status_code == 401 and r.json()["reason_code"] == "server.stand_in_token"


# -- every refusal ----------------------------------------------------------------------

def test_refusals_name_their_reason_in_the_clients_language(make_client):
    client = make_client(limits=NOW)
    t = create(client, options={"players": 3}, seats=humans(2) + [{"kind": "bot", "level": "easy"}])
    url = f"/ws/tables/{t['id']}"
    with client.websocket_connect(url) as ws, client.websocket_connect(url) as watcher:
        assert hello_lang(ws, t["seats"][0]["token"], "de")["seat"] == 0
        assert hello_lang(watcher, None, "en")["seat"] is None
        cases = [
            (watcher, 1, "easy", "spectator", "server.stand_in_spectator"),
            (ws, 0, "easy", "stand_in", "server.stand_in_own"),
            (ws, 2, "easy", "stand_in", "server.stand_in_bot_seat"),
            (ws, 1, "grandmaster", "bad_request", "server.stand_in_level"),
            (ws, 7, "easy", "bad_request", "server.stand_in_no_seat"),
        ]
        for sock, seat, level, code, reason in cases:
            ask(sock, seat, level)
            got = refusal_of(sock)
            assert (got["code"], got["reason_code"]) == (code, reason), got
        ask(ws, 1, "grandmaster")
        got = refusal_of(ws)
        assert "keine Spielstärke" in got["message"] and "grandmaster" in got["message"]   # German, as its hello asked
        ask(watcher, 1)
        assert refusal_of(watcher)["message"].startswith("spectators cannot hand a seat to a bot")
        ask(ws, 1, "easy")
        assert state_of(ws)["seats"][1]["stand_in"] == "easy"
        ask(ws, 1, "hard")
        got = refusal_of(ws)
        assert got["reason_code"] == "server.stand_in_already" and got["message"] == "für Platz 1 spielt schon ein Bot"


def test_a_seat_whose_player_is_here_cannot_be_handed_to_a_bot(make_client):
    client = make_client(limits=NOW)
    t = two_humans(client)
    url = f"/ws/tables/{t['id']}"
    with client.websocket_connect(url) as a, client.websocket_connect(url) as b:
        hello(a, t["seats"][0]["token"])
        hello(b, t["seats"][1]["token"])
        ask(a, 1)
        got = refusal_of(a)
        assert (got["code"], got["reason_code"], got["params"]["seat"]) == ("stand_in", "server.stand_in_online", 1)
    assert table_state(client, t["id"])["seats"][1]["stand_in"] is None


def test_too_early_until_the_seat_has_been_offline_for_the_limit(make_client, monkeypatch):
    shift = [0.0]
    monkeypatch.setattr(hub_module, "_now", lambda: asyncio.get_running_loop().time() + shift[0])
    client = make_client(limits=MINUTE)
    t = two_humans(client)
    url = f"/ws/tables/{t['id']}"
    with client.websocket_connect(url) as a:
        hello(a, t["seats"][0]["token"])
        with client.websocket_connect(url) as b:
            hello(b, t["seats"][1]["token"])
            assert state_of(a)["seats"][1]["online"] is True
        gone = state_of(a)                                     # seat 1 left: the others see it, and the wait
        assert gone["seats"][1]["online"] is False and 59 < gone["seats"][1]["stand_in_after"] <= 60
        shift[0] = 30.0
        ask(a, 1)
        got = refusal_of(a)
        assert got["reason_code"] == "server.stand_in_early" and 29 <= got["params"]["seconds"] <= 30, got
        assert got["message"].startswith("the player of seat 1 has not been away long enough")
        shift[0] = 60.5
        ask(a, 1)
        assert state_of(a)["seats"][1]["stand_in"] == "easy"


def test_a_finished_game_needs_no_bot(make_client):
    client = make_client(limits=NOW)
    t = two_humans(client)
    play_first_legal(client, t, 2000)
    assert table_state(client, t["id"])["terminal"]
    r = client.post(f"/api/tables/{t['id']}/stand-in", headers=auth(t["seats"][0]["token"]),
                    json={"seat": 1, "level": "easy"})
    assert r.status_code == 409 and r.json()["reason_code"] == "server.stand_in_over", r.text


def test_a_message_of_the_wrong_shape_is_refused_naming_the_field(make_client):
    client = make_client(limits=NOW)
    t = two_humans(client)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        hello(ws, t["seats"][0]["token"])
        ws.send_text(json.dumps({"type": "stand_in", "seat": "1", "level": "easy"}))
        got = refusal_of(ws)
        assert got["code"] == "bad_message" and got["reason"].startswith("seat")


# -- the player comes back -----------------------------------------------------------------

def test_the_returning_player_has_the_seat_back_and_their_move_is_accepted(make_client):
    client = make_client(bot_delay=0.3, limits=NOW)
    t = two_humans(client)
    url = f"/ws/tables/{t['id']}"
    with client.websocket_connect(url) as a:
        hello(a, t["seats"][0]["token"])
        ask(a, 1)
        state = receive_until(a, lambda m: m["type"] == "state" and m["seats"][1]["stand_in"])
        # until it is seat 1's turn (seat 0 plays when it is its own)
        while state["to_move"] != [1]:
            if state["legal"]:
                a.send_text(json.dumps({"type": "move", "action": state["legal"][0], "n": state["n"]}))
            state = state_of(a)
        with client.websocket_connect(url) as b:
            back = hello(b, t["seats"][1]["token"])
            # the bot may have moved for it first (the delay is short); the seat is its player's now
            assert back["seat"] == 1
            told = receive_until(b, lambda m: m["type"] == "seat_back")
            assert told == {"type": "seat_back"}
            b.send_text(json.dumps({"type": "sync"}))
            mine = state_of(b)
            assert mine["seats"][1]["stand_in"] is None and mine["seats"][1]["online"] is True
            seen = receive_until(a, lambda m: m["type"] == "state" and m["seats"][1]["stand_in"] is None)
            assert seen["seats"][1]["online"] is True
            # it is the player's to move now (or after seat 0's move): no bot moves for it any more
            while mine["to_move"] != [1]:
                if mine["legal"]:
                    raise AssertionError("seat 1 to move expected")
                st0 = table_state(client, t["id"], t["seats"][0]["token"])
                move(client, t["id"], t["seats"][0]["token"], st0["legal"][0], st0["n"])
                mine = state_of(b)
            time.sleep(1.0)                                     # three bot delays: a bot would have moved
            now = table_state(client, t["id"], t["seats"][1]["token"])
            assert now["n"] == mine["n"] and now["to_move"] == [1], "a bot moved for the returned player"
            b.send_text(json.dumps({"type": "move", "action": now["legal"][0], "n": now["n"]}))
            assert receive_until(b, lambda m: m["type"] in ("accepted", "refused")) == {"type": "accepted",
                                                                                        "n": now["n"] + 1}


def test_a_bot_move_worked_out_before_the_player_came_back_is_never_played(db_url):
    async def scenario():
        hub = Hub(Storage(db_url), bot_delay=0, bots=BotPool(1, "thread"), limits=NOW)
        thinking, release = asyncio.Event(), asyncio.Event()
        real_choose = hub.bots.choose

        async def slow_choose(*args):
            text = await real_choose(*args)
            thinking.set()
            await release.wait()                 # the bot has its move, and waits to play it
            return text
        hub.bots.choose = slow_choose
        try:
            table, tokens = await hub.create({**TWO, "seats": humans(2)})
            mover = table.state.to_move()[0]
            other = 1 - mover
            await table.stand_in(other, mover, "easy")
            await asyncio.wait_for(thinking.wait(), 30)
            n = table.n
            assert await table.seat_back(mover) is True            # its player opened the table again
            assert table.seats[mover].stand_in is None
            release.set()
            await asyncio.wait_for(table.bot_task, 30)            # the bot ends without playing
            assert table.n == n
            legal = [str(a) for a in table.state.legal_actions(mover)]
            assert await table.submit(mover, legal[0], n) == {"type": "accepted", "n": n + 1}
            stored = hub.storage.load_table(table.id)
            assert len(stored.actions) == n + 1 and stored.seats[mover].stand_in is None
        finally:
            await hub.shutdown()
            hub.storage.close()
    asyncio.run(scenario())


# -- stored: a restart keeps it ------------------------------------------------------------

def test_a_restart_keeps_the_stand_in_and_its_bot_plays_on(make_client, db_url):
    # its bot would wait: the restart comes first
    with TestClient(create_app(db_url, bot_delay=30, bot_pool="thread", limits=NOW)) as first:
        t = two_humans(first)
        tokens = [s["token"] for s in t["seats"]]
        start = table_state(first, t["id"])
        mover = start["to_move"][0]
        r = first.post(f"/api/tables/{t['id']}/stand-in", headers=auth(tokens[1 - mover]),
                       json={"seat": mover, "level": "easy"})
        assert r.status_code == 200, r.text
    second = make_client(bot_delay=0, limits=NOW)
    again = table_state(second, t["id"])
    assert again["seats"][mover]["stand_in"] == "easy"
    # nobody opens the table: the restarted server resumes it, and the bot moves for the seat
    moved = wait_for(lambda: table_state(second, t["id"])["n"] > start["n"] or None,
                     "the stand-in did not move after the restart")
    assert moved


# -- several processes -----------------------------------------------------------------------

def test_other_processes_hear_of_the_stand_in_and_of_the_players_return(make_client, pg_url):
    one = make_client(pg_url, bot_delay=30, limits=NOW)
    two = make_client(pg_url, bot_delay=30, limits=NOW)
    t = two_humans(one)
    url = f"/ws/tables/{t['id']}"
    with two.websocket_connect(url) as watcher:           # process two holds the table too
        hello(watcher, None)
        with one.websocket_connect(url) as a:
            hello(a, t["seats"][0]["token"])
            ask(a, 1, "hard")
            receive_until(a, lambda m: m["type"] == "state" and m["seats"][1]["stand_in"] == "hard")
        wait_for(lambda: table_state(two, t["id"])["seats"][1]["stand_in"] == "hard",
                 "process two never heard of the stand-in")
        receive_until(watcher, lambda m: m["type"] == "state" and m["seats"][1]["stand_in"] == "hard")
        hub_two = two.app.state.hub
        assert hub_two.tables[t["id"]].bot_plays(1)       # process two would move for it too
        # the player comes back through process two; process one hears it
        with two.websocket_connect(url) as b:
            hello(b, t["seats"][1]["token"])
            receive_until(b, lambda m: m["type"] == "seat_back")
            wait_for(lambda: table_state(one, t["id"])["seats"][1]["stand_in"] is None,
                     "process one kept the bot playing for the returned player")
            assert not one.app.state.hub.tables[t["id"]].bot_plays(1)
            # and while seat 1 is online through process two, process one refuses a stand-in
            with one.websocket_connect(url) as a:
                hello(a, t["seats"][0]["token"])
                wait_for(lambda: table_state(one, t["id"])["seats"][1]["online"], "seat 1 never online in one")
                ask(a, 1)
                assert refusal_of(a)["reason_code"] == "server.stand_in_online"
