"""Play now keeps a seeker from the names muted in their browser: ``seeks.avoid``.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seeks", sa.Column("avoid", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seeks") as batch:
        batch.drop_column("avoid")
