"""Persistence: a table is its record (setup + moves) plus metadata, never pickled state.

SQLAlchemy Core over any database URL (SQLite by default, PostgreSQL for several server
processes); the schema is created and upgraded by the Alembic migrations in
`migrations/`, under a PostgreSQL advisory lock so that processes starting together
migrate once.

Several processes write one table safely because every write is a version check: the
table row's `version` must still be the one the process read (`UPDATE ... WHERE version
= :seen`), and a move's number is the primary key of `moves`.  A process that lost the
race gets `Conflict`, reloads the table and answers "stale".  On PostgreSQL each write
also sends `NOTIFY wasserspiele` in its transaction, so the other processes hear of it
exactly when it is committed (see notify.py).

Durability: SQLite runs in WAL mode with `synchronous=FULL`, so a move is on disk before
it is acknowledged and survives a power cut, not only a crash of the server process
(`NORMAL` would lose the last transactions on power loss).  Group commit (hub.Committer)
spreads the cost of that sync over every move that arrives meanwhile.
"""

from __future__ import annotations

import datetime as dt
import enum
import hashlib
import json
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa

metadata = sa.MetaData()

tables_t = sa.Table(
    "tables", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(32), nullable=False),
    sa.Column("options", sa.Text, nullable=False),      # JSON: the non-default options
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),    # chance still to come derives from it
    sa.Column("setup", sa.Text, nullable=False),        # JSON: every chance outcome drawn so far
    sa.Column("status", sa.String(16), nullable=False),  # running | over
    sa.Column("result", sa.Text, nullable=True),        # JSON: scores and winners once over
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
    sa.Column("version", sa.Integer, nullable=False, server_default="0"),  # +1 at every write
    sa.Column("creator", sa.String(64), nullable=True),   # hash of the creating client's address
    sa.Column("bot_turn", sa.Boolean, nullable=False, server_default=sa.true()),  # a bot is to move
    sa.Column("rematch", sa.String(32), nullable=True),  # once over: the id of its rematch table
)

seats_t = sa.Table(
    "seats", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),    # human | bot
    sa.Column("level", sa.String(16), nullable=True),    # bots: easy | medium | hard | expert
    sa.Column("token_hash", sa.String(64), nullable=True),  # humans: sha256 of the seat token
    #   (a rematch's human seat has none until its player asks for it: Storage.claim_seat)
    sa.Column("name", sa.String(40), nullable=True),     # humans: the name the player chose
    # humans: the level of the bot playing the seat while its player is away (hub.LiveTable.stand_in)
    sa.Column("stand_in", sa.String(16), nullable=True),
)

moves_t = sa.Table(
    "moves", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("n", sa.Integer, primary_key=True),        # 0-based index in the record's actions
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.String(200), nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)


@dataclass
class Progress:
    """What one accepted request changed at a table (see Storage.save_batch)."""

    table_id: str
    first_n: int
    moves: list[tuple[int, str]]
    setup: dict[str, Any] | None
    status: str
    result: dict[str, Any] | None
    version: int = 0          # the table's version this progress was based on
    bot_turn: bool = False    # after it, a bot is to move


class Conflict(Exception):
    """Another process wrote the table first: reload it and refuse the move as stale."""

    def __init__(self, table_id: str):
        super().__init__(f"table {table_id} was changed by another server process")
        self.table_id = table_id


NOTIFY_CHANNEL = "wasserspiele"


def hash_token(token: str) -> str:
    """Seat tokens are stored only as hashes."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def now() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc)


@dataclass
class SeatRow:
    seat: int
    kind: str
    level: str | None
    token_hash: str | None
    name: str | None = None
    stand_in: str | None = None  # a human seat a bot plays for now: that bot's level


@dataclass
class TableRow:
    id: str
    game: str
    options: dict[str, Any]
    players: int
    seed: int
    setup: dict[str, Any]
    status: str
    created: dt.datetime
    seats: list[SeatRow] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    version: int = 0
    creator: str | None = None
    bot_turn: bool = False
    rematch: str | None = None


def default_db_url() -> str:
    """SQLite in a file under the user's data directory (made for the user alone: the
    database holds every table's seed, from which the hidden cards to come follow)."""
    import platformdirs
    folder = Path(platformdirs.user_data_dir("wasserspiele", appauthor=False))
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'wasserspiele.sqlite3'}"


