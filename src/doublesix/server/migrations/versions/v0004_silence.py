"""The operator's silence of an account's chat (``doublesix account silence``).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

COLUMNS = (
    ("silenced_at", sa.Float),
    ("silenced_until", sa.Float),
    ("silence_reason", sa.String(200)),
)


def upgrade() -> None:
    for name, kind in COLUMNS:
        op.add_column("accounts", sa.Column(name, kind, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        for name, _ in reversed(COLUMNS):
            batch.drop_column(name)
