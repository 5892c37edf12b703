"""Simultaneous picks are moves: the buffered `pending` choices become moves and the
column goes.

Before this revision the server kept a Wildwasser pick taken out of seat order in
`tables.pending` until the lower seats had picked, because a record could not say
who took an action.  Records now name the seat of a simultaneous decision
(`"2: pick zebra"`, records.md) and the engine holds a pick as a hidden commitment,
so each buffered pick is appended to the table's moves with its seat; nothing an
acknowledged player chose is lost.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""
import datetime as dt
import json

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

tables = sa.table("tables", sa.column("id", sa.String), sa.column("pending", sa.Text))
moves = sa.table("moves", sa.column("table_id", sa.String), sa.column("n", sa.Integer),
                 sa.column("seat", sa.Integer), sa.column("action", sa.String),
                 sa.column("created", sa.DateTime(timezone=True)))


def upgrade() -> None:
    conn = op.get_bind()
    now = dt.datetime.now(dt.timezone.utc)
    rows = conn.execute(sa.select(tables.c.id, tables.c.pending)
                        .where(tables.c.pending.is_not(None), tables.c.pending != "{}")).all()
    for table_id, pending in rows:
        buffered = {int(seat): text for seat, text in json.loads(pending).items()}
        n = conn.execute(sa.select(sa.func.count()).select_from(moves)
                         .where(moves.c.table_id == table_id)).scalar_one()
        conn.execute(moves.insert(), [
            {"table_id": table_id, "n": n + i, "seat": seat, "action": f"{seat}: {buffered[seat]}", "created": now}
            for i, seat in enumerate(sorted(buffered))])
    # A plain ALTER (SQLite >= 3.35, PostgreSQL): batch mode would copy and drop the
    # table, and with foreign keys on, dropping it cascades to every move.
    op.execute("ALTER TABLE tables DROP COLUMN pending")


def downgrade() -> None:
    # Picks stay moves: an older server replays prefixed records only after this revision.
    op.execute("ALTER TABLE tables ADD COLUMN pending TEXT NOT NULL DEFAULT '{}'")
