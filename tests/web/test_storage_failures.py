"""The server when its storage fails: a full disk, a database that cannot be written, a
lock held by another program, and the disk freeing up again (docs/web-server.md,
Durability and Running it).

The faults are SQLite's own: a full disk is SQLite refusing a page beyond
`max_page_count` inside the very transaction that writes (SQLITE_FULL), a read-only
database is `PRAGMA query_only` (SQLITE_READONLY), a lock is another connection's open
write transaction (SQLITE_BUSY).  Every write a person asked for (a move, a new table, a
rematch, a name) is refused with what was not saved and that cause, in their language;
"not available" only when the database cannot be reached.  What the server does with them is what it does with a
tmpfs that filled up (the measurements in the docs were made on one)."""

from __future__ import annotations

import asyncio
import json
from functools import partial
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from click.testing import CliRunner

import wasserspiele.web.hub as hub_module
import wasserspiele.web.storage as storage_module
from wasserspiele.cli.main import main
from wasserspiele.core.messages import Reason, catalogue
from wasserspiele.web.limits import Limits
from wasserspiele.web.storage import Cause, Storage, failure_cause

from .helpers import auth, create, humans, move, play_first_legal, table_state


@pytest.fixture(autouse=True)
def quick(monkeypatch):
    """No waiting in tests: a bot refused for storage tries again soon, /healthz tries a
    write at every call while writes fail, and a lock is given up after 1 s."""
    monkeypatch.setattr(hub_module, "BOT_RETRY_SECONDS", 0.2, raising=False)
    monkeypatch.setattr(hub_module, "PROBE_SECONDS", 0.0, raising=False)
    monkeypatch.setattr(storage_module, "SQLITE_BUSY_SECONDS", 1.0, raising=False)


class Disk:
    """The server's SQLite database, made to refuse writes by SQLite itself."""

    def __init__(self, storage: Storage):
        self.engine = storage.engine
        self.full: bool | str = False  # True, or the name of the one table whose inserts find it full
        self.read_only = False
        self.writes_tried = 0
        with self.engine.begin() as conn:
            conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS ballast (x BLOB)")
        sa.event.listen(self.engine, "before_cursor_execute", self._before)

    def _before(self, conn, cursor, statement, params, context, executemany):
        cursor.execute(f"PRAGMA query_only = {int(self.read_only)}")
        if statement.lstrip().split()[0].upper() not in ("INSERT", "UPDATE", "DELETE"):
            return
        self.writes_tried += 1
        if self.full is True or self.full and f"INTO {self.full} " in statement:
            # no room on the disk: SQLite cannot add the page this write needs (SQLITE_FULL)
            pages = cursor.execute("PRAGMA page_count").fetchone()[0]
            cursor.execute(f"PRAGMA max_page_count = {pages}")
            try:
                cursor.execute("INSERT INTO ballast VALUES (zeroblob(65536))")
            finally:
                cursor.execute("PRAGMA max_page_count = 1073741823")


def _moves_stored(db_url: str, table_id: str) -> int:
    con = sqlite3.connect(db_url.removeprefix("sqlite:///"))
    try:
        return con.execute("select count(*) from moves where table_id = ?", (table_id,)).fetchone()[0]
    finally:
        con.close()


def _rows(db_url: str) -> tuple[int, int, int]:
    """How many tables, seats and tables without any seat the database holds."""
    con = sqlite3.connect(db_url.removeprefix("sqlite:///"))
    try:
        return con.execute("select (select count(*) from tables), (select count(*) from seats), "
                           "(select count(*) from tables t where not exists "
                           " (select 1 from seats s where s.table_id = t.id))").fetchone()
    finally:
        con.close()


def _refused_for(body: dict, stored: str, cause: Cause, lang: str) -> None:
    """`body` is the refusal of a write the database failed for `cause`: what was not saved
    and why, in `lang`, the same words for the cause as a move's refusal uses."""
    want = Reason(stored, cause=Reason(cause.value))
    code = body.get("error", body.get("code"))
    assert code == "storage" and body["reason_code"] == stored, body
    assert body["params"] == {"cause": {"code": cause.value, "params": {}}}, body
    assert body["message"] == want.render(lang), body


