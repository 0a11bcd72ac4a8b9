"""Redis pub/sub for one process: what both the tables' relay and the lobby's bus stand on.

One pub/sub connection, read by one task that hands each message to a callback, and one
outbox, published by another task in pipelines: whatever waits in it goes out in one round
trip, in the order it was queued, on one connection (a burst that took a pooled connection
a message ran out of the pool). Redis may lose a message (a restart, a full buffer): a
failed read is retried, a failed send is logged, and those who use this keep their truth
elsewhere (the database) or renew it anyway.

A site is a Redis database and, when several sites share that database, a name
(``serve --site``): its processes name the same database in ``--redis``'s URL and the
same ``--site``. Every key and channel of the site is named in its ``Space``, the one
place that spells them; callers name them without it. A named site's keys begin with its
name and a slash (``staging/ds:lobby:chat``), which no site's name contains, so no site's
``scan`` pattern matches another's keys (``a/ds:online:*`` matches none of ``ab``'s, and
``ds:online:*`` none of a named site's). An unnamed site's keys and channels are named as
they were before sites had names, byte for byte, so a site upgraded one process at a time
is never split. Redis's channels belong to no database, so each channel is named in the
database's own space too (``db3:ds:lobby`` for ``ds:lobby`` on database 3,
``db0:staging/ds:lobby`` for the site ``staging`` on database 0): two sites on one Redis,
on two database numbers or under two names, hear only their own messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass

from redis.asyncio import Redis

log = logging.getLogger(__name__)

SEND_BATCH = 500
"""Messages published in one pipeline at most."""

Receiver = Callable[[str, bytes], None]
"""Takes a message: its channel and its data as sent."""


SITE_LENGTH = 32
"""A site's name has this many characters at most (it begins every key of the site)."""
_SITE_NAME = re.compile(f"[A-Za-z0-9_-]{{1,{SITE_LENGTH}}}")
SITE_DELIMITER = "/"
"""Ends a site's name in its keys: no site's name contains it, nor a glob's wildcard."""


def site_name(text: str) -> str:
    """``text`` as a site's name; ValueError saying what a name may be if it is not one."""
    if _SITE_NAME.fullmatch(text) is None:
        raise ValueError(
            f"{text!r}: a site's name is 1 to {SITE_LENGTH} ASCII letters, digits, '-' or '_'"
        )
    return text


@dataclass(frozen=True)
class Space:
    """Where a site's keys and channels are named: its Redis database and its name, if
    several sites share the database (None: the database is the site's alone)."""

    database: int
    site: str | None = None

    def __post_init__(self) -> None:
        if self.site is not None:
            site_name(self.site)

    @classmethod
    def of(cls, redis: Redis, site: str | None = None) -> Space:
        """The site ``site`` on ``redis``'s database."""
        return cls(redis.connection_pool.connection_kwargs.get("db", 0), site)

    def key(self, name: str) -> str:
        """The key ``name`` of this site (also the beginning of a ``scan`` pattern's)."""
        return name if self.site is None else f"{self.site}{SITE_DELIMITER}{name}"

    @functools.cached_property
    def _channels(self) -> str:
        """How every channel of this site begins (spelled once: channels are named at each
        message sent and read)."""
        return f"db{self.database}:{self.key('')}"

    def channel(self, name: str) -> str:
        """The channel ``name`` of this site."""
        return self._channels + name

    def channel_name(self, channel: str) -> str:
        """The name that ``channel``, one of this site's channels, was given (``channel``'s
        inverse)."""
        return channel.removeprefix(self._channels)


class Channels:
    def __init__(self, redis: Redis, space: Space, name: str, receive: Receiver) -> None:
        """``space``: the site's, where the channels are named; ``name`` names the tasks and
        the log's lines; ``receive`` takes every message (an exception it raises is logged,
        and the next message read)."""
        self.redis = redis
        self.name = name
        self._receive = receive
        self._space = space
        self._pubsub = redis.pubsub()
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []

    async def subscribe(self, *channels: str) -> None:
        await self._pubsub.subscribe(*map(self._space.channel, channels))

    async def unsubscribe(self, *channels: str) -> None:
        await self._pubsub.unsubscribe(*map(self._space.channel, channels))

    def publish(self, channel: str, data: bytes) -> None:
        """Send ``data`` on ``channel`` soon, after what was published before."""
        self._outbox.put_nowait((self._space.channel(channel), data))

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
            channel = self._space.channel_name(channel)
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
