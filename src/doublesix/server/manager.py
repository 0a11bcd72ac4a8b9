"""The tables of this process, and the way to every other table.

``get`` answers a link to any table: the running ``TableHost`` when this
process owns it (taking the lease of a table nobody runs, and loading it
from the store), or a ``RemoteTable`` to the process that owns it. With
several processes the ``keeper`` task renews this process's leases, stops
the tables whose lease it lost, takes over the tables whose owner is gone,
and lets a table's owner forget the sockets of processes that died.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from doublesix.server.host import TableHost
from doublesix.server.hub import RedisHub
from doublesix.server.leases import Leases, LocalLeases
from doublesix.server.relay import Relay
from doublesix.server.remote import RemoteTable, TableLink, answer_json, decode
from doublesix.server.requests import Shell
from doublesix.server.store import Store
from doublesix.table import commands
from doublesix.table.errors import Refusal, TableError
from doublesix.table.model import JSON, SeatKind, Table, TableStatus
from doublesix.table.state import TableState

PUBLISHED_AGAIN = 8
"""Entries a process that loads a table publishes again: the last owner, if it died, may
have stored them and not sent them yet (one change makes one to three entries, and a
process's outbox holds a few changes of one table at most)."""

log = logging.getLogger(__name__)


class TableManager:
    def __init__(
        self,
        shell: Shell,
        leases: Leases | None = None,
        relay: Relay | None = None,
        lease_seconds: float = 5.0,
    ) -> None:
        self.shell = shell
        self.leases: Leases = leases or LocalLeases()
        self.relay = relay
        self.lease_seconds = lease_seconds
        self.hosts: dict[str, TableHost] = {}
        self._remote: dict[str, RemoteTable] = {}
        self._loading = asyncio.Lock()
        self._keeper: asyncio.Task[None] | None = None
        if relay is not None:
            relay.on_request = self._forwarded

    @property
    def store(self) -> Store:
        return self.shell.store

    @property
    def process(self) -> str:
        return self.leases.owner

    async def resume(self) -> int:
        """Take and start every table that is open or being played and that no other process
        runs; how many. With other processes, the keeper goes on taking tables over."""
        count = 0
        running = [TableStatus.OPEN, TableStatus.PLAYING]
        for table in await self.store.tables(running, limit=100_000):
            try:
                if await self.leases.acquire(table.id):
                    await self._load(table)
                    count += 1
            except Exception:
                log.exception("table %s could not be resumed", table.id)
        if self.relay is not None:
            self._keeper = asyncio.create_task(self._keep(), name="table-leases")
        return count

    async def get(self, table_id: str) -> TableLink | None:
        """A link to the table: its host here (loaded if nobody runs it), or its owner."""
        host = self.hosts.get(table_id)
        if host is not None and host.running:
            return host
        remote = self._remote.get(table_id)
        if remote is not None:
            return remote
        async with self._loading:
            host = self.hosts.get(table_id)
            if host is not None and host.running:
                return host
            table = await self.store.table(table_id)
            if table is None:
                return None
            if await self.leases.acquire(table_id):
                return await self._load(table)
            owner = await self.leases.holder(table_id)
            if owner is None or self.relay is None:
                raise TableError(Refusal.SERVER, "the table is changing hands; try again")
            remote = self._remote[table_id] = RemoteTable(self.relay, owner, table_id)
            return remote

    def seats_of(self, player_id: str) -> list[tuple[TableHost, int]]:
        """The seats ``player_id`` holds at the tables this process runs that are not over
        (open or being played): each one's host and number. A table run elsewhere is its
        owner's to look at."""
        return [
            (host, seat.number)
            for host in self.hosts.values()
            if host.running and host.table.status in (TableStatus.OPEN, TableStatus.PLAYING)
            for seat in host.table.seats
            if seat.kind == SeatKind.HUMAN and seat.player == player_id
        ]

    def forget(self, table_id: str) -> None:
        """Its owner has changed (or stopped answering): ask the lease again next time."""
        self._remote.pop(table_id, None)

    async def create(self, table: Table, *, most_unfinished: int | None = None) -> TableHost:
        """Store a new table and run it (it starts at once if every seat is taken);
        ``most_unfinished``: as ``Store.add_table``'s."""
        await self.store.add_table(table, most_unfinished=most_unfinished)  # with its lease
        if self.shell.listed is not None:
            self.shell.listed(table.copy())
        state = TableState(table, self.shell.config, self.shell.levels, self.shell.clock())
        return self._run(state)

    async def _load(self, table: Table) -> TableHost:
        shell = self.shell
        entries = await self.store.events(table.id)
        state = TableState.rebuild(table, entries, shell.config, shell.levels, shell.clock())
        host = self._run(state)
        self._remote.pop(table.id, None)
        if isinstance(shell.hub, RedisHub):
            shell.hub.owned(table.id)  # sockets elsewhere: tell the new owner you are here
            host.publish_again(PUBLISHED_AGAIN)
        return host

    def _run(self, state: TableState) -> TableHost:
        host = TableHost(state, self.shell)
        self.hosts[host.id] = host
        host.start()
        return host

    async def close(self) -> None:
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
        hosts, self.hosts = list(self.hosts.values()), {}
        await asyncio.gather(*(h.stop() for h in hosts))
        for host in hosts:
            with contextlib.suppress(Exception):
                await self.leases.release(host.id)

    # --- several processes ------------------------------------------------------------

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 5)
            try:
                await self._keep_once()
            except Exception:
                log.exception("the table leases could not be kept")

    async def _keep_once(self) -> None:
        for table_id, host in list(self.hosts.items()):
            if not host.running:  # retired (finished, nobody there) or stopped
                del self.hosts[table_id]
                await self.leases.release(table_id)
        lost = await self.leases.renew(list(self.hosts))
        for table_id in lost:
            log.warning("table %s: its lease was lost; another process runs it now", table_id)
            host = self.hosts.pop(table_id)
            await host.stop()
        for table_id in await self.leases.free():
            table = await self.store.table(table_id)
            if table is not None and await self.leases.acquire(table_id):
                log.info("table %s: taken over", table_id)
                await self._load(table)
        await self._forget_dead_sockets()

    async def _forget_dead_sockets(self) -> None:
        """Sockets held by processes that died: their players are away now."""
        assert self.relay is not None
        sockets = {key: host for host in self.hosts.values() for key in host.state.sockets}
        processes = {key.rsplit("/", 1)[0] for key in sockets} - {self.process}
        dead = processes - await self.relay.living(processes)
        for key, host in sockets.items():
            if key.rsplit("/", 1)[0] in dead:
                with contextlib.suppress(TableError):
                    await host.submit(commands.Disconnect(key))

    async def _forwarded(self, table_id: str, op: str, args: JSON) -> Any:
        """Carry out a request that another process forwarded to this owner."""
        host = self.hosts.get(table_id)
        if host is None or not host.running:
            link = await self.get(table_id)
            if not isinstance(link, TableHost):
                raise TableError(Refusal.SERVER, "the table has moved to another process")
            host = link
        if op == "hint":
            return await host.hint(args["seat"])
        return answer_json(await host.submit(decode(op, args)))

    async def hold(self, table_id: str, sockets: tuple[tuple[str, int], ...]) -> None:
        """Tell the table's (new) owner which of its seats have sockets here."""
        self.forget(table_id)
        try:
            link = await self.get(table_id)
            if link is not None and sockets:
                await link.submit(commands.Hold(sockets))
        except TableError as e:
            log.warning("table %s: its new owner was not told who is here: %s", table_id, e)
