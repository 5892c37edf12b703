"""Findings of the security audit (2026-12-04), each closed: hints cannot queue searches
without bound in the bots' pool, spectators cannot lock a seat out of its table,
cross-site requests and sockets are refused, a client that leaves before its refusal
leaves no traceback in the log, a crash's 500 carries the same headers as every answer
and no internals, a seat's name changes cost a bounded number of writes.  Counted, never
timed."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from starlette.websockets import WebSocketDisconnect

import wasserspiele.web.botpool as botpool
from wasserspiele.web.limits import Limits

from .helpers import auth, create, hello, humans, play_first_legal

WAIT = 30  # seconds a gated search or a thread may take at most before the test fails


class Gate:
    """Stands in for the bots' `think`: counts the searches that start and holds each one
    until the test opens the gate."""

    def __init__(self, real):
        self.real, self.open, self.calls = real, threading.Event(), 0
        self.lock = threading.Lock()
        self.started = threading.Semaphore(0)

    def __call__(self, *args):
        with self.lock:
            self.calls += 1
        self.started.release()
        assert self.open.wait(WAIT), "the test never opened the gate"
        return self.real(*args)


@pytest.fixture
def gate(monkeypatch):
    g = Gate(botpool.think)
    monkeypatch.setattr(botpool, "think", g)
    yield g
    g.open.set()


def _ask(client, table, seat=0):
    return client.get(f"/api/tables/{table['id']}/hint", headers=auth(table["seats"][seat]["token"]))


def _in_threads(fn, count):
    results, threads = [None] * count, []
    for i in range(count):
        t = threading.Thread(target=lambda i=i: results.__setitem__(i, fn()))
        t.start()
        threads.append(t)
    return threads, results


def _until(check):
    """Waits (by polling) until `check()` is true, at most WAIT seconds."""
    import time
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline
        time.sleep(0.01)


# -- 1. hints ---------------------------------------------------------------------------

def test_many_requests_for_one_hint_start_one_search_and_share_its_answer(make_client, gate):
    client = make_client(limits=Limits(bot_workers=1, hint_burst=50, hints_in_flight=1))
    t = create(client, seats=humans(3))
    threads, results = _in_threads(lambda: _ask(client, t), 10)
    assert gate.started.acquire(timeout=WAIT)
    hints = getattr(client.app.state, "hints", None)
    if hints is not None:                         # (the server before the fix had none: it searched 10 times)
        _until(lambda: sum(s.waiting for s in hints.searches.values()) == 10)
    gate.open.set()
    for th in threads:
        th.join(WAIT)
    assert [r.status_code for r in results] == [200] * 10, [r.text for r in results]
    assert len({r.json()["action"] for r in results}) == 1
    again = _ask(client, t)                       # kept for this move: no new search
    assert again.json() == results[0].json()
    assert gate.calls == 1
    assert hints.started == 1 and hints.in_flight == 0


def test_hints_are_limited_per_client(make_client, gate):
    gate.open.set()
    client = make_client(limits=Limits(bot_workers=1, hint_rate=0, hint_burst=2))
    t = create(client, seats=humans(3))
    answers = []
    for _ in range(4):                            # a new move each time: nothing kept to answer from
        state = client.get(f"/api/tables/{t['id']}").json()
        answers.append(_ask(client, t, state["to_move"][0]))
        play_first_legal(client, t, 1)
    assert [r.status_code for r in answers] == [200, 200, 429, 429]
    refused = answers[2].json()
    assert refused["error"] == "too_many" and refused["reason_code"] == "server.hint_rate"
    assert gate.calls == 2


def test_hints_in_flight_are_capped_server_wide_so_bots_keep_their_workers(make_client, gate):
    client = make_client(limits=Limits(bot_workers=2, hints_in_flight=1, hint_burst=50))
    t, u = create(client, seats=humans(3)), create(client, seats=humans(3))
    threads, results = _in_threads(lambda: _ask(client, t), 1)
    assert gate.started.acquire(timeout=WAIT)
    full = _ask(client, u)                        # another table's hint: the cap is reached
    assert full.status_code == 503 and full.json()["error"] == "too_many"
    assert full.json()["reason_code"] == "server.hints_busy"
    gate.open.set()
    threads[0].join(WAIT)
    assert results[0].status_code == 200
    assert _ask(client, u).status_code == 200     # room again
    assert gate.calls == 2


def test_a_hint_nobody_waits_for_leaves_the_queue(make_client, gate):
    """A search still queued when its only requester hangs up is never run."""
    client = make_client(limits=Limits(bot_workers=1, hints_in_flight=2, hint_burst=50))
    hints = client.app.state.hints
    t, u = create(client, seats=humans(3)), create(client, seats=humans(3))
    threads, results = _in_threads(lambda: _ask(client, t), 1)   # runs in the only worker
    try:
        assert gate.started.acquire(timeout=WAIT)
        _leave(client, hints, u)
    finally:
        gate.open.set()
        threads[0].join(WAIT)
    assert results[0].status_code == 200
    _until(lambda: hints.in_flight == 0)
    assert gate.calls == 1                        # u's search never ran


def _leave(client, hints, u):

    async def leaving_client():
        hung_up = asyncio.Event()
        sent = []

        async def receive():
            if not sent:
                sent.append(1)
                return {"type": "http.request", "body": b"", "more_body": False}
            await hung_up.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "method": "GET", "path": f"/api/tables/{u['id']}/hint", "raw_path": b"",
                 "root_path": "", "scheme": "http", "query_string": b"", "http_version": "1.1",
                 "headers": [(b"authorization", f"Bearer {u['seats'][0]['token']}".encode()), (b"host", b"x")],
                 "client": ("127.0.0.9", 1), "server": ("x", 80), "app": client.app}
        request = asyncio.ensure_future(client.app(scope, receive, send))
        for _ in range(100_000):                  # u's search is queued behind t's
            if hints.started >= 2 or request.done():
                break
            await asyncio.sleep(0)
        hung_up.set()
        await request
        return sent

    sent = client.portal.call(leaving_client)
    assert hints.started == 2, sent
    _until(lambda: hints.in_flight == 1)         # only t's, still running


# -- 3. spectators cannot lock a seat out -------------------------------------------------

def test_spectators_fill_only_the_room_the_seats_leave_and_a_seat_always_gets_in(make_client):
    client = make_client(limits=Limits(sockets_per_table=5, sockets_per_client=40))
    t = create(client, seats=humans(3))
    import contextlib
    with contextlib.ExitStack() as stack:
        refused = 0
        for _ in range(4):
            ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{t['id']}"))
            answer = hello(ws, None)
            if answer["type"] == "refused":
                assert answer["code"] == "too_many" and answer["reason_code"] == "server.table_sockets"
                refused += 1
        assert refused == 2                       # 5 sockets, 3 kept for the seats: 2 spectators
        for seat in range(3):                     # every seat holder still gets in
            ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{t['id']}"))
            assert hello(ws, t["seats"][seat]["token"])["type"] == "state"
        ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{t['id']}"))
        assert hello(ws, t["seats"][0]["token"])["type"] == "state"   # a reload takes over its seat


# -- 5. no traceback for a client that leaves before its refusal ----------------------------

def test_a_socket_that_leaves_before_its_refusal_leaves_no_error(make_client):
    """The refusal's send meets a client that has gone (as uvicorn reports it): nothing
    is raised, so nothing is logged."""
    from wasserspiele.web.app import _refuse_socket
    from wasserspiele.web.hub import Refused
    from wasserspiele.core.messages import Reason

    class Gone:
        sends = 0

        async def send_text(self, text):
            Gone.sends += 1
            raise WebSocketDisconnect(1006)

        async def close(self, code=1000):
            raise WebSocketDisconnect(1006)

    asyncio.run(_refuse_socket(Gone(), Refused("bad_message", Reason("server.hello_shape")), "en"))
    assert Gone.sends == 1


# -- 4. cross-site requests ------------------------------------------------------------------

def test_another_sites_page_cannot_create_tables_or_open_sockets(client):
    body = json.dumps({"game": "wasserloch", "seats": humans(3)})
    statuses = [client.post("/api/tables", content=body, headers={"content-type": kind}).status_code
                for kind in ("text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data")]
    assert statuses == [415] * 3
    foreign = client.post("/api/tables", content=body,
                          headers={"content-type": "application/json", "origin": "http://evil.example"})
    assert foreign.status_code == 403 and foreign.json()["error"] == "bad_request"
    assert foreign.json()["reason_code"] == "server.origin"
    assert client.get("/api/tables?status=all").json()["tables"] == []   # none was made
    own = client.post("/api/tables", content=body,
                      headers={"content-type": "application/json", "origin": "http://testserver"})
    assert own.status_code == 201
    t = own.json()
    with client.websocket_connect(f"/ws/tables/{t['id']}", headers={"origin": "http://evil.example"}) as ws:
        refused = ws.receive_json()
        assert refused["type"] == "refused" and refused["reason_code"] == "server.origin"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect(f"/ws/tables/{t['id']}", headers={"origin": "http://testserver"}) as ws:
        assert hello(ws, None)["type"] == "state"
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:         # no Origin: not a browser
        assert hello(ws, None)["type"] == "state"


# -- 6. sockets before their hello count; nosniff everywhere ---------------------------------

def test_sockets_that_have_not_said_hello_count_against_the_client(make_client):
    client = make_client(limits=Limits(sockets_per_client=2))
    t = create(client, seats=humans(3))
    import contextlib
    with contextlib.ExitStack() as stack:
        for _ in range(2):                        # silent: no hello
            stack.enter_context(client.websocket_connect(f"/ws/tables/{t['id']}"))
        ws = stack.enter_context(client.websocket_connect(f"/ws/tables/{t['id']}"))
        refused = ws.receive_json()
        assert refused["code"] == "too_many" and refused["reason_code"] == "server.client_sockets"
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:   # closed ones no longer count
        assert hello(ws, None)["type"] == "state"
    assert client.app.state.hub.sockets.by_client == {}


def test_every_response_says_nosniff(client):
    for path in ("/api/games", "/static/app.js", "/api/tables", "/nope", "/static/games/watten.js"):
        assert client.get(path).headers.get("x-content-type-options") == "nosniff", path


def test_an_authorization_header_of_another_shape_is_refused_not_taken_for_a_spectator(client):
    """`Authorization: Token X` or a bare `Bearer` was taken as no token: the client got the
    spectator's view, not a word about its header."""
    t = create(client, seats=humans(3))
    token = t["seats"][0]["token"]
    for header in (f"Token {token}", "Bearer", "Bearer   ", token):
        r = client.get(f"/api/tables/{t['id']}", headers={"authorization": header})
        assert r.status_code == 401 and r.json()["reason_code"] == "server.auth_header", header
    assert client.get(f"/api/tables/{t['id']}").json()["seat"] is None  # no header: a spectator
    assert client.get(f"/api/tables/{t['id']}", headers={"authorization": f"bearer {token}"}).json()["seat"] == 0


