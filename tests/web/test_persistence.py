"""Persistence: records in the database, restarts, reproducible chance, migrations,
and the same behaviour on PostgreSQL when a server can be had."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

from wasserspiele.core.records import replay
from wasserspiele.web.storage import Storage

from .helpers import assert_same_table, create, humans, move, play_first_legal, table_state


def test_a_restarted_server_continues_every_game_where_it_was(make_client):
    client = make_client()
    t = create(client, "watten", seats=humans(4))
    play_first_legal(client, t, 9)
    before = {s["seat"]: table_state(client, t["id"], s["token"]) for s in t["seats"]}
    client.__exit__(None, None, None)
    client = make_client()
    after = {s["seat"]: table_state(client, t["id"], s["token"]) for s in t["seats"]}
    for seat in before:
        before[seat]["seats"] = after[seat]["seats"] = None  # who is online differs
    assert after == before and after[0]["n"] == 9
    play_first_legal(client, t, 3)
    assert table_state(client, t["id"])["n"] == 12


def _copy_sqlite(url: str, dest: str) -> str:
    src = sqlite3.connect(url.removeprefix("sqlite:///"))
    dst = sqlite3.connect(dest)
    src.backup(dst)
    src.close()
    dst.close()
    return f"sqlite:///{dest}"


def test_chance_still_to_come_is_the_same_with_or_without_a_restart(make_client, db_url, tmp_path):
    """Round 2's deck is drawn after the snapshot: the live game and a game restarted
    from the snapshot must draw the same one."""
    live = make_client()
    t = create(live, options={"players": 2, "rounds": 2}, seats=humans(2))
    play_first_legal(live, t, 4)
    copy_url = _copy_sqlite(db_url, str(tmp_path / "copy.sqlite3"))
    play_first_legal(live, t, 1000)
    restarted = make_client(copy_url)
    play_first_legal(restarted, t, 1000)
    a = live.get(f"/api/tables/{t['id']}/record").json()
    b = restarted.get(f"/api/tables/{t['id']}/record").json()
    assert len(a["setup"]["decks"]) == 2 and a == b


def test_every_accepted_move_is_in_the_database_before_anyone_hears_of_it(client, db_url):
    t = create(client, seats=humans(3))
    play_first_legal(client, t, 3)
    con = sqlite3.connect(db_url.removeprefix("sqlite:///"))
    moves = con.execute("select seat, action from moves where table_id = ? order by n", (t["id"],)).fetchall()
    status = con.execute("select status, (select count(*) from moves where table_id = id) from tables "
                         "where id = ?", (t["id"],)).fetchone()
    con.close()
    record_actions = client.app.state.hub.tables[t["id"]].state.record_actions()
    assert [a for _, a in moves] == record_actions and [s for s, _ in moves] == [0, 1, 2]
    assert status == ("running", 3)


def test_a_failed_save_refuses_the_move_and_keeps_the_game(client, monkeypatch):
    t = create(client, seats=humans(3))
    tok = t["seats"][0]["token"]
    me = table_state(client, t["id"], tok)
    storage = client.app.state.hub.storage

    def broken(*args, **kwargs):
        raise sa.exc.OperationalError("insert", {}, Exception("disk full"))
    monkeypatch.setattr(storage, "save_batch", broken)
    with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
        ws.send_text(json.dumps({"type": "hello", "token": None}))
        assert ws.receive_json()["n"] == 0
        r = move(client, t["id"], tok, me["legal"][0], 0)
        assert r.status_code == 503 and "could not be saved" in r.json()["reason"]
        assert ws.receive_json()["n"] == 0     # read back in place: its clients stay, shown no unsaved move
    monkeypatch.undo()
    assert_same_table(table_state(client, t["id"], tok), me)  # rebuilt from the database
    assert move(client, t["id"], tok, me["legal"][0], 0).status_code == 200


def _head_revision() -> str:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    import wasserspiele.web.storage as storage
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(storage.__file__).parent / "migrations"))
    return ScriptDirectory.from_config(cfg).get_current_head()


def test_migrations_run_at_start_up_and_are_idempotent(db_url):
    Storage(db_url).close()
    Storage(db_url).close()
    engine = sa.create_engine(db_url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("select version_num from alembic_version")).scalar() == _head_revision()
        names = set(sa.inspect(conn).get_table_names())
    engine.dispose()
    assert {"tables", "seats", "moves", "alembic_version"} <= names


# -- PostgreSQL ---------------------------------------------------------------------

def test_postgresql_stores_moves_and_survives_a_restart(make_client, pg_url):
    client = make_client(pg_url)
    t = create(client, "seven_waters", seats=humans(2))
    play_first_legal(client, t, 6)
    before = table_state(client, t["id"], t["seats"][1]["token"])
    client.__exit__(None, None, None)
    client = make_client(pg_url)
    after = table_state(client, t["id"], t["seats"][1]["token"])
    before["seats"] = after["seats"] = None
    assert after == before and after["n"] == 6
    r = move(client, t["id"], t["seats"][0]["token"], "take 9-9", 6)
    assert r.status_code in (400, 409, 422)
    started = time.monotonic()
    play_first_legal(client, t, 4)
    assert table_state(client, t["id"])["n"] == 10 and time.monotonic() - started < 30
    record = client.app.state.hub.tables[t["id"]].state.record()
    assert replay(record).view(None) == table_state(client, t["id"])["view"]


def test_group_commit_writes_concurrent_moves_together_and_isolates_a_failure(db_url):
    import asyncio

    from wasserspiele.web.hub import Hub, Refused

    async def scenario():
        storage = Storage(db_url)
        hub = Hub(storage, bot_delay=30)
        tables = [(await hub.create({"game": "wasserloch", "seats": humans(3)}))[0] for _ in range(6)]
        calls = []
        real = storage.save_batch

        def counting(batch):
            calls.append([p.table_id for p in batch])
            if any(p.table_id == tables[0].id for p in batch):
                raise RuntimeError("disk trouble for one table")
            real(batch)
        storage.save_batch = counting
        moves = [t.submit(0, str(t.state.legal_actions(0)[0]), 0) for t in tables]
        results = await asyncio.gather(*moves, return_exceptions=True)
        await hub.shutdown()
        storage.close()
        return tables, calls, results

    tables, calls, results = asyncio.run(scenario())
    assert len(calls[0]) == 6                       # one transaction for six tables' moves ...
    assert isinstance(results[0], Refused) and results[0].status == 503
    assert all(r["n"] == 1 for r in results[1:])    # ... and the others are saved one by one
    storage = Storage(db_url)
    for t in tables:
        row = storage.load_table(t.id)
        assert len(row.actions) == (0 if t is tables[0] else 1)
    storage.close()


def _picks_at_once(db_url, fail_first: bool):
    """Four Wildwasser seats pick at the same moment on one table while a spectator
    watches; `fail_first`: the transaction holding the first pick fails."""
    import asyncio

    from wasserspiele.web.hub import Connection, Hub

    async def scenario():
        storage = Storage(db_url)
        hub = Hub(storage, bot_delay=30)
        table, _ = await hub.create({"game": "wildwasser", "seats": humans(4)})
        calls, stored, pushed = [], [0], []
        real = storage.save_batch

        def saving(batch):
            calls.append([(p.table_id, p.first_n) for p in batch])
            if fail_first and any(p.first_n == 0 for p in batch):
                raise RuntimeError("disk trouble")
            real(batch)
            stored[0] = len(storage.load_table(table.id).actions)
        storage.save_batch = saving

        class Watcher(Connection):
            def push(self, text):  # what is queued for the client, when it is queued
                pushed.append((json.loads(text)["n"], stored[0]))

        async def send(text):
            pass
        table.attach(Watcher(send, None))
        async def pick(seat, animal):
            answer = await table.submit(seat, f"pick {animal}", 0)
            return {**answer, "pushed before": [n for n, _ in pushed]}
        picks = [pick(seat, animal) for seat, animal in enumerate(["zebra", "turtle", "cheetah", "rhino"])]
        results = await asyncio.gather(*picks, return_exceptions=True)
        await asyncio.sleep(0.05)
        rows = storage.load_table(table.id).actions
        await hub.shutdown()
        storage.close()
        return calls, pushed, results, rows

    return asyncio.run(scenario())


def test_simultaneous_picks_are_committed_together_and_pushed_once_stored(db_url):
    """The table's lock covers applying a move, not its commit: the four picks are applied
    one after another and written in one transaction, and the position is pushed once,
    after all four are stored (never a position with a move not yet stored)."""
    calls, pushed, results, rows = _picks_at_once(db_url, fail_first=False)
    assert [r["n"] for r in results] == [1, 2, 3, 4]
    assert len(rows) == 4
    assert calls == [[(calls[0][0][0], n) for n in range(4)]]   # one transaction, in order
    assert pushed[0][0] == 0 and [n for n, _ in pushed[1:]] == [4]
    assert all(4 in r["pushed before"] for r in results)  # every mover is answered after the push
    assert all(n <= stored for n, stored in pushed)


def test_a_failed_save_refuses_the_moves_queued_on_top_of_it_and_stores_none(db_url):
    from wasserspiele.web.hub import Refused

    calls, pushed, results, rows = _picks_at_once(db_url, fail_first=True)
    assert all(isinstance(r, Refused) for r in results)
    assert {r.code for r in results} == {"storage"} and all(r.status == 503 for r in results)
    assert "earlier move" in results[1].reason
    assert rows == []                                   # nothing half-written ...
    assert all(n == 0 for n, _ in pushed)               # ... and nobody was shown a pick


def test_bots_carry_on_after_a_restart(make_client):
    client = make_client(bot_delay=0.02)
    t = create(client, options={"players": 2, "rounds": 1},
               seats=[{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}])
    deadline = time.monotonic() + 20
    while table_state(client, t["id"])["n"] < 4:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    client.__exit__(None, None, None)
    storage = Storage(client.app.state.hub.storage.url)
    stopped_at = storage.load_table(t["id"])
    storage.close()
    assert stopped_at.status == "running" and len(stopped_at.actions) >= 4
    client = make_client(bot_delay=0.0)        # nobody opens the table: the start-up resumes it
    deadline = time.monotonic() + 30
    while not client.get("/api/tables?status=over").json()["tables"]:
        assert time.monotonic() < deadline, "the bots did not carry on"
        time.sleep(0.05)
    record = client.get(f"/api/tables/{t['id']}/record").json()
    assert record["actions"][:len(stopped_at.actions)] == stopped_at.actions


def test_a_table_whose_record_cannot_be_rebuilt_is_refused_clearly_and_kept(make_client, db_url, caplog):
    """Refused with its own code; why is in the server's log, not in the answer, which
    went to anyone asking (a rules change could make the engine's reason name a hidden
    card: "seat 0 holds only one ace")."""
    client = make_client()
    t = create(client, seats=humans(3))
    play_first_legal(client, t, 2)
    client.__exit__(None, None, None)
    con = sqlite3.connect(db_url.removeprefix("sqlite:///"))
    con.execute("insert into moves (table_id, n, seat, action, created) values (?, 2, 2, 'Zx9', '2026-01-01')",
                (t["id"],))
    con.commit()
    con.close()
    client = make_client()
    r = client.get(f"/api/tables/{t['id']}")
    assert r.status_code == 500 and r.json()["error"] == "broken_table"
    assert "Zx9" not in r.text and 'action 2 "Zx9"' in caplog.text
    storage = Storage(db_url)
    assert storage.load_table(t["id"]).actions[2] == "Zx9"   # nothing was deleted
    storage.close()


def test_a_dropped_table_object_refuses_to_act(client):
    from wasserspiele.web.hub import Refused
    t = create(client, seats=humans(3))
    hub = client.app.state.hub
    old = client.portal.call(hub.open, t["id"])
    hub.forget(t["id"])
    legal = str(old.state.legal_actions(0)[0])
    with pytest.raises(Refused) as exc:
        client.portal.call(old.submit, 0, legal, 0)
    assert exc.value.code == "reload"
    assert table_state(client, t["id"])["n"] == 0          # a fresh object from the database
    assert client.portal.call(hub.open, t["id"]) is not old


def test_bots_play_the_same_game_with_or_without_a_restart(make_client, db_url, tmp_path):
    live = make_client(bot_delay=0.01)
    t = create(live, options={"players": 2, "rounds": 2},
               seats=[{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}])
    deadline = time.monotonic() + 60   # a deadline: a stalled bot fails this test instead of hanging the suite
    while table_state(live, t["id"])["n"] < 5:
        assert time.monotonic() < deadline, "the bots did not make five moves within 60 s"
        time.sleep(0.01)
    copy_url = _copy_sqlite(db_url, str(tmp_path / "copy.sqlite3"))
    restarted = make_client(copy_url, bot_delay=0.0)
    records = []
    for client in (live, restarted):
        deadline = time.monotonic() + 60
        while not table_state(client, t["id"])["terminal"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        records.append(client.get(f"/api/tables/{t['id']}/record").json())
    assert records[0] == records[1] and len(records[0]["setup"]["decks"]) == 2


def test_no_one_is_shown_a_move_before_it_is_stored(make_client):
    """A move is applied at once and committed after; the HTTP read of the table and a
    spectator arriving meanwhile showed it before it was stored (and a server stopped then
    lost it: `test_bots_carry_on_after_a_restart` failed now and then under load)."""
    import threading

    from wasserspiele.web.hub import Connection

    client = make_client()
    t = create(client, seats=humans(3))
    hub = client.app.state.hub
    gate, real = threading.Event(), hub.storage.save_batch

    def held(batch):  # the commit waits for the gate
        gate.wait(10)
        real(batch)
    hub.storage.save_batch = held
    token = t["seats"][0]["token"]
    legal = table_state(client, t["id"], token)["legal"]
    mover = threading.Thread(target=move, args=(client, t["id"], token, legal[0], 0))
    mover.start()
    table = hub.tables[t["id"]]
    deadline = time.monotonic() + 10
    while not table.unsaved:  # applied, its commit held
        assert time.monotonic() < deadline
        time.sleep(0.005)
    pushed = []

    class Watcher(Connection):
        def push(self, text):
            pushed.append(json.loads(text)["n"])

    async def send(text):
        pass
    client.portal.call(lambda: table.attach(Watcher(send, None)))  # a spectator arrives now
    seen = {}
    reader = threading.Thread(target=lambda: seen.setdefault("n", table_state(client, t["id"])["n"]))
    reader.start()
    reader.join(0.3)
    assert reader.is_alive() and pushed == []  # neither is shown the unsaved move ...
    gate.set()
    mover.join(10)
    reader.join(10)
    assert seen["n"] == 1 and pushed == [1]    # ... and both see it once it is stored
    assert len(hub.storage.load_table(t["id"]).actions) == 1


def test_a_move_numbered_past_this_process_is_read_from_storage_before_it_is_judged(db_url):
    """Two server processes: a client that read the table from one and moves on the other
    before that one has heard of the move between (its notice still on the way) sent a
    move number this process had not reached, and was refused "move 1 has not been played"
    (seen in CI's racing-moves test).  The process reads what is stored first."""
    import asyncio

    from wasserspiele.web.hub import Hub

    async def scenario():
        here, there = Hub(Storage(db_url), bot_delay=30), Hub(Storage(db_url), bot_delay=30)
        table, _ = await here.create({"game": "wasserloch", "options": {"players": 2}, "seats": humans(2)})
        behind = await there.open(table.id)
        await table.submit(0, str(table.state.legal_actions(0)[0]), 0)
        answer = await behind.submit(1, str(table.state.legal_actions(1)[0]), 1)
        for hub in (here, there):
            await hub.shutdown()
        return answer

    assert asyncio.run(scenario())["n"] == 2
