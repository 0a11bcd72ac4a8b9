"""A group commit on PostgreSQL in one statement, straight on asyncpg: every move's hot path.

One statement, its own transaction, writes a group of commits: it updates
each table's row if the row is still at the version before the commit's
first entry (and, with a ``Fence``, if the table's lease is this
process's), and inserts the entries of exactly the tables it updated. A
table that is stale or not held here is left as it was and its commit
alone fails; the others are written. That is one round trip to the
database for the whole group, with no BEGIN and COMMIT of its own, and none
of SQLAlchemy's compiling and greenlet switching on the way (issue 12's
profile: those cost about as much as the statement itself).

The statement is prepared once per connection (asyncpg caches it) and
takes one array per column, whatever the size of the group. Groups that
also change seats (a join) go through ``store._write`` as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import orjson

if TYPE_CHECKING:
    from doublesix.server.store import Fence
    from doublesix.table.model import Entry, Table

Commit = tuple["Table", Sequence["Entry"]]
"""One table's commit: its summary after the entries, and the entries."""


class Driver(Protocol):
    """What this module needs of an ``asyncpg.Connection``."""

    async def fetch(self, query: str, *args: Any) -> list[Any]: ...


_COMMIT = """
WITH written AS (
    UPDATE tables AS t
    SET status = n.status, version = n.version, deadline = n.deadline,
        scores = n.scores::json, result = n.result::json, updated_at = n.updated_at
    FROM unnest($1::varchar[], $2::int[], $3::varchar[], $4::int[], $5::float8[],
                $6::text[], $7::text[], $8::float8[])
        AS n(id, before, status, version, deadline, scores, result, updated_at)
    WHERE t.id = n.id AND t.version = n.before{fence}
    RETURNING t.id
), logged AS (
    INSERT INTO events (table_id, version, kind, seat, data, created_at)
    SELECT e.table_id, e.version, e.kind, e.seat, e.data::json, e.created_at
    FROM unnest($9::varchar[], $10::int[], $11::varchar[], $12::int[], $13::text[],
                $14::float8[]) AS e(table_id, version, kind, seat, data, created_at)
    WHERE e.table_id IN (SELECT id FROM written)
)
SELECT id FROM written
"""
_FENCE = """
        AND EXISTS (SELECT 1 FROM leases AS l
                    WHERE l.table_id = t.id AND l.owner = $15 AND l.until >= $16)"""
COMMIT = _COMMIT.format(fence="")
FENCED_COMMIT = _COMMIT.format(fence=_FENCE)


def _json(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


async def commit_group(driver: Driver, group: Sequence[Commit], fence: Fence | None) -> set[str]:
    """Write ``group`` (each table once) in one statement; the ids of the tables written
    (any other was stale, or its lease not this process's, and is left as it was)."""
    tables = [table for table, _ in group]
    entries = [(table.id, e) for table, logged in group for e in logged]
    params: list[Any] = [
        [t.id for t in tables],
        [logged[0].version - 1 for _, logged in group],
        [t.status.value for t in tables],
        [t.version for t in tables],
        [t.deadline for t in tables],
        [_json(t.scores) for t in tables],
        [None if t.result is None else _json(t.result) for t in tables],
        [t.updated_at for t in tables],
        [table_id for table_id, _ in entries],
        [e.version for _, e in entries],
        [e.kind.value for _, e in entries],
        [e.seat for _, e in entries],
        [_json(e.data) for _, e in entries],
        [e.at for _, e in entries],
    ]
    if fence is None:
        rows = await driver.fetch(COMMIT, *params)
    else:
        rows = await driver.fetch(FENCED_COMMIT, *params, fence.owner, fence.clock())
    return {row[0] for row in rows}
