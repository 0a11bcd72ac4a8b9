"""Whether a seat's player, and a challenger, has an account: a table links an account's
name to the player's page.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

TABLES = (("seats", "player_id"), ("challenges", "player_id"))


def upgrade() -> None:
    for table, player in TABLES:
        op.add_column(
            table, sa.Column("account", sa.Boolean, nullable=False, server_default=sa.false())
        )
        # The players who have an account now had one then: a guest who registers keeps the id.
        op.execute(
            f"UPDATE {table} SET account = TRUE WHERE {player} IN (SELECT player_id FROM accounts)"
        )


def downgrade() -> None:
    for table, _ in reversed(TABLES):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("account")
