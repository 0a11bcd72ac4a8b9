"""Messages of the lobby between the server's processes: who changed, chat, challenges,
tournaments, a closed account, ended sessions, a new password's seats.

``publish`` hands a message to every process, this one included, and each
delivers it to its own lobby sockets (``on_message``). Alone, a process
delivers at once (``LocalBus``); with Redis, every process of the site listens
on one channel, ``ds:lobby`` in the site's space (``RedisBus``, ``channels.Space``),
where the command line sends a message too (``tell_site``).
Like the tables' relay, Redis may lose a message: the database holds the
challenges, and the online list is renewed every few seconds anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import orjson
from redis.asyncio import Redis

from doublesix.server.challenges import Challenge
from doublesix.server.channels import Channels, Space
from doublesix.table.model import JSON

CHANNEL = "ds:lobby"

Handler = Callable[[JSON], None]


def account_closed(player_id: str) -> JSON:
    """The message that has every process shut the account ``player_id`` out
    (``Lobby.shut_out``)."""
    return {"k": "closed", "p": player_id}


def sessions_ended(sessions: list[str]) -> JSON:
    """The message that has every process close the lobby sockets opened with these
    sessions (their keys, ``accounts.session_key``), which have ended (``Lobby.sign_out``)."""
    return {"k": "signed_out", "s": sessions}


def password_changed(player_id: str) -> JSON:
    """The message that has every process give a new token to each seat the account
    ``player_id`` holds at the tables it runs: its password changed (``seat_keys.rekey_here``).
    """
    return {"k": "rekey", "p": player_id}


def challenge_changed(challenge: Challenge, now: float) -> JSON:
    """The message that has every process send ``challenge`` as it is now to the lobby
    sockets of everyone it involves (``Lobby._tell``)."""
    return {"k": "to", "p": challenge.people(), "c": challenge.player, "f": challenge.public(now)}


def tournament_changed(summary: JSON) -> JSON:
    """The message that has every process send a tournament's ``summary`` to every lobby
    socket (``{"type": "tournament"}``)."""
    return {"k": "tournament", "id": summary["id"], "f": summary}


def tournament_paired(player_id: str, tournament_id: str, table_id: str) -> JSON:
    """The message that has every process send ``tournament_paired`` to the lobby sockets
    of ``player_id``, seated at ``table_id`` for a game of ``tournament_id``."""
    return {"k": "paired", "p": player_id, "t": tournament_id, "table": table_id}


def tables_erased(table_ids: list[str]) -> JSON:
    """The message that has every process read these tables again: an account's erasure
    rewrote their seats or logs (``Lobby.erased``)."""
    return {"k": "erased", "t": table_ids}


async def tell_site(redis: Redis, space: Space, message: JSON) -> int:
    """Send ``message`` to every process of the site ``space`` from a process that is none
    of them (the command line), at once; how many processes heard it."""
    return int(await redis.publish(space.channel(CHANNEL), orjson.dumps(message)))


async def listening(redis: Redis, space: Space) -> int:
    """How many processes of the site ``space`` listen on its channel: how many
    ``tell_site`` would reach now."""
    [(_, count)] = await redis.pubsub_numsub(space.channel(CHANNEL))
    return int(count)


class LobbyBus(Protocol):
    on_message: Handler

    def publish(self, message: JSON) -> None: ...

    async def start(self) -> None: ...

    async def close(self) -> None: ...


class LocalBus:
    """One process: a message is delivered here, at once."""

    def __init__(self) -> None:
        self.on_message: Handler = lambda message: None

    def publish(self, message: JSON) -> None:
        self.on_message(message)

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisBus:
    """Several processes: every message through the Redis channel ``ds:lobby``."""

    def __init__(self, redis: Redis, space: Space) -> None:
        self.on_message: Handler = lambda message: None
        self._channels = Channels(redis, space, "lobby", self._received)

    def publish(self, message: JSON) -> None:
        self._channels.publish(CHANNEL, orjson.dumps(message))

    async def start(self) -> None:
        await self._channels.subscribe(CHANNEL)
        self._channels.start()

    async def close(self) -> None:
        await self._channels.close()

    def _received(self, channel: str, data: bytes) -> None:
        self.on_message(orjson.loads(data))
