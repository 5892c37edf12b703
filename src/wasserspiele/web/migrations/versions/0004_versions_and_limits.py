"""A version per table (writes from several server processes are serialised by it), who
created a table (limits per client) and whether a bot is to move (start-up resumes only
those tables).

Revision ID: 0004
Revises: seat_names_t19
Create Date: 2026-11-30
"""
from alembic import op
import sqlalchemy as sa

revision = "0004"
down_revision = "seat_names_t19"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ALTERs (no batch mode: on SQLite that copies and drops the table, and with
    # foreign keys on, dropping it cascades to every move)
    op.add_column("tables", sa.Column("version", sa.Integer, nullable=False, server_default="0"))
    op.add_column("tables", sa.Column("creator", sa.String(64), nullable=True))
    op.add_column("tables", sa.Column("bot_turn", sa.Boolean, nullable=False, server_default=sa.true()))
    # tables written before this revision: resumed once at start-up, which corrects bot_turn
    op.create_index("ix_tables_creator_status", "tables", ["creator", "status"])


def downgrade() -> None:
    op.drop_index("ix_tables_creator_status", "tables")
    for column in ("bot_turn", "creator", "version"):
        op.execute(f"ALTER TABLE tables DROP COLUMN {column}")
