"""`wasserspiele serve` as the person who runs it meets it: a refused start-up says why in
one line (never a traceback, never a password), the database is the user's alone, a
load balancer has a health check, and Ctrl-C while bots think stops at once and cleanly."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import time
import urllib.request

import pytest
from click.testing import CliRunner

from wasserspiele.cli.main import main
from wasserspiele.web.storage import Storage, default_db_url

from .browser_support import free_port


def serve(*args: str, env: dict | None = None):
    """`serve ARGS` in this process, as an operator's shell runs it (only for start-ups
    that are refused: a server that started would serve here for ever)."""
    return CliRunner().invoke(main, ["serve", *args], env=env)


def refused_in_one_line(result) -> str:
    """The refusal's text, checked to be one `Error:` line and exit 1, not a traceback."""
    assert result.exit_code == 1, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), repr(result.exception)  # not a crash
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


def test_a_file_that_is_not_a_database_is_refused_in_one_line(tmp_path):
    path = tmp_path / "notes.sqlite3"
    path.write_text("a shopping list, not a database " * 10)
    line = refused_in_one_line(serve("--db", f"sqlite:///{path}"))
    assert f"cannot open 'sqlite:///{path}'" in line and "file is not a database" in line


def test_a_database_a_newer_version_migrated_is_refused_naming_both_revisions(db_url, tmp_path):
    Storage(db_url).close()
    con = sqlite3.connect(tmp_path / "web.sqlite3")
    known = con.execute("select version_num from alembic_version").fetchone()[0]
    con.execute("update alembic_version set version_num = 'f00dfeed0099'")
    con.commit()
    con.close()
    line = refused_in_one_line(serve("--db", db_url))
    assert "revision f00dfeed0099" in line and f"up to {known}" in line and "newer" in line


def test_a_data_directory_that_cannot_be_made_is_refused_with_the_way_out(tmp_path):
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("")
    line = refused_in_one_line(serve(env={"XDG_DATA_HOME": str(in_the_way)}))
    assert "cannot make the folder for the default database" in line and str(in_the_way) in line
    assert "--db sqlite:///PATH" in line


def test_a_database_in_a_folder_that_does_not_exist_names_the_folder(tmp_path):
    line = refused_in_one_line(serve("--db", f"sqlite:///{tmp_path}/nowhere/w.sqlite3"))
    assert f"the folder '{tmp_path}/nowhere' does not exist" in line
    assert ".lock" not in line  # the lock file beside it is no concern of the operator's


def test_a_password_in_the_database_url_is_never_printed():
    free = free_port()  # nothing listens there: the connection is refused at once
    line = refused_in_one_line(serve("--db", f"postgresql+psycopg://game:s3cr3t-pw@127.0.0.1:{free}/w"))
    assert "s3cr3t-pw" not in line and f"game:***@127.0.0.1:{free}/w" in line
    assert "sqlalche.me" not in line  # SQLAlchemy's link line is not part of the reason
    line = refused_in_one_line(serve("--db", "postgres://game:s3cr3t-pw@db/w"))  # Heroku's spelling
    assert "s3cr3t-pw" not in line and "postgresql://" in line
    from wasserspiele.web.storage import shown_url
    assert shown_url("postgresql://game:s3cr3t-pw@db/w") == "postgresql://game:***@db/w"


def _serve_process(*args: str, env: dict | None = None, group: bool = False) -> subprocess.Popen:
    # a shell's Ctrl-C reaches a foreground server with SIGINT's default handling, which a
    # process started in the background (as the test runner may be) would have ignored;
    # `group`: a process group of its own, which a terminal's Ctrl-C signals as a whole
    return subprocess.Popen([sys.executable, "-m", "wasserspiele.cli.main", "serve", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})}, start_new_session=group,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def test_a_port_in_use_is_refused_before_the_start_up_line_claims_it(db_url):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = _serve_process("--port", str(port), "--db", db_url)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1, (out, err)
    assert out == ""  # no "wasserspiele: http://127.0.0.1:PORT/" for a server that never listened
    assert err.strip() == (f"Error: cannot listen on 127.0.0.1:{port}: Address already in use "
                           "(another program listens there: stop it, or choose another --port)")


def test_a_host_that_is_not_this_machines_is_refused_in_one_line(db_url):
    line = refused_in_one_line(serve("--host", "host.invalid", "--db", db_url))
    assert line.startswith("Error: --host 'host.invalid': ")


