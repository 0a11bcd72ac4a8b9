"""What is asked of a table's host besides the table's commands, and what a host needs."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from doublesix.server.hub import Hub
from doublesix.server.store import Store
from doublesix.server.thinking import Thinking
from doublesix.table import commands
from doublesix.table.config import TableConfig
from doublesix.table.model import Table


@dataclass(frozen=True)
class Look:
    """The engine's view of ``seat`` now (None before the start)."""

    seat: int


@dataclass(frozen=True)
class Describe:
    """The table's settings, seats and summary now."""


@dataclass(frozen=True)
class Reload:
    """Read the table again from the store: its stored seats or log were rewritten (an
    account's erasure, ``server/erasure.py``)."""


Request = commands.Command | Look | Describe | Reload


@dataclass(frozen=True)
class Shell:
    """What a host needs besides its table: where to store, publish and think."""

    store: Store
    hub: Hub
    thinking: Thinking
    config: TableConfig
    levels: Sequence[str]
    clock: Callable[[], float]
    idle_seconds: float
    """A finished or closed table nobody watches leaves memory after this long."""
    rematch: Callable[[Table], Awaitable[str]]
    """Makes the rematch of a finished table and answers the new table's id."""
    finished: Callable[[Table], Awaitable[None]] | None = None
    """Called once a table's finished game is stored (the ratings: a rated game is rated)."""
    listed: Callable[[Table], None] | None = None
    """Called with a table whose entry in the lobby's lists changed once that is stored: new,
    a seat taken, started, a round scored, finished, closed (the lobby tells its sockets)."""
