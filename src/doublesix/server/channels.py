"""Redis pub/sub for one process: what both the tables' relay and the lobby's bus stand on.

One pub/sub connection, read by one task that hands each message to a callback, and one
outbox, published by another task in pipelines: whatever waits in it goes out in one round
trip, in the order it was queued, on one connection (a burst that took a pooled connection
a message ran out of the pool). Redis may lose a message (a restart, a full buffer): a
failed read is retried, a failed send is logged, and those who use this keep their truth
elsewhere (the database) or renew it anyway.

A site is a Redis database: its processes share the number in ``--redis``'s URL, and
its keys live in that database alone. Redis's channels belong to no database, so each
channel here is named in the database's own space (``db3:ds:lobby`` for ``ds:lobby`` on
database 3): two sites on one Redis, each on its own database number, hear only their
own messages. Callers name channels without it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from redis.asyncio import Redis

log = logging.getLogger(__name__)

SEND_BATCH = 500
"""Messages published in one pipeline at most."""

Receiver = Callable[[str, bytes], None]
"""Takes a message: its channel and its data as sent."""


def space(redis: Redis) -> str:
    """How the channels of ``redis``'s database begin."""
    return f"db{redis.connection_pool.connection_kwargs.get('db', 0)}:"


class Channels:
    def __init__(self, redis: Redis, name: str, receive: Receiver) -> None:
        """``name`` names the tasks and the log's lines; ``receive`` takes every message
        (an exception it raises is logged, and the next message read)."""
        self.redis = redis
        self.name = name
        self._receive = receive
        self._space = space(redis)
        self._pubsub = redis.pubsub()
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []

    async def subscribe(self, *channels: str) -> None:
        await self._pubsub.subscribe(*[self._space + c for c in channels])

    async def unsubscribe(self, *channels: str) -> None:
        await self._pubsub.unsubscribe(*[self._space + c for c in channels])

    def publish(self, channel: str, data: bytes) -> None:
        """Send ``data`` on ``channel`` soon, after what was published before."""
        self._outbox.put_nowait((self._space + channel, data))

    def start(self) -> None:
        """Read and send (once subscribed to a channel: redis-py reads nothing before)."""
        self._tasks = [
            asyncio.create_task(self._read(), name=f"{self.name}-read"),
            asyncio.create_task(self._send(), name=f"{self.name}-send"),
        ]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self._pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed from redis 8.2

    async def _read(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(
                    ignore_subscribe_messages=True, timeout=1.0
                )
            except Exception:
                log.warning("%s: Redis read failed; retrying", self.name, exc_info=True)
                await asyncio.sleep(0.5)
                continue
            if message is None:
                continue
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else channel
            channel = channel.removeprefix(self._space)
            try:
                self._receive(channel, message["data"])
            except Exception:
                log.exception("%s: a message on %s could not be handled", self.name, channel)

    async def _send(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty() and len(batch) < SEND_BATCH:
                batch.append(self._outbox.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, data in batch:
                        pipe.publish(channel, data)
                    await pipe.execute()
            except Exception:
                log.warning("%s: %d messages were lost", self.name, len(batch), exc_info=True)
