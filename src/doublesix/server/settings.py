"""The server's settings: its clocks and limits, and what its tables run by."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from argon2 import PasswordHasher

from doublesix.server.logins import LoginLimits
from doublesix.table.config import TableConfig


@dataclass
class Settings:
    bot_delay: float = 0.6
    """Seconds a bot waits before its move, so that people can follow the game."""
    timeout_bot: str = "greedy"
    """The level that plays for a seat whose time ran out, or whose player is away."""
    clock: Callable[[], float] = time.time
    """Wall-clock seconds; deadlines are stored in these."""
    new_seed: Callable[[], int] = field(default=lambda: secrets.randbits(62))
    """The seed that deals a new table's game (tests make it predictable)."""
    idle_seconds: float = 300.0
    """A finished table nobody watches leaves memory after this long (it stays stored)."""
    grace_seconds: float = 60.0
    """A disconnected player keeps the seat this long; then a bot plays for it until it is back."""
    resume_events: int = 100
    """Log entries each table keeps in memory for clients that come back with ``since``."""
    review_ms: float = 100.0
    """The expert's search per decision in a post-game review (ms of one core)."""
    continue_seconds: float = 30.0
    """At a table with a turn timer: how long the players have to press Continue after a
    round; then it is pressed for those who did not."""
    open_seconds: float = 1800.0
    """A table whose seats are not all taken this long after its last change closes."""
    abandon_seconds: float = 600.0
    """A game whose human players have all been gone this long closes."""
    redis_url: str | None = None
    """Redis, where several server processes meet (None: this process is the only one)."""
    site: str | None = None
    """With ``redis_url``: the site's name on its Redis database, which other sites share
    (None: the database is this site's alone; ``channels.Space``)."""
    lease_seconds: float = 5.0
    """With several processes: a table whose owner has not renewed its lease this long is
    taken over by another."""
    rating_delay: float = 0.0
    """Seconds between a rated game's stored end and its rating (a test kills the server in
    between: the rating follows at the next start)."""
    think_workers: int = field(default_factory=lambda: max(1, (os.cpu_count() or 2) - 1))
    """Worker processes for the searching bots and the hints (default: a core each but one)."""
    password_hasher: PasswordHasher = field(default_factory=PasswordHasher)
    """Argon2 with its parameters (``accounts``); tests choose cheap ones."""
    login_limits: LoginLimits = field(default_factory=LoginLimits)
    """Login attempts per account name and per address (``logins``)."""
    chat_accounts_only: bool = False
    """Only accounts may chat, in the lobby and at the tables (``serve --chat accounts``)."""

    def table_config(self) -> TableConfig:
        return TableConfig(
            bot_delay=self.bot_delay,
            timeout_bot=self.timeout_bot,
            grace_seconds=self.grace_seconds,
            continue_seconds=self.continue_seconds,
            open_seconds=self.open_seconds,
            abandon_seconds=self.abandon_seconds,
            resume_events=self.resume_events,
        )


@dataclass
class Limits:
    """What one socket may send."""

    frames_per_second: float = 20.0
    burst: float = 40.0
    """A client may send ``burst`` frames at once, then ``frames_per_second``."""
