"""Fixtures for the web tests: an app over a fresh SQLite file, and helpers to play."""

from __future__ import annotations

import os
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

@pytest.fixture(scope="session")
def pg_url():
    """A PostgreSQL URL: $WASSERSPIELE_TEST_PG_URL, or a throwaway cluster from initdb."""
    url = os.environ.get("WASSERSPIELE_TEST_PG_URL")
    if url:
        yield url
        return
    from wasserspiele.web.devdb import Unavailable, throwaway_postgresql
    cluster = throwaway_postgresql()
    try:
        url = cluster.__enter__()
    except Unavailable as exc:
        pytest.skip(str(exc))
    try:
        yield url
    finally:
        cluster.__exit__(None, None, None)
