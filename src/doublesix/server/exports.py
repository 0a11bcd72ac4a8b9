"""A player's finished games as ``doublesix/1`` records: ``GET /api/records?player=NAME``.

One record a line (JSON lines, ``application/x-ndjson``), the newest game first, each as
``GET /api/games/{id}/record`` gives it: what a program or a study reads with
``doublesix.rules.record.loads`` and ``replay``. A request answers at most ``MOST`` games;
a ``Link: <…>; rel="next"`` header names the request for the older ones.

Each record is derived from its table's log by replaying it (about 3 ms for a long game of
Kozel), one game after another with the event loop let go in between, so that a download
never holds up the tables; the route's rate limit (``AddressLimits``) bounds how many one
address asks for.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from urllib.parse import quote, urlencode

import orjson

from doublesix.server import rating_store
from doublesix.server.rating_store import Cursor
from doublesix.server.store import SqlStore
from doublesix.table.records import record_of

MOST = 100
"""Games one request answers at most."""


async def games(
    store: SqlStore, player: str, before: Cursor | None, limit: int
) -> tuple[list[tuple[str, float]], bool]:
    """The tables and ends of the player's (an id) finished games a request answers, newest
    first, and whether there are older ones."""
    async with store.engine.connect() as conn:
        rows, more = await rating_store.finished(conn, player, before, limit)
    return [(row.id, row.updated_at) for row in rows], more


async def lines(store: SqlStore, tables: Sequence[str]) -> AsyncIterator[bytes]:
    """Each game's record, a line of JSON (a game never started has none)."""
    for table_id in tables:
        table = await store.table(table_id)
        if table is None:
            continue
        record = record_of(table, await store.events(table_id))
        if record is not None:
            yield orjson.dumps(record) + b"\n"
        await asyncio.sleep(0)  # the next replay after the tables' turn


def next_link(name: str, limit: int, last: tuple[str, float]) -> str:
    """The ``Link`` header's value for the games after ``last`` (its table and end)."""
    table, at = last
    query = {"player": name, "max": limit, "before_at": repr(at), "before_table": table}
    return f'</api/records?{urlencode(query)}>; rel="next"'


def attachment(name: str) -> str:
    """The ``Content-Disposition`` of the player's records: named after the player, in
    UTF-8 for browsers (RFC 6266; a header's plain text is Latin-1), ASCII for the rest."""
    return (
        'attachment; filename="doublesix-games.jsonl"; '
        f"filename*=UTF-8''{quote(f'doublesix-{name}.jsonl')}"
    )
