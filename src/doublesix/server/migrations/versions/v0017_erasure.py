"""Erased accounts: when their erasure was asked, and when it was done (``server/erasure.py``).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

COLUMNS = (
    ("erase_requested_at", sa.Float),
    ("erased_at", sa.Float),
)


def upgrade() -> None:
    for name, kind in COLUMNS:
        op.add_column("accounts", sa.Column(name, kind, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        for name, _ in reversed(COLUMNS):
            batch.drop_column(name)
