"""The lobby's chat: what a message may be, how often, and the last ones kept.

The same limits as a table's chat (``TableConfig``: 300 characters, 5
messages in 10 s, no control characters); a message is text or one of the
quick phrases (``Phrase``), which each reader sees in their own language.
The last ``KEPT`` messages are kept for a new lobby socket: in memory, or in
the site's Redis list ``ds:lobby:chat`` with several processes. Each has an ``id``, by which one
of the site's operators removes it (``History.remove``); an erased account's go all together
(``forget``).
"""

from __future__ import annotations

import secrets
from collections import deque
from typing import Protocol

import orjson
from limits import RateLimitItemPerSecond
from redis.asyncio import Redis

from doublesix.server.channels import Space
from doublesix.server.player_limits import PlayerLimits
from doublesix.table.commands import Phrase
from doublesix.table.config import TableConfig
from doublesix.table.errors import Refusal, TableError
from doublesix.table.model import JSON
from doublesix.table.state import printable

KEPT = 50
"""Messages a new lobby socket is sent."""
HISTORY = "ds:lobby:chat"
"""The list's name (in the site's space: ``channels.Space.key``)."""

_config = TableConfig()
LENGTH = _config.chat_length
RATE = RateLimitItemPerSecond(_config.chat_burst, int(_config.chat_window), namespace="lobby-chat")
"""Messages one player may write in the lobby per window (the site's count: a player's
sockets may be on several processes)."""


def clean_text(text: str) -> str:
    """The message as it is kept; TableError(``chat``, field ``text``) if it may not be."""
    cleaned = text.strip()
    if not cleaned:
        raise TableError(Refusal.CHAT, "say something (the message is empty)", field="text")
    if len(cleaned) > LENGTH:
        raise TableError(Refusal.CHAT, f"a message is at most {LENGTH} characters", field="text")
    if not printable(cleaned):
        raise TableError(Refusal.CHAT, "no control characters in a message", field="text")
    return cleaned


class Speakers:
    """How often each player writes, counted in ``limits`` (``player_limits``)."""

    def __init__(self, limits: PlayerLimits) -> None:
        self._limits = limits

    async def speak(self, player_id: str) -> None:
        if not await self._limits.hit(RATE, player_id):
            raise TableError(
                Refusal.RATE_LIMITED,
                f"at most {RATE.amount} messages in {RATE.multiples} s; slow down",
            )


def message(name: str, text: str | None, phrase: Phrase | None, at: float) -> JSON:
    """The ``chat`` frame every lobby socket gets (text is text: the client never reads it
    as HTML)."""
    out: JSON = {"type": "chat", "id": secrets.token_hex(8), "from": name, "at": at}
    if phrase is not None:
        out["phrase"] = phrase.value
    else:
        out["text"] = text
    return out


class History(Protocol):
    async def add(self, message: JSON) -> None: ...

    async def last(self) -> list[JSON]:
        """The last ``KEPT`` messages, the oldest first."""
        ...

    async def remove(self, message_id: str) -> JSON | None:
        """Forget the kept message ``message_id``; the message, if it was kept."""
        ...


class LocalHistory:
    def __init__(self) -> None:
        self._kept: deque[JSON] = deque(maxlen=KEPT)

    async def add(self, message: JSON) -> None:
        self._kept.append(message)

    async def last(self) -> list[JSON]:
        return list(self._kept)

    async def remove(self, message_id: str) -> JSON | None:
        found = next((m for m in self._kept if m.get("id") == message_id), None)
        if found is not None:
            self._kept = deque((m for m in self._kept if m is not found), maxlen=KEPT)
        return found


class RedisHistory:
    def __init__(self, redis: Redis, space: Space) -> None:
        """The list ``HISTORY`` in the site's ``space``."""
        self.redis = redis
        self.key = space.key(HISTORY)

    async def add(self, message: JSON) -> None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.rpush(self.key, orjson.dumps(message))
            pipe.ltrim(self.key, -KEPT, -1)
            await pipe.execute()

    async def last(self) -> list[JSON]:
        return [orjson.loads(raw) for raw in await self.redis.lrange(self.key, -KEPT, -1)]

    async def remove(self, message_id: str) -> JSON | None:
        for raw in await self.redis.lrange(self.key, 0, -1):
            said: JSON = orjson.loads(raw)
            if said.get("id") == message_id:
                kept = raw.decode() if isinstance(raw, bytes) else raw  # the same UTF-8 bytes
                return said if await self.redis.lrem(self.key, 1, kept) else None
        return None


async def forget(history: History, name: str) -> list[str]:
    """Remove every kept message from ``name`` (an erased account); the ids of those removed
    (every lobby's list is told to drop them)."""
    gone = []
    for said in await history.last():
        if said.get("from") == name and await history.remove(said["id"]) is not None:
            gone.append(str(said["id"]))
    return gone
