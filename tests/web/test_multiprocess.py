"""Several server processes on one PostgreSQL database: clients on both, racing moves
(the same seat moving from two processes at once: its tab through one, a request over
HTTP through the other — a seat has one live tab across processes, opening it through
another replaces the first), split simultaneous picks, and a process killed mid-game.
Every acknowledged move is in the record, no move is applied twice, and every client
ends with the final position."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from wasserspiele.web.devdb import free_port

from .test_persistence import _head_revision

websockets = pytest.importorskip("websockets")

GAMES = {"wasserloch": 3, "seven_waters": 2, "watten": 4, "wildwasser": 4}
WAIT = 60.0  # seconds before a test gives up waiting for a state (a failure, never a sleep)


def start_server(db: str, *extra: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "wasserspiele.cli.main", "serve", "--port", str(port),
                             "--db", db, "--bot-delay", "0", *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + WAIT
    while True:
        try:
            urllib.request.urlopen(base + "/api/games", timeout=2).read()
            return proc, base
        except OSError:
            if proc.poll() is not None:
                raise AssertionError(f"the server did not start: {proc.stderr.read().decode()[-2000:]}")
            assert time.monotonic() < deadline, "the server did not start in time"
            time.sleep(0.1)  # polling a port that is not open yet


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(20)


def http_move(base: str, table_id: str, token: str, action: str, n: int) -> dict:
    """A move over HTTP: the answer, `accepted` or `refused` with its code, as a tab gets it."""
    req = urllib.request.Request(f"{base}/api/tables/{table_id}/moves", method="POST",
                                 data=json.dumps({"action": action, "n": n}).encode(),
                                 headers={"content-type": "application/json", "authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return {"type": "refused", "code": json.loads(exc.read())["error"]}


def http(base: str, path: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None,
                                 headers={"content-type": "application/json"}, method="POST" if body else "GET")
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


# one pair for the four games: each game is a new table, created and played to its end
# across both processes, so a fresh pair for each game added nothing the races check
@pytest.fixture(scope="module")
def two_servers(pg_url):
    procs = [start_server(pg_url), start_server(pg_url)]
    yield [base for _, base in procs], [p for p, _ in procs]
    for p, _ in procs:
        stop(p)


class Client:
    """One WebSocket tab: the newest state it was sent, and the answers to its moves."""

    def __init__(self, ws, seat):
        self.ws, self.seat = ws, seat
        self.state: dict | None = None
        self.answers: asyncio.Queue = asyncio.Queue()
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    async def _read(self):
        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                if msg["type"] == "state":
                    if self.state is None or msg["n"] >= self.state["n"]:
                        self.state = msg
                    self.changed.set()
                elif msg["type"] in ("accepted", "refused"):
                    await self.answers.put(msg)
        except websockets.ConnectionClosed:
            pass

    async def until(self, check):
        deadline = asyncio.get_running_loop().time() + WAIT
        while not (self.state is not None and check(self.state)):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), deadline - asyncio.get_running_loop().time())
        return self.state


async def connect(base: str, table_id: str, token: str | None, seat: int | None) -> Client:
    ws = await websockets.connect("ws" + base[4:] + f"/ws/tables/{table_id}", compression=None)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return Client(ws, seat)


async def play_across(bases: list[str], game: str, seed: int) -> dict:
    """All seats human; each seat has a tab on one server (alternately) and, at its turn,
    moves from it and over HTTP from the other at once.  Returns what the test checks."""
    rng = random.Random(seed)
    table = await asyncio.to_thread(http, bases[0], "/api/tables",
                                    {"game": game, "options": {"rounds": 1} if game == "wasserloch" else {},
                                     "seats": [{"kind": "human"}] * GAMES[game]})
    tid = table["id"]
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    tabs = {s["seat"]: [await connect(bases[s["seat"] % 2], tid, s["token"], s["seat"])] for s in table["seats"]}
    watchers = [await connect(b, tid, None, None) for b in bases]
    accepted: list[dict] = []
    refused: dict[str, int] = {}
    while True:
        # the newest position any tab has; wait until every tab of a deciding seat has it
        newest = max((c.state for cs in tabs.values() for c in cs if c.state), key=lambda m: m["n"])
        if newest["terminal"]:
            break
        deciding = [s for s in newest["waiting"]]
        if not deciding:  # between a buffered pick and the broadcast of its application
            await tabs[0][0].until(lambda m, n=newest["n"]: m["n"] > n or m["terminal"])
            continue
        racing = []
        for seat in deciding[:2]:  # split picks: two seats at once, each from every server
            for c in tabs[seat]:
                st = await c.until(lambda m, n=newest["n"]: m["n"] >= n)
                if st["legal"]:
                    racing.append((c, rng.choice(st["legal"]), st["n"], st["legal"]))
        other = [(c, rng.choice(legal), n, bases[1 - c.seat % 2]) for c, _, n, legal in racing]
        answers = await asyncio.gather(
            *(c.ws.send(json.dumps({"type": "move", "action": a, "n": n})) for c, a, n, _ in racing),
            *(asyncio.to_thread(http_move, base, tid, tokens[c.seat], a, n) for c, a, n, base in other))
        answers = answers[len(racing):]
        for c, action, n, _ in racing:
            answers.append(await asyncio.wait_for(c.answers.get(), WAIT))
        for (c, action, n), answer in zip([(c, a, n) for c, a, n, _ in other] + [(c, a, n) for c, a, n, _ in racing],
                                          answers):
            if answer["type"] == "accepted":
                accepted.append({"seat": c.seat, "action": action, "n": n, **answer})
            else:
                refused[answer["code"]] = refused.get(answer["code"], 0) + 1
    record = await asyncio.to_thread(http, bases[1], f"/api/tables/{tid}/record")
    total = len(record["actions"])
    finals = []
    for c in [*watchers, *(c for cs in tabs.values() for c in cs)]:
        finals.append(await c.until(lambda m: m["n"] == total and m["terminal"]))
        await c.ws.close()
        await c.reader
    return {"record": record, "accepted": accepted, "refused": refused, "finals": finals,
            "other_record": await asyncio.to_thread(http, bases[0], f"/api/tables/{tid}/record")}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_two_processes_play_every_game_to_the_end_with_racing_moves(two_servers, game):
    bases, _ = two_servers
    out = asyncio.run(play_across(bases, game, seed=len(game)))
    record = out["record"]
    assert out["other_record"] == record                    # both processes hold the same game
    # every acknowledged move is in the record, and nothing else is: one action per acknowledgement
    assert len(out["accepted"]) == len(record["actions"])
    assert sorted(a["action"] for a in out["accepted"]) == sorted(x.split(": ")[-1] for x in record["actions"]), \
        (out["accepted"][:3], record["actions"][:3])
    # the races were real: the same seat moved from both processes and one of each pair lost
    assert sum(out["refused"].values()) > 0
    assert set(out["refused"]) <= {"stale", "not_your_turn", "already_chosen"}, out["refused"]
    # every client, on either process, ends with the final position, each seeing its own view
    for final in out["finals"]:
        assert final["terminal"] and final["n"] == len(record["actions"])
        assert final["scores"] == out["finals"][0]["scores"]


def test_killing_one_process_loses_no_acknowledged_move(pg_url):
    """kill -9 of one process while both take moves for one table: the other carries on
    from the database, and every move either process acknowledged is in the record."""
    a, base_a = start_server(pg_url)
    b, base_b = start_server(pg_url)
    try:
        table = http(base_a, "/api/tables", {"game": "seven_waters", "seats": [{"kind": "human"}] * 2})
        tid = table["id"]
        tokens = {s["seat"]: s["token"] for s in table["seats"]}

        async def scenario():
            # a seat has one live tab across processes (opening it through another replaces
            # the first): the tabs are on B, and each move is also sent to A over HTTP
            tabs = {seat: await connect(base_b, tid, tok, seat) for seat, tok in tokens.items()}
            for c in tabs.values():
                await c.until(lambda m: True)
            acked = []
            for step in range(12):
                if step == 6:
                    os.killpg(a.pid, signal.SIGKILL)   # mid-game, with a move maybe in flight
                    a.wait(20)
                newest = max((c.state for c in tabs.values() if c.state), key=lambda m: m["n"])
                if newest["terminal"]:
                    break
                c = tabs[newest["to_move"][0]]
                st = await c.until(lambda m, n=newest["n"]: m["n"] >= n)
                x, n = st["legal"][0], st["n"]
                through_a = asyncio.to_thread(http_move, base_a, tid, tokens[c.seat], x, n)
                await c.ws.send(json.dumps({"type": "move", "action": x, "n": n}))
                answers = [await asyncio.wait_for(c.answers.get(), WAIT)]
                try:
                    answers.append(await through_a)
                except OSError:
                    pass  # process A was killed before answering: not acknowledged
                if any(answer["type"] == "accepted" for answer in answers):
                    acked.append((n, x))
            for c in tabs.values():
                await c.ws.close()
            return acked

        acked = asyncio.run(scenario())
        record_actions = http(base_b, f"/api/tables/{tid}")["n"]
        from wasserspiele.web.storage import Storage
        storage = Storage(pg_url)
        actions = storage.load_table(tid).actions
        storage.close()
        assert record_actions == len(actions) >= 6
        for n, x in acked:
            assert actions[n] == x, (n, x, actions)
    finally:
        stop(a)
        stop(b)


def test_servers_starting_together_on_a_fresh_database_migrate_once(pg_url):
    """Three processes migrating one new database at once: the advisory lock lets one
    migrate and the others find the schema done (no UniqueViolation)."""
    import sqlalchemy as sa
    fresh = f"wasserspiele_fresh_{os.getpid()}"
    admin = sa.create_engine(pg_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f"DROP DATABASE IF EXISTS {fresh}"))
        conn.execute(sa.text(f"CREATE DATABASE {fresh}"))
    url = pg_url.rsplit("/", 1)[0] + "/" + fresh
    code = "import sys; from wasserspiele.web.storage import Storage; Storage(sys.argv[1]).close()"
    try:
        procs = [subprocess.Popen([sys.executable, "-c", code, url], stderr=subprocess.PIPE) for _ in range(3)]
        errors = [p.communicate(timeout=120)[1].decode() for p in procs]
        assert [p.returncode for p in procs] == [0, 0, 0], errors
        engine = sa.create_engine(url)
        with engine.connect() as conn:
            assert conn.execute(sa.text("select version_num from alembic_version")).scalar() == _head_revision()
        engine.dispose()
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f"DROP DATABASE IF EXISTS {fresh} WITH (FORCE)"))
        admin.dispose()
