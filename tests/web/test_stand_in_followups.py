"""A bot for an absent player, followed up (hub.LiveTable._back_to_move, storage.list_tables):
a move with the seat's own token takes the seat back from its bot as a WebSocket hello
does, also over HTTP (before, the move was played and the bot kept the seat); a player
who moves is not absent, so the wait before a bot may be asked starts again; and the
lobby's lists say which seats a bot plays for their absent player."""

from __future__ import annotations

import asyncio
import json

import pytest

from wasserspiele.web import hub as hub_module
from wasserspiele.web.botpool import BotPool
from wasserspiele.web.hub import Hub, Refused
from wasserspiele.web.limits import Limits
from wasserspiele.web.storage import Storage

from .helpers import auth, create, hello, humans, move, table_state
from .test_seat_stand_in import ask, receive_until, refusal_of, state_of, wait_for
from .test_storage_failures import Disk

NOW = Limits(stand_in_seconds=0)        # a seat may be handed over as soon as it is offline
MINUTE = Limits(stand_in_seconds=60)    # the default's wait (driven by a clock of the test's)
TWO = {"game": "wasserloch", "options": {"players": 2}}


def two_humans(client):
    return create(client, options={"players": 2}, seats=humans(2))


def _handed_over(client, t, ws):
    """The seat to move handed to an easy bot by the other seat (its socket `ws`, said hello):
    (the mover, its token, the position as the mover sees it)."""
    spectator = table_state(client, t["id"])
    mover = spectator["to_move"][0]
    ask(ws, mover, "easy")
    receive_until(ws, lambda m: m["type"] == "state" and m["seats"][mover]["stand_in"] == "easy")
    token = t["seats"][mover]["token"]
    return mover, token, table_state(client, t["id"], token)


# -- a move over HTTP takes the seat back ---------------------------------------------------

def test_a_move_over_http_with_the_seats_own_token_takes_the_seat_back_from_its_bot(make_client):
    """The absent player moved with their link's token over HTTP: the move was played, but
    the seat stayed the bot's ("bot plays" on every page, the bot moving for it at its next
    turn).  Now the seat is theirs again before the move, as when their link opens the
    table: stored, the others told, the answer says so."""
    client = make_client(bot_delay=30, limits=NOW)     # the bot would wait: the player comes first
    t = two_humans(client)
    other = 1 - table_state(client, t["id"])["to_move"][0]
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        hello(ws, t["seats"][other]["token"])
        mover, token, mine = _handed_over(client, t, ws)
        r = move(client, t["id"], token, mine["legal"][0], mine["n"])
        assert r.status_code == 200, r.text
        assert r.json() == {"type": "accepted", "n": mine["n"] + 1, "seat_back": True}
        # the other seat hears the player is back, then sees the move
        back = receive_until(ws, lambda m: m["type"] == "state" and m["seats"][mover]["stand_in"] is None)
        assert back["n"] in (mine["n"], mine["n"] + 1)
        receive_until(ws, lambda m: m["type"] == "state" and m["n"] == mine["n"] + 1)
    assert client.app.state.hub.storage.load_table(t["id"]).seats[mover].stand_in is None   # stored
    assert table_state(client, t["id"])["seats"][mover]["stand_in"] is None
    assert not client.app.state.hub.tables[t["id"]].bot_plays(mover)


def test_a_move_of_a_seat_no_bot_plays_is_answered_as_before(make_client):
    client = make_client(limits=NOW)
    t = two_humans(client)
    spectator = table_state(client, t["id"])
    mover = spectator["to_move"][0]
    token = t["seats"][mover]["token"]
    r = move(client, t["id"], token, table_state(client, t["id"], token)["legal"][0], 0)
    assert r.status_code == 200 and r.json() == {"type": "accepted", "n": 1}, r.text


