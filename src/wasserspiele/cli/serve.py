"""`wasserspiele serve`: the web app (lobby, live tables, replays) on one port."""

from __future__ import annotations

import errno
import os

import click

from .entry import release_sigterm
from .flags import WHOLE, DecimalRange, WholeRange
from .language import quoted


@click.command("serve", epilog=(
    "Limits are set by environment variables WASSERSPIELE_<NAME> (e.g. WASSERSPIELE_TABLES_PER_CLIENT=20, "
    "WASSERSPIELE_BOT_WORKERS=3; every one in docs/web-server.md, Limits). GET /healthz answers 200 while "
    "the database answers, 503 when it does not: for a load balancer or a health check. Stop with Ctrl-C "
    "or SIGTERM: every move already answered is stored."))
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=8000, show_default=True, type=WholeRange(0, 65535), help="port to listen on")
@click.option("--db", "db_url", metavar="URL",
              help="SQLAlchemy database URL (default: SQLite under the user's data directory), "
                   "e.g. postgresql+psycopg://user@host/dbname")
@click.option("--bot-delay", default=0.7, show_default=True, type=DecimalRange(0, 10),
              help="seconds from a bot's turn to its move, so people can follow; the bot thinks meanwhile, "
                   "so how long it thought does not show")
@click.option("--workers", default=1, show_default=True, type=WholeRange(1, 64),
              help="server processes on this port (more than one needs PostgreSQL)")
@click.option("--forwarded-allow-ips", default=None, metavar="IPS",
              help="trust X-Forwarded-For from these proxy addresses (comma-separated, or *), so "
                   "per-client limits count players, not the proxy")
@click.option("--ws-compression/--no-ws-compression", default=True, show_default=True,
              help="compress WebSocket messages for browsers that offer it (permessage-deflate): a "
                   "position is 5-20 % of its size on the wire, for about 50 kB of memory per socket "
                   "and 10-120 µs of CPU per message")
@click.option("--seed", type=WHOLE, default=None, metavar="N",
              help="deal new tables from this seed's sequence: a server started again with the same "
                   "seed deals the same tables in the same order (demos, lessons, tests; with "
                   "--workers, each process its own such sequence); default: every table dealt at random")
def serve_cmd(host: str, port: int, db_url: str | None, bot_delay: float, workers: int,
              forwarded_allow_ips: str | None, ws_compression: bool, seed: int | None) -> None:
    """Start the web app: play in the browser at http://HOST:PORT/."""
    from ..web.app import env_settings
    from .main import UsageFailure

    if bot_delay != bot_delay:  # NaN passes FloatRange's bounds (every comparison is false)
        raise click.BadParameter("nan is not a number of seconds (0 to 10)", param_hint="--bot-delay")
    # the workers read their settings from the environment in uvicorn's app factory, where
    # a bad value would end in a traceback after the banner: read them here first, as the
    # workers will see them (the delay and the seed are this command's), and refuse a bad one
    own = {"WASSERSPIELE_BOT_DELAY": repr(bot_delay)}  # this command's settings, as the workers read them
    if seed is not None:
        own["WASSERSPIELE_DEAL_SEED"] = str(seed)
    try:
        env_settings({**os.environ, **own})
    except ValueError as exc:
        raise UsageFailure(str(exc)) from None

    import uvicorn
    from alembic.util import CommandError
    from sqlalchemy.exc import ArgumentError, DBAPIError

    from ..web.storage import SchemaTooNew, SQLiteInUse, Storage, default_db_url, shown_url, sqlite_path

    try:
        url = db_url or default_db_url()
    except OSError as exc:  # the user's data directory cannot be made (a file in the way, no rights)
        raise click.ClickException(
            f"cannot make the folder for the default database: {_os_error(exc)}; "
            "give a database with --db sqlite:///PATH") from None
    shown = quoted(shown_url(url))  # never a password in the terminal or a log
    try:  # fail early, with a clear message, on a bad URL, an unreachable or a busy database
        if workers > 1 and sqlite_path(url) is not None:
            raise click.ClickException(
                f"--workers {workers}: SQLite serves one process; use PostgreSQL for several "
                "(--db postgresql+psycopg://user@host/dbname)")
        Storage(url, exclusive=True).close()  # also migrates, once, before any worker starts
    except ArgumentError as exc:
        hint = " (PostgreSQL's is postgresql://)" if url.startswith("postgres:") else ""
        raise click.ClickException(f"--db: {shown} is not a database URL{hint} ({exc})") from None
    except DBAPIError as exc:  # unreachable, refused, not a database file, a full disk, read-only
        hint = _sqlite_hint(sqlite_path(url))
        raise click.ClickException(f"--db: cannot open {shown}: {_one_line(exc.orig, url)}"
                                   f"{f' ({hint})' if hint else ''}") from None
    except ModuleNotFoundError as exc:
        raise click.ClickException(f"--db: cannot open {shown}: no driver for it ({exc})") from None
    except OSError as exc:
        hint = _sqlite_hint(sqlite_path(url)) if exc.errno != errno.ENOENT else None
        raise click.ClickException(f"--db: cannot open {shown}: {_os_error(exc)}"
                                   f"{f' ({hint})' if hint else ''}") from None
    except SQLiteInUse as exc:
        raise click.ClickException(f"--db: {exc}") from None
    except SchemaTooNew as exc:
        raise click.ClickException(f"--db: {shown}: {exc}") from None
    except CommandError as exc:  # the migrations refused the database's schema
        raise click.ClickException(f"--db: cannot upgrade {shown}: {_one_line(exc, url)}") from None
    _check_listen(host, port)  # a port in use said before the banner, not as uvicorn's error after it
    click.echo(f"wasserspiele {_version()}: http://{host}:{port}/  (database: {shown_url(url)}"
               f"{f', {workers} processes' if workers > 1 else ''})")
    # the workers build their app from the environment (web.app.app_from_env)
    os.environ["WASSERSPIELE_DB"] = url
    os.environ.update(own)
    # SIGTERM is uvicorn's to take (it stops, every answered move stored, and ends the process
    # by the signal): not the interrupt the other commands take it as (cli/entry.py)
    release_sigterm()
    uvicorn.run("wasserspiele.web.app:app_from_env", factory=True, host=host, port=port, workers=workers,
                # a reverse proxy passes WebSocket frames as they are: only the app can compress
                # them (figures in docs/performance.md, Web: what a phone downloads)
                log_level="warning", ws_max_size=65_536, ws_per_message_deflate=ws_compression, access_log=False,
                proxy_headers=forwarded_allow_ips is not None, forwarded_allow_ips=forwarded_allow_ips)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("wasserspiele")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


