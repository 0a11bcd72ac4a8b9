"""The tables of this server process: one running ``TableActor`` per table in play."""

from __future__ import annotations

import asyncio
import logging

from doublesix.server.actor import Settings, TableActor
from doublesix.server.hub import Hub
from doublesix.server.store import Store, TableRecord
from doublesix.server.thinking import Thinking

log = logging.getLogger(__name__)


class TableManager:
    def __init__(self, store: Store, hub: Hub, settings: Settings, thinking: Thinking) -> None:
        self.store = store
        self.hub = hub
        self.settings = settings
        self.thinking = thinking
        self.actors: dict[str, TableActor] = {}
        self._loading = asyncio.Lock()

    async def resume(self) -> int:
        """Rebuild and start every table that is open or being played; how many."""
        count = 0
        for table in await self.store.tables(["open", "playing"], limit=100_000):
            try:
                await self._load(table)
                count += 1
            except Exception:
                log.exception("table %s could not be resumed", table.id)
        return count

    async def get(self, table_id: str) -> TableActor | None:
        """The table's actor, rebuilt from the store if this process has none yet."""
        actor = self.actors.get(table_id)
        if actor is not None and actor.running:
            return actor
        async with self._loading:
            actor = self.actors.get(table_id)
            if actor is not None and actor.running:
                return actor
            table = await self.store.table(table_id)
            return None if table is None else await self._load(table)

    async def create(self, table: TableRecord) -> TableActor:
        await self.store.add_table(table)
        actor = TableActor(table, self.store, self.hub, self.settings, self.thinking)
        self.actors[table.id] = actor
        actor.start()
        return actor

    async def _load(self, table: TableRecord) -> TableActor:
        actor = TableActor(table, self.store, self.hub, self.settings, self.thinking)
        actor.replay(await self.store.events(table.id))
        self.actors[table.id] = actor
        actor.start()
        return actor

    async def close(self) -> None:
        actors, self.actors = list(self.actors.values()), {}
        await asyncio.gather(*(a.stop() for a in actors))
