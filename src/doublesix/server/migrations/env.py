"""Alembic's environment: migrations run on the connection the server hands in.

The server calls ``doublesix.server.store.SqlStore.migrate``, which opens a
connection and runs ``alembic upgrade head`` on it; there is no alembic.ini.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from doublesix.server.schema import metadata


def run_migrations_online() -> None:
    connection = context.config.attributes.get("connection")
    if not isinstance(connection, Connection):
        raise RuntimeError("doublesix migrations run through doublesix.server.store.migrate")
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations_online()