class Fault:
    """One way the database refuses writes while it can still be read: `on()`, `off()`."""

    def __init__(self, kind: str, client, db_url: str):
        self.kind, self.db_url = kind, db_url
        self.disk = Disk(client.app.state.hub.storage)
        self.holder: sqlite3.Connection | None = None

    def on(self, only: str | None = None) -> None:
        if self.kind == "full":
            self.disk.full = only or True
        elif self.kind == "read_only":
            self.disk.read_only = True
        else:   # another program holds the write lock (an `sqlite3` shell left in a transaction)
            self.holder = sqlite3.connect(self.db_url.removeprefix("sqlite:///"), isolation_level=None)
            self.holder.execute("BEGIN IMMEDIATE")

    def off(self) -> None:
        self.disk.full = self.disk.read_only = False
        if self.holder is not None:
            self.holder.execute("ROLLBACK")
            self.holder.close()
            self.holder = None


FAULTS = [("full", Cause.FULL), ("read_only", Cause.READ_ONLY), ("locked", Cause.LOCKED)]


def _until_pong(ws) -> list[dict]:
    """What the socket is sent up to the answer of a ping (it is still open)."""
    ws.send_text(json.dumps({"type": "ping"}))
    got = []
    while True:
        msg = ws.receive_json()
        if msg["type"] == "pong":
            return got
        got.append(msg)


def test_a_move_the_full_disk_refuses_is_told_to_its_player_in_german_and_the_table_stays(client, db_url):
    """The mover was sent no refusal at all: the table was dropped from memory and every
    socket at it closed (1012), so the page showed "reconnecting" and then the old position,
    the move gone without a word.  Nobody may see the move, and once the disk has room
    again the same move is taken."""
    t = create(client, seats=humans(3))
    disk = Disk(client.app.state.hub.storage)
    tok = t["seats"][0]["token"]
    with client.websocket_connect(f"/ws/tables/{t['id']}") as player, \
            client.websocket_connect(f"/ws/tables/{t['id']}") as spectator:
        player.send_text(json.dumps({"type": "hello", "token": tok, "lang": "de"}))
        first = player.receive_json()
        spectator.send_text(json.dumps({"type": "hello", "token": None}))
        assert spectator.receive_json()["n"] == 0
        disk.full = True
        player.send_text(json.dumps({"type": "move", "action": first["legal"][0], "n": 0}))
        said = _until_pong(player)
        refusal = [m for m in said if m["type"] == "refused"]
        assert len(refusal) == 1, said
        _refused_for(refusal[0], "server.unsaved", Cause.FULL, "de")   # "... gespeichert werden: die Festplatte ..."
        assert all(m["n"] == 0 for m in said if m["type"] == "state")      # never the unsaved move
        assert all(m["n"] == 0 for m in _until_pong(spectator) if m["type"] == "state")
        assert _moves_stored(db_url, t["id"]) == 0
        assert table_state(client, t["id"], tok)["n"] == 0

        disk.full = False                                                 # space again
        player.send_text(json.dumps({"type": "move", "action": first["legal"][0], "n": 0}))
        said = _until_pong(player)
        assert [m["type"] for m in said] == ["state", "accepted"] and said[0]["n"] == 1
        assert [m["n"] for m in _until_pong(spectator)] == [1]
    assert _moves_stored(db_url, t["id"]) == 1


def test_a_bot_whose_move_is_refused_waits_and_never_sends_the_table_to_reconnect(make_client, db_url):
    """A bot's failed save dropped the table and closed its sockets; the pages reconnected,
    the table was loaded, its bot tried again and failed again: a reconnection loop at
    every bot move, for as long as the disk was full.  The bot now waits for the database
    to take writes (or a few seconds) and moves once it does."""
    client = make_client(bot_delay=0.3)
    t = create(client, seats=[{"kind": "bot", "level": "easy"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}])
    hub = client.app.state.hub
    disk = Disk(hub.storage)
    disk.full = True   # (the bot of seat 0 has not moved yet: it waits bot_delay, 0.3 s, at the least)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": t["seats"][1]["token"]}))
        assert ws.receive_json()["n"] == 0
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:              # 1.5 s of a full disk ...
            assert all(m["n"] == 0 for m in _until_pong(ws) if m["type"] == "state")  # ... the socket stays
            time.sleep(0.05)
        tries = disk.writes_tried
        assert 1 <= tries <= 8, tries                   # a try every 0.5 s or so
        assert hub.tables[t["id"]].bot_task is not None and not hub.tables[t["id"]].bot_task.done()
        disk.full = False
        assert client.get("/healthz").status_code == 200   # (a write tried: the bot hears of it)
        deadline = time.monotonic() + 10
        while _moves_stored(db_url, t["id"]) == 0:
            assert time.monotonic() < deadline
            time.sleep(0.02)   # polling the database file, under a deadline


