"""Tournaments running (``docs/protocol.md``, "Tournaments"): made, joined, withdrawn from and
cancelled; started and ended by the clock; their free players paired at each sweep of the
lobby; each game scored at its end; every lobby told.

Any process does any of it. A change of status is a conditional UPDATE (``tournament_sql.
advance``): the process that made it tells the lobbies, once. Pairing looks first without a
lock (who of the joined players is online with a lobby socket and free, and whether they
make a table at all: an idle tournament costs a read), then pairs in one transaction that
locks the tournament's row and reads again who is free (``tournament_sql.take``), and only
then makes the tables. The lobby's sockets hear of it through the ``LobbyBus``: a
tournament's summary (``{"k": "tournament"}``, for everyone) and a pairing
(``{"k": "paired"}``, for the seated player's sockets).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from doublesix.server import tournament_sql
from doublesix.server.account_lists import BLOCKS
from doublesix.server.deps import account_of
from doublesix.server.lobby_bus import LobbyBus, tournament_changed, tournament_paired
from doublesix.server.manager import TableManager
from doublesix.server.moderation_log import Act, write
from doublesix.server.presence import Presence
from doublesix.server.requests import Describe
from doublesix.server.settings import Settings
from doublesix.server.store import Guest, SqlStore
from doublesix.server.tournaments import (
    Free,
    Status,
    Tournament,
    TournamentIn,
    ended_by_cancel,
    groups,
    needs_operator,
    new_tournament,
    table_of,
)
from doublesix.table.model import JSON, Table


class Touring:
    def __init__(
        self,
        store: SqlStore,
        manager: TableManager,
        settings: Settings,
        presence: Presence,
        bus: LobbyBus,
    ) -> None:
        self.store, self.manager, self.settings = store, manager, settings
        self.presence, self.bus = presence, bus

    # --- what players ask -----------------------------------------------------------------

    async def create(self, body: TournamentIn, who: Guest | None) -> JSON:
        creator = account_of(who, "create a tournament")
        tournament = new_tournament(body, creator, self.settings.clock())
        await tournament_sql.add(self.store, tournament)
        await self._tell(tournament)
        return await self.detail(tournament.id, creator)

    async def detail(self, tournament_id: str, who: Guest | None) -> JSON:
        tournament = await self._get(tournament_id)
        viewer = None if who is None or not who.account else who.id
        return await tournament_sql.detail(self.store, tournament, viewer, self.settings.clock())

    async def listing(self) -> JSON:
        return await tournament_sql.listing(self.store, self.settings.clock())

    async def join(self, tournament_id: str, who: Guest | None) -> JSON:
        player = account_of(who, "join a tournament")
        now = self.settings.clock()
        await self._tell(await tournament_sql.join(self.store, tournament_id, player.id, now))
        return await self.detail(tournament_id, player)

    async def withdraw(self, tournament_id: str, who: Guest | None) -> JSON:
        player = account_of(who, "withdraw from a tournament")
        await self._tell(await tournament_sql.withdraw(self.store, tournament_id, player.id))
        return await self.detail(tournament_id, player)

    async def cancel(self, tournament_id: str, who: Guest | None) -> JSON:
        """Its creator before the start, an operator any time. An operator's act — a cancel
        that needs an operator (``tournaments.needs_operator``) — is logged in the operators'
        log, about its creator; an operator cancelling their own before its start acts as its
        creator, as anyone may, and is not logged."""
        player = account_of(who, "cancel a tournament")
        now = self.settings.clock()
        was = await tournament_sql.cancel(
            self.store, tournament_id, player.id, player.operator, now
        )
        cancelled = replace(was, status=Status.CANCELLED, ended_at=ended_by_cancel(was, now))
        if needs_operator(was, player.id):
            shown = await tournament_sql.summary(self.store, cancelled, now)
            await write(
                self.store,
                now,
                player.name,
                Act.TOURNAMENT,
                shown["creator"],
                tournament=cancelled.id,
                title=cancelled.name,
            )
        await self._tell(cancelled)
        return await self.detail(tournament_id, player)

    async def _get(self, tournament_id: str) -> Tournament:
        tournament = await tournament_sql.get(self.store, tournament_id)
        if tournament is None:
            raise tournament_sql.not_found(tournament_id)
        return tournament

    # --- what the lobby's sweep does ------------------------------------------------------

    async def sweep(self) -> None:
        """Start and end the tournaments that are due, end the games a stopped process left
        (``settle``), and pair the free players of those running."""
        now = self.settings.clock()
        current = await tournament_sql.live(self.store)
        due = [
            (t.id, t.status, Status.RUNNING if t.status == Status.UPCOMING else Status.FINISHED)
            for t in current
            if (t.status == Status.UPCOMING and now >= t.starts_at)
            or (t.status == Status.RUNNING and now >= t.ends_at)
        ]
        if due:
            for tournament_id in await tournament_sql.advance(self.store, due, now):
                await self._tell(await self._get(tournament_id))
            current = await tournament_sql.live(self.store)
        await self.settle()
        running = [t for t in current if t.status == Status.RUNNING and now < t.ends_at]
        if running:
            await self.pair(running)

    async def settle(self) -> int:
        """Score the games whose end no one scored (a process stopped between a game's end
        and its scoring), end those closed or never made; how many."""
        ended = await tournament_sql.unsettled(self.store, self.settings.clock())
        for table_id in ended:
            await self.score(table_id)
        return len(ended)

    async def pair(self, running: list[Tournament]) -> dict[str, str]:
        """Seat the free players of the ``running`` tournaments: the table of each player
        seated."""
        online = await self.presence.online()
        lobby = {p.id for p in online.values() if p.lobby}
        waiting = await tournament_sql.free(self.store, [t.id for t in running], lobby)
        paired: dict[str, str] = {}
        for tournament in running:
            candidates = waiting.get(tournament.id, [])
            if len(candidates) < 2:
                continue
            apart = await BLOCKS.among(self.store, candidates)
            now = self.settings.clock()

            found = await tournament_sql.freed(self.store, tournament, candidates)
            if not groups(found, tournament.players, now, apart):
                continue  # the usual answer, found without a lock
            make = self._tables(apart, now)
            tables = await tournament_sql.take(self.store, tournament.id, candidates, make, now)
            for table in tables:
                host = await self.manager.create(table)
                await host.submit(Describe())  # once it has started (and stored so)
                for seat in table.seats:
                    if seat.player is not None:
                        paired[seat.player] = table.id
                        self.bus.publish(tournament_paired(seat.player, tournament.id, table.id))
            if tables:
                await self._tell(tournament)
        return paired

    def _tables(
        self, apart: set[tuple[str, str]], now: float
    ) -> Callable[[Tournament, list[Free]], list[Table]]:
        """What chooses a tournament's tables of its free players, in the pairing's
        transaction."""

        def make(tournament: Tournament, free: list[Free]) -> list[Table]:
            return [
                table_of(tournament, group, now, self.settings.new_seed())
                for group in groups(free, tournament.players, now, apart)
            ]

        return make

    # --- a game's end ---------------------------------------------------------------------

    async def finished(self, table: Table) -> None:
        """A tournament table's game ended (``Shell.finished``): score it."""
        if table.tournament is not None:
            await self.score(table.id)

    async def score(self, table_id: str) -> None:
        ended = await tournament_sql.score(self.store, table_id, self.settings.clock())
        if ended is not None:
            await self._tell(await self._get(ended))

    async def _tell(self, tournament: Tournament) -> None:
        """Every lobby of the site hears the tournament's summary as it is now."""
        shown = await tournament_sql.summary(self.store, tournament, self.settings.clock())
        self.bus.publish(tournament_changed(shown))