def shown_url(url: str) -> str:
    """`url` as the server may print or log it: with any password masked (the start-up
    line and error messages end up in logs and journals)."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except (sa.exc.ArgumentError, ValueError):  # not a URL at all: it holds no password we could find
        return url


class SchemaTooNew(Exception):
    """The database was migrated by a newer wasserspiele than this one."""

    def __init__(self, found: str, known: str):
        super().__init__(f"its schema is revision {found}, newer than this version of wasserspiele "
                         f"knows (up to {known}): a newer wasserspiele wrote it; run that version, "
                         "or give another --db")
        self.found, self.known = found, known


# libpq's TCP keepalives, for every connection to PostgreSQL: a connection dropped without a
# word (a NAT or a load balancer forgetting an idle connection after a few minutes, a
# database host gone) otherwise stays open here for ever — the listening connection, which
# only ever waits, would never hear another process's move again.  Probes after 30 s idle,
# every 10 s, and three unanswered fail the socket: the listener reconnects and catches up
# within about a minute, and the probes keep an idle connection known to a NAT.
# `connect_timeout`: a database host that does not answer fails a connection in 10 s.
LIBPQ_CONNECT = {"connect_timeout": 10, "keepalives": 1, "keepalives_idle": 30,
                 "keepalives_interval": 10, "keepalives_count": 3}


# How long a SQLite write waits for another process's lock (a backup, an `sqlite3` shell
# left in a transaction) before it fails "database is locked": below `storage_seconds`, so
# the move is refused with its reason rather than timed out, and the writes queued behind
# it (Committer) wait for one such period, not one each.
SQLITE_BUSY_SECONDS = 5.0


def make_engine(url: str) -> sa.Engine:
    """An engine for `url`; SQLite gets WAL and foreign keys, PostgreSQL through libpq
    (psycopg, psycopg2) keepalives and a connect timeout (LIBPQ_CONNECT).  Its errors never
    quote a statement's parameters (`hide_parameters`): a failed insert of a table quoted
    its seed and its whole deck, every card still to come, into the log."""
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, hide_parameters=True,
                                  connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_SECONDS})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):  # pragma: no cover - exercised through every test
            cur = dbapi_conn.cursor()
            if ":memory:" not in url:
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=FULL")  # an acknowledged move survives a power cut
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
        return engine
    libpq = sa.engine.make_url(url).get_dialect().driver in ("psycopg", "psycopg2")
    return sa.create_engine(url, pool_pre_ping=True, pool_size=8, max_overflow=8, pool_timeout=10,
                            hide_parameters=True, connect_args=LIBPQ_CONNECT if libpq else {})


class Cause(enum.Enum):
    """Why the database failed a request, as a person is told it: each value is the
    catalogue code of its words (`server.db_*`), which every write refused for it names
    (hub.storage_refusal), a move's as much as a new table's."""

    FULL = "server.db_full"              # no room on the disk (SQLite FULL, PostgreSQL 53100)
    READ_ONLY = "server.db_read_only"    # a read-only file, folder or database (a standby)
    LOCKED = "server.db_locked"          # another program holds its lock (SQLite BUSY, LOCKED)
    DISK = "server.db_disk_error"        # the disk failed a read or write (SQLite IOERR, PostgreSQL 58)
    DOWN = "server.db_down"              # unreachable: no connection, shutting down, no answer in time
    STATEMENT = "server.db_refused"      # one statement's own failure (a bug), not the database's


# SQLite's primary result codes that are the database's as a whole, not one statement's
# (https://sqlite.org/rescode.html): PERM, BUSY, LOCKED, READONLY, IOERR, FULL, CANTOPEN
_SQLITE_CAUSES = {3: Cause.READ_ONLY, 5: Cause.LOCKED, 6: Cause.LOCKED, 8: Cause.READ_ONLY,
                  10: Cause.DISK, 13: Cause.FULL, 14: Cause.DOWN}
# PostgreSQL's SQLSTATE classes of the same kind: connection, insufficient resources (disk
# full, out of memory, too many connections), operator intervention (shutting down), system
# error (I/O); 25006 is a read-only transaction (a standby), 53100 a full disk, 55P03 a lock
# not had within the role's `lock_timeout` (another session holds it: "refused", a
# statement's own failure, before)
_PG_CAUSES = {"08": Cause.DOWN, "53": Cause.DOWN, "57": Cause.DOWN, "58": Cause.DISK}
_PG_STATES = {"25006": Cause.READ_ONLY, "53100": Cause.FULL, "55P03": Cause.LOCKED}


def failure_cause(exc: BaseException) -> Cause:
    """What a storage failure is to the people whose request met it (`Cause`): one of the
    database as a whole, which every write would meet, or STATEMENT, one write's own."""
    if isinstance(exc, TimeoutError):
        return Cause.DOWN
    if not isinstance(exc, sa.exc.DBAPIError):
        driver = _pep249_names(exc)  # a driver's own exception, not wrapped by SQLAlchemy
        return _driver_cause(exc, "OperationalError" in driver) if driver else Cause.STATEMENT
    if exc.connection_invalidated:
        return Cause.DOWN
    return _driver_cause(exc.orig, isinstance(exc, sa.exc.OperationalError))