def test_an_outage_is_one_line_in_the_log_with_no_statement_and_no_seed(client, db_url, caplog):
    """Each refused move logged a traceback, and a refused new table logged SQLAlchemy's
    text: the statement and its parameters (the table's seed and its whole deck, every
    card still to come) on lines of their own.  Now: one line when writes start to fail,
    one when they work again."""
    t = create(client, seats=humans(3))
    tok = t["seats"][0]["token"]
    legal = table_state(client, t["id"], tok)["legal"][0]
    disk = Disk(client.app.state.hub.storage)
    disk.full = True
    with caplog.at_level(logging.INFO, logger="wasserspiele.web"):
        for _ in range(3):
            assert move(client, t["id"], tok, legal, 0).status_code == 503
        r = client.post("/api/tables", json={"game": "wasserloch", "seats": humans(3)})
        assert r.status_code == 503 and r.json()["error"] == "storage"
        assert client.get("/api/tables").status_code == 200   # the lobby reads on
        disk.full = False
        assert move(client, t["id"], tok, legal, 0).status_code == 200
    said = [r for r in caplog.records if r.levelno >= logging.WARNING]
    text = "\n".join(r.getMessage() for r in said)
    assert [r.levelname for r in said] == ["ERROR", "WARNING"], text
    assert "database or disk is full" in said[0].getMessage() and "takes writes again" in said[1].getMessage()
    assert all(r.exc_info is None and "\n" not in r.getMessage() for r in said), text
    assert "[SQL" not in caplog.text and "parameters" not in caplog.text and "sqlalche.me" not in caplog.text


def test_healthz_answers_503_while_the_database_refuses_writes_and_200_once_it_takes_them(client):
    """/healthz ran `SELECT 1`, which a read-only or full database answers: it said "ok"
    while every move was refused."""
    t = create(client, seats=humans(3))
    tok = t["seats"][0]["token"]
    legal = table_state(client, t["id"], tok)["legal"][0]
    disk = Disk(client.app.state.hub.storage)
    assert client.get("/healthz").status_code == 200
    disk.read_only = True
    assert move(client, t["id"], tok, legal, 0).status_code == 503
    for lang in ("en", "de"):
        r = client.get(f"/healthz?lang={lang}")
        assert r.status_code == 503 and r.headers["retry-after"] and r.headers["cache-control"] == "no-store"
        assert r.json()["error"] == "storage" and r.json()["reason_code"] == "server.db_unwritable"
        assert r.json()["message"] == catalogue(lang).text("server.db_unwritable")
    disk.read_only = False                  # nobody plays: /healthz itself finds the database writable
    assert client.get("/healthz").status_code == 200
    assert move(client, t["id"], tok, legal, 0).status_code == 200


def test_moves_behind_a_lock_held_elsewhere_are_refused_after_one_wait_not_one_each(db_url):
    """Another program holds the database's write lock (a backup, an `sqlite3` shell left
    in a transaction).  A failed transaction of several tables' moves was retried table by
    table, each retry waiting out the lock again: the sixth move was answered after seven
    waits.  A lock fails them all at once; after it is released every table plays on."""
    from wasserspiele.web.hub import Hub, Refused

    async def scenario():
        storage = Storage(db_url)
        hub = Hub(storage, bot_delay=30)
        tables = [(await hub.create({"game": "wasserloch", "seats": humans(3)}))[0] for _ in range(6)]
        holder = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        start = time.monotonic()
        results = await asyncio.gather(*(t.submit(0, str(t.state.legal_actions(0)[0]), 0) for t in tables),
                                       return_exceptions=True)
        took = time.monotonic() - start
        holder.execute("ROLLBACK")
        holder.close()
        after = []
        for t in tables:  # (the copy in memory now: as the requests of the players take it)
            t = await hub.current(t)
            after.append(await t.submit(0, str(t.state.legal_actions(0)[0]), 0))
        await hub.shutdown()
        storage.close()
        return tables, results, took, after

    tables, results, took, after = asyncio.run(scenario())
    assert all(isinstance(r, Refused) and r.code == "storage" and r.status == 503 for r in results), results
    assert took < 3.0, took                     # one wait of 1 s (was 7)
    assert [a["n"] for a in after] == [1] * 6
    assert all(_moves_stored(db_url, t.id) == 1 for t in tables)


