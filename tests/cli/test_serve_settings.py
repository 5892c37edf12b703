"""`wasserspiele serve` checks the server's operator settings (the limits' environment
variables, web/limits.py) before it opens the database or starts uvicorn: a bad value is
one `Error: …` line and exit 2, as serve's other refusals, never a traceback from inside
uvicorn's app factory."""

from __future__ import annotations

import pytest


@pytest.fixture
def no_server(monkeypatch):
    """uvicorn.run and the database must never be reached: the check comes first."""
    import uvicorn

    from wasserspiele.web import storage

    def refuse(*_a, **_k):
        raise AssertionError("serve went on past a bad setting")
    monkeypatch.setattr(uvicorn, "run", refuse)
    monkeypatch.setattr(storage, "Storage", refuse)


@pytest.mark.parametrize("name, value, words", [
    ("WASSERSPIELE_TABLES_PER_CLIENT", "abc", "WASSERSPIELE_TABLES_PER_CLIENT='abc': not an int"),
    ("WASSERSPIELE_OPEN_HOURS", "soon", "WASSERSPIELE_OPEN_HOURS='soon': not a float"),
    ("WASSERSPIELE_BOT_WORKERS", "-1", "limit bot_workers: -1 must be a number ≥ 0"),
])
def test_serve_refuses_a_bad_limit_setting_with_one_error_line(run, no_server, name, value, words):
    result = run("serve", "--db", "sqlite:///never.sqlite3", env={name: value})
    assert result.exit_code == 2, result.output
    assert result.output.strip() == f"Error: {words}", result.output
    assert "Traceback" not in result.output and "wasserspiele: http" not in result.output