def _driver_cause(orig: BaseException | None, operational: bool) -> Cause:
    code = getattr(orig, "sqlite_errorcode", None)
    if code is not None:
        return _SQLITE_CAUSES.get(code & 0xFF, Cause.STATEMENT)
    state = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if state:
        return _PG_STATES.get(state) or _PG_CAUSES.get(state[:2], Cause.STATEMENT)
    # no code to tell more: PEP 249's OperationalError is the database's operation (a
    # connection refused), its other errors a statement's (a key taken, a value too long)
    return Cause.DOWN if operational else Cause.STATEMENT


def _pep249_names(exc: BaseException) -> set[str]:
    """The class names of a driver's own exception (psycopg's, met by notify.Listener's
    connection without SQLAlchemy) from PEP 249's `Error` down; empty for any other."""
    names = [c.__name__ for c in type(exc).__mro__]
    return set(names[:names.index("Error") + 1]) if "Error" in names and "DatabaseError" in names else set()


def whole_database(exc: BaseException) -> bool:
    """A failure of the database as a whole (full, read-only, locked, gone, stalled), not of
    one table's write: every write would meet it (hub.Committer does not retry the others
    one by one)."""
    return failure_cause(exc) is not Cause.STATEMENT


def failure_text(exc: BaseException) -> str:
    """A storage failure in one line for the log: the driver's words (SQLAlchemy's adds
    the statement and a link on lines of their own)."""
    orig = getattr(exc, "orig", None)
    text = " ".join(str(orig if orig is not None else exc).split())
    return text or type(exc).__name__


# what the log says of each cause (the operator's words; the players' are the catalogue's)
CAUSE_WORDS = {Cause.FULL: "the disk is full", Cause.READ_ONLY: "the database is read-only",
               Cause.LOCKED: "another program holds its lock", Cause.DISK: "the disk reports an I/O error",
               Cause.DOWN: "the database cannot be reached or does not answer",
               Cause.STATEMENT: "a statement failed"}


class Outage:
    """The storage failures of one background activity (announcing who is online, listening
    for the other processes, the reads of requests) said once per outage: the first in one
    line with its cause (`failure_cause`) and the driver's words, a change of cause too (a
    database that was full and is now gone), then nothing until the activity succeeds
    again, which is said with how long it failed and how often.  Before, each attempt was
    a warning of its own (several lines each, SQLAlchemy's link among them): the listener's
    once a second, presence's at every heartbeat, one per request, for as long as the
    database was gone, and nothing said when it came back."""

    def __init__(self, what: str, logger: logging.Logger, level: int = logging.WARNING):
        self.what = what
        self.log = logger
        self.level = level                # of the failure's line (its end is a warning)
        self.since: float | None = None   # time.monotonic() of the first failure
        self.cause: Cause | None = None
        self.failures = 0

    @property
    def failing(self) -> bool:
        return self.since is not None

    def failed(self, exc: BaseException, detail: str | None = None) -> None:
        """One attempt failed with `exc` (`detail`: what to say of it, else its driver's words)."""
        cause = failure_cause(exc)
        self.failures += 1
        if self.since is not None and cause is self.cause:
            return
        self.cause = cause
        again = self.since is not None
        if not again:
            self.since = time.monotonic()
        self.log.log(self.level, "storage: %s %s: %s (%s)%s", self.what, "now fails" if again else "fails",
                     CAUSE_WORDS[cause], detail or failure_text(exc), "" if again else "; said again once it works")

    def succeeded(self) -> None:
        if self.since is None:
            return
        self.log.warning("storage: %s works again, after %.0f s (%d attempts failed)", self.what,
                         time.monotonic() - self.since, self.failures)
        self.since, self.cause, self.failures = None, None, 0


