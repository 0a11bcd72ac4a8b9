"""Leases: one owner per table at a time, even when processes race for it (issue 12)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from doublesix.server.leases import SqlLeases
from doublesix.server.store import Fence, SqlStore, StaleVersionError
from doublesix.table.model import Entry, EventKind, Seat, SeatKind, Table

from .server_helpers import POSTGRES, run_async


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _store(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> SqlStore:
    if backend == "postgres":
        return SqlStore(POSTGRES, schema_name=request.getfixturevalue("pg_schema"))
    return SqlStore(f"sqlite:///{tmp_path / 'x.sqlite3'}")


def _table(table_id: str) -> Table:
    seats = [Seat(0, SeatKind.HUMAN, None, "g", "Anna", f"tok-{table_id}"), Seat(1, SeatKind.OPEN)]
    return Table(table_id, "block", {"preset": "block"}, 1, None, False, False, "g", seats, 1.0)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_racing_processes_never_share_a_table(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    store = _store(backend, tmp_path, request)
    clock = Clock()

    async def check() -> None:
        await store.migrate()
        processes = [SqlLeases(store.engine, f"p{n}", 5.0, clock) for n in range(4)]
        for k in range(20):
            await store.add_table(_table(f"t{k}"))
            won = await asyncio.gather(*(p.acquire(f"t{k}") for p in processes))
            assert sum(won) == 1, won  # exactly one owner, whoever raced
            holder = await processes[0].holder(f"t{k}")
            assert holder == processes[won.index(True)].owner
        await store.close()

    run_async(check())


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_an_expired_lease_passes_on_and_the_old_owner_cannot_write(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    store = _store(backend, tmp_path, request)
    clock = Clock()

    async def check() -> None:
        await store.migrate()
        await store.add_table(_table("t"))
        a = SqlLeases(store.engine, "a", 5.0, clock)
        b = SqlLeases(store.engine, "b", 5.0, clock)
        assert await a.acquire("t") and not await b.acquire("t")
        assert await b.free() == []
        clock.now += 3
        assert await a.renew(["t"]) == set()  # renewed until 1008
        clock.now += 4
        assert not await b.acquire("t")  # still a's
        clock.now += 2  # a missed its renewals: the lease ran out at 1008
        assert await b.free() == ["t"]
        assert await b.acquire("t")
        assert await a.renew(["t"]) == {"t"}  # a learns it lost the table
        # a, paused through all this, tries to write: the fence refuses it.
        changed = _table("t")
        changed.version = 1
        entry = [Entry(1, EventKind.CHAT, 0, {"from": "Anna", "text": "late"}, clock.now)]
        store.fence = Fence("a", clock, 5.0)
        with pytest.raises(StaleVersionError):
            await store.commit(changed, entry)
        store.fence = Fence("b", clock, 5.0)
        await store.commit(changed, entry)  # the owner writes
        assert [e.version for e in await store.events("t")] == [1]
        await b.release("t")
        assert await b.holder("t") is None
        await store.close()

    run_async(check())