# -- 7. a crash's 500 is JSON with the same headers as every other answer ------------------

def test_a_crash_is_answered_500_in_json_with_nosniff_and_without_internals(client, monkeypatch, caplog):
    """Starlette answers an unhandled exception from its ServerErrorMiddleware, outside the
    user middleware: the 500 went without `X-Content-Type-Options`."""
    import logging

    from starlette.testclient import TestClient

    import wasserspiele.web.app as web_app

    def broken():
        raise RuntimeError("internals: /srv/wasserspiele/secret.sqlite3")

    monkeypatch.setattr(web_app, "games_json", broken)
    crashing = TestClient(client.app, raise_server_exceptions=False)   # the app started by `client`
    with caplog.at_level(logging.ERROR, logger="wasserspiele.web"):
        r = crashing.get("/api/games", headers={"accept-language": "de"})
    assert r.status_code == 500
    assert r.headers.get("x-content-type-options") == "nosniff"
    assert r.headers["content-type"] == "application/json"
    body = r.json()
    assert body["error"] == "internal" and body["reason_code"] == "server.crashed" and body["params"] == {}
    assert body["message"] and body["message"] != "server.crashed"          # said in words (German here)
    for leaked in ("internals", "secret", "RuntimeError", "Traceback", "app.py"):
        assert leaked not in r.text, leaked
    assert "internals: /srv/wasserspiele/secret.sqlite3" in caplog.text    # the log keeps why
    assert any(rec.exc_info for rec in caplog.records)                      # with its traceback