MIGRATION_LOCK = 0x5741_5353  # "WASS": the advisory lock key migrations run under


def migrate(engine: sa.Engine) -> None:
    """Bring the schema to the newest Alembic revision (run at every start-up).  On
    PostgreSQL under a transaction-scoped advisory lock: servers starting together wait
    for the first one's migration and then find nothing left to do."""
    from alembic import command
    from alembic.config import Config
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    script = ScriptDirectory.from_config(cfg)
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        # a revision this code does not know was written by a newer version (a downgrade of
        # the program, or two versions on one database): say so, where Alembic's "Can't
        # locate revision" ended the start-up in a traceback
        known = {rev.revision for rev in script.walk_revisions()}
        for found in MigrationContext.configure(conn).get_current_heads():
            if found not in known:
                raise SchemaTooNew(found, script.get_current_head() or "none")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


class SQLiteInUse(Exception):
    """A second server process on one SQLite file."""


def sqlite_path(url: str) -> str | None:
    """The file of a SQLite URL (None: not SQLite, or in memory)."""
    u = sa.engine.make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    return u.database


def claim_sqlite(url: str):
    """Hold an exclusive lock beside a SQLite database for this process's lifetime (the OS
    releases it when the process ends, even by kill -9); returns the open lock file, or
    raises SQLiteInUse when another server holds it.  SQLite serves one process: its
    writers would not see each other's tables in memory."""
    path = sqlite_path(url)
    if path is None:
        return None
    import fcntl
    create_private(path + ".lock")
    handle = open(path + ".lock", "a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip() or "another process"
        handle.close()
        raise SQLiteInUse(f"the SQLite database {path} is in use by another wasserspiele server "
                          f"({holder}); SQLite serves one process — stop it, or use PostgreSQL "
                          "(--db postgresql+psycopg://...) for several") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"process {os.getpid()}\n")
    handle.flush()
    return handle


