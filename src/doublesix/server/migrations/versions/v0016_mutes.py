"""The names an account mutes, kept with the account: its mutes follow it to every browser.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mutes",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("mutes")
