"""Publishing a table's events to its listeners, behind one small interface.

A table's host publishes each committed event once, as one ready frame per
seat and one for spectators (``EventFrames``: through Redis, the part of the
view they all share travels once); each listener takes the frame of its own
seat.
Frames that are no event (who is connected, say) go to every listener as
they are, without a number (``notify``). A seat freed before the start, or
given a new token (``seat_keys``), is told to the listeners that held it (``unseat``): they
watch from then on.
``LocalHub`` delivers inside this process; ``RedisHub`` sends every frame
through Redis to the processes whose sockets are at the table (``Relay``),
with the same two sides: the host's ``publish`` and the socket's
``Listener``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

from doublesix.server.relay import Relay
from doublesix.table.frames import EventFrames


class Listener(Protocol):
    @property
    def seat(self) -> int | None:
        """The seat whose frames this listener takes; None for a spectator."""
        ...

    def deliver(self, version: int | None, frame: str) -> None:
        """Take the frame of event ``version`` (None: a frame that is no event); must not block."""
        ...

    def unseat(self, seat: int, version: int) -> None:
        """``seat`` was freed, or took a new token, at ``version``: a listener that held it
        since before takes the spectators' frames from now on; must not block."""
        ...


class Hub(Protocol):
    def subscribe(self, table_id: str, listener: Listener) -> None: ...

    def unsubscribe(self, table_id: str, listener: Listener) -> None: ...

    async def follow(self, table_id: str) -> None:
        """Make sure this process gets the table's frames from now on."""
        ...

    def listeners(self, table_id: str) -> int:
        """How many listeners this process has at the table."""
        ...

    def wanted(self, table_id: str) -> bool:
        """Whether anyone, in any process, may need the table's frames."""
        ...

    def publish(self, table_id: str, version: int, frames: EventFrames) -> None: ...

    def notify(self, table_id: str, frame: str) -> None:
        """Send ``frame`` (no event, nothing hidden in it) to every listener of the table."""
        ...

    def unseat(self, table_id: str, seat: int, version: int) -> None:
        """Tell every listener of the table that ``seat`` was freed, or took a new token, at
        ``version``."""
        ...


class LocalHub:
    """Listeners of this process, per table."""

    def __init__(self) -> None:
        self._tables: dict[str, set[Listener]] = {}

    def subscribe(self, table_id: str, listener: Listener) -> None:
        self._tables.setdefault(table_id, set()).add(listener)

    def unsubscribe(self, table_id: str, listener: Listener) -> None:
        listeners = self._tables.get(table_id)
        if listeners is not None:
            listeners.discard(listener)
            if not listeners:
                del self._tables[table_id]

    async def follow(self, table_id: str) -> None:
        return None

    def listeners(self, table_id: str) -> int:
        return len(self._tables.get(table_id, ()))

    def wanted(self, table_id: str) -> bool:
        return table_id in self._tables

    def publish(self, table_id: str, version: int, frames: EventFrames) -> None:
        for listener in list(self._tables.get(table_id, ())):
            frame = frames.get(listener.seat)
            if frame is not None:
                listener.deliver(version, frame)

    def notify(self, table_id: str, frame: str) -> None:
        for listener in list(self._tables.get(table_id, ())):
            listener.deliver(None, frame)

    def unseat(self, table_id: str, seat: int, version: int) -> None:
        for listener in list(self._tables.get(table_id, ())):
            listener.unseat(seat, version)


class RedisHub:
    """This process's listeners; every table's frames also travel through Redis (``Relay``),
    so a socket on any process gets the frames of a table run by any other. The owner's own
    sockets get them at once, Redis or not."""

    def __init__(self, relay: Relay) -> None:
        self.relay = relay
        self._local = LocalHub()
        self.on_owner: Callable[[str, str], None] = lambda table_id, owner: None
        """Called when a table's new owner says so (its sockets here must tell it)."""
        self._tasks: set[asyncio.Task[None]] = set()
        relay.on_table = self._receive

    async def follow(self, table_id: str) -> None:
        await self.relay.follow(table_id)

    def subscribe(self, table_id: str, listener: Listener) -> None:
        self._local.subscribe(table_id, listener)

    def unsubscribe(self, table_id: str, listener: Listener) -> None:
        self._local.unsubscribe(table_id, listener)
        if not self._local.listeners(table_id):
            task = asyncio.create_task(self._unfollow(table_id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _unfollow(self, table_id: str) -> None:
        """Stop receiving the table's frames, unless a listener came since the last one left:
        its ``follow`` found the table followed still and did nothing (a page reloaded on
        this process), so unfollowing now would leave it deaf. The relay forgets the table
        before its first wait, so a ``follow`` after this check subscribes again."""
        if not self._local.listeners(table_id):
            await self.relay.unfollow(table_id)

    def listeners(self, table_id: str) -> int:
        return self._local.listeners(table_id)

    def wanted(self, table_id: str) -> bool:
        return True  # sockets of other processes may be at the table

    def publish(self, table_id: str, version: int, frames: EventFrames) -> None:
        self._local.publish(table_id, version, frames)
        parts = {"s" if seat is None else str(seat): part for seat, part in frames.parts.items()}
        message = {"from": self.relay.process, "v": version, "m": frames.middle, "f": parts}
        self.relay.publish(table_id, message)  # the shared middle once: 7 KB, not 12

    def notify(self, table_id: str, frame: str) -> None:
        self._local.notify(table_id, frame)
        self.relay.publish(table_id, {"from": self.relay.process, "n": frame})

    def unseat(self, table_id: str, seat: int, version: int) -> None:
        self._local.unseat(table_id, seat, version)
        self.relay.publish(table_id, {"from": self.relay.process, "u": [seat, version]})

    def owned(self, table_id: str) -> None:
        """Say that this process runs the table now."""
        self.relay.publish(table_id, {"o": self.relay.process})

    def _receive(self, table_id: str, message: dict[str, Any]) -> None:
        if message.get("from") == self.relay.process:
            return  # delivered here already (the relay drops most such unread)
        if "o" in message:
            self.on_owner(table_id, message["o"])
        elif "n" in message:
            self._local.notify(table_id, message["n"])
        elif "u" in message:
            seat, version = message["u"]
            self._local.unseat(table_id, seat, version)
        else:
            parts = {
                None if seat == "s" else int(seat): (head, tail)
                for seat, (head, tail) in message["f"].items()
            }
            self._local.publish(table_id, message["v"], EventFrames(message["m"], parts))
