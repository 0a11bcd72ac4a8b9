"""The database schema: one set of tables for SQLite and PostgreSQL.

Alembic's migrations (``migrations/versions``) create exactly these tables;
``tests/server/test_store.py`` checks that the two agree.

- ``guests``: a name kept in the ``ds_guest`` cookie; no password.
- ``tables``: a table's ruleset and seed (its deals follow from the seed),
  status, the number of its last event (``version``), the turn deadline,
  the scores and, once finished, the game's ``doublesix/1`` record.
- ``seats``: who sits where, with the seat's secret token.
- ``events``: every change of a table, numbered per table from 1. The
  commands (``play``, ``continue``, ...) are stored with the engine events
  they caused; replaying the commands on a game from the seed rebuilds it.
- ``rounds``: every round's result and the scores after it.
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
    sa.Column("invite", sa.String(32), nullable=False),
    sa.Column("timer", sa.Float, nullable=True),
    sa.Column("hints", sa.Boolean, nullable=False),
    sa.Column("creator", sa.String(64), nullable=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("deadline", sa.Float, nullable=True),
    sa.Column("scores", sa.JSON, nullable=False),
    sa.Column("record", sa.JSON, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False, index=True),
    sa.UniqueConstraint("invite", name="uq_tables_invite"),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("bot", sa.String(32), nullable=True),
    sa.Column("guest_id", sa.String(64), nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("token", sa.String(64), nullable=True),
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

rounds = sa.Table(
    "rounds",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("round", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("result", sa.JSON, nullable=False),
    sa.Column("scores_after", sa.JSON, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)