def test_a_failed_write_never_quotes_its_parameters(db_url):
    """SQLAlchemy's text of a failed statement quoted its parameters, and whatever logged it
    (a traceback of an unexpected failure) wrote a table's seed and whole deck, every card
    still to come, into the log."""
    from wasserspiele.web.storage import SeatRow, TableRow, now
    storage = Storage(db_url)
    row = TableRow(id="T" * 12, game="wasserloch", options={}, players=1, seed=987654321987,
                   setup={"decks": [["A", "8", "2"]]}, status="running", created=now(),
                   seats=[SeatRow(0, "human", None, "f" * 64)])
    storage.create_table(row)
    with pytest.raises(sa.exc.IntegrityError) as failed:
        storage.create_table(row)                      # the same id again
    storage.close()
    assert "987654321987" not in str(failed.value) and '"A", "8"' not in str(failed.value)


def _readonly_engine(make_engine):
    def make(url):
        engine = make_engine(url)
        sa.event.listen(engine, "connect", lambda dbapi_conn, _: dbapi_conn.execute("PRAGMA query_only = 1"))
        return engine
    return make


def test_a_database_the_server_cannot_write_is_refused_at_start_up_in_one_line(db_url, monkeypatch):
    """A database that can be read but not written (a file left read-only, a standby
    copy) passed the start-up, which only read it, and the server then refused every move."""
    Storage(db_url).close()                          # made and migrated: start-up writes nothing
    monkeypatch.setattr(storage_module, "make_engine", _readonly_engine(storage_module.make_engine))
    import uvicorn
    started = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: started.append(True))
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--db", db_url])
    assert started == [] and result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: --db: cannot open"), result.output
    assert "attempt to write a readonly database" in lines[0]


def _without_root_overrides(cmd: list[str]) -> list[str]:
    """Root writes a file whatever its mode: run `cmd` without that capability."""
    if os.geteuid() != 0:
        return cmd
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: a read-only file would be written anyway")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search,-fowner", "--", *cmd]


def test_a_read_only_database_file_or_folder_is_named_at_start_up(tmp_path):
    """SQLite says "attempt to write a readonly database" either way; the operator is told
    which of them cannot be written."""
    folder = tmp_path / "data"
    folder.mkdir()
    path = folder / "w.sqlite3"
    Storage(f"sqlite:///{path}").close()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    cmd = _without_root_overrides([sys.executable, "-m", "wasserspiele.cli.main", "serve", "--port", "0",
                                   "--db", f"sqlite:///{path}"])
    lock = Path(f"{path}.lock")
    for lock_down, words in [(lambda: path.chmod(0o400), "this user cannot write to the database file"),
                             (lambda: folder.chmod(0o500), f"this user cannot write to the folder '{folder}'"),
                             (lambda: (lock.unlink(), folder.chmod(0o500)),  # not even the lock file can be made
                              f"this user cannot write to the folder '{folder}'")]:
        lock_down()
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=env)
        except subprocess.TimeoutExpired:
            pytest.fail("the server started on a database it cannot write")
        finally:
            folder.chmod(0o700)
            path.chmod(0o600)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 1 and len(lines) == 1, done.stderr
        assert lines[0].startswith(f"Error: --db: cannot open 'sqlite:///{path}': ") and words in lines[0], lines[0]


def test_a_full_disk_at_start_up_is_named_whatever_sqlite_calls_it(tmp_path, monkeypatch):
    """SQLite calls a full disk at start-up "disk I/O error" as often as "database or disk
    is full" (it cannot map its -shm file): the free space is looked at and said."""
    from wasserspiele.cli import serve as serve_module

    real = os.statvfs
    full = real(tmp_path)

    class Full:
        def __getattr__(self, name):
            return 0 if name == "f_bavail" else getattr(full, name)
    monkeypatch.setattr(os, "statvfs", lambda p: Full() if str(p) == str(tmp_path) else real(p))
    hint = serve_module._sqlite_hint(str(tmp_path / "w.sqlite3"))
    assert hint == "the disk holding it is full, 0 kB free: free some space, or give another --db"


