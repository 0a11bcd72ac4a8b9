"""Who is online: a player is online while a socket of theirs (lobby or table) is connected.

Each process counts its own sockets per player (``Here``). Alone, that is
the whole site (``LocalPresence``). With several processes each keeps its
players in a Redis hash ``ds:online:<process>`` (in the site's space,
``channels.Space``) that expires unless the process renews it
(``RedisPresence``): the site's list is the union of the site's hashes, and a
killed process's players vanish with its hash; a restarted one starts with a
hash of its own, so no player of before is left over.
"""

from __future__ import annotations

import contextlib
import logging
from collections import Counter
from dataclasses import dataclass, field
from typing import Protocol

import orjson
from redis.asyncio import Redis

from doublesix.server.channels import Space
from doublesix.table.model import JSON

log = logging.getLogger(__name__)

ONLINE_SECONDS = 6.0
"""A process's list of players expires this long after its last renewal."""
PREFIX = "ds:online:"


@dataclass
class OnlinePlayer:
    """A player online now, as the lobby shows them: where they sit, if anywhere."""

    id: str
    name: str
    account: bool
    tables: set[str] = field(default_factory=set)
    """The tables where a socket of theirs holds a seat."""
    lobby: bool = False
    """A lobby socket of theirs is open (a seek is paired only then)."""

    def public(self) -> JSON:
        """What every lobby may see (never the id: a guest's id is its cookie)."""
        table = min(self.tables) if self.tables else None
        return {
            "name": self.name,
            "account": self.account,
            "status": "free" if table is None else "seated",
            "table": table,
        }

    def wire(self) -> JSON:
        return {
            "name": self.name,
            "account": self.account,
            "tables": sorted(self.tables),
            "lobby": self.lobby,
        }


@dataclass
class _Count:
    player: OnlinePlayer
    sockets: int = 0
    lobbies: int = 0
    seats: Counter[str] = field(default_factory=Counter)


class Here:
    """This process's sockets, counted per player (and per table where they sit)."""

    def __init__(self) -> None:
        self._players: dict[str, _Count] = {}

    def add(self, player: OnlinePlayer, table: str | None, lobby: bool = False) -> None:
        """A socket of ``player``'s: seated at ``table``, or the lobby's (``lobby``)."""
        count = self._players.setdefault(player.id, _Count(player))
        count.player.name, count.player.account = player.name, player.account
        count.sockets += 1
        count.lobbies += lobby
        count.player.lobby = count.lobbies > 0
        if table is not None:
            count.seats[table] += 1
            count.player.tables.add(table)

    def remove(self, player_id: str, table: str | None, lobby: bool = False) -> bool:
        """One socket fewer; whether it was the player's last one here."""
        count = self._players.get(player_id)
        if count is None:
            return True
        count.sockets -= 1
        count.lobbies -= lobby
        count.player.lobby = count.lobbies > 0
        if table is not None:
            self.stand(player_id, table)
        if count.sockets <= 0:
            del self._players[player_id]
            return True
        return False

    def stand(self, player_id: str, table: str) -> None:
        """A socket of ``player_id``'s holds a seat at ``table`` no more (it may stay open)."""
        count = self._players.get(player_id)
        if count is None or count.seats[table] <= 0:
            return
        count.seats[table] -= 1
        if count.seats[table] <= 0:
            del count.seats[table]
            count.player.tables.discard(table)

    def players(self) -> list[OnlinePlayer]:
        return [c.player for c in self._players.values()]

    def get(self, player_id: str) -> OnlinePlayer | None:
        count = self._players.get(player_id)
        return None if count is None else count.player

    def has(self, player_id: str) -> bool:
        return player_id in self._players


class Presence(Protocol):
    here: Here

    async def publish(self, player_id: str | None = None) -> None:
        """Tell the site what ``here`` holds now: of ``player_id`` only, or of everyone."""
        ...

    async def online(self) -> dict[str, OnlinePlayer]:
        """Every player online on the site, by id."""
        ...

    async def close(self) -> None: ...


class LocalPresence:
    """One process: its sockets are the site's."""

    def __init__(self) -> None:
        self.here = Here()

    async def publish(self, player_id: str | None = None) -> None:
        return None

    async def online(self) -> dict[str, OnlinePlayer]:
        return {p.id: p for p in self.here.players()}

    async def close(self) -> None:
        return None


class RedisPresence:
    """Several processes: each one's players in a hash of its own that expires unless renewed
    (the lobby renews it every ``ONLINE_SECONDS / 3``)."""

    def __init__(self, redis: Redis, space: Space, process: str) -> None:
        self.here = Here()
        self.redis = redis
        self.key = space.key(PREFIX + process)
        self._everyone = space.key(PREFIX) + "*"
        """Every process's hash of this site (a site's name holds no wildcard)."""

    async def publish(self, player_id: str | None = None) -> None:
        expiry = int(ONLINE_SECONDS * 1000)
        async with self.redis.pipeline(transaction=True) as pipe:
            if player_id is not None:  # one player changed: their entry only
                player = self.here.get(player_id)
                if player is None:
                    pipe.hdel(self.key, player_id)
                else:
                    pipe.hset(self.key, player_id, orjson.dumps(player.wire()))
                pipe.pexpire(self.key, expiry)
            else:  # everyone again (and renewed)
                players = self.here.players()
                pipe.delete(self.key)
                if players:
                    pipe.hset(self.key, mapping={p.id: orjson.dumps(p.wire()) for p in players})
                    pipe.pexpire(self.key, expiry)
            await pipe.execute()

    async def online(self) -> dict[str, OnlinePlayer]:
        found: dict[str, OnlinePlayer] = {}
        keys = [key async for key in self.redis.scan_iter(match=self._everyone, count=100)]
        for key in keys:
            entries = await self.redis.hgetall(key)
            for raw_id, raw in entries.items():
                player_id = raw_id.decode() if isinstance(raw_id, bytes) else str(raw_id)
                try:
                    data = orjson.loads(raw)
                except orjson.JSONDecodeError:
                    continue
                known = found.get(player_id)
                if known is None:
                    known = found[player_id] = OnlinePlayer(
                        player_id, str(data["name"]), bool(data["account"])
                    )
                known.account = known.account or bool(data["account"])
                known.tables.update(str(t) for t in data.get("tables", ()))
                known.lobby = known.lobby or bool(data.get("lobby", False))
        return found

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.redis.delete(self.key)
