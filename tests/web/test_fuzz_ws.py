"""The WebSocket of a table as an attacker or a buggy client uses it: generated sequences
of sockets opening, closing and taking seats over, with moves (legal, illegal, stale,
replayed, for the wrong seat), names with control characters, junk and HTTP moves in
between.  Every message is answered (a refusal says why, in the socket's language), no
socket closes without a reason, every state a socket gets is exactly its seat's view of
a position of the game, and afterwards the table, its seats, the stored record and the
lobby agree (docs/web-server.md)."""

from __future__ import annotations

import json
import random
import time

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from wasserspiele.core.messages import catalogue
from wasserspiele.core.records import replay
from wasserspiele.web.hub import LiveTable
from wasserspiele.web.limits import Limits

from .helpers import auth, create, humans, move, play_first_legal, table_state

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
ROOMY = Limits(tables_per_client=10**6, tables_per_server=10**6, bot_seats_per_client=10**6,
               bot_seats_per_server=10**6)
GAMES = {"wasserloch": 3, "wildwasser": 3, "watten": 4, "seven_waters": 2}
AWKWARD = st.one_of(st.characters(codec="utf-8"), st.sampled_from(list("\x00\x07\x1b\x7f\u202e\u200b\u0301 \t\n")))
CLIENT = "testclient"   # the address Starlette's TestClient connects from


def said(msg: dict, lang: str) -> None:
    """A refusal that says what is wrong, in `lang` where the server words it."""
    assert msg["type"] == "refused", msg
    assert msg["code"] and msg["reason"] and msg["message"], msg
    code = msg["reason_code"]
    if code != "text":
        assert catalogue(lang).has(code), code
        if lang != "en" and catalogue(lang).text(code) != catalogue("en").text(code):
            assert msg["message"] != msg["reason"], msg


class Socket:
    """One client's socket: who it is, its language, every state it was sent."""

    opened: list[Socket] = []   # closed after each test, passed or not (an open one holds up the client's exit)

    def __init__(self, client, table_id: str, seat: int | None, lang: str, states: list):
        self.session = client.websocket_connect(f"/ws/tables/{table_id}")
        self.ws = self.session.__enter__()
        self.seat, self.lang, self.states, self.open = seat, lang, states, True
        Socket.opened.append(self)

    def take(self, msg: dict) -> dict:
        if msg["type"] == "state":
            assert msg["seat"] == self.seat, msg
            self.states.append((self.seat, msg))
        return msg

    def until_pong(self) -> list[dict]:
        """What the server sent since the last call: a ping is answered after everything
        queued before it (one outbox per socket)."""
        self.ws.send_text(json.dumps({"type": "ping"}))
        got = []
        while True:
            msg = self.take(self.ws.receive_json())
            if msg["type"] == "pong":
                return got
            assert msg["type"] in ("state", "accepted", "refused"), msg
            if msg["type"] == "refused":
                said(msg, self.lang)
            got.append(msg)

    def replaced(self) -> None:
        """Another tab took the seat: told so, then closed with a code."""
        while True:
            msg = self.take(self.ws.receive_json())
            if msg["type"] == "replaced":
                break
            assert msg["type"] in ("state", "accepted", "refused", "pong"), msg
        with pytest.raises(WebSocketDisconnect) as closed:
            self.ws.receive_json()
        assert closed.value.code == 1012
        self.close()

    def close(self) -> None:
        if self.open:
            self.open = False
            try:
                self.session.__exit__(None, None, None)
            except WebSocketDisconnect:
                pass


MOVE = st.tuples(st.just("move"), st.integers(0, 7),
                 st.sampled_from(["legal", "legal", "legal", "illegal", "stale", "replay", "wrong_seat", "garbage"]))
