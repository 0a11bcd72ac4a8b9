"""The tables of this server process: one running ``TableHost`` per table in play."""

from __future__ import annotations

import asyncio
import logging

from doublesix.server.host import Shell, TableHost
from doublesix.server.store import Store
from doublesix.table.model import Table, TableStatus
from doublesix.table.state import TableState

log = logging.getLogger(__name__)


class TableManager:
    def __init__(self, shell: Shell) -> None:
        self.shell = shell
        self.hosts: dict[str, TableHost] = {}
        self._loading = asyncio.Lock()

    @property
    def store(self) -> Store:
        return self.shell.store

    async def resume(self) -> int:
        """Rebuild and start every table that is open or being played; how many."""
        count = 0
        running = [TableStatus.OPEN, TableStatus.PLAYING]
        for table in await self.store.tables(running, limit=100_000):
            try:
                await self._load(table)
                count += 1
            except Exception:
                log.exception("table %s could not be resumed", table.id)
        return count

    async def get(self, table_id: str) -> TableHost | None:
        """The table's host, rebuilt from the store if this process has none running."""
        host = self.hosts.get(table_id)
        if host is not None and host.running:
            return host
        async with self._loading:
            host = self.hosts.get(table_id)
            if host is not None and host.running:
                return host
            table = await self.store.table(table_id)
            return None if table is None else await self._load(table)

    async def create(self, table: Table) -> TableHost:
        """Store a new table and run it (it starts at once if every seat is taken)."""
        await self.store.add_table(table)
        state = TableState(table, self.shell.config, self.shell.levels, self.shell.clock())
        return self._run(state)

    async def _load(self, table: Table) -> TableHost:
        shell = self.shell
        entries = await self.store.events(table.id)
        state = TableState.rebuild(table, entries, shell.config, shell.levels, shell.clock())
        return self._run(state)

    def _run(self, state: TableState) -> TableHost:
        host = TableHost(state, self.shell)
        self.hosts[host.id] = host
        host.start()
        return host

    async def close(self) -> None:
        hosts, self.hosts = list(self.hosts.values()), {}
        await asyncio.gather(*(h.stop() for h in hosts))
