"""Fixtures for the web tests: an app over a fresh SQLite file, and helpers to play."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import warnings

import pytest

warnings.filterwarnings("ignore", message=".*httpx.*")
from starlette.testclient import TestClient  # noqa: E402

from wasserspiele.web.app import create_app  # noqa: E402


@pytest.fixture
def db_url(tmp_path):
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


@pytest.fixture
def make_client(db_url):
    """Start an app (optionally over another URL; bots wait `bot_delay` s); every client is closed at the end."""
    clients = []

    def make(url: str | None = None, bot_delay: float = 30.0, bot_pool: str = "thread", **kwargs) -> TestClient:
        client = TestClient(create_app(url or db_url, bot_delay=bot_delay, bot_pool=bot_pool, **kwargs))
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for c in reversed(clients):
        c.__exit__(None, None, None)


@pytest.fixture
def client(make_client):
    return make_client()


# -- PostgreSQL ---------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def pg_url():
    """A PostgreSQL URL: $WASSERSPIELE_TEST_PG_URL, or a throwaway cluster from initdb."""
    url = os.environ.get("WASSERSPIELE_TEST_PG_URL")
    if url:
        yield url
        return
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e .[postgres])")
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if not (initdb and pg_ctl):
        pytest.skip("no PostgreSQL server: set WASSERSPIELE_TEST_PG_URL or install initdb/pg_ctl")
    run_as: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        if not shutil.which("runuser"):
            pytest.skip("running as root without runuser: cannot start a PostgreSQL cluster")
        try:
            import pwd
            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no postgres user to run the cluster")
        run_as = ["runuser", "-u", "postgres", "--"]
    folder = tempfile.mkdtemp(prefix="wasserspiele-pg-")
    if run_as:
        shutil.chown(folder, "postgres")
    data = os.path.join(folder, "data")
    port = _free_port()
    try:
        subprocess.run([*run_as, initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"],
                       check=True, capture_output=True, timeout=120)
        subprocess.run([*run_as, pg_ctl, "-D", data, "-w", "-l", os.path.join(folder, "log"), "-o",
                        f"-k {folder} -p {port} -h 127.0.0.1 -F", "start"],
                       check=True, capture_output=True, timeout=60)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"could not start a throwaway PostgreSQL cluster: {exc}")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*run_as, pg_ctl, "-D", data, "-m", "immediate", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)
