"""The database schema: one set of tables for SQLite and PostgreSQL.

Alembic's migrations (``migrations/versions``) create exactly these tables;
``tests/server/test_store.py`` checks that the two agree.

- ``guests``: a name kept in the ``ds_guest`` cookie; no password.
- ``tables``: a table's settings, ruleset and seed (its deals follow from
  the seed), and the summary of its log: status, the number of its last
  entry (``version``), the turn deadline, the scores and, once finished,
  the game's result (winners, losers, scores).
- ``seats``: who sits where, with the seat's secret token and, for a seat
  held for an invited player, its invitation code.
- ``events``: the table's log, numbered per table from 1: the ``doublesix/1``
  record's events inside the table's own entries (seats, start, plays,
  Continue, chat, rematch, close). The game, its record and every view are
  derived from it.
- ``leases``: which server process runs a table, until when (several
  processes on one database, docs/protocol.md "Many processes").
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

guests = sa.Table(
    "guests",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("preset", sa.String(32), nullable=False),
    sa.Column("ruleset", sa.JSON, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("timer", sa.Float, nullable=True),
    sa.Column("hints", sa.Boolean, nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("creator", sa.String(64), nullable=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("deadline", sa.Float, nullable=True),
    sa.Column("scores", sa.JSON, nullable=False),
    sa.Column("result", sa.JSON, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False, index=True),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("player_id", sa.String(64), nullable=True, index=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("token", sa.String(64), nullable=True),
    sa.Column("invite", sa.String(32), nullable=True),
    sa.UniqueConstraint("token", name="uq_seats_token"),
)

events = sa.Table(
    "events",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

leases = sa.Table(
    "leases",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("owner", sa.String(64), nullable=False),
    sa.Column("until", sa.Float, nullable=False),
)
