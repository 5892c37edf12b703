"""Seats get the name their player chose (issue 19: names, not seat numbers).

Revision ID: seat_names_t19
Revises: 0002
Create Date: 2026-11-30
"""
from alembic import op
import sqlalchemy as sa

revision = "seat_names_t19"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("name", sa.String(40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("name")
