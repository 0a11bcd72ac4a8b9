"""Each seat of a finished game keeps its outcome: a player's page counts them.

``seats.outcome`` (``win``, ``loss``, ``draw``) is written with the seats when
the game ends. Here it is filled in for the games that ended before, and the
index on the seat's player becomes one on (player, outcome), which a player's
counts read alone.

The outcome is worked out as the server did then, from the stored ruleset and
result: a seat's side (R6: partners sit opposite, seats 0 and 2 are side 0) is
among the result's winners, or is not, or nobody won. A game whose ruleset or
result does not read keeps no outcome, as before it was not counted.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

_TABLES = sa.table(
    "tables",
    sa.column("id", sa.String),
    sa.column("status", sa.String),
    sa.column("ruleset", sa.JSON),
    sa.column("result", sa.JSON),
)
_SEATS = sa.table(
    "seats",
    sa.column("table_id", sa.String),
    sa.column("seat", sa.Integer),
    sa.column("outcome", sa.String),
)
_BATCH = 1000


def upgrade() -> None:
    op.add_column("seats", sa.Column("outcome", sa.String(8), nullable=True))
    bind = op.get_bind()
    t, s = _TABLES.c, _SEATS.c
    update = (
        _SEATS.update()
        .where(s.table_id == sa.bindparam("t"), s.seat == sa.bindparam("s"))
        .values(outcome=sa.bindparam("o"))
    )
    after = ""
    while True:  # a batch of finished tables at a time, however many there are
        finished = bind.execute(
            sa.select(t.id, t.ruleset, t.result)
            .where(t.status == "finished", t.id > after)
            .order_by(t.id)
            .limit(_BATCH)
        ).all()
        if not finished:
            break
        after = finished[-1].id
        rows = [
            {"t": table.id, "s": seat, "o": outcome}
            for table in finished
            for seat, outcome in enumerate(_outcomes(table.ruleset, table.result))
        ]
        if rows:
            bind.execute(update, rows)
    op.drop_index("ix_seats_player_id", "seats")
    op.create_index("ix_seats_player_outcome", "seats", ["player_id", "outcome"])


def _outcomes(ruleset: Any, result: Any) -> list[str]:
    """Each seat's outcome in a finished game; none if its ruleset or result does not
    read."""
    if not isinstance(ruleset, Mapping) or not isinstance(result, Mapping):
        return []
    players, pairs, winners = ruleset.get("players"), ruleset.get("pairs"), result.get("winners")
    if not result.get("finished") or not isinstance(players, int) or players < 2:
        return []
    if not isinstance(winners, list):
        return []
    if not winners:
        return ["draw"] * players
    sides = [seat % 2 if pairs else seat for seat in range(players)]
    return ["win" if side in winners else "loss" for side in sides]


def downgrade() -> None:
    op.drop_index("ix_seats_player_outcome", "seats")
    op.create_index("ix_seats_player_id", "seats", ["player_id"])
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("outcome")
