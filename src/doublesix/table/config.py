"""The durations and limits a table runs by (the server's settings hand them in)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TableConfig:
    bot_delay: float = 0.6
    """Seconds a bot waits before its move, so that people can follow the game."""
    timeout_bot: str = "greedy"
    """The level that moves for a human seat out of time or away."""
    grace_seconds: float = 60.0
    """A disconnected player keeps the seat this long; then a bot plays for it until it is back."""
    continue_seconds: float = 30.0
    """At a table with a turn timer: the players' time to press Continue after a round."""
    open_seconds: float = 1800.0
    """A table whose seats are not all taken this long after its last change closes."""
    abandon_seconds: float = 600.0
    """A game whose human players have all been gone this long closes."""
    resume_events: int = 100
    """Entries kept for clients that come back with ``since``."""
    chat_kept: int = 50
    """Chat messages a new client is shown."""
    chat_length: int = 300
    """Characters in one chat message."""
    chat_burst: int = 5
    chat_window: float = 10.0
    """A sender may write ``chat_burst`` messages in any ``chat_window`` seconds."""
    straightenings: int = 8
    """R39: straightenings one seat may make in one turn (the log grows by each one)."""
