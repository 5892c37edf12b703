"""A finished table keeps its rematch: `tables.rematch` names the table the first seat
to ask for a rematch created, so every seat, coming back after a reload, a restart or
through another server process, joins that one instead of starting a second.

The rematch's seat tokens are not stored: each is derived from the seat's token at the
finished table (hub.rematch_token), and a rematch's human seat gets the hash of its
token when its player first asks (until then its `token_hash` is empty).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-04
"""
from alembic import op
import sqlalchemy as sa

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ALTER (no batch mode: on SQLite that copies and drops the table, and with
    # foreign keys on, dropping it cascades to every move)
    op.add_column("tables", sa.Column("rematch", sa.String(32), nullable=True))


def downgrade() -> None:
    op.execute("ALTER TABLE tables DROP COLUMN rematch")
