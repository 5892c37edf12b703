"""Helpers for the web tests: create tables, read states, play moves."""

from __future__ import annotations

import json


def create(client, game="wasserloch", options=None, seats=None):
    body = {"game": game, "options": options or {}}
    if seats is not None:
        body["seats"] = seats
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def humans(n):
    return [{"kind": "human"}] * n


def auth(token):
    return {"Authorization": f"Bearer {token}"}


def table_state(client, table_id, token=None):
    r = client.get(f"/api/tables/{table_id}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    return r.json()


def assert_same_table(now, before):
    """`now` (table_state) shows the table as `before` did: the game and its seats alike,
    but for the countdown until an absent player's seat may be given to a bot
    (`stand_in_after`, seconds), which runs on meanwhile (at load 19 a few refusals took
    long enough for it to show 59.7 against 60.0)."""
    now, before = json.loads(json.dumps(now)), json.loads(json.dumps(before))
    waits = [(a.pop("stand_in_after"), b.pop("stand_in_after")) for a, b in zip(now["seats"], before["seats"])]
    assert now == before
    assert all(a == b or a <= b for a, b in waits), waits


def move(client, table_id, token, action, n):
    return client.post(f"/api/tables/{table_id}/moves", headers=auth(token),
                       content=json.dumps({"action": action, "n": n}))


def play_first_legal(client, table, steps):
    """Each step: the seat to move plays its first legal move over HTTP."""
    tokens = {s["seat"]: s["token"] for s in table["seats"] if s["kind"] == "human"}
    for _ in range(steps):
        spectator = table_state(client, table["id"])
        if spectator["terminal"]:
            return
        seat = spectator["to_move"][0]
        mine = table_state(client, table["id"], tokens[seat])
        r = move(client, table["id"], tokens[seat], mine["legal"][0], mine["n"])
        assert r.status_code == 200, r.text


def hello(ws, token=None):
    ws.send_text(json.dumps({"type": "hello", "token": token}))
    return ws.receive_json()


def database_at(url: str, revision: str):
    """A fresh database at `url` migrated only up to `revision`, as an older server left
    it (for the migration tests); its engine, to fill in before a Storage opens it."""
    from alembic import command
    from alembic.config import Config

    import wasserspiele.web.storage as storage

    engine = storage.make_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(storage.Path(storage.__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
    return engine
