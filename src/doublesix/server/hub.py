"""Publishing a table's events to its listeners, behind one small interface.

A table's actor publishes each committed event once, as one ready frame per
seat and one for spectators; each listener takes the frame of its own seat.
Frames that are no event (who is connected, say) go to every listener as
they are, without a number (``notify``).
``LocalHub`` delivers inside this process. Running several server processes
later means another ``Hub`` (Redis pub/sub, say) with the same two sides:
the actor's ``publish`` and the connection's ``Listener``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol


class Listener(Protocol):
    @property
    def seat(self) -> int | None:
        """The seat whose frames this listener takes; None for a spectator."""
        ...

    def deliver(self, version: int | None, frame: str) -> None:
        """Take the frame of event ``version`` (None: a frame that is no event); must not block."""
        ...


Frames = Mapping[int | None, str]
"""The frame of one event for each seat, and for spectators under None."""


class Hub(Protocol):
    def subscribe(self, table_id: str, listener: Listener) -> None: ...

    def unsubscribe(self, table_id: str, listener: Listener) -> None: ...

    def listeners(self, table_id: str) -> int:
        """How many listeners this process has at the table."""
        ...

    def publish(self, table_id: str, version: int, frames: Frames) -> None: ...

    def notify(self, table_id: str, frame: str) -> None:
        """Send ``frame`` (no event, nothing hidden in it) to every listener of the table."""
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

    def listeners(self, table_id: str) -> int:
        return len(self._tables.get(table_id, ()))

    def publish(self, table_id: str, version: int, frames: Frames) -> None:
        for listener in list(self._tables.get(table_id, ())):
            frame = frames.get(listener.seat)
            if frame is not None:
                listener.deliver(version, frame)

    def notify(self, table_id: str, frame: str) -> None:
        for listener in list(self._tables.get(table_id, ())):
            listener.deliver(None, frame)
