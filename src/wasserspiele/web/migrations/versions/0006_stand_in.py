"""A bot may stand in for an absent player: `seats.stand_in` holds the level of the bot
playing a human seat whose player has been away (hub.LiveTable.stand_in), empty while
the player plays it.  The seat stays a human one (`kind`, its token, its name): the
player who comes back with their link takes it over again (hub.LiveTable.seat_back).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""
from alembic import op
import sqlalchemy as sa

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ALTER, as 0005 (batch mode on SQLite copies and drops the table)
    op.add_column("seats", sa.Column("stand_in", sa.String(16), nullable=True))


def downgrade() -> None:
    op.execute("ALTER TABLE seats DROP COLUMN stand_in")