@pytest.mark.parametrize("kind,cause", FAULTS)
def test_a_new_table_the_database_refuses_says_why_in_the_players_language_and_leaves_nothing(
        client, db_url, kind, cause):
    """A new table refused for a full disk, a read-only database or a lock held by another
    program was answered "the database is not available" (`server.db_down`): the player
    was told the database is gone when it was not.  Now the cause, in their language, in
    the words a move's refusal uses for it; no row of the table, no seat, no lobby entry
    remains (the disk fills up only at the seats: their table's row, written first in the
    same transaction, goes too)."""
    hub = client.app.state.hub
    before = create(client, seats=humans(3))
    rows, lobby, live = _rows(db_url), client.get("/api/tables").json(), set(hub.tables)
    fault = Fault(kind, client, db_url)
    fault.on(only="seats")
    try:
        for lang in ("de", "en"):
            r = client.post(f"/api/tables?lang={lang}", json={"game": "wasserloch", "seats": humans(3)})
            assert r.status_code == 503 and r.headers["retry-after"], r.text
            _refused_for(r.json(), "server.table_unsaved", cause, lang)
        assert client.get("/api/tables").json() == lobby      # (the lobby still reads)
    finally:
        fault.off()
    assert _rows(db_url) == rows and rows[2] == 0 and set(hub.tables) == live
    made = create(client, seats=humans(3))                      # writable again: made
    assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [made["id"], before["id"]]


def ask_rematch(client, t, seat: int, lang: str | None = None):
    """Seat `seat` of the finished table `t` asks for its rematch (in `lang`'s words)."""
    query = f"?lang={lang}" if lang else ""
    return client.post(f"/api/tables/{t['id']}/rematch{query}", headers=auth(t["seats"][seat]["token"]))


def finished_game(client):
    t = create(client, options={"players": 2, "rounds": 1}, seats=humans(2))
    play_first_legal(client, t, 400)
    assert table_state(client, t["id"])["terminal"]
    return t


@pytest.mark.parametrize("kind,cause", FAULTS)
def test_a_rematch_the_database_refuses_says_why_and_is_made_once_it_takes_writes(client, db_url, kind, cause):
    """The first seat's rematch and the second seat's place at it, refused for the disk, a
    read-only database or a lock, were "the database is not available"."""
    t = finished_game(client)
    rows = _rows(db_url)
    fault = Fault(kind, client, db_url)

    ask = partial(ask_rematch, client, t)

    fault.on()
    try:
        r = ask(0, "de")
        assert r.status_code == 503, r.text
        _refused_for(r.json(), "server.rematch_unsaved", cause, "de")
    finally:
        fault.off()
    assert _rows(db_url) == rows                                # no rematch table, no seat
    assert "rematch" not in table_state(client, t["id"])
    made = ask(0, "en")
    assert made.status_code == 200, made.text
    fault.on()
    try:
        r = ask(1, "en")                                        # seat 1 takes its place there
        assert r.status_code == 503, r.text
        _refused_for(r.json(), "server.rematch_unsaved", cause, "en")
    finally:
        fault.off()
    joined = ask(1, "de")
    assert joined.status_code == 200 and joined.json()["id"] == made.json()["id"], joined.text
    token = joined.json()["link"].split("token=")[1]
    assert table_state(client, made.json()["id"], token)["seat"] == 1


@pytest.mark.parametrize("kind,cause", FAULTS)
def test_a_name_the_database_refuses_says_why_on_the_socket_which_stays(client, db_url, kind, cause):
    """A seat's name refused for the disk, a read-only database or a lock was "the
    database is not available"; the name stays the stored one, and is taken once the
    database takes writes again."""
    t = create(client, seats=humans(3))
    fault = Fault(kind, client, db_url)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": t["seats"][0]["token"], "lang": "de"}))
        assert ws.receive_json()["type"] == "state"
        fault.on()
        try:
            ws.send_text(json.dumps({"type": "name", "name": "Ann"}))
            said = _until_pong(ws)
        finally:
            fault.off()
        assert len(said) == 1, said
        _refused_for(said[0], "server.name_unsaved", cause, "de")
        assert table_state(client, t["id"])["seats"][0]["name"] is None
        ws.send_text(json.dumps({"type": "name", "name": "Ann"}))
        assert _until_pong(ws)[-1]["seats"][0]["name"] == "Ann"


