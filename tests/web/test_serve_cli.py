"""`wasserspiele serve`: options, the default database location, clear errors for bad URLs."""

from __future__ import annotations

import time

from click.testing import CliRunner

from wasserspiele.cli.main import main
from wasserspiele.web.storage import default_db_url

from .helpers import create, humans, move, table_state


def test_serve_is_a_command_with_host_port_and_db():
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    for word in ("--host", "--port", "--db", "127.0.0.1", "8000", "SQLAlchemy"):
        assert word in result.output


def test_the_default_database_is_sqlite_under_the_users_data_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    url = default_db_url()
    assert url == f"sqlite:///{tmp_path / 'wasserspiele' / 'wasserspiele.sqlite3'}"
    assert (tmp_path / "wasserspiele").is_dir()


def test_a_bad_or_unreachable_database_is_refused_with_a_clear_message():
    result = CliRunner().invoke(main, ["serve", "--db", "not a url"])
    assert result.exit_code == 1 and "--db: 'not a url' is not a database URL" in result.output
    result = CliRunner().invoke(main, ["serve", "--db", "sqlite:////nonexistent-dir/x/y.sqlite3"])
    assert result.exit_code == 1 and "--db: cannot open" in result.output
    result = CliRunner().invoke(main, ["serve", "--port", "70000"])
    assert result.exit_code == 2


def test_bots_wait_the_configured_delay_before_moving(make_client):
    client = make_client(bot_delay=0.4)
    t = create(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}])
    tok = t["seats"][0]["token"]
    started = time.monotonic()
    assert move(client, t["id"], tok, table_state(client, t["id"], tok)["legal"][0], 0).status_code == 200
    assert table_state(client, t["id"])["n"] == 1          # the bot has not moved at once
    while table_state(client, t["id"])["n"] < 3:
        assert time.monotonic() - started < 10
        time.sleep(0.05)
    assert time.monotonic() - started >= 0.8              # two bots, each after the delay


def test_a_second_server_on_one_sqlite_file_is_refused_with_a_message(db_url):
    from wasserspiele.web.storage import SQLiteInUse, Storage
    first = Storage(db_url, exclusive=True)
    try:
        result = CliRunner().invoke(main, ["serve", "--db", db_url])
        assert result.exit_code == 1
        assert "is in use by another wasserspiele server" in result.output and "PostgreSQL" in result.output
        try:
            Storage(db_url, exclusive=True)
        except SQLiteInUse as exc:
            assert f"process {__import__('os').getpid()}" in str(exc)   # it names the holder
        else:
            raise AssertionError("a second exclusive storage was allowed")
    finally:
        first.close()
    Storage(db_url, exclusive=True).close()                 # free again once the first has gone
    result = CliRunner().invoke(main, ["serve", "--db", db_url, "--workers", "2"])
    assert result.exit_code == 1 and "SQLite serves one process" in result.output


FROZEN_SERVER = """
import gc, json, os, sys
from starlette.testclient import TestClient
os.environ["WASSERSPIELE_BOT_POOL"] = "thread"
from wasserspiele.web.app import app_from_env
with TestClient(app_from_env()) as client:
    frozen = gc.get_freeze_count()
    games = {m["name"] for m in client.get("/api/games").json()["games"]}
    t = client.post("/api/tables", json={"game": "wildwasser", "options": {"players": 2},
                                          "seats": [{"kind": "human"}] * 2}).json()
    tokens = [s["token"] for s in t["seats"]]
    for token in tokens:  # both seats pick: the round is resolved
        auth = {"Authorization": "Bearer " + token}
        state = client.get("/api/tables/" + t["id"], headers=auth).json()
        r = client.post("/api/tables/" + t["id"] + "/moves", headers=auth,
                        content=json.dumps({"action": state["legal"][0], "n": state["n"]}))
        assert r.status_code == 200, r.text
    # every game's classes came in before the freeze; the tables made since did not
    assert all("wasserspiele.games." + g + ".rules" in sys.modules for g in games), games
    print(frozen, gc.get_freeze_count())
"""


def test_a_served_process_freezes_its_start_up_heap_before_any_table(tmp_path):
    """The served app takes its start-up heap out of the garbage collector's scans (a
    full collection over it paused every table for ~60 ms under load); the games are
    imported first, and tables come later, so they stay collectable."""
    import os
    import subprocess
    import sys
    env = {**os.environ, "WASSERSPIELE_DB": f"sqlite:///{tmp_path / 'frozen.sqlite3'}"}
    out = subprocess.run([sys.executable, "-c", FROZEN_SERVER], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    at_start, after_moves = map(int, out.stdout.split())
    assert at_start > 10_000 and after_moves <= at_start  # nothing frozen since (freed ones leave)


def _first_hands(client, games=("wasserloch", "watten", "wildwasser")):
    """What seat 0 sees at a new table of each game (its hand, the river's tiles), the
    tables made in this order."""
    hands = []
    for game, players in zip(games, (3, 4, 4)):
        t = create(client, game, seats=humans(players))
        hands.append(table_state(client, t["id"], t["seats"][0]["token"])["view"])
    return hands


def test_a_server_with_a_seed_deals_the_same_tables_in_the_same_order_on_every_start(make_client, tmp_path):
    """`serve --seed N` (WASSERSPIELE_DEAL_SEED): two servers over fresh databases deal the
    same hands to the same tables made in the same order; another seed, or none, others."""
    seeded = [_first_hands(make_client(f"sqlite:///{tmp_path / f'{i}.sqlite3'}", deal_seed=5)) for i in range(2)]
    assert seeded[0] == seeded[1]
    other = _first_hands(make_client(f"sqlite:///{tmp_path / 'other.sqlite3'}", deal_seed=6))
    unseeded = _first_hands(make_client(f"sqlite:///{tmp_path / 'none.sqlite3'}"))
    assert other != seeded[0] and unseeded != seeded[0]
