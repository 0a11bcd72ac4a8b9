"""Why a tournament's entrant is withdrawn (``server/tournaments.py``, ``Withdrawn``): it
withdrew, it was absent from its last game, or its account closed.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-11
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournament_players", sa.Column("withdrawn", sa.String(8), nullable=True))
    players = sa.table(
        "tournament_players",
        sa.column("player_id", sa.String),
        sa.column("active", sa.Boolean),
        sa.column("withdrawn", sa.String),
    )
    accounts = sa.table("accounts", sa.column("player_id", sa.String), sa.column("closed_at"))
    closed = sa.select(accounts.c.player_id).where(accounts.c.closed_at.is_not(None))
    reason = sa.case((players.c.player_id.in_(closed), "closed"), else_="self")
    op.execute(players.update().where(players.c.active.is_(False)).values(withdrawn=reason))


def downgrade() -> None:
    with op.batch_alter_table("tournament_players") as batch:
        batch.drop_column("withdrawn")
