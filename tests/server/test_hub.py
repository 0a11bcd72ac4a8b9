"""A table's frames between processes (``RedisHub`` on ``Relay``), on this machine's Redis."""

from __future__ import annotations

import asyncio
import secrets
from contextlib import AsyncExitStack

from redis.asyncio import Redis

from doublesix.server.channels import Space
from doublesix.server.hub import RedisHub
from doublesix.server.relay import Relay
from doublesix.table.frames import EventFrames

from .server_helpers import run_async
from .site_helpers import REDIS, require_services


class Watcher:
    """A spectator's socket: the versions it was given."""

    seat = None

    def __init__(self) -> None:
        self.versions: asyncio.Queue[int | None] = asyncio.Queue()

    def deliver(self, version: int | None, frame: str) -> None:
        self.versions.put_nowait(version)

    def unseat(self, seat: int, version: int) -> None:
        raise AssertionError("no seat was freed")


def frames() -> EventFrames:
    """An entry's frames with a spectators' frame only."""
    return EventFrames("{}", {None: ('{"view": ', "}")})


def test_a_socket_that_reopens_on_a_process_at_once_still_hears_the_table() -> None:
    """A page reloaded on a process that does not run its table: the old socket's leaving
    unfollows the table later than the new socket's ``follow`` found it followed. The new
    socket gets the owner's next frames all the same."""
    require_services()
    token = secrets.token_hex(4)
    table = f"T{token}"

    async def story() -> None:
        async with AsyncExitStack() as stack:
            redis = Redis.from_url(REDIS)
            stack.push_async_callback(redis.aclose)
            space = Space.of(redis, f"hub-{token}")
            hubs = []
            for process in (f"owner-{token}", f"other-{token}"):
                relay = Relay(redis, space, process)
                await relay.start()
                stack.push_async_callback(relay.close)
                hubs.append(RedisHub(relay))
            owner, other = hubs
            old, new = Watcher(), Watcher()
            await other.follow(table)
            other.subscribe(table, old)
            await _heard(owner, table, old, 1)

            other.unsubscribe(table, old)  # the page reloads: its old socket leaves…
            await other.follow(table)  # …and its new one comes before anything else ran
            other.subscribe(table, new)
            await asyncio.sleep(0.2)  # what the old socket's leaving set going has run
            await _heard(owner, table, new, 2)
            assert old.versions.empty()

            other.unsubscribe(table, new)  # the last socket leaves: the table is unfollowed
            channel = space.channel(Relay.table_channel(table))
            async with asyncio.timeout(5):
                while await redis.pubsub_numsub(channel) != [(channel.encode(), 0)]:
                    await asyncio.sleep(0.02)

    run_async(story())


async def _heard(owner: RedisHub, table: str, watcher: Watcher, version: int) -> None:
    """The owner publishes the table's ``version`` until the watcher hears it (Redis
    confirms a subscription on its own time), and the watcher hears nothing else."""
    async with asyncio.timeout(5):
        while True:
            owner.publish(table, version, frames())
            try:
                async with asyncio.timeout(0.2):
                    heard = await watcher.versions.get()
            except TimeoutError:
                continue
            assert heard == version
            while not watcher.versions.empty():
                assert await watcher.versions.get() == version
            return