def test_the_take_back_the_database_refuses_refuses_the_move_saying_it_was_not_saved(make_client, db_url):
    """The seat cannot be taken back (a full disk): the move is not made either, and its
    mover is told, in their language, that the move was not saved and why.  Once the disk
    has room the same move takes the seat back and is played."""
    client = make_client(bot_delay=30, limits=NOW)
    t = two_humans(client)
    other = 1 - table_state(client, t["id"])["to_move"][0]
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        hello(ws, t["seats"][other]["token"])
        mover, token, mine = _handed_over(client, t, ws)
    disk = Disk(client.app.state.hub.storage)
    disk.full = True
    try:
        r = client.post(f"/api/tables/{t['id']}/moves?lang=de", headers=auth(token),
                        content=json.dumps({"action": mine["legal"][0], "n": mine["n"]}))
    finally:
        disk.full = False
    assert r.status_code == 503, r.text
    body = r.json()
    assert (body["error"], body["reason_code"]) == ("storage", "server.unsaved"), body
    assert body["message"].startswith("der Zug konnte nicht gespeichert werden"), body
    assert body["params"]["cause"]["code"] == "server.db_full", body
    stored = client.app.state.hub.storage.load_table(t["id"])
    assert stored.seats[mover].stand_in == "easy" and len(stored.actions) == mine["n"]
    r = move(client, t["id"], token, mine["legal"][0], mine["n"])
    assert r.status_code == 200 and r.json()["seat_back"] is True, r.text


# -- when the bot is to move for that seat at that moment -----------------------------------

def _hub(db_url, choose=None) -> Hub:
    hub = Hub(Storage(db_url), bot_delay=0, bots=BotPool(1, "thread"), limits=NOW)
    if choose is not None:
        hub.bots.choose = choose(hub.bots.choose)
    return hub


def test_the_players_move_comes_first_and_the_bots_worked_out_move_is_never_played(db_url):
    """The bot has its move for the seat and waits to play it when its player moves: the
    player's move is played, the bot's never (before, the player's move was played and the
    seat stayed the bot's)."""
    thinking, release = asyncio.Event(), asyncio.Event()

    def slow(real):
        async def choose(*args):
            text = await real(*args)
            thinking.set()
            await release.wait()              # the bot has its move, and waits to play it
            return text
        return choose

    async def scenario():
        hub = _hub(db_url, slow)
        try:
            table, _ = await hub.create({**TWO, "seats": humans(2)})
            mover = table.state.to_move()[0]
            await table.stand_in(1 - mover, mover, "easy")
            await asyncio.wait_for(thinking.wait(), 30)
            n = table.n
            legal = [str(a) for a in table.state.legal_actions(mover)]
            assert await table.submit(mover, legal[0], n) == {"type": "accepted", "n": n + 1, "seat_back": True}
            assert table.seats[mover].stand_in is None
            release.set()
            await asyncio.wait_for(table.bot_task, 30)          # the bot ends without playing
            assert table.n == n + 1
            stored = hub.storage.load_table(table.id)
            assert len(stored.actions) == n + 1
            assert stored.seats[mover].stand_in is None
        finally:
            await hub.shutdown()
            hub.storage.close()
    asyncio.run(scenario())


def test_a_bot_move_played_first_stands_and_the_players_move_is_stale_but_the_seat_is_theirs(db_url):
    """The bot played for the seat before its player's move reached the table: its move
    stands, the player's (based on the position before it) is refused as stale, and the
    seat is the player's all the same (before, the bot kept it)."""
    async def scenario():
        hub = _hub(db_url)
        try:
            table, _ = await hub.create({**TWO, "seats": humans(2)})
            mover = table.state.to_move()[0]
            n = table.n
            legal = [str(a) for a in table.state.legal_actions(mover)]
            await table.stand_in(1 - mover, mover, "easy")
            await asyncio.wait_for(table.bot_task, 30)          # it moved until the other seat's turn
            assert table.n > n
            with pytest.raises(Refused) as got:
                await table.submit(mover, legal[0], n)
            assert got.value.code == "stale"
            assert table.seats[mover].stand_in is None
            assert hub.storage.load_table(table.id).seats[mover].stand_in is None
        finally:
            await hub.shutdown()
            hub.storage.close()
    asyncio.run(scenario())


# -- a player who moves is not absent ---------------------------------------------------------

