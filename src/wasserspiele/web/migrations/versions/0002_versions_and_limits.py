"""A version per table (writes from several server processes are serialised by it), who
created a table (limits per client) and whether a bot is to move (start-up resumes only
those tables).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""
from alembic import op
import sqlalchemy as sa

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("version", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
        batch.add_column(sa.Column("bot_turn", sa.Boolean, nullable=False, server_default=sa.true()))
    # tables written before this revision: resumed once at start-up, which corrects bot_turn
    op.create_index("ix_tables_creator_status", "tables", ["creator", "status"])


def downgrade() -> None:
    op.drop_index("ix_tables_creator_status", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("bot_turn")
        batch.drop_column("creator")
        batch.drop_column("version")
