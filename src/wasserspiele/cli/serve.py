"""`wasserspiele serve`: the web app (lobby, live tables, replays) on one port."""

from __future__ import annotations

import os

import click

from .language import quoted


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="port to listen on")
@click.option("--db", "db_url", metavar="URL",
              help="SQLAlchemy database URL (default: SQLite under the user's data directory), "
                   "e.g. postgresql+psycopg://user@host/dbname")
@click.option("--bot-delay", default=0.7, show_default=True, type=click.FloatRange(0, 10),
              help="seconds from a bot's turn to its move, so people can follow; the bot thinks meanwhile, "
                   "so how long it thought does not show")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="server processes on this port (more than one needs PostgreSQL)")
@click.option("--forwarded-allow-ips", default=None, metavar="IPS",
              help="trust X-Forwarded-For from these proxy addresses (comma-separated, or *), so "
                   "per-client limits count players, not the proxy")
def serve_cmd(host: str, port: int, db_url: str | None, bot_delay: float, workers: int,
              forwarded_allow_ips: str | None) -> None:
    """Start the web app: play in the browser at http://HOST:PORT/."""
    from ..web.app import env_settings
    from .main import UsageFailure

    if bot_delay != bot_delay:  # NaN passes FloatRange's bounds (every comparison is false)
        raise click.BadParameter("nan is not a number of seconds (0 to 10)", param_hint="--bot-delay")
    # the workers read their settings from the environment in uvicorn's app factory, where
    # a bad value would end in a traceback after the banner: read them here first, as the
    # workers will see them (the delay is this command's), and refuse a bad one
    try:
        env_settings({**os.environ, "WASSERSPIELE_BOT_DELAY": repr(bot_delay)})
    except ValueError as exc:
        raise UsageFailure(str(exc)) from None

    import uvicorn
    from sqlalchemy.exc import ArgumentError, OperationalError

    from ..web.storage import SQLiteInUse, Storage, default_db_url, sqlite_path

    url = db_url or default_db_url()
    try:  # fail early, with a clear message, on a bad URL, an unreachable or a busy database
        if workers > 1 and sqlite_path(url) is not None:
            raise click.ClickException(
                f"--workers {workers}: SQLite serves one process; use PostgreSQL for several "
                "(--db postgresql+psycopg://user@host/dbname)")
        Storage(url, exclusive=True).close()  # also migrates, once, before any worker starts
    except ArgumentError as exc:
        raise click.ClickException(f"--db: {quoted(url)} is not a database URL ({exc})") from None
    except (OperationalError, ModuleNotFoundError, OSError) as exc:
        raise click.ClickException(f"--db: cannot open {quoted(url)}: {exc}") from None
    except SQLiteInUse as exc:
        raise click.ClickException(f"--db: {exc}") from None
    click.echo(f"wasserspiele: http://{host}:{port}/  (database: {url}"
               f"{f', {workers} processes' if workers > 1 else ''})")
    # the workers build their app from the environment (web.app.app_from_env)
    os.environ["WASSERSPIELE_DB"] = url
    os.environ["WASSERSPIELE_BOT_DELAY"] = repr(bot_delay)
    uvicorn.run("wasserspiele.web.app:app_from_env", factory=True, host=host, port=port, workers=workers,
                log_level="warning", ws_max_size=65_536, ws_per_message_deflate=False, access_log=False,
                proxy_headers=forwarded_allow_ips is not None, forwarded_allow_ips=forwarded_allow_ips)
