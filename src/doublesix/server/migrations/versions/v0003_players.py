"""Players, not guests (issue 11): accounts, sessions, ratings, challenges.

Bot seats are renamed ``Bot 2`` (their level is a field of its own; they were
``expert bot``), as the command line and the record name them.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("UPDATE seats SET name = 'Bot ' || CAST(seat AS VARCHAR(4)) WHERE kind = 'bot'")
    op.create_table(
        "accounts",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(24), nullable=False),
        sa.Column("password", sa.String(255), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.UniqueConstraint("name_key", name="uq_accounts_name_key"),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("variant", sa.String(32), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("losses", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("outcome", sa.String(8), nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_changes_player", "rating_changes", ["player_id", "variant", "at"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("invited", sa.JSON, nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_index("ix_challenges_player_id", "challenges", ["player_id"])
    op.create_index("ix_challenges_status", "challenges", ["status"])


def downgrade() -> None:
    for name in ("challenges", "rating_changes", "ratings", "sessions", "accounts"):
        op.drop_table(name)
