"""Closed accounts: by their player, or by the operator (``doublesix account close``).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

COLUMNS = (
    ("closed_at", sa.Float),
    ("closed_by", sa.String(16)),
)


def upgrade() -> None:
    for name, kind in COLUMNS:
        op.add_column("accounts", sa.Column(name, kind, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        for name, _ in reversed(COLUMNS):
            batch.drop_column(name)
