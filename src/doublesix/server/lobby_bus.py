"""Messages of the lobby between the server's processes: who changed, chat, challenges.

``publish`` hands a message to every process, this one included, and each
delivers it to its own lobby sockets (``on_message``). Alone, a process
delivers at once (``LocalBus``); with Redis, every process listens on one
channel, ``ds:lobby`` (``RedisBus``). Like the tables' relay, Redis may lose
a message: the database holds the challenges, and the online list is
renewed every few seconds anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Protocol

import orjson
from redis.asyncio import Redis

from doublesix.table.model import JSON

log = logging.getLogger(__name__)

CHANNEL = "ds:lobby"

Handler = Callable[[JSON], None]


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

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self.on_message: Handler = lambda message: None
        self._pubsub = redis.pubsub()
        self._outbox: asyncio.Queue[bytes] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []

    def publish(self, message: JSON) -> None:
        self._outbox.put_nowait(orjson.dumps(message))

    async def start(self) -> None:
        await self._pubsub.subscribe(CHANNEL)
        self._tasks = [
            asyncio.create_task(self._read(), name="lobby-read"),
            asyncio.create_task(self._send(), name="lobby-send"),
        ]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _send(self) -> None:
        while True:
            text = await self._outbox.get()
            try:
                await self.redis.publish(CHANNEL, text)
            except Exception:
                log.warning("lobby: a message was lost", exc_info=True)

    async def _read(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(
                    ignore_subscribe_messages=True, timeout=1.0
                )
            except Exception:
                log.warning("lobby: Redis read failed; retrying", exc_info=True)
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            try:
                self.on_message(orjson.loads(message["data"]))
            except Exception:
                log.exception("lobby: a message could not be handled")