OPS = st.lists(st.one_of(
    st.tuples(st.just("open"), st.sampled_from([0, 1, 2, 3, "spectator", "foreign", "junk"]),
              st.sampled_from(["en", "de", "de-AT", "fr", None])),
    st.tuples(st.just("close"), st.integers(0, 7)),
    MOVE, MOVE, MOVE,
    st.tuples(st.just("name"), st.integers(0, 7), st.text(AWKWARD, max_size=45)),
    st.tuples(st.just("raw"), st.integers(0, 7), st.one_of(st.text(AWKWARD, max_size=30), st.builds(
        json.dumps, st.dictionaries(st.sampled_from(["type", "action", "n", "name", "token"]),
                                    st.one_of(st.sampled_from(["move", "name", "sync", "ping", "hello"]),
                                              st.integers(-2, 10**6), st.none(), st.booleans(),
                                              st.text(AWKWARD, max_size=8)), max_size=4)))),
    st.tuples(st.just("sync"), st.integers(0, 7)),
    st.tuples(st.just("http_move"), st.integers(0, 3)),
), min_size=6, max_size=30)


@pytest.fixture
def client(make_client):
    yield make_client(limits=ROOMY)
    _close_all()


def _close_all() -> None:
    while Socket.opened:
        Socket.opened.pop().close()


@FUZZ
@given(game=st.sampled_from(sorted(GAMES)), ops=OPS, seed=st.integers(0, 2**16), seated=st.booleans())
@example(game="wasserloch", seed=0, ops=[("open", 0, "de"), ("open", 0, "en"), ("move", 0, "legal"),
                                         ("move", 1, "legal")], seated=False)   # a seat taken over by another tab
@example(game="wildwasser", seed=1, ops=[("open", 0, None), ("open", 1, "de"), ("move", 0, "legal"),
                                         ("move", 1, "legal"), ("move", 0, "replay"), ("move", 1, "stale"),
                                         ("name", 0, "\x1b[31mred"), ("name", 1, " Ann\t  Lee ")], seated=True)
@example(game="seven_waters", seed=2, ops=[("open", "foreign", "de"), ("open", "junk", "de-AT"),
                                           ("open", "spectator", "de"), ("name", 0, "Eve"),
                                           ("move", 0, "legal")], seated=False)   # a refused hello was said in English
@example(game="seven_waters", seed=0, ops=[("open", 0, "en"), ("raw", 0, '{"type": "ping"}'), ("sync", 0),
                                           ("raw", 0, '{"type": "name", "name": " Zoë "}')], seated=False)
def test_fuzz_socket_sequences_keep_every_answer_said_every_view_own_and_the_table_whole(client, game, ops, seed,
                                                                                         seated):
    players = GAMES[game]
    if seated:   # every seat and a spectator at the table first, in turn in both languages
        ops = [("open", who, ("en", "de")[i % 2]) for i, who in enumerate([*range(players), "spectator"])] + ops
    run = Scenario(client, game, players, random.Random(seed))
    try:
        for op in ops:
            getattr(run, op[0])(*op[1:])
        run.drain()
    finally:
        _close_all()
    run.check_table()


