"""Messages between server processes, through Redis.

Every process listens on one pub/sub connection to its own channel
(``ds:p:<process>``: requests forwarded to it and the answers to its own) and
to the channels of the tables where it has sockets (``ds:t:<table>``: each
committed entry's frames, as its owner published them). It also keeps a key
``ds:alive:<process>`` that expires unless renewed, so the others can tell
when it is gone. Each name is the site's (``channels.Space``).

Redis carries messages; it may lose them (a restart, a full buffer). The
database is the truth: a socket that misses a frame sees a gap in the
versions and comes back with ``since``, and a forwarded request that gets no
answer is refused as the server being busy, never applied twice (a move
names the version it was made on).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from redis.asyncio import Redis

from doublesix.server.channels import Channels, Space
from doublesix.table.errors import TableError
from doublesix.table.model import JSON

log = logging.getLogger(__name__)

ALIVE_SECONDS = 5.0
"""A process that has not said it is alive for this long is taken for dead."""

TableMessage = Callable[[str, JSON], None]
"""Takes a message published on a table's channel: the table's id and the message."""
RequestHandler = Callable[[str, str, JSON], Awaitable[Any]]
"""Answers a forwarded request: the table's id, the operation and its arguments."""


class RelayError(Exception):
    """A forwarded request got no answer in time, or the answer was a refusal of the
    owner's process itself."""


class Relay:
    def __init__(self, redis: Redis, space: Space, process: str) -> None:
        """``space``: the site's, where its keys and channels are named."""
        self.redis = redis
        self.space = space
        self.process = process
        self.on_table: TableMessage = lambda table, message: None
        self.on_request: RequestHandler | None = None
        self._channels = Channels(redis, space, "relay", self._received)
        self._tables: set[str] = set()
        self._waiting: dict[int, asyncio.Future[JSON]] = {}
        self._numbers = itertools.count(1)
        self._alive_task: asyncio.Task[None] | None = None
        self._answering: set[asyncio.Task[None]] = set()
        """Forwarded requests being carried out (kept until they are done)."""
        self._echo = orjson.dumps({"from": process})[:-1] + b","
        """How a table message published by this process starts (orjson keeps the keys in
        order, and ``RedisHub`` puts ``from`` first): it comes back to it, unread."""

    @staticmethod
    def table_channel(table_id: str) -> str:
        return f"ds:t:{table_id}"

    @staticmethod
    def process_channel(process: str) -> str:
        return f"ds:p:{process}"

    def _alive_key(self, process: str) -> str:
        return self.space.key(f"ds:alive:{process}")

    async def start(self) -> None:
        await self._channels.subscribe(self.process_channel(self.process))
        await self._beat()
        self._channels.start()
        self._alive_task = asyncio.create_task(self._alive(), name="relay-alive")

    async def close(self) -> None:
        if self._alive_task is not None:
            self._alive_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._alive_task
        await self._channels.close()
        with contextlib.suppress(Exception):
            await self.redis.delete(self._alive_key(self.process))

    # --- liveness ---------------------------------------------------------------------

    async def _beat(self) -> None:
        await self.redis.set(self._alive_key(self.process), "1", px=int(ALIVE_SECONDS * 1000))

    async def _alive(self) -> None:
        while True:
            await asyncio.sleep(ALIVE_SECONDS / 4)
            try:
                await self._beat()
            except Exception:
                log.warning("relay: could not tell Redis this process is alive", exc_info=True)

    async def living(self, processes: set[str]) -> set[str]:
        """Which of ``processes`` are alive."""
        names = sorted(processes)
        if not names:
            return set()
        found = await self.redis.exists(*map(self._alive_key, names))
        if found == len(names):
            return set(names)
        return {p for p in names if await self.redis.exists(self._alive_key(p))}

    # --- table channels ---------------------------------------------------------------

    async def follow(self, table_id: str) -> None:
        """Receive the table's messages (idempotent)."""
        if table_id not in self._tables:
            self._tables.add(table_id)
            await self._channels.subscribe(self.table_channel(table_id))

    async def unfollow(self, table_id: str) -> None:
        if table_id in self._tables:
            self._tables.discard(table_id)
            await self._channels.unsubscribe(self.table_channel(table_id))

    def publish(self, table_id: str, message: JSON) -> None:
        """Send ``message`` to every process that follows the table, in the order of calls."""
        self._channels.publish(self.table_channel(table_id), orjson.dumps(message))

    # --- forwarded requests -----------------------------------------------------------

    async def call(
        self, owner: str, table_id: str, op: str, args: JSON, timeout: float = 5.0
    ) -> JSON:
        """Ask the process ``owner`` to carry out ``op`` at the table; its answer."""
        number = next(self._numbers)
        future: asyncio.Future[JSON] = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        request = {"ask": number, "from": self.process, "table": table_id, "op": op, "args": args}
        try:
            # through the outbox (its one connection): a burst of requests taking a connection
            # each ran out of the pool (MaxConnectionsError), and that dropped their sockets
            self._channels.publish(self.process_channel(owner), orjson.dumps(request))
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            raise RelayError(f"the process running table {table_id} did not answer") from None
        finally:
            self._waiting.pop(number, None)

    async def _answer(self, request: JSON) -> None:
        reply: JSON = {"answer": request["ask"]}
        try:
            assert self.on_request is not None
            reply["ok"] = await self.on_request(request["table"], request["op"], request["args"])
        except Exception as e:
            reply["error"] = _error_json(e)
        try:
            text = orjson.dumps(reply)
        except Exception:
            log.exception("relay: the answer to a forwarded request could not be sent")
            return
        self._channels.publish(self.process_channel(request["from"]), text)

    # --- reading ----------------------------------------------------------------------

    def _received(self, channel: str, data: bytes) -> None:
        if channel.startswith("ds:t:") and data.startswith(self._echo):
            return  # a table's frames this process published: delivered here already
        self._dispatch(channel, orjson.loads(data))

    def _dispatch(self, channel: str, data: JSON) -> None:
        if channel.startswith("ds:t:"):
            self.on_table(channel[len("ds:t:") :], data)
        elif "ask" in data:
            task = asyncio.create_task(self._answer(data))
            self._answering.add(task)
            task.add_done_callback(self._answering.discard)
        elif "answer" in data:
            future = self._waiting.get(data["answer"])
            if future is not None and not future.done():
                future.set_result(data)


def _error_json(error: Exception) -> JSON:
    if isinstance(error, TableError):
        out: JSON = {"code": error.code.value, "message": error.message}
        if error.rule is not None:
            out["rule"] = error.rule
        if error.field is not None:
            out["field"] = error.field
        return out
    log.error("relay: a forwarded request failed", exc_info=error)
    return {"code": "server", "message": "the server could not carry that out"}