def test_a_player_moving_over_http_is_not_absent_the_wait_starts_again(make_client, monkeypatch):
    """A player who moves over HTTP has no socket: their seat counted as offline since the
    table was loaded, so after a minute the other player was offered, and given, a bot for
    them right after each of their moves.  A move starts the wait again."""
    shift = [0.0]
    monkeypatch.setattr(hub_module, "_now", lambda: asyncio.get_running_loop().time() + shift[0])
    client = make_client(limits=MINUTE)
    t = two_humans(client)
    first = table_state(client, t["id"])["to_move"][0]
    away = 1 - first                                         # the HTTP player: never a socket
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        mine = hello(ws, t["seats"][first]["token"])
        ws.send_text(json.dumps({"type": "move", "action": mine["legal"][0], "n": mine["n"]}))
        receive_until(ws, lambda m: m["type"] == "accepted")
        shift[0] = 120.0                                     # two minutes later ...
        ws.send_text(json.dumps({"type": "sync"}))
        assert state_of(ws)["seats"][away]["stand_in_after"] == 0
        token = t["seats"][away]["token"]
        theirs = table_state(client, t["id"], token)
        assert theirs["to_move"] == [away], theirs
        r = move(client, t["id"], token, theirs["legal"][0], theirs["n"])   # ... the player moves
        assert r.status_code == 200, r.text
        seen = receive_until(ws, lambda m: m["type"] == "state" and m["n"] == theirs["n"] + 1)
        assert 59 < seen["seats"][away]["stand_in_after"] <= 60, seen["seats"][away]
        ask(ws, away)
        got = refusal_of(ws)
        assert got["reason_code"] == "server.stand_in_early", got


def test_a_player_moving_through_another_process_is_not_absent_there_either(make_client, pg_url, monkeypatch):
    """The same across server processes: the process the player's move did not go through
    hears it (NOTIFY, catch_up) and starts the wait again too; before, it kept counting
    from when it loaded the table and offered a bot for the seat right after the move."""
    shift = [0.0]
    monkeypatch.setattr(hub_module, "_now", lambda: asyncio.get_running_loop().time() + shift[0])
    one = make_client(pg_url, limits=MINUTE)
    two = make_client(pg_url, limits=MINUTE)
    t = two_humans(one)
    first = table_state(one, t["id"])["to_move"][0]
    away = 1 - first
    with two.websocket_connect(f"/ws/tables/{t['id']}") as ws:           # process two holds the table
        mine = hello(ws, t["seats"][first]["token"])
        ws.send_text(json.dumps({"type": "move", "action": mine["legal"][0], "n": mine["n"]}))
        receive_until(ws, lambda m: m["type"] == "accepted")
        shift[0] = 120.0
        ws.send_text(json.dumps({"type": "sync"}))
        assert state_of(ws)["seats"][away]["stand_in_after"] == 0
        token = t["seats"][away]["token"]
        theirs = wait_for(lambda: (lambda s: s if s["n"] == mine["n"] + 1 else None)(table_state(one, t["id"], token)),
                          "process one never heard of the first move")
        assert theirs["to_move"] == [away], theirs
        r = move(one, t["id"], token, theirs["legal"][0], theirs["n"])     # through process one
        assert r.status_code == 200, r.text
        seen = receive_until(ws, lambda m: m["type"] == "state" and m["n"] == theirs["n"] + 1)
        assert 59 < seen["seats"][away]["stand_in_after"] <= 60, seen["seats"][away]


# -- the lobby's lists -------------------------------------------------------------------------

def test_the_lobbys_list_names_the_seats_a_bot_plays_for_their_absent_player(make_client):
    """`GET /api/tables` gave each seat's kind, level and name only: a friend looking at the
    lobby saw the player who left as seated.  Each seat says `stand_in` (the bot's level)."""
    client = make_client(bot_delay=30, limits=NOW)
    t = two_humans(client)
    other = 1 - table_state(client, t["id"])["to_move"][0]

    def listed():
        tables = client.get("/api/tables?status=running").json()["tables"]
        return {s["seat"]: s["stand_in"] for s in next(x for x in tables if x["id"] == t["id"])["seats"]}

    assert listed() == {0: None, 1: None}
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        hello(ws, t["seats"][other]["token"])
        mover, token, mine = _handed_over(client, t, ws)
        assert listed() == {mover: "easy", other: None}
        assert move(client, t["id"], token, mine["legal"][0], mine["n"]).status_code == 200
        assert listed() == {0: None, 1: None}                  # the player is back
