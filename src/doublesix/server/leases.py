"""Who runs a table: one owner process at a time, held by a lease that expires.

With several server processes on one database, each table has exactly one
writer: the process whose lease on it is current. A process renews the
leases of its tables every second or so; when it dies, they run out, and
another process takes the tables over (``SqlLeases.free``, ``acquire``).
Taking a lease is one conditional write (it succeeds only where the lease
is missing, expired, or one's own), so two processes never both get it; and
the store refuses a commit whose writer no longer holds the table's lease
(``SqlStore(owner=…)``), so a process that lost its lease during a pause
cannot write after the new owner.

One process alone (``make run``) needs no leases: ``LocalLeases``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncEngine

from doublesix.server import schema


class Leases(Protocol):
    owner: str
    """This process's name."""

    async def acquire(self, table_id: str) -> bool:
        """Take the table's lease if nobody else holds a current one; whether this process
        holds it now."""
        ...

    async def renew(self, table_ids: Sequence[str]) -> set[str]:
        """Extend this process's leases on ``table_ids``; the tables whose lease it lost."""
        ...

    async def release(self, table_id: str) -> None: ...

    async def holder(self, table_id: str) -> str | None:
        """The process whose lease on the table is current, if any."""
        ...

    async def free(self, limit: int = 100) -> list[str]:
        """Open or playing tables that no process holds (their owner is gone)."""
        ...


class LocalLeases:
    """One process owns every table."""

    def __init__(self, owner: str = "local") -> None:
        self.owner = owner

    async def acquire(self, table_id: str) -> bool:
        return True

    async def renew(self, table_ids: Sequence[str]) -> set[str]:
        return set()

    async def release(self, table_id: str) -> None:
        return None

    async def holder(self, table_id: str) -> str | None:
        return self.owner

    async def free(self, limit: int = 100) -> list[str]:
        return []


class SqlLeases:
    """Leases in the ``leases`` table of the store's database."""

    def __init__(
        self, engine: AsyncEngine, owner: str, seconds: float, clock: Callable[[], float]
    ) -> None:
        self.engine = engine
        self.owner = owner
        self.seconds = seconds
        self.clock = clock
        self._insert = sqlite_insert if engine.dialect.name == "sqlite" else pg_insert

    async def acquire(self, table_id: str) -> bool:
        now = self.clock()
        lease = schema.leases
        claim = self._insert(lease).values(
            table_id=table_id, owner=self.owner, until=now + self.seconds
        )
        claim = claim.on_conflict_do_update(
            index_elements=[lease.c.table_id],
            set_={"owner": self.owner, "until": now + self.seconds},
            where=(lease.c.until < now) | (lease.c.owner == self.owner),
        )
        async with self.engine.begin() as conn:
            await conn.execute(claim)
            held = await conn.scalar(sa.select(lease.c.owner).where(lease.c.table_id == table_id))
        return held == self.owner

    async def renew(self, table_ids: Sequence[str]) -> set[str]:
        if not table_ids:
            return set()
        now = self.clock()
        lease = schema.leases
        async with self.engine.begin() as conn:
            kept = await conn.execute(
                lease.update()
                .where(
                    lease.c.table_id.in_(list(table_ids)),
                    lease.c.owner == self.owner,
                    lease.c.until >= now,
                )
                .values(until=now + self.seconds)
                .returning(lease.c.table_id)
            )
            renewed = {row.table_id for row in kept}
        return set(table_ids) - renewed

    async def release(self, table_id: str) -> None:
        lease = schema.leases
        async with self.engine.begin() as conn:
            await conn.execute(
                lease.delete().where(lease.c.table_id == table_id, lease.c.owner == self.owner)
            )

    async def holder(self, table_id: str) -> str | None:
        lease = schema.leases
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(lease.c.owner).where(
                        lease.c.table_id == table_id, lease.c.until >= self.clock()
                    )
                )
            ).first()
        return None if row is None else str(row.owner)

    async def free(self, limit: int = 100) -> list[str]:
        t, lease = schema.tables, schema.leases
        held = sa.select(lease.c.table_id).where(lease.c.until >= self.clock())
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                sa.select(t.c.id)
                .where(t.c.status.in_(["open", "playing"]), t.c.id.not_in(held))
                .order_by(t.c.updated_at)
                .limit(limit)
            )
            return [row.id for row in rows]