def _one_line(exc: BaseException, url: str) -> str:
    """A driver's message on one line, without SQLAlchemy's link line and without the
    URL's password, should the driver quote it."""
    import sqlalchemy as sa
    text = " ".join(str(exc).split())
    try:
        password = sa.engine.make_url(url).password
    except Exception:  # noqa: BLE001 - an unparsable URL has no password to hide
        password = None
    # (a password of a letter or two would mask those letters in every word: none is quoted so short)
    return text.replace(str(password), "***") if password and len(str(password)) > 2 else text


def _os_error(exc: OSError) -> str:
    """`No such file or directory: /srv/x` — the folder named when it is the missing part."""
    name = exc.filename
    if name and exc.errno == errno.ENOENT and not os.path.isdir(os.path.dirname(os.path.abspath(name))):
        return f"the folder {quoted(os.path.dirname(os.path.abspath(name)))} does not exist"
    return f"{exc.strerror or exc}: {quoted(name)}" if name else (exc.strerror or str(exc))


# free space below which a failed SQLite start-up is put down to a full disk (SQLite then
# says "disk I/O error" as often as "database or disk is full": it cannot map its -shm file)
FULL_BYTES = 1 << 20


def _sqlite_hint(path: str | None) -> str | None:
    """Why SQLite could not open or write `path`, when the file system tells: a full disk, a
    read-only mount, a folder or file this user cannot write (SQLite's own words name none
    of them: "disk I/O error", "attempt to write a readonly database")."""
    if path is None:
        return None
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fs = os.statvfs(folder)
    except OSError:
        return None
    if fs.f_flag & os.ST_RDONLY:
        return f"the file system holding {quoted(folder)} is mounted read-only"
    free = fs.f_bavail * fs.f_frsize
    if free < FULL_BYTES:
        return f"the disk holding it is full, {free // 1024} kB free: free some space, or give another --db"
    if not os.access(folder, os.W_OK | os.X_OK):
        return (f"this user cannot write to the folder {quoted(folder)}, where the database's -wal, -shm "
                "and .lock files are kept")
    if os.path.exists(path) and not os.access(path, os.W_OK):
        return "this user cannot write to the database file"
    return None


def _check_listen(host: str, port: int) -> None:
    """Refuse, in one line, an address this machine cannot listen on: the port in use, a
    port below 1024 without the right to it, a host name that does not resolve or an
    address that is not this machine's.  uvicorn's own error came after the start-up
    line had announced the URL, as `ERROR: [Errno 98] ...` (a moment later another
    program could still take the port: uvicorn then says so itself)."""
    import socket
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise click.ClickException(f"--host {quoted(host)}: {exc.strerror}") from None
    for family, kind, proto, _, address in infos:
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
            try:
                sock.bind(address)
            except OSError as exc:
                hint = {errno.EADDRINUSE: "another program listens there: stop it, or choose another --port",
                        errno.EACCES: "ports below 1024 need administrator rights: choose --port 1024 "
                                      "or above (e.g. 8000), behind a reverse proxy",
                        errno.EADDRNOTAVAIL: "the address is not this machine's: use 127.0.0.1, "
                                             "0.0.0.0 (every address) or one of its own"}.get(exc.errno)
                raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror}"
                                           f"{f' ({hint})' if hint else ''}") from None
