"""An index for "Find a player" on PostgreSQL under any collation (``varchar_pattern_ops``).

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06
"""

from __future__ import annotations

from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_accounts_name_key_pattern",
        "accounts",
        ["name_key"],
        postgresql_ops={"name_key": "varchar_pattern_ops"},
    )


def downgrade() -> None:
    op.drop_index("ix_accounts_name_key_pattern", table_name="accounts")
