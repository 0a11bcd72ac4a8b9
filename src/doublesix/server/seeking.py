"""The lobby's pool of seeks: a seek made, withdrawn or ended by leaving, groups paired and
their tables made, and every lobby told (``docs/protocol.md``, "Play now").

Any process pairs: when a seek comes and at every sweep of its lobby, since a rated group's
range widens with time. The lobby's sockets hear of it through the ``LobbyBus``: the pool's
counts (``{"k": "pool"}``, for everyone) and a seek's change (``{"k": "seek"}``, for its
seeker's sockets, with the table when it was paired).
"""

from __future__ import annotations

from limits import RateLimitItemPerMinute

from doublesix.ratings import family_of
from doublesix.rules.ruleset import preset
from doublesix.server.account_lists import BLOCKS
from doublesix.server.errors import CommandError
from doublesix.server.lobby_bus import LobbyBus
from doublesix.server.manager import TableManager
from doublesix.server.player_limits import PlayerLimits
from doublesix.server.presence import OnlinePlayer, Presence
from doublesix.server.rating_store import shown_ratings
from doublesix.server.requests import Describe
from doublesix.server.seek_sql import Pool
from doublesix.server.seeks import Seek, SeekIn, kind_of, match, pool, table_of
from doublesix.server.settings import Settings
from doublesix.server.store import Guest
from doublesix.table.model import JSON

SEEKS = RateLimitItemPerMinute(20, namespace="seeks")
"""Seeks one player may make per minute (each one replaces the last; the site's count:
``player_limits``)."""


class Seeking:
    def __init__(
        self,
        pool: Pool,
        manager: TableManager,
        settings: Settings,
        presence: Presence,
        bus: LobbyBus,
        limits: PlayerLimits,
    ) -> None:
        self.pool, self.manager, self.settings = pool, manager, settings
        self.presence, self.bus, self.limits = presence, bus, limits
        self._seated: dict[str, str | None] = {}
        """The table each seeker was last told it sits at (``_tell_seated``)."""

    async def seek(self, body: SeekIn, who: Guest) -> str | None:
        """``who`` seeks what ``body`` asks (in place of what it sought before); the table
        it sits at if the pool made one at once."""
        now = self.settings.clock()
        kind = kind_of(body, who, now)
        if not await self.limits.hit(SEEKS, who.id):
            raise CommandError(
                "too_many_seeks", f"at most {SEEKS.amount} seeks a minute", status=429
            )
        rating = None
        if kind.rated:
            family = family_of(preset(kind.preset, kind.players))
            rating = (await shown_ratings(self.pool.store, [who.id]))[who.id][family].rating
        seek = Seek(who.id, who.name, who.account, kind, rating, now, frozenset(body.avoid))
        await self.pool.put(seek)
        seated = self._seated[who.id] = _seated_at(await self.presence.online(), seek)
        self._tell(seek.player, seek, seated=seated)
        await self._tell_pool()
        return (await self.pair()).get(who.id)

    async def withdraw(self, who: Guest) -> Seek:
        seek = await self.pool.remove(who.id)
        if seek is None:
            raise CommandError("not_found", "you are not seeking a game", status=404)
        self._tell(who.id, None)
        await self._tell_pool()
        return seek

    async def left(self, player_id: str) -> None:
        """``player_id`` left the lobby (or the site): its seek goes."""
        if await self.pool.remove(player_id) is not None:
            await self._tell_pool()

    async def mine(self, player_id: str) -> JSON | None:
        seek = await self.pool.get(player_id)
        if seek is None:
            return None
        return seek.public(self.settings.clock(), _seated_at(await self.presence.online(), seek))

    async def counts(self) -> list[JSON]:
        return pool(await self.pool.seeks())

    async def seekers(self) -> set[str]:
        return {s.player for s in await self.pool.seeks()}

    async def pair(self) -> dict[str, str]:
        """Make the tables of the groups the pool holds now: the table of each seeker
        paired."""
        waiting = await self.pool.seeks()
        if not waiting:
            return {}
        now = self.settings.clock()
        online = await self.presence.online()
        self._tell_seated(waiting, online)
        if len(waiting) < 2:
            return {}
        free = {p.id for p in online.values() if p.lobby and not p.tables}
        busy = frozenset(s.player for s in waiting if s.player not in free)
        apart = await BLOCKS.among(self.pool.store, [s.player for s in waiting if s.account])
        if not match(waiting, now, busy, apart):  # the usual answer, found without a lock
            return {}
        groups = await self.pool.take(lambda seeks: match(seeks, now, busy, apart))
        paired = {}
        for group in groups:
            table = table_of(group, now, self.settings.new_seed())
            host = await self.manager.create(table)
            await host.submit(Describe())  # once it has started (and stored so)
            for seek in group:
                paired[seek.player] = table.id
                self._tell(seek.player, None, table.id)
        if groups:
            await self._tell_pool()
        return paired

    def _tell_seated(self, waiting: list[Seek], online: dict[str, OnlinePlayer]) -> None:
        """Tell each seeker whose table it sits at now, when that changed: a player seated
        in another tab waits, and the card says why."""
        for seek in waiting:
            seated = _seated_at(online, seek)
            if self._seated.get(seek.player) != seated:
                self._seated[seek.player] = seated
                self._tell(seek.player, seek, seated=seated)
        for gone in self._seated.keys() - {s.player for s in waiting}:
            del self._seated[gone]

    def _tell(
        self,
        player_id: str,
        seek: Seek | None,
        table: str | None = None,
        seated: str | None = None,
    ) -> None:
        shown = None if seek is None else seek.public(self.settings.clock(), seated)
        self.bus.publish({"k": "seek", "p": player_id, "f": shown, "t": table})

    async def _tell_pool(self) -> None:
        self.bus.publish({"k": "pool", "f": await self.counts()})


def _seated_at(online: dict[str, OnlinePlayer], seek: Seek) -> str | None:
    """The table where a socket of ``seek``'s player holds a seat, if any (the first)."""
    player = online.get(seek.player)
    return min(player.tables) if player is not None and player.tables else None
