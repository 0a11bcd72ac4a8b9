"""Tournaments ("arenas"): the tournaments, their entrants and their games, and the
tournament a table was made for (``server/tournaments.py``).

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("creator_id", sa.String(64), nullable=True),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("timer", sa.Float, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("ends_at", sa.Float, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_tournaments_creator_id", "tournaments", ["creator_id"])
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_players",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
        sa.Column("free_since", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("playing", sa.Boolean, nullable=False),
    )
    op.create_index("ix_tournament_players_player", "tournament_players", ["player_id", "playing"])
    op.create_table(
        "tournament_games",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("ended_at", sa.Float, nullable=True),
        sa.Column("points", sa.JSON, nullable=True),
    )
    op.create_index("ix_tournament_games_tournament_id", "tournament_games", ["tournament_id"])
    op.create_index("ix_tournament_games_ended_at", "tournament_games", ["ended_at"])
    op.add_column("tables", sa.Column("tournament", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("tournament")
    op.drop_index("ix_tournament_games_ended_at", "tournament_games")
    op.drop_index("ix_tournament_games_tournament_id", "tournament_games")
    op.drop_table("tournament_games")
    op.drop_index("ix_tournament_players_player", "tournament_players")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_index("ix_tournaments_creator_id", "tournaments")
    op.drop_table("tournaments")
