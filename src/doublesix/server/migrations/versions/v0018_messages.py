"""Private messages between accounts, each account's conversations, and the words of a
message reported to the operator (``server/messages.py``).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-09
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "messages",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("sender_id", sa.String(64), nullable=False),
        sa.Column("recipient_id", sa.String(64), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("read_at", sa.Float, nullable=True),
    )
    op.create_index("ix_messages_pair", "messages", ["sender_id", "recipient_id", "id"])
    op.create_table(
        "conversations",
        sa.Column("player_id", sa.String(64), primary_key=True),
        sa.Column("other_id", sa.String(64), primary_key=True),
        sa.Column("started_by", sa.String(64), nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("last_id", sa.Integer, nullable=False),
        sa.Column("unread", sa.Integer, nullable=False),
    )
    op.create_index("ix_conversations_player_last", "conversations", ["player_id", "last_id"])
    op.add_column("reports", sa.Column("message", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("reports") as batch:
        batch.drop_column("message")
    op.drop_index("ix_conversations_player_last", "conversations")
    op.drop_table("conversations")
    op.drop_index("ix_messages_pair", "messages")
    op.drop_table("messages")
