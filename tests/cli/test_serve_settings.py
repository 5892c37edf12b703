"""`wasserspiele serve` checks the server's operator settings (the environment variables
its workers read: web/app.py env_settings, the limits' in web/limits.py) before it opens the database or starts uvicorn: a bad value is
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
    # where the bots think: a bad kind was a traceback from uvicorn's start-up, exit 3
    ("WASSERSPIELE_BOT_POOL", "bogus", "WASSERSPIELE_BOT_POOL='bogus': one of process, thread, inline"),
    # the deals' seed (`serve --seed`), when the operator sets it as a variable
    ("WASSERSPIELE_DEAL_SEED", "1.5", "WASSERSPIELE_DEAL_SEED='1.5': not a whole number"),
])
def test_serve_refuses_a_bad_limit_setting_with_one_error_line(run, no_server, name, value, words):
    result = run("serve", "--db", "sqlite:///never.sqlite3", env={name: value})
    assert result.exit_code == 2, result.output
    assert result.output.strip() == f"Error: {words}", result.output
    assert "Traceback" not in result.output and "wasserspiele: http" not in result.output


def test_serve_s_own_bot_delay_is_what_the_workers_read(run, no_server):
    """serve passes --bot-delay to its workers as WASSERSPIELE_BOT_DELAY: a value of that
    variable in the operator's environment is replaced, so it is not refused."""
    # it goes on to open the database (which the fixture stops): the setting is not refused
    with pytest.raises(AssertionError, match="went on"):
        run("serve", "--db", "sqlite:///never.sqlite3", env={"WASSERSPIELE_BOT_DELAY": "slow"})


def test_the_workers_settings_refuse_a_bad_delay_naming_the_variable():
    from wasserspiele.web.app import env_settings
    with pytest.raises(ValueError, match=r"^WASSERSPIELE_BOT_DELAY='slow': not a number of seconds$"):
        env_settings({"WASSERSPIELE_BOT_DELAY": "slow"})
    assert env_settings({"WASSERSPIELE_DB": "sqlite:///x.sqlite3", "WASSERSPIELE_BOT_POOL": "thread"}) == {
        "db_url": "sqlite:///x.sqlite3", "bot_delay": 0.7, "bot_pool": "thread", "deal_seed": None}
    assert env_settings({"WASSERSPIELE_DEAL_SEED": "-3"})["deal_seed"] == -3


def test_serve_refuses_a_seed_that_is_not_a_whole_number_naming_its_own_flag(run, no_server):
    result = run("serve", "--db", "sqlite:///never.sqlite3", "--seed", "five")
    assert result.exit_code == 2 and "'five' is not a valid integer" in result.output, result.output
    assert "WASSERSPIELE_DEAL_SEED" not in result.output
    assert "--seed N" in run("serve", "--help").output


def test_serve_refuses_a_bot_delay_of_nan_naming_its_own_flag(run, no_server):
    """`--bot-delay nan` passed click's range (NaN compares false to both bounds) and was
    then refused as the workers' variable WASSERSPIELE_BOT_DELAY, which the user never typed."""
    result = run("serve", "--db", "sqlite:///never.sqlite3", "--bot-delay", "nan")
    assert result.exit_code == 2, result.output
    assert "--bot-delay" in result.output and "WASSERSPIELE_BOT_DELAY" not in result.output
