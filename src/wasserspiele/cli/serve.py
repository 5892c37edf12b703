"""`wasserspiele serve`: the web app (lobby, live tables, replays) on one port."""

from __future__ import annotations

import click


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="port to listen on")
@click.option("--db", "db_url", metavar="URL",
              help="SQLAlchemy database URL (default: SQLite under the user's data directory), "
                   "e.g. postgresql+psycopg://user@host/dbname")
@click.option("--bot-delay", default=0.7, show_default=True, type=click.FloatRange(0, 10),
              help="seconds a bot waits before it moves, so people can follow")
def serve_cmd(host: str, port: int, db_url: str | None, bot_delay: float) -> None:
    """Start the web app: play in the browser at http://HOST:PORT/."""
    import uvicorn
    from sqlalchemy.exc import ArgumentError, OperationalError

    from ..web.app import create_app
    from ..web.storage import Storage, default_db_url

    url = db_url or default_db_url()
    try:  # fail early, with a clear message, on a bad URL or an unreachable database
        Storage(url).close()
    except ArgumentError as exc:
        raise click.ClickException(f"--db: {url!r} is not a database URL ({exc})") from None
    except (OperationalError, ModuleNotFoundError) as exc:
        raise click.ClickException(f"--db: cannot open {url!r}: {exc}") from None
    click.echo(f"wasserspiele: http://{host}:{port}/  (database: {url})")
    uvicorn.run(create_app(url, bot_delay=bot_delay), host=host, port=port, log_level="warning",
                ws_max_size=65_536, ws_per_message_deflate=False, access_log=False)
