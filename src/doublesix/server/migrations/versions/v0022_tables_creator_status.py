"""An index on the tables' creator and status: a guest's unfinished tables (open or being
played) are counted in the database, the site's count whichever process runs each one
(``Store.add_table``, ``routes/tables.py``), reading the index alone.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_tables_creator_status", "tables", ["creator", "status"])


def downgrade() -> None:
    op.drop_index("ix_tables_creator_status", table_name="tables")
