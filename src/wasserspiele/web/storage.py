"""Persistence: a table is its record (setup + moves) plus metadata, never pickled state.

SQLAlchemy Core over any database URL (SQLite by default, PostgreSQL works too);
the schema is created and upgraded by the Alembic migrations in `migrations/`.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
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
)

seats_t = sa.Table(
    "seats", metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),    # human | bot
    sa.Column("level", sa.String(16), nullable=True),    # bots: easy | medium | hard | expert
    sa.Column("token_hash", sa.String(64), nullable=True),  # humans: sha256 of the seat token
    sa.Column("name", sa.String(40), nullable=True),     # humans: the name the player chose
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
    touch_table: bool = True  # False: only moves were added


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


def default_db_url() -> str:
    """SQLite in a file under the user's data directory."""
    import platformdirs
    folder = Path(platformdirs.user_data_dir("wasserspiele", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'wasserspiele.sqlite3'}"


def make_engine(url: str) -> sa.Engine:
    """An engine for `url`; SQLite gets WAL and foreign keys."""
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):  # pragma: no cover - exercised through every test
            cur = dbapi_conn.cursor()
            if ":memory:" not in url:
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
        return engine
    return sa.create_engine(url, pool_pre_ping=True)


def migrate(engine: sa.Engine) -> None:
    """Bring the schema to the newest Alembic revision (run at every start-up)."""
    from alembic import command
    from alembic.config import Config
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


class Storage:
    """The small interface the hub needs: create, load, append moves, list."""

    def __init__(self, url: str):
        self.url = url
        self.engine = make_engine(url)
        migrate(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create_table(self, row: TableRow) -> None:
        t = now()
        with self.engine.begin() as conn:
            conn.execute(tables_t.insert().values(
                id=row.id, game=row.game, options=json.dumps(row.options), players=row.players,
                seed=row.seed, setup=json.dumps(row.setup), status=row.status,
                result=None, created=t, updated=t))
            conn.execute(seats_t.insert(), [
                {"table_id": row.id, "seat": s.seat, "kind": s.kind, "level": s.level,
                 "token_hash": s.token_hash, "name": s.name} for s in row.seats])

    # prebuilt statements: SQLAlchemy compiles each once, so a move costs little more than the commit
    _insert_moves = moves_t.insert()
    _update_table = tables_t.update().where(tables_t.c.id == sa.bindparam("tid")).values(
        status=sa.bindparam("status"),
        updated=sa.bindparam("updated"), result=sa.bindparam("result"))
    _update_table_setup = tables_t.update().where(tables_t.c.id == sa.bindparam("tid")).values(
        status=sa.bindparam("status"),
        updated=sa.bindparam("updated"), result=sa.bindparam("result"), setup=sa.bindparam("setup"))

    def save_progress(self, table_id: str, first_n: int, moves: list[tuple[int, str]],
                      setup: dict[str, Any] | None,
                      status: str, result: dict[str, Any] | None) -> None:
        """Append accepted moves (numbered from `first_n`) and the table's new status in one
        transaction; the setup is rewritten only when chance drew something new."""
        self.save_batch([Progress(table_id, first_n, moves, setup, status, result)])

    def save_batch(self, batch: list["Progress"]) -> None:
        """Several tables' progress in one transaction (group commit under load).  A table's
        row is rewritten only when more than its moves changed (new chance outcomes, the
        end), so a plain move costs one insert."""
        t = now()
        move_rows: list[dict[str, Any]] = []
        plain: list[dict[str, Any]] = []
        with_setup: list[dict[str, Any]] = []
        for p in batch:
            move_rows += [{"table_id": p.table_id, "n": p.first_n + i, "seat": seat, "action": action, "created": t}
                          for i, (seat, action) in enumerate(p.moves)]
            if not p.touch_table:
                continue
            params = {"tid": p.table_id, "status": p.status, "updated": t,
                      "result": json.dumps(p.result) if p.result is not None else None}
            if p.setup is not None:
                params["setup"] = json.dumps(p.setup)
                with_setup.append(params)
            else:
                plain.append(params)
        with self.engine.begin() as conn:
            if move_rows:
                conn.execute(self._insert_moves, move_rows)
            if plain:
                conn.execute(self._update_table, plain)
            if with_setup:
                conn.execute(self._update_table_setup, with_setup)

    def load_table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
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
            seats=[SeatRow(s["seat"], s["kind"], s["level"], s["token_hash"], s["name"]) for s in seats],
            actions=list(actions), result=json.loads(r["result"]) if r["result"] else None)

    def list_tables(self, status: str | None = "running", limit: int = 50) -> list[dict[str, Any]]:
        """Tables newest first, with their seats (no token hashes)."""
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
                {"seat": s["seat"], "kind": s["kind"], "level": s["level"], "name": s["name"]})
        return [{"id": r["id"], "game": r["game"], "options": json.loads(r["options"]),
                 "players": r["players"], "status": r["status"], "moves": r["moves"],
                 "created": r["created"].isoformat() if r["created"] else None,
                 "seats": by_table.get(r["id"], [])} for r in rows]

    def set_seat_name(self, table_id: str, seat: int, name: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(seats_t.update().where((seats_t.c.table_id == table_id) & (seats_t.c.seat == seat))
                         .values(name=name))

    def unfinished_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return list(conn.execute(sa.select(tables_t.c.id).where(tables_t.c.status == "running")).scalars())
