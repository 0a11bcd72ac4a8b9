"""The first schema: guests, tables, seats, events, rounds.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "guests",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("ruleset", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("invite", sa.String(32), nullable=False),
        sa.Column("timer", sa.Float, nullable=True),
        sa.Column("hints", sa.Boolean, nullable=False),
        sa.Column("creator", sa.String(64), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("scores", sa.JSON, nullable=False),
        sa.Column("record", sa.JSON, nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.UniqueConstraint("invite", name="uq_tables_invite"),
    )
    op.create_index("ix_tables_status", "tables", ["status"])
    op.create_index("ix_tables_updated_at", "tables", ["updated_at"])
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("guest_id", sa.String(64), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("token", sa.String(64), nullable=True),
        sa.UniqueConstraint("token", name="uq_seats_token"),
    )
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "rounds",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("result", sa.JSON, nullable=False),
        sa.Column("scores_after", sa.JSON, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rounds")
    op.drop_table("events")
    op.drop_table("seats")
    op.drop_index("ix_tables_updated_at", "tables")
    op.drop_index("ix_tables_status", "tables")
    op.drop_table("tables")
    op.drop_table("guests")