class Scenario:
    """One table played through sockets opened, closed and replaced in any order; every
    answer checked as it comes, what must hold afterwards checked by `check_table`."""

    def __init__(self, client, game: str, players: int, rng: random.Random):
        self.client, self.players, self.rng = client, players, rng
        t = create(client, game, {"players": players} if game in ("wasserloch", "wildwasser") else None,
                   humans(players))
        self.other = create(client, "seven_waters", None, humans(2))   # its tokens are foreign here
        self.tid, self.tokens = t["id"], [s["token"] for s in t["seats"]]
        self.states: list = []                  # (seat, state) of every state any socket got
        self.sockets: list[Socket] = []
        self.names: dict[int, str | None] = {s: None for s in range(players)}   # as the seats set them
        self.sent: dict[int, dict] = {}         # each seat's last accepted move message, to send again

    def me(self, seat: int | None = None) -> dict:
        return table_state(self.client, self.tid, None if seat is None else self.tokens[seat])

    def socket(self, i: int, moving: bool = False) -> Socket | None:
        """The `i`-th open socket (modulo); with `moving`, preferably one whose seat is to move."""
        alive = [s for s in self.sockets if s.open]
        if moving:
            to_move = self.me()["to_move"]
            alive = [s for s in alive if s.seat in to_move] or alive
        return alive[i % len(alive)] if alive else None

    def open(self, who, lang: str | None) -> None:
        if isinstance(who, int) and who >= self.players:
            return
        said_in = "de" if lang in ("de", "de-AT") else "en"
        seat = who if isinstance(who, int) else None
        sock = Socket(self.client, self.tid, seat, said_in, self.states)
        hello = {"type": "hello", "token": self.tokens[who] if isinstance(who, int) else None}
        if who == "foreign":
            hello["token"] = self.other["seats"][0]["token"]
        elif who == "junk":
            hello["token"] = self.rng.choice([12, ["x"], "x" * 201, True])
        if lang is not None:
            hello["lang"] = lang
        sock.ws.send_text(json.dumps(hello))
        if who in ("foreign", "junk"):   # refused, said why, closed with 4000 + status
            said(sock.ws.receive_json(), said_in)
            with pytest.raises(WebSocketDisconnect) as closed:
                sock.ws.receive_json()
            assert closed.value.code in (4400, 4403)
            sock.close()
            return
        for older in [s for s in self.sockets if s.open and s.seat is not None and s.seat == seat]:
            older.replaced()
        assert sock.take(sock.ws.receive_json())["type"] == "state"
        self.sockets.append(sock)

    def close(self, i: int) -> None:
        sock = self.socket(i)
        if sock is not None:
            sock.close()

    def http_move(self, seat: int) -> None:
        seat %= self.players
        me = self.me(seat)
        if me["legal"]:
            r = move(self.client, self.tid, self.tokens[seat], self.rng.choice(me["legal"]), me["n"])
            assert r.status_code == 200, r.text

    def move(self, i: int, kind: str) -> None:
        sock = self.socket(i, moving=kind in ("legal", "stale", "replay"))
        if sock is None:
            return
        seat = sock.seat if sock.seat is not None else 0   # a spectator tries seat 0's move
        me, rng = self.me(seat), self.rng
        msg = {"type": "move", "action": rng.choice(me["legal"]) if me["legal"] else "x", "n": me["n"]}
        if kind == "illegal":
            msg["action"] = rng.choice(["zz", "discard", "0x0", "pick 99", msg["action"] + " " + msg["action"]])
        elif kind == "stale":
            msg["n"] = max(0, me["n"] - 1 - rng.randrange(3))
        elif kind == "replay" and seat in self.sent:
            msg = self.sent[seat]
        elif kind == "wrong_seat":
            other = rng.choice([s for s in range(self.players) if s != seat])
            msg["action"] = rng.choice(self.me(other)["legal"] or ["x"])
        elif kind == "garbage":
            msg = {"type": "move", "action": msg["action"], "n": rng.choice([True, -1, 10**7, "0", 1.5, None])}
        sock.ws.send_text(json.dumps(msg))
        answers = sock.until_pong()
        if any(a["type"] == "accepted" for a in answers):
            assert sock.seat is not None   # (a pick, stale or another seat's, may be legal too)
            self.sent[seat] = msg
        else:
            assert answers and answers[-1]["type"] == "refused", answers

    def name(self, i: int, name: str) -> None:
        sock = self.socket(i)
        if sock is None:
            return
        sock.ws.send_text(json.dumps({"type": "name", "name": name}))
        refusals = [a for a in sock.until_pong() if a["type"] == "refused"]
        assert refusals or sock.seat is not None   # a spectator has no name to set
        if not refusals:
            self.names[sock.seat] = " ".join(name.split())

    def raw(self, i: int, text: str) -> None:
        sock = self.socket(i)
        if sock is None:
            return
        sock.ws.send_text(text)
        refusals = [a for a in sock.until_pong() if a["type"] == "refused"]
        try:
            msg = json.loads(text)
        except ValueError:
            return
        if msg == {"type": "ping"}:   # its pong ended `until_pong`: the barrier's own comes next
            assert sock.ws.receive_json() == {"type": "pong"}
        if not refusals and isinstance(msg, dict) and msg.get("type") == "name" and sock.seat is not None:
            self.names[sock.seat] = " ".join(msg["name"].split())   # a generated name message was taken

    def sync(self, i: int) -> None:
        sock = self.socket(i)
        if sock is not None:
            sock.ws.send_text(json.dumps({"type": "sync"}))
            assert sock.until_pong()[-1]["type"] == "state"

    def drain(self) -> None:
        """Every open socket takes what it was sent, then closes."""
        for sock in self.sockets:
            if sock.open:
                sock.until_pong()
                sock.close()

    def check_table(self) -> None:
        """The lobby, every seat and the database agree on the table, with every seat and
        its name; every state a socket got is its seat's own view (nothing of another
        seat's) of the position at its move number."""
        hub, tid = self.client.app.state.hub, self.tid
        _wait_for_sockets(hub, 0)   # every socket's handler has ended: nobody is online any more
        spectator = self.me()
        assert not any(s["online"] for s in spectator["seats"]), spectator["seats"]
        listed = {x["id"]: x for x in self.client.get("/api/tables?status=all").json()["tables"]}
        assert listed[tid]["moves"] == spectator["n"]
        assert [s["name"] for s in spectator["seats"]] == [self.names[s] for s in range(self.players)]
        assert [s["kind"] for s in spectator["seats"]] == ["human"] * self.players
        for seat in range(self.players):
            assert self.me(seat)["seat"] == seat
        record = LiveTable.state_of(hub.storage.load_table(tid)).record()
        if tid in hub.tables:
            assert hub.tables[tid].state.record() == record
        assert len(record["actions"]) == spectator["n"]
        positions = {}
        for seat, msg in self.states:
            n = msg["n"]
            if n not in positions:
                positions[n] = replay(record, stop_at=n)
            at = positions[n]
            assert msg["view"] == json.loads(json.dumps(at.view(seat))), (seat, n)
            assert msg["scores"] == json.loads(json.dumps(at.scores_seen_by(seat)))
            legal = [str(a) for a in at.legal_actions(seat)] if seat is not None and seat in msg["to_move"] else []
            assert msg["legal"] == legal


