"""One log per table: the record is derived from the events, not stored beside them.

- ``tables``: ``record`` and the table-wide ``invite`` go; ``result`` (the
  game's result once finished, taken from the stored record) and ``rated``
  come.
- ``seats``: ``guest_id`` becomes ``player_id``; ``invite``, each invited
  seat's own code.
- ``events``: the markers of a move or Continue made for a seat become one
  ``stand`` field (``timeout`` or ``away``), and a Continue that dealt a
  round names it (``round``).
- ``rounds`` goes (every round's result is in the log); ``leases`` comes.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _stand(data: dict[str, Any], kind: str) -> dict[str, Any]:
    """Old markers (``auto``/``timeout``/``away``: True) as one ``stand`` field."""
    out = dict(data)
    timeout = out.pop("auto", False) if kind == "play" else out.pop("timeout", False)
    away = out.pop("away", False)
    if timeout:
        out["stand"] = "timeout"
    elif away:
        out["stand"] = "away"
    return out


def upgrade() -> None:
    conn = op.get_bind()
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("result", sa.JSON, nullable=True))
    tables = sa.table(
        "tables", sa.column("id"), sa.column("record", sa.JSON), sa.column("result", sa.JSON)
    )
    for row in conn.execute(sa.select(tables.c.id, tables.c.record)).all():
        if row.record is not None:
            result = row.record.get("result")
            conn.execute(tables.update().where(tables.c.id == row.id).values(result=result))
    with op.batch_alter_table("tables") as batch:
        batch.drop_constraint("uq_tables_invite", type_="unique")
        batch.drop_column("invite")
        batch.drop_column("record")
    with op.batch_alter_table("seats") as batch:
        batch.alter_column("guest_id", new_column_name="player_id")
        batch.add_column(sa.Column("invite", sa.String(32), nullable=True))
    op.create_index("ix_seats_player_id", "seats", ["player_id"])

    events = sa.table(
        "events",
        sa.column("table_id"),
        sa.column("version"),
        sa.column("kind"),
        sa.column("data", sa.JSON),
    )
    rows = conn.execute(
        sa.select(events)
        .where(events.c.kind.in_(["play", "continue"]))
        .order_by(events.c.table_id, events.c.version)
    ).all()
    rounds: dict[str, int] = {}
    for row in rows:
        data = _stand(row.data, row.kind)
        if row.kind == "continue" and data.get("next_round"):
            rounds[row.table_id] = rounds.get(row.table_id, 1) + 1
            data["round"] = rounds[row.table_id]
        if data != row.data:
            conn.execute(
                events.update()
                .where(events.c.table_id == row.table_id, events.c.version == row.version)
                .values(data=data)
            )
    op.drop_table("rounds")
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("until", sa.Float, nullable=False),
    )


def downgrade() -> None:
    raise NotImplementedError("the stored records of 0001 cannot be rebuilt by a migration")