def test_a_new_table_while_the_database_cannot_be_reached_is_not_available(client, db_url, monkeypatch):
    """Where the database is really gone (a connection refused), a new table is refused
    "not available" (`server.db_down`), as before: nothing was written."""
    storage = client.app.state.hub.storage

    def refused(*args, **kwargs):
        raise sa.exc.OperationalError("insert", {}, Exception("connection refused"))
    monkeypatch.setattr(storage, "create_table", refused)
    r = client.post("/api/tables?lang=de", json={"game": "wasserloch", "seats": humans(3)})
    assert r.status_code == 503 and r.json()["reason_code"] == "server.db_down", r.text
    assert r.json()["message"] == catalogue("de").text("server.db_down")


def test_a_new_table_stored_after_its_request_timed_out_leaves_no_lobby_entry(make_client, db_url, caplog):
    """The database took longer than `storage_seconds` to take a new table: the request
    was answered 503, but the write went on in its thread and committed once the lock was
    released, and the table stayed in the lobby for ever, its human seats for nobody (no
    one was given their tokens).  Now it is removed as soon as it is stored."""
    client = make_client(limits=Limits(storage_seconds=0.3))   # SQLite gives a lock up after 1 s (`quick`)
    rows = _rows(db_url)
    holder = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with caplog.at_level(logging.WARNING, logger="wasserspiele.web"):
            r = client.post("/api/tables", json={"game": "wasserloch", "seats": humans(3)})
            assert r.status_code == 503 and r.json()["reason_code"] == "server.db_down", r.text   # no answer
    finally:
        holder.execute("ROLLBACK")                              # within the write's busy wait
        holder.close()
    deadline = time.monotonic() + 10
    while not any("stored only after its request had been refused" in m for m in caplog.messages) \
            or _rows(db_url) != rows:
        assert time.monotonic() < deadline, (_rows(db_url), rows, client.get("/api/tables").json())
        time.sleep(0.02)   # polling the database file, under a deadline
    assert client.get("/api/tables").json()["tables"] == []


@pytest.mark.parametrize("sqlstate,cause", [("53100", Cause.FULL), ("25006", Cause.READ_ONLY),
                                            ("08006", Cause.DOWN), ("57P01", Cause.DOWN),
                                            ("58030", Cause.DISK), ("55P03", Cause.LOCKED),
                                            ("23505", Cause.STATEMENT)])
def test_a_postgresql_failure_is_told_by_its_sqlstate(sqlstate, cause):
    """PostgreSQL's full disk, read-only standby and lock held past `lock_timeout` are named
    as SQLite's are; a key taken is one statement's failure, not the database's."""
    class Orig(Exception):
        pgcode = sqlstate
    assert failure_cause(sa.exc.OperationalError("insert", {}, Orig("x"))) is cause


def test_every_cause_has_words_in_both_languages():
    for cause in Cause:
        for lang in ("en", "de"):
            assert catalogue(lang).has(cause.value), (cause, lang)


def test_a_move_queued_behind_one_the_lock_refused_is_told_the_same_cause(db_url):
    """A move applied while the one before it was being written, behind a lock another
    program holds, is never written once that one fails (`server.earlier_unsaved`); it
    is told the cause too, not only that something earlier failed."""
    from wasserspiele.web.hub import Hub

    async def scenario():
        storage = Storage(db_url)
        hub = Hub(storage, bot_delay=30)
        t, _ = await hub.create({"game": "wasserloch", "seats": humans(3)})
        holder = sqlite3.connect(db_url.removeprefix("sqlite:///"), isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            first = asyncio.ensure_future(t.submit(0, str(t.state.legal_actions(0)[0]), 0))
            await asyncio.sleep(0.2)          # its transaction waits for the lock
            seat = t.state.to_move()[0]
            second = asyncio.ensure_future(t.submit(seat, str(t.state.legal_actions(seat)[0]), 1))
            results = await asyncio.gather(first, second, return_exceptions=True)
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        await hub.shutdown()
        storage.close()
        return t.id, results

    table_id, (first, second) = asyncio.run(scenario())
    _refused_for(first.to_json("de"), "server.unsaved", Cause.LOCKED, "de")
    _refused_for(second.to_json("en"), "server.earlier_unsaved", Cause.LOCKED, "en")
    assert _moves_stored(db_url, table_id) == 0
