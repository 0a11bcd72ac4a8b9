"""Finished games as ``doublesix/1`` records, one a line (JSON lines), each as
``GET /api/games/{id}/record`` gives it: what a program or a study reads with
``doublesix.rules.record.loads`` and ``replay``.

- A player's, on the web: ``GET /api/records?player=NAME``, the newest game first, at
  most ``MOST`` games a request, a ``Link: <…>; rel="next"`` header naming the request
  for the older ones.
- The whole site's, for the operator: ``doublesix games`` (``every_record``), the oldest
  first, a batch of tables at a time however many there are.

Each record is derived from its table's log by replaying it (about 3 ms for a long game of
Kozel), one game after another with the event loop let go in between, so that a download
never holds up the tables; the route's rate limit (``AddressLimits``) bounds how many one
address asks for.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from urllib.parse import urlencode

import orjson
import sqlalchemy as sa

from doublesix.server import rating_store, schema
from doublesix.server.rating_store import Cursor
from doublesix.server.store import SqlStore
from doublesix.table.model import JSON, TableStatus
from doublesix.table.records import record_of

MOST = 100
"""Games one request answers at most."""
BATCH = 200
"""Tables the whole site's dump reads at once."""


async def games(
    store: SqlStore, player: str, before: Cursor | None, limit: int
) -> tuple[list[tuple[str, float]], bool]:
    """The tables and ends of the player's (an id) finished games a request answers, newest
    first, and whether there are older ones."""
    async with store.engine.connect() as conn:
        rows, more = await rating_store.finished(conn, player, before, limit)
    return [(row.id, row.updated_at) for row in rows], more


async def _record(store: SqlStore, table_id: str) -> JSON | None:
    """The game's record, from its table's log (None if it never started)."""
    table = await store.table(table_id)
    return None if table is None else record_of(table, await store.events(table_id))


async def lines(store: SqlStore, tables: Sequence[str]) -> AsyncIterator[bytes]:
    """Each game's record, a line of JSON (a game never started has none)."""
    for table_id in tables:
        record = await _record(store, table_id)
        if record is not None:
            yield orjson.dumps(record) + b"\n"
        await asyncio.sleep(0)  # the next replay after the tables' turn


async def every_record(
    store: SqlStore,
    *,
    since: float | None = None,
    until: float | None = None,
    preset: str | None = None,
    rated: bool = False,
) -> AsyncIterator[JSON]:
    """The record of every finished game on the site, the oldest end first: of those that
    ended at ``since`` or after and before ``until``, of the preset ``preset``, only the
    rated ones (``rated``), as asked."""
    t = schema.tables
    query = sa.select(t.c.id, t.c.updated_at).where(t.c.status == TableStatus.FINISHED.value)
    if since is not None:
        query = query.where(t.c.updated_at >= since)
    if until is not None:
        query = query.where(t.c.updated_at < until)
    if preset is not None:
        query = query.where(t.c.preset == preset)
    if rated:
        query = query.where(t.c.rated.is_(True))
    query = query.order_by(t.c.updated_at, t.c.id).limit(BATCH)
    after: Cursor | None = None
    while True:
        batch = query
        if after is not None:
            at, last = after
            batch = query.where(
                sa.or_(t.c.updated_at > at, sa.and_(t.c.updated_at == at, t.c.id > last))
            )
        async with store.engine.connect() as conn:
            rows = (await conn.execute(batch)).all()
        if not rows:
            return
        for row in rows:
            record = await _record(store, row.id)
            if record is not None:
                yield record
        after = rows[-1].updated_at, rows[-1].id


def next_link(name: str, limit: int, last: tuple[str, float]) -> str:
    """The ``Link`` header's value for the games after ``last`` (its table and end)."""
    table, at = last
    query = {"player": name, "max": limit, "before_at": repr(at), "before_table": table}
    return f'</api/records?{urlencode(query)}>; rel="next"'


def attachment(name: str) -> str:
    """The ``Content-Disposition`` of the player's records (an account's name is made of
    letters, digits, ``_`` and ``-``: ``account_names``)."""
    return f'attachment; filename="doublesix-{name}.jsonl"'