def create_private(path: str) -> None:
    """Make a new SQLite file readable by its owner alone (SQLite would make it 0644 under
    the usual umask, and gives its -wal and -shm files the database's mode): it holds every
    table's seed — the cards and dice still to come follow from it — and the players'
    names.  An existing file keeps the mode its owner gave it."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass


class Storage:
    """The small interface the hub needs: create, load, append moves, list."""

    def __init__(self, url: str, *, exclusive: bool = False):
        """`exclusive`: this is a server's storage; on SQLite, refuse a second server."""
        self.url = url
        path = sqlite_path(url)
        if path is not None:  # before the lock file, so that a folder it cannot write is said of the database
            create_private(path)
        self._lock = claim_sqlite(url) if exclusive else None
        self.engine = make_engine(url)
        self.postgresql = self.engine.dialect.name == "postgresql"
        self.origin = f"{os.getpid()}-{os.urandom(4).hex()}"  # this process, in notifications
        try:
            migrate(self.engine)
            if exclusive:  # a server that can read but not write would refuse every move
                self.probe_write()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        self.engine.dispose()
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def ping(self) -> None:
        """One round trip to the database (the health check); raises when it is down."""
        with self.engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))

    _PROBE_ID = "-probe-"  # no table's: `new_table_id` makes ids of 12 characters

    def probe_write(self) -> None:
        """Commit a write that leaves nothing behind, as a move's needs: a row of a few pages
        (a full database has no page for it), inserted and deleted in one transaction.
        Raises what a move would meet: a full disk, a read-only file or database, a lock."""
        t = now()
        with self.engine.begin() as conn:
            conn.execute(tables_t.insert().values(
                id=self._PROBE_ID, game="-", options="{}", players=0, seed=0, setup=" " * 8192,
                status="probe", created=t, updated=t, version=0, bot_turn=False))
            conn.execute(tables_t.delete().where(tables_t.c.id == self._PROBE_ID))

    def create_table(self, row: TableRow) -> None:
        with self.engine.begin() as conn:
            self._insert_table(conn, row)

    @staticmethod
    def _insert_table(conn: sa.Connection, row: TableRow) -> None:
        t = now()
        conn.execute(tables_t.insert().values(
            id=row.id, game=row.game, options=json.dumps(row.options), players=row.players,
            seed=row.seed, setup=json.dumps(row.setup), status=row.status,
            result=None, created=t, updated=t, version=0, creator=row.creator, bot_turn=row.bot_turn))
        conn.execute(seats_t.insert(), [
            {"table_id": row.id, "seat": s.seat, "kind": s.kind, "level": s.level,
             "token_hash": s.token_hash, "name": s.name} for s in row.seats])

    # -- rematches: the database decides which one a finished table has -------------
    def create_rematch(self, table_id: str, row: TableRow) -> tuple[str | None, int]:
        """Store `row` as the rematch of the finished table `table_id`, unless it has one
        already: (the rematch's id — `row.id` if this call made it, else the one another
        request made first, and nothing was written; None: the table is not over in the
        database, its last move not yet committed —, the finished table's version).
        Setting the finished table's `rematch` and inserting the new table are one
        transaction, and only a row whose `rematch` is still empty is updated, so of two
        requests racing (in one process or two) exactly one table is made."""
        with self.engine.begin() as conn:
            claimed = conn.execute(tables_t.update()
                                   .where(tables_t.c.id == table_id, tables_t.c.status == "over",
                                          tables_t.c.rematch.is_(None))
                                   .values(rematch=row.id, updated=now(), version=tables_t.c.version + 1))
            if claimed.rowcount == 1:
                self._insert_table(conn, row)
            got = conn.execute(sa.select(tables_t.c.rematch, tables_t.c.version)
                               .where(tables_t.c.id == table_id)).first()
            if got is None:
                return None, 0
            if claimed.rowcount == 1 and self.postgresql:  # the processes holding it show the rematch
                conn.execute(self._notify, {"channel": NOTIFY_CHANNEL,
                                            "payload": f"{self.origin} {table_id} {got.version}"})
        return got.rematch, got.version

    def rematch_of(self, table_id: str) -> str | None:
        """The id of the rematch of `table_id` (None: nobody asked for one yet)."""
        with self.engine.connect() as conn:
            return conn.execute(sa.select(tables_t.c.rematch).where(tables_t.c.id == table_id)).scalar()

    def claim_seat(self, table_id: str, seat: int, token_hash: str) -> None:
        """Give a human seat that has no token yet (a rematch's) the hash of its token; a
        seat that has one keeps it (asking again derives the same token)."""
        with self.engine.begin() as conn:
            conn.execute(seats_t.update()
                         .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat,
                                seats_t.c.kind == "human", seats_t.c.token_hash.is_(None))
                         .values(token_hash=token_hash))

    def token_hashes(self, table_id: str) -> dict[int, str | None]:
        """seat -> the hash of its token, as stored now."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(seats_t.c.seat, seats_t.c.token_hash)
                                .where(seats_t.c.table_id == table_id)).all()
        return {seat: h for seat, h in rows}

    # prebuilt statements: SQLAlchemy compiles each once, so a move costs little more than the commit
    _insert_moves = moves_t.insert()
    _columns = dict(status=sa.bindparam("status"),
                    updated=sa.bindparam("updated"), result=sa.bindparam("result"),
                    bot_turn=sa.bindparam("bot_turn"), version=tables_t.c.version + 1)
    _where = sa.and_(tables_t.c.id == sa.bindparam("tid"), tables_t.c.version == sa.bindparam("seen"))
    _update_table = tables_t.update().where(_where).values(**_columns)
    _update_table_setup = tables_t.update().where(_where).values(**_columns, setup=sa.bindparam("setup"))
    _notify = sa.text("SELECT pg_notify(:channel, :payload)")

    def save_progress(self, table_id: str, first_n: int, moves: list[tuple[int, str]],
                      setup: dict[str, Any] | None,
                      status: str, result: dict[str, Any] | None, version: int = 0) -> None:
        """Append accepted moves (numbered from `first_n`) and the table's new status in one
        transaction; the setup is rewritten only when chance drew something new."""
        self.save_batch([Progress(table_id, first_n, moves, setup, status, result, version)])

    def save_batch(self, batch: list["Progress"]) -> None:
        """Several tables' progress in one transaction (group commit under load).  Each
        table's row must still have the version its progress was based on, else nothing is
        written and Conflict names the table (the caller retries the others alone)."""
        t = now()
        move_rows: list[dict[str, Any]] = []
        for p in batch:
            move_rows += [{"table_id": p.table_id, "n": p.first_n + i, "seat": seat, "action": action, "created": t}
                          for i, (seat, action) in enumerate(p.moves)]
        with self.engine.begin() as conn:
            for p in batch:
                params = {"tid": p.table_id, "seen": p.version, "status": p.status, "updated": t,
                          "result": json.dumps(p.result) if p.result is not None else None,
                          "bot_turn": p.bot_turn}
                if p.setup is not None:
                    params["setup"] = json.dumps(p.setup)
                    done = conn.execute(self._update_table_setup, params)
                else:
                    done = conn.execute(self._update_table, params)
                if done.rowcount != 1:
                    raise Conflict(p.table_id)
            if move_rows:
                try:
                    conn.execute(self._insert_moves, move_rows)
                except sa.exc.IntegrityError:  # a move number taken meanwhile (the version guards it too)
                    raise Conflict(batch[0].table_id if len(batch) == 1 else "?") from None
            if self.postgresql:
                for p in batch:
                    conn.execute(self._notify, {"channel": NOTIFY_CHANNEL,
                                                "payload": f"{self.origin} {p.table_id} {p.version + 1}"})

    def _reading(self, conn: sa.Connection) -> sa.Connection:
        """One consistent snapshot for several selects (PostgreSQL reads commit by commit)."""
        return conn.execution_options(isolation_level="REPEATABLE READ") if self.postgresql else conn

    def load_table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            conn = self._reading(conn)
            r = conn.execute(tables_t.select().where(tables_t.c.id == table_id)).mappings().first()
            if r is None:
                return None
            seats = conn.execute(seats_t.select().where(seats_t.c.table_id == table_id)
                                 .order_by(seats_t.c.seat)).mappings().all()
            actions = conn.execute(sa.select(moves_t.c.action).where(moves_t.c.table_id == table_id)
                                   .order_by(moves_t.c.n)).scalars().all()
        return TableRow(
            id=r["id"], game=r["game"], options=json.loads(r["options"]), players=r["players"],
            seed=r["seed"], setup=json.loads(r["setup"]),
            status=r["status"], created=r["created"],
            seats=[SeatRow(s["seat"], s["kind"], s["level"], s["token_hash"], s["name"], s["stand_in"])
                   for s in seats],
            actions=list(actions), result=json.loads(r["result"]) if r["result"] else None,
            version=r["version"], creator=r["creator"], bot_turn=bool(r["bot_turn"]),
            rematch=r["rematch"])

    def load_since(self, table_id: str, n: int) -> tuple[list[tuple[int, str]], int] | None:
        """What another process added to a table: the (seat, action) entries from number
        `n` on and the table's version (None: the table is gone)."""
        with self.engine.connect() as conn:
            conn = self._reading(conn)
            r = conn.execute(sa.select(tables_t.c.version)
                             .where(tables_t.c.id == table_id)).first()
            if r is None:
                return None
            moves = conn.execute(sa.select(moves_t.c.seat, moves_t.c.action)
                                 .where(moves_t.c.table_id == table_id, moves_t.c.n >= n)
                                 .order_by(moves_t.c.n)).all()
        return [(seat, action) for seat, action in moves], r.version

    def list_tables(self, status: str | None = "running", limit: int = 50) -> list[dict[str, Any]]:
        """Tables newest first, with their seats (no token hashes): each seat's `stand_in`
        is the level of the bot playing it for its absent player (None: nobody), so the
        lobby does not show a friend who left as seated."""
        count = (sa.select(sa.func.count()).select_from(moves_t)
                 .where(moves_t.c.table_id == tables_t.c.id).scalar_subquery().label("moves"))
        q = sa.select(tables_t, count).order_by(tables_t.c.created.desc()).limit(limit)
        if status is not None:
            q = q.where(tables_t.c.status == status)
        with self.engine.connect() as conn:
            rows = conn.execute(q).mappings().all()
            ids = [r["id"] for r in rows]
            seats = conn.execute(seats_t.select().where(seats_t.c.table_id.in_(ids))
                                 .order_by(seats_t.c.seat)).mappings().all() if ids else []
        by_table: dict[str, list[dict[str, Any]]] = {}
        for s in seats:
            by_table.setdefault(s["table_id"], []).append(
                {"seat": s["seat"], "kind": s["kind"], "level": s["level"], "name": s["name"],
                 "stand_in": s["stand_in"]})
        return [{"id": r["id"], "game": r["game"], "options": json.loads(r["options"]),
                 "players": r["players"], "status": r["status"], "moves": r["moves"],
                 "created": r["created"].isoformat() if r["created"] else None,
                 "seats": by_table.get(r["id"], [])} for r in rows]

    def delete_table(self, table_id: str) -> None:
        """Remove a table with its seats and moves (a new table committed only after its
        request had been answered as refused: nobody holds its tokens)."""
        with self.engine.begin() as conn:
            conn.execute(moves_t.delete().where(moves_t.c.table_id == table_id))
            conn.execute(seats_t.delete().where(seats_t.c.table_id == table_id))
            conn.execute(tables_t.delete().where(tables_t.c.id == table_id))

    def set_stand_in(self, table_id: str, seat: int, level: str | None, version: int, bot_turn: bool) -> None:
        """A bot of `level` plays the human seat `seat` from now on (None: its player again).
        A write of the table like a move's: only on the `version` it was decided on (else
        Conflict), the version counts up and the other processes hear of it (NOTIFY), and
        `bot_turn` says whether a bot is to move now (a restart resumes that table)."""
        with self.engine.begin() as conn:
            done = conn.execute(tables_t.update().where(tables_t.c.id == table_id, tables_t.c.version == version)
                                .values(version=tables_t.c.version + 1, updated=now(), bot_turn=bot_turn))
            if done.rowcount != 1:
                raise Conflict(table_id)
            conn.execute(seats_t.update().where(seats_t.c.table_id == table_id, seats_t.c.seat == seat,
                                                seats_t.c.kind == "human")
                         .values(stand_in=level))
            if self.postgresql:
                conn.execute(self._notify, {"channel": NOTIFY_CHANNEL,
                                            "payload": f"{self.origin} {table_id} {version + 1}"})

    def stand_ins(self, table_id: str) -> dict[int, str | None]:
        """seat -> the level of the bot standing in for its player (None: nobody), as stored now."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(seats_t.c.seat, seats_t.c.stand_in)
                                .where(seats_t.c.table_id == table_id)).all()
        return {seat: level for seat, level in rows}

    def set_seat_name(self, table_id: str, seat: int, name: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(seats_t.update().where((seats_t.c.table_id == table_id) & (seats_t.c.seat == seat))
                         .values(name=name))

    def unfinished_ids(self, bot_turn_only: bool = False) -> list[str]:
        q = sa.select(tables_t.c.id).where(tables_t.c.status == "running")
        if bot_turn_only:
            q = q.where(tables_t.c.bot_turn == sa.true())
        with self.engine.connect() as conn:
            return list(conn.execute(q).scalars())

    def set_bot_turn(self, table_id: str, version: int, bot_turn: bool) -> None:
        """Correct the flag of a table written before it existed (only if nobody wrote since)."""
        with self.engine.begin() as conn:
            conn.execute(tables_t.update().where(tables_t.c.id == table_id, tables_t.c.version == version)
                         .values(bot_turn=bot_turn))

    def open_counts(self, creator: str, since: dt.datetime) -> dict[str, int]:
        """Running tables touched since `since` and their bot seats: the client's and all."""
        recent = sa.and_(tables_t.c.status == "running", tables_t.c.updated >= since)
        mine = tables_t.c.creator == creator
        bots = (sa.select(sa.func.count()).select_from(seats_t)
                .where(seats_t.c.table_id == tables_t.c.id, seats_t.c.kind == "bot").scalar_subquery())
        q = sa.select(sa.func.count(), sa.func.coalesce(sa.func.sum(bots), 0),
                      sa.func.coalesce(sa.func.sum(sa.case((mine, 1), else_=0)), 0),
                      sa.func.coalesce(sa.func.sum(sa.case((mine, bots), else_=0)), 0)).where(recent)
        with self.engine.connect() as conn:
            tables, bot_seats, my_tables, my_bots = conn.execute(q).one()
        return {"tables": int(tables), "bot_seats": int(bot_seats),
                "my_tables": int(my_tables), "my_bot_seats": int(my_bots)}