def _wait_for_sockets(hub, count: int) -> None:
    """Until `count` sockets of the test client are open (a closed one's handler has ended)."""
    for _ in range(500):
        if hub.sockets.by_client.get(CLIENT, 0) == count:
            return
        time.sleep(0.01)
    raise AssertionError(hub.sockets.by_client)


def test_a_tab_replaced_by_another_plays_no_move_it_sends_after_being_told(client):
    """The older tab of a seat is told `replaced` and closed, but a message it had sent
    meanwhile (or sent before it saw the close) was still played as the seat's move."""
    t = create(client, "wasserloch", None, humans(3))
    tid, tok = t["id"], t["seats"][0]["token"]
    old = Socket(client, tid, 0, "en", [])
    old.ws.send_text(json.dumps({"type": "hello", "token": tok}))
    legal = old.take(old.ws.receive_json())["legal"]
    new = Socket(client, tid, 0, "en", [])
    new.ws.send_text(json.dumps({"type": "hello", "token": tok}))
    assert new.ws.receive_json()["type"] == "state"
    assert old.ws.receive_json()["type"] == "replaced"
    old.ws.send_text(json.dumps({"type": "move", "action": legal[0], "n": 0}))
    with pytest.raises(WebSocketDisconnect):
        old.ws.receive_json()
    old.close()
    _wait_for_sockets(client.app.state.hub, 1)   # the old socket's handler has ended
    assert table_state(client, tid)["n"] == 0
    new.until_pong()
    new.ws.send_text(json.dumps({"type": "move", "action": legal[0], "n": 0}))
    assert [m["type"] for m in new.until_pong()] == ["state", "accepted"]   # the seat's tab plays


