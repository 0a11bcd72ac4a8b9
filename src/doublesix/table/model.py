"""A table's values: its seats, its status and the entries of its log.

A table is what players sit at: a ruleset, a seed, seats, a few settings,
and a log. Every change is an ``Entry`` of the log, numbered from 1 (the
table's ``version``). The entries hold the ``doublesix/1`` record's events
(``play``, ``draw``, ``pass``, ``straighten``) together with the table's own
(seats taken, the start, Continue, chat, timeouts, rematch, close): the
game, the record and every view are derived from the log.
"""

from __future__ import annotations

import dataclasses
import secrets
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

JSON = dict[str, Any]


class SeatKind(StrEnum):
    HUMAN = "human"
    """Taken by a player (a guest or an account)."""
    BOT = "bot"
    OPEN = "open"
    """Free for anyone."""
    INVITE = "invite"
    """Free only for whoever holds this seat's invitation code."""


class TableStatus(StrEnum):
    OPEN = "open"
    """Waiting for players."""
    PLAYING = "playing"
    FINISHED = "finished"
    CLOSED = "closed"
    """Stopped before its end: it never started, or every player left it."""


class EventKind(StrEnum):
    """The kind of a log entry."""

    SEAT = "seat"
    START = "start"
    PLAY = "play"
    STRAIGHTEN = "straighten"
    CONTINUE = "continue"
    CHAT = "chat"
    REMATCH = "rematch"
    CLOSE = "close"
    LEAVE = "leave"
    """A seat's player left the game: a bot plays for the seat until they come back."""
    UNCHAT = "unchat"
    """One of the site's operators removed the chat entry ``data["chat"]``: it is shown
    nowhere from then on (the log keeps it, for the operators)."""
    RECHAT = "rechat"
    """One of the site's operators restored the chat entry ``data["chat"]`` they had
    removed: it is shown again (the entry holds its version, never its words: those stay
    in the chat entry, where an account's erasure finds them)."""
    REKEY = "rekey"
    """The seat's token was replaced: its account's password changed (a stolen session may
    have read the old one). The entry holds no token: the seats' row keeps it, as ever."""


GAME_KINDS = frozenset({EventKind.START, EventKind.PLAY, EventKind.STRAIGHTEN, EventKind.CONTINUE})
"""The entries that change the game: a command that saw an older version is stale."""

SAID_KINDS = frozenset({EventKind.CHAT, EventKind.UNCHAT, EventKind.RECHAT})
"""The entries that are a frame of their own, the same for every viewer, with no view."""

SEAT_KINDS = frozenset({EventKind.SEAT, EventKind.REKEY})
"""The entries that change a seat (who sits there, its token): stored with the seats."""


class Stand(StrEnum):
    """Why the server moves for a seat."""

    BOT = "bot"
    """A bot's seat."""
    TIMEOUT = "timeout"
    """A human seat whose clock ran out."""
    AWAY = "away"
    """A human seat whose player is gone beyond the grace period."""


class CloseReason(StrEnum):
    EXPIRED = "expired"
    """Nobody filled the seats in time."""
    ABANDONED = "abandoned"
    """Every human player was gone for too long."""
    CANCELLED = "cancelled"
    """Its creator left it before the start."""


def same_secret(held: str | None, given: str | None) -> bool:
    """Whether ``given`` is the secret ``held`` (a seat's token, an invitation's code), in
    constant time; nothing matches a secret that is not there."""
    if held is None or given is None:
        return False
    # compare_digest takes only ASCII text: bytes, with whatever a client sent kept whole
    return secrets.compare_digest(held.encode(), given.encode("utf-8", "surrogatepass"))


@dataclass
class Seat:
    number: int
    kind: SeatKind
    bot: str | None = None
    """The bot's level."""
    player: str | None = None
    """The id of the player sitting here."""
    name: str | None = None
    token: str | None = None
    """The seat's secret: a socket that says hello with it plays for this seat."""
    invite: str | None = None
    """The code that lets its invited player take the seat (``SeatKind.INVITE``)."""
    account: bool = False
    """Its player has an account (a page of their own), as they sat down."""

    @property
    def free(self) -> bool:
        return self.kind in (SeatKind.OPEN, SeatKind.INVITE)


@dataclass
class Table:
    """A table's settings and the summary of its log (what the lobby lists)."""

    id: str
    preset: str
    ruleset: JSON
    seed: int
    timer: float | None
    """Seconds a human seat has for a move; None: no clock."""
    hints: bool
    rated: bool
    creator: str | None
    """The player who made the table (seats bots, sees the invitation codes)."""
    seats: list[Seat]
    created_at: float
    status: TableStatus = TableStatus.OPEN
    version: int = 0
    """The number of the table's last entry; 0 before the first."""
    updated_at: float = 0.0
    deadline: float | None = None
    """When the clock that runs now runs out (seconds since the epoch)."""
    scores: list[int] = field(default_factory=list)
    result: JSON | None = None
    """``{"winners", "losers", "scores", "dry_win"}`` once the game is finished."""
    tournament: str | None = None
    """The id of the tournament whose game this is (``server/tournaments.py``), if any."""
    tournament_name: str | None = None
    """That tournament's name, read with the table (its public JSON shows it); not stored
    with the table."""

    def copy(self) -> Table:
        return dataclasses.replace(
            self, seats=[dataclasses.replace(s) for s in self.seats], scores=list(self.scores)
        )

    def seat_with(self, token: str) -> int | None:
        """The seat whose token ``token`` is, if any."""
        return next((s.number for s in self.seats if same_secret(s.token, token)), None)

    def seat_of(self, player: str) -> Seat | None:
        return next(
            (s for s in self.seats if s.kind == SeatKind.HUMAN and s.player == player), None
        )

    @property
    def humans(self) -> list[int]:
        return [s.number for s in self.seats if s.kind == SeatKind.HUMAN]


@dataclass(frozen=True)
class Entry:
    """One numbered change of a table."""

    version: int
    kind: EventKind
    seat: int | None
    data: JSON
    at: float
    """When it happened (seconds since the epoch)."""
