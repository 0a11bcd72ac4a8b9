"""When a tournament ended (``tournaments.ended_at``): the list of those over shows the
latest ended first, a cancelled one by the moment it was cancelled, not by the end it would
have had.

The tournaments over before this revision get one: a finished one its ``ends_at`` (it ended
then; a sweep only saw it later); a cancelled one the time of the operators' log's entry of
its cancel if there is one (an operator's act), else the latest moment known to come before
its cancel — its creation, its entrants' joins, its games' starts — and never after its
``ends_at``. Its creator's cancel was not recorded anywhere else, so that is the closest the
stored rows say.

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Mapping

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

_TOURNAMENTS = sa.table(
    "tournaments",
    sa.column("id", sa.String),
    sa.column("status", sa.String),
    sa.column("ends_at", sa.Float),
    sa.column("created_at", sa.Float),
    sa.column("ended_at", sa.Float),
)
_PLAYERS = sa.table(
    "tournament_players", sa.column("tournament_id", sa.String), sa.column("joined_at", sa.Float)
)
_GAMES = sa.table(
    "tournament_games", sa.column("tournament_id", sa.String), sa.column("started_at", sa.Float)
)
_LOG = sa.table(
    "moderation_log",
    sa.column("at", sa.Float),
    sa.column("action", sa.String),
    sa.column("detail", sa.JSON),
)


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("ended_at", sa.Float, nullable=True))
    op.create_index("ix_tournaments_ended_at", "tournaments", ["ended_at"])
    bind = op.get_bind()
    t = _TOURNAMENTS.c
    bind.execute(_TOURNAMENTS.update().where(t.status == "finished").values(ended_at=t.ends_at))
    cancelled = bind.execute(
        sa.select(t.id, t.ends_at, t.created_at).where(t.status == "cancelled")
    ).all()
    if not cancelled:
        return
    logged: dict[str, float] = {}
    for entry in bind.execute(
        sa.select(_LOG.c.at, _LOG.c.detail).where(_LOG.c.action == "tournament")
    ):
        detail = entry.detail
        if isinstance(detail, Mapping) and isinstance(detail.get("tournament"), str):
            logged[detail["tournament"]] = entry.at
    known: dict[str, float] = {}
    for table, at in ((_PLAYERS, _PLAYERS.c.joined_at), (_GAMES, _GAMES.c.started_at)):
        rows = bind.execute(
            sa.select(table.c.tournament_id, sa.func.max(at).label("at"))
            .where(table.c.tournament_id.in_(sa.select(t.id).where(t.status == "cancelled")))
            .group_by(table.c.tournament_id)
        )
        for row in rows:
            if row.at is not None:
                known[row.tournament_id] = max(known.get(row.tournament_id, row.at), row.at)
    update = (
        _TOURNAMENTS.update()
        .where(t.id == sa.bindparam("tid"))
        .values(ended_at=sa.bindparam("ended"))
    )
    bind.execute(
        update,
        [
            {
                "tid": row.id,
                "ended": min(
                    row.ends_at,
                    logged.get(row.id, max(row.created_at, known.get(row.id, row.created_at))),
                ),
            }
            for row in cancelled
        ],
    )


def downgrade() -> None:
    op.drop_index("ix_tournaments_ended_at", "tournaments")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("ended_at")
