"""A real `wasserspiele serve` stopped mid-game by SIGTERM or SIGKILL and started again on
the same SQLite file: every table, seat, name, move and bot seat comes back, each seat and
a spectator see what they saw before, a bot whose turn it was moves, and a seat that was
still choosing in Wildwasser's simultaneous round picks on the position it saw before the
stop.  (test_persistence restarts the app in-process, with a clean shutdown.)"""

from __future__ import annotations

import json
import signal
import sqlite3
import time
import urllib.error

import pytest

from .browser_support import Server

HUMAN, BOT = {"kind": "human"}, {"kind": "bot", "level": "easy"}


def stored(path: str, table_id: str) -> dict:
    """The table's rows as the database holds them."""
    con = sqlite3.connect(path)
    try:
        return {"table": con.execute("select game, options, players, seed, setup, status, version, bot_turn "
                                     "from tables where id = ?", (table_id,)).fetchone(),
                "seats": con.execute("select seat, kind, level, token_hash, name from seats "
                                     "where table_id = ? order by seat", (table_id,)).fetchall(),
                "moves": con.execute("select n, seat, action from moves where table_id = ? order by n",
                                     (table_id,)).fetchall()}
    finally:
        con.close()


def seen(server: Server, table: dict) -> dict:
    """What each seat and a spectator are shown (who is online aside: nobody is, after a stop;
    and the seconds until a bot may stand in for an absent seat, counted from when this
    process last saw it, its start after a restart)."""
    out = {}
    for token in [s.get("token") for s in table["seats"]] + [None]:
        msg = server.get(f"/api/tables/{table['id']}", token)
        for s in msg["seats"]:
            s.pop("online")
            s.pop("stand_in_after")
        out[msg["seat"]] = msg
    return out


def until(check, what: str, seconds: float = 30.0):
    deadline = time.monotonic() + seconds
    while True:
        got = check()
        if got:
            return got
        assert time.monotonic() < deadline, what
        time.sleep(0.05)  # polling a server in another process, under a deadline


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_a_server_stopped_mid_game_comes_back_with_every_table_as_it_was(tmp_path, stop):
    path = str(tmp_path / "restart.sqlite3")
    # before the stop bots wait 10 s (the most --bot-delay takes): a bot's turn is pending when it comes
    first = Server(f"sqlite:///{path}", log_path=str(tmp_path / "server.log"), bot_delay=10).start()
    try:
        # Watten first: the people play until a bot is to move
        wa = first.post("/api/tables", {"game": "watten", "seats": [HUMAN, BOT, HUMAN, BOT]})
        for seat, name in ((0, "Cem"), (2, "Dora")):  # over the seat's socket, as the page names it
            _name(first, wa["id"], wa["seats"][seat]["token"], name)
        tokens = {wa["id"]: {s["seat"]: s.get("token") for s in wa["seats"]}}
        for _ in range(50):
            spectator = first.get(f"/api/tables/{wa['id']}")
            mover = spectator["to_move"][0]
            if wa["seats"][mover]["kind"] == "bot":
                break
            mine = first.get(f"/api/tables/{wa['id']}", tokens[wa["id"]][mover])
            first.post(f"/api/tables/{wa['id']}/moves", {"action": mine["legal"][0], "n": mine["n"]},
                       tokens[wa["id"]][mover])
        assert wa["seats"][spectator["to_move"][0]]["kind"] == "bot"
        # Wildwasser last (its bots' picks are pending from its creation on): seat 0 picks,
        # seat 1 is still choosing
        ww = first.post("/api/tables", {"game": "wildwasser", "seats": [HUMAN, HUMAN, BOT, BOT]})
        tokens[ww["id"]] = {s["seat"]: s.get("token") for s in ww["seats"]}
        for seat, name in ((0, "Anna"), (1, "Bernd")):
            _name(first, ww["id"], tokens[ww["id"]][seat], name)
        zero = first.get(f"/api/tables/{ww['id']}", tokens[ww["id"]][0])
        first.post(f"/api/tables/{ww['id']}/moves", {"action": zero["legal"][0], "n": zero["n"]}, tokens[ww["id"]][0])
        one = first.get(f"/api/tables/{ww['id']}", tokens[ww["id"]][1])
        before = {t["id"]: (stored(path, t["id"]), seen(first, t)) for t in (ww, wa)}
        assert before[ww["id"]][1][None]["chosen"] == [0] and before[ww["id"]][1][0]["my_choice"] == zero["legal"][0]
        first.proc.send_signal(stop)
        first.proc.wait(30)
    finally:
        first.stop()

    log = str(tmp_path / "server.log")
    # started again, its bots still waiting: each table exactly as it was, in the database and as shown
    again = Server(f"sqlite:///{path}", port=first.port, log_path=log, bot_delay=10).start()
    try:
        for t in (ww, wa):
            assert stored(path, t["id"]) == before[t["id"]][0]
            assert seen(again, t) == before[t["id"]][1]
    finally:
        again.stop()
    # and with bots that do not wait: they carry on
    second = Server(f"sqlite:///{path}", port=first.port, log_path=log, bot_delay=0).start()
    try:
        until(lambda: second.get(f"/api/tables/{wa['id']}")["n"] > spectator["n"], "the Watten bot never moved")
        picked = until(lambda: (lambda s: s if s["chosen"] == [0, 2, 3] else None)(
            second.get(f"/api/tables/{ww['id']}")), "the Wildwasser bots never picked")
        assert picked["waiting"] == [1]
        # seat 1 picks on the position it was shown before the stop, once
        answer = second.post(f"/api/tables/{ww['id']}/moves", {"action": one["legal"][0], "n": one["n"]},
                             tokens[ww["id"]][1])
        assert answer["type"] == "accepted"
        with pytest.raises(urllib.error.HTTPError) as again_sent:  # sent again (no answer seen): refused
            second.post(f"/api/tables/{ww['id']}/moves", {"action": one["legal"][0], "n": one["n"]},
                        tokens[ww["id"]][1])
        assert again_sent.value.code == 409
        moves = stored(path, ww["id"])["moves"]
        assert moves[:1] == before[ww["id"]][0]["moves"] and [n for n, _, _ in moves] == list(range(len(moves)))
        assert sorted(seat for _, seat, _ in moves[:4]) == [0, 1, 2, 3]
        assert stored(path, wa["id"])["moves"][:len(before[wa["id"]][0]["moves"])] == before[wa["id"]][0]["moves"]
        for t, names in ((ww, ["Anna", "Bernd", None, None]), (wa, ["Cem", None, "Dora", None])):
            shown = second.get(f"/api/tables/{t['id']}")["seats"]
            assert [s["name"] for s in shown] == names
            assert [(s["kind"], s["level"]) for s in shown] == [(s["kind"], s.get("level")) for s in t["seats"]]
    finally:
        second.stop()


def _name(server: Server, table_id: str, token: str, name: str) -> None:
    """Name a seat over its WebSocket, as the page does, and wait until it is stored."""
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        ws.send(json.dumps({"type": "name", "name": name}))
        while True:
            msg = json.loads(ws.recv(timeout=10))
            if msg.get("type") == "state" and any(s["name"] == name for s in msg["seats"]):
                return
