"""The table's one error type: what was refused, why, and which rule or field says so."""

from __future__ import annotations

from enum import StrEnum


class Refusal(StrEnum):
    """Why a command was refused; the socket's ``error`` frame carries it as ``code``."""

    BAD_FRAME = "bad_frame"
    NO_TABLE = "no_table"
    BAD_TOKEN = "bad_token"
    SPECTATOR = "spectator"
    NOT_STARTED = "not_started"
    STALE = "stale"
    FINISHED = "finished"
    CLOSED = "closed"
    ILLEGAL = "illegal"
    NOT_YOUR_TURN = "not_your_turn"
    INVITE = "invite"
    STARTED = "started"
    SEAT = "seat"
    TAKEN = "taken"
    FULL = "full"
    FORBIDDEN = "forbidden"
    BOT = "bot"
    CHAT = "chat"
    NO_MESSAGE = "no_message"
    NOT_REMOVED = "not_removed"
    """An operator's restore of a message that is shown."""
    ERASED = "erased"
    """An operator's restore of a message whose words an account's erasure took."""
    RATE_LIMITED = "rate_limited"
    HINTS_OFF = "hints_off"
    NO_HINTS = "no_hints"
    REMATCH = "rematch"
    TOURNAMENT = "tournament"
    """A rematch at a tournament's table: the tournament pairs its players again."""
    SERVER = "server"
    """The change could not be stored: nothing changed."""
    ACCOUNT_CLOSED = "account_closed"
    """The socket's account is closed: the shell closes its sockets and refuses its seats'
    tokens (the table itself knows no accounts)."""


class TableError(Exception):
    """A refused command: nothing changed. HTTP statuses and socket frames are the edges'."""

    def __init__(
        self, code: Refusal, message: str, *, rule: str | None = None, field: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.field = field