# -- 8. name changes: one that changes nothing is free, a flood is bounded -----------------

def _counting_name_writes(client, monkeypatch) -> list[str]:
    """The names the storage layer writes, in order (each call is one transaction)."""
    storage = client.app.state.hub.storage
    real, writes = storage.set_seat_name, []

    def counting(table_id, seat, name):
        writes.append(name)
        return real(table_id, seat, name)

    monkeypatch.setattr(storage, "set_seat_name", counting)
    return writes


def _until_pong(ws) -> list[dict]:
    """Every message before the answer to a ping sent last (the socket's messages are
    handled in order, so all before it have been)."""
    ws.send_json({"type": "ping"})
    answers = []
    while (a := ws.receive_json())["type"] != "pong":
        answers.append(a)
    return answers


def test_a_name_change_that_changes_nothing_costs_no_write_and_no_push(client, monkeypatch):
    t = create(client, seats=humans(3))
    writes = _counting_name_writes(client, monkeypatch)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        assert hello(ws, t["seats"][0]["token"])["type"] == "state"
        ws.send_json({"type": "name", "name": "Anna"})
        assert [a["seats"][0]["name"] for a in _until_pong(ws)] == ["Anna"]
        for name in ["Anna", "  Anna ", "Anna"] * 10:            # the same name, as cleaned
            ws.send_json({"type": "name", "name": name})
        assert _until_pong(ws) == []                             # nothing changed: nothing pushed
        ws.send_json({"type": "name", "name": "Berta"})          # the repeats used up no allowance
        assert [a["seats"][0]["name"] for a in _until_pong(ws)] == ["Berta"]
    assert writes == ["Anna", "Berta"]