def test_a_name_change_while_the_database_is_down_is_refused_and_the_socket_stays(client, monkeypatch):
    """The storage error escaped the socket's loop: it was closed without a word (and the
    HTTP exception handler, given the socket, failed on `request.method`)."""
    t = create(client, "wasserloch", None, humans(3))
    storage = client.app.state.hub.storage
    real = storage.set_seat_name

    def down(*args, **kwargs):
        raise sa.exc.OperationalError("update", {}, Exception("connection refused"))
    monkeypatch.setattr(storage, "set_seat_name", down)
    sock = Socket(client, t["id"], 0, "de", [])
    sock.ws.send_text(json.dumps({"type": "hello", "token": t["seats"][0]["token"], "lang": "de"}))
    sock.take(sock.ws.receive_json())
    sock.ws.send_text(json.dumps({"type": "name", "name": "Ann"}))
    [refusal] = sock.until_pong()
    assert refusal["code"] == "storage" and refusal["reason_code"] == "server.db_down"
    assert refusal["message"] == catalogue("de").text("server.db_down")
    monkeypatch.setattr(storage, "set_seat_name", real)
    sock.ws.send_text(json.dumps({"type": "name", "name": "Ann"}))
    assert sock.until_pong()[-1]["seats"][0]["name"] == "Ann"
    sock.close()
    assert table_state(client, t["id"])["seats"][0]["name"] == "Ann"


def test_an_unexpected_failure_is_said_on_the_socket_as_on_http(client, monkeypatch):
    """As HTTP answers `500 internal`: a message that fails unexpectedly is refused
    `internal` and the socket stays; a hello that does is refused and closed 4500."""
    t = create(client, "wasserloch", None, humans(3))

    async def boom(self, seat, name):
        raise RuntimeError("a bug")
    monkeypatch.setattr(LiveTable, "set_name", boom)
    sock = Socket(client, t["id"], 0, "en", [])
    sock.ws.send_text(json.dumps({"type": "hello", "token": t["seats"][0]["token"]}))
    sock.take(sock.ws.receive_json())
    sock.ws.send_text(json.dumps({"type": "name", "name": "Ann"}))
    [refusal] = sock.until_pong()
    assert refusal["code"] == "internal" and refusal["reason_code"] == "server.crashed"
    sock.ws.send_text(json.dumps({"type": "sync"}))
    assert sock.until_pong()[-1]["type"] == "state"
    sock.close()

    def table_full(*args):
        raise RuntimeError("another bug")
    monkeypatch.setattr(client.app.state.hub.sockets, "table_full", table_full)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": None, "lang": "de"}))
        msg = ws.receive_json()
        assert msg["code"] == "internal" and msg["message"] == catalogue("de").text("server.crashed")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4500
    _wait_for_sockets(client.app.state.hub, 0)   # and it no longer counts against the client


def test_a_socket_whose_table_left_memory_before_its_hello_joins_the_table_in_memory(client):
    """A finished table leaves memory when its last socket closes.  A socket that had
    connected but not yet said hello was attached to that copy: nothing that happened at
    the table reached it (here the rematch another seat made), and its own messages
    (a name) went to a copy that HTTP and every other socket no longer read."""
    t = create(client, "wasserloch", {"players": 2, "rounds": 1}, humans(2))
    tid, tokens = t["id"], [s["token"] for s in t["seats"]]
    play_first_legal(client, t, 1000)
    hub = client.app.state.hub
    opened = []
    real_open = hub.open

    async def counting_open(table_id):
        table = await real_open(table_id)
        opened.append(table)
        return table
    hub.open = counting_open
    first = Socket(client, tid, 0, "en", [])
    first.ws.send_text(json.dumps({"type": "hello", "token": tokens[0]}))
    first.take(first.ws.receive_json())
    late = Socket(client, tid, 1, "en", [])
    for _ in range(500):   # until its handler holds the table (before its hello)
        if len(opened) == 2:
            break
        time.sleep(0.01)
    first.close()
    _wait_for_sockets(hub, 1)
    assert tid not in hub.tables    # the finished table left memory with its last socket
    late.ws.send_text(json.dumps({"type": "hello", "token": tokens[1]}))
    assert late.take(late.ws.receive_json())["terminal"] is True
    r = client.post(f"/api/tables/{tid}/rematch", headers=auth(tokens[0]))
    assert r.status_code == 200, r.text
    assert any(m.get("rematch") == r.json()["id"] for m in late.until_pong())
    late.ws.send_text(json.dumps({"type": "name", "name": "Bea"}))
    late.until_pong()
    assert table_state(client, tid)["seats"][1]["name"] == "Bea"
