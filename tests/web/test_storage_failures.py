"""The server when its storage fails: a full disk, a database that cannot be written, a
lock held by another program, and the disk freeing up again (docs/web-server.md,
Durability and Running it).

The faults are SQLite's own: a full disk is SQLite refusing a page beyond
`max_page_count` inside the very transaction that writes (SQLITE_FULL), a read-only
database is `PRAGMA query_only` (SQLITE_READONLY), a lock is another connection's open
write transaction (SQLITE_BUSY).  What the server does with them is what it does with a
tmpfs that filled up (the measurements in the docs were made on one)."""

from __future__ import annotations

import asyncio
import json
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
from wasserspiele.core.messages import catalogue
from wasserspiele.web.storage import Storage

from .helpers import create, humans, move, table_state


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
        self.full = False
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
        if self.full:
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
        assert len(refusal) == 1 and refusal[0]["code"] == "storage", said
        assert refusal[0]["reason_code"] == "server.unsaved"
        assert refusal[0]["message"] == catalogue("de").text("server.unsaved")
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