def test_a_flood_of_name_changes_costs_a_bounded_number_of_writes_and_the_last_accepted_name_stays(
        client, monkeypatch):
    t = create(client, seats=humans(3))
    writes = _counting_name_writes(client, monkeypatch)
    names = [f"Player {i}" for i in range(40)]
    with client.websocket_connect(f"/ws/tables/{t['id']}") as other:   # another seat watches
        assert hello(other, t["seats"][1]["token"])["type"] == "state"
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            assert hello(ws, t["seats"][0]["token"])["type"] == "state"
            for name in names:
                ws.send_json({"type": "name", "name": name})
            answers = _until_pong(ws)
        seen_by_other = [a["seats"][0]["name"] for a in _until_pong(other) if a["type"] == "state"]
    refusals = [a for a in answers if a["type"] == "refused"]
    assert 1 <= len(writes) <= 10                                # not one write per message
    assert len(writes) + len(refusals) == len(names)             # each name taken or refused
    assert {(a["code"], a["reason_code"]) for a in refusals} == {("too_many", "server.name_rate")}
    assert writes == names[:len(writes)]                         # the first ones, in order
    accepted = writes[-1]
    assert [a["seats"][0]["name"] for a in answers if a["type"] == "state"][-1] == accepted
    assert seen_by_other[-1] == accepted                         # the others see it too
    client.app.state.hub.tables.pop(t["id"])                     # a reload reads it from the database
    assert client.get(f"/api/tables/{t['id']}").json()["seats"][0]["name"] == accepted


# -- 9. a body without Content-Type: read as JSON (scripts), never from another site --------

def test_a_body_without_content_type_is_read_as_json_but_another_sites_is_refused(client):
    """Kept on purpose (see `_json_body`): what a browser sends cross-site without a
    Content-Type (a fetch or beacon of bytes) carries its Origin, refused here."""
    body = json.dumps({"game": "wasserloch", "seats": humans(3)})
    for origin in ("http://evil.example", "null"):
        foreign = client.post("/api/tables", content=body, headers={"origin": origin})
        assert "content-type" not in foreign.request.headers
        assert foreign.status_code == 403 and foreign.json()["reason_code"] == "server.origin", origin
    assert client.get("/api/tables?status=all").json()["tables"] == []
    script = client.post("/api/tables", content=body)
    assert "content-type" not in script.request.headers
    assert script.status_code == 201, script.text


def test_a_seats_name_allowance_is_not_refilled_by_reconnecting(make_client, monkeypatch):
    client = make_client(limits=Limits(name_rate=0, name_burst=2))
    t = create(client, seats=humans(3))
    writes = _counting_name_writes(client, monkeypatch)
    for name in ("Anna", "Berta", "Clara"):                     # a new socket (a reload) for each
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            assert hello(ws, t["seats"][0]["token"])["type"] == "state"
            ws.send_json({"type": "name", "name": name})
            answers = _until_pong(ws)
    assert answers[-1]["type"] == "refused" and answers[-1]["reason_code"] == "server.name_rate"
    assert answers[-1]["params"] == {"rate": 0, "burst": 2}
    assert writes == ["Anna", "Berta"]
    assert client.get(f"/api/tables/{t['id']}").json()["seats"][0]["name"] == "Berta"