def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_database_file_and_data_folder_are_the_users_alone(tmp_path, monkeypatch):
    """The file holds every table's seed — the cards and dice still to come follow from it —
    and it was made 0644, readable by every user of the machine."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    url = default_db_url()
    assert _mode(tmp_path / "data" / "wasserspiele") == 0o700
    storage = Storage(url, exclusive=True)
    try:
        path = url.removeprefix("sqlite:///")
        for name in (path, path + "-wal", path + ".lock"):
            assert os.path.exists(name) and _mode(name) == 0o600, (name, oct(_mode(name)))
    finally:
        storage.close()
    # a file the operator made and opened up on purpose keeps its mode
    shared = tmp_path / "shared.sqlite3"
    sqlite3.connect(shared).close()
    os.chmod(shared, 0o640)
    Storage(f"sqlite:///{shared}").close()
    assert _mode(shared) == 0o640


def test_healthz_answers_while_the_database_does_and_503_when_it_does_not(client, monkeypatch):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}
    assert r.headers["cache-control"] == "no-store"
    import sqlalchemy as sa

    def down():
        raise sa.exc.OperationalError("SELECT 1", {}, Exception("connection refused"))
    monkeypatch.setattr(client.app.state.hub.storage, "ping", down)
    r = client.get("/healthz")
    assert r.status_code == 503 and r.json()["error"] == "storage" and r.headers["retry-after"]


def test_serve_help_names_the_environment_and_the_health_check():
    out = CliRunner().invoke(main, ["serve", "--help"]).output
    for words in ("WASSERSPIELE_<NAME>", "WASSERSPIELE_TABLES_PER_CLIENT", "/healthz", "SIGTERM"):
        assert words in out


def _get(base: str, path: str, token: str | None = None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return json.loads(urllib.request.urlopen(urllib.request.Request(base + path, headers=headers), timeout=30).read())


def _post(base: str, path: str, body, token: str | None = None):
    headers = {"content-type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers, method="POST")
    return json.loads(urllib.request.urlopen(req, timeout=30).read())


def _until_up(proc: subprocess.Popen, base: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            _get(base, "/api/games")
            return
        except OSError:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the server did not start within 60 s"
            time.sleep(0.1)  # polling a subprocess that has no readiness signal, under a deadline


@pytest.mark.parametrize("stop,group", [(signal.SIGINT, False), (signal.SIGINT, True), (signal.SIGTERM, False)],
                         ids=["ctrl-c", "ctrl-c-in-a-terminal", "sigterm"])
def test_stopping_while_bots_think_is_prompt_and_clean_and_keeps_every_answered_move(tmp_path, stop, group):
    """Six tables whose expert bots queue for one worker process: the stop cancels what
    waits and ends the search under way.  It printed a traceback of the process pool
    (InvalidStateError on a cancelled bot's future, Python before 3.12) in most runs.  A
    terminal's Ctrl-C signals the whole process group: the worker, thinking, printed the
    traceback of its KeyboardInterrupt."""
    url = f"sqlite:///{tmp_path / 'stop.sqlite3'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {"WASSERSPIELE_BOT_WORKERS": "1"}
    proc = _serve_process("--port", str(port), "--db", url, "--bot-delay", "0", env=env, group=group)
    try:
        _until_up(proc, base)
        played = {}
        for _ in range(6):
            t = _post(base, "/api/tables", {"game": "wildwasser", "options": {"players": 2},
                                            "seats": [{"kind": "human"}, {"kind": "bot", "level": "expert"}]})
            token = t["seats"][0]["token"]
            state = _get(base, f"/api/tables/{t['id']}", token)
            _post(base, f"/api/tables/{t['id']}/moves", {"action": state["legal"][0], "n": state["n"]}, token)
            played[t["id"]] = (token, state["legal"][0])
        started = time.monotonic()
        if group:
            os.killpg(proc.pid, stop)
        else:
            proc.send_signal(stop)
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - started
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert took < 5, f"the stop took {took:.1f} s"
    assert proc.returncode in (0, -stop), (proc.returncode, err)  # uvicorn ends by the signal it got
    # nothing at all on stderr: it was a traceback of the process pool (Ctrl-C) or the
    # resource tracker's "leaked semaphore objects" warning (SIGTERM)
    assert err == "", err
    assert out.startswith("wasserspiele ") and f"http://127.0.0.1:{port}/" in out
    # started again, every table goes on from the move each human was answered for
    proc = _serve_process("--port", str(port), "--db", url, "--bot-delay", "0", env=env)
    try:
        _until_up(proc, base)
        con = sqlite3.connect(tmp_path / "stop.sqlite3")
        try:
            for table_id, (token, action) in played.items():
                stored = con.execute("select action from moves where table_id = ? and seat = 0 order by n",
                                     (table_id,)).fetchall()
                assert stored and stored[0][0] in (action, f"0: {action}"), (table_id, stored)  # a pick names its seat
                state = _get(base, f"/api/tables/{table_id}", token)
                assert state["seat"] == 0 and state["n"] >= 1, state
        finally:
            con.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)
