"""What can be asked of a table: typed commands, checked and applied by ``TableState``.

The socket and the HTTP routes turn what a client sent into one of these
(parsing tiles and ends there); the table's shell adds its own: a bot's
move, a seat's player arriving or leaving, the clock's tick.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from doublesix.rules.moves import Move, Turn
from doublesix.table.model import Entry, Stand
from doublesix.tiles import Tile


@dataclass(frozen=True)
class Player:
    """Who asks: a player's id, the name shown at the table, and whether it is an
    account's."""

    id: str
    name: str
    account: bool = False


class Phrase(StrEnum):
    """Quick chat phrases, shown to each reader in the reader's language."""

    GOOD_GAME = "good_game"
    WELL_PLAYED = "well_played"
    YOUR_TURN = "your_turn"
    THANKS = "thanks"


@dataclass(frozen=True)
class Join:
    """Take a seat: ``seat`` (None: the first open one), with an invitation's ``invite``;
    ``token`` becomes the seat's secret (a player seated already keeps its own)."""

    player: Player
    token: str = field(repr=False)
    seat: int | None = None
    invite: str | None = None


@dataclass(frozen=True)
class Rekey:
    """The password of the account ``player`` changed: the seat it holds here, if the game is
    not over, takes ``token`` as its secret in place of the old one, which holds it no more
    (the seat stays the account's; its player takes the new token with ``Join``)."""

    player: str
    token: str = field(repr=False)


@dataclass(frozen=True)
class SetBot:
    """The table's creator seats a bot of ``level`` at a free seat before the start."""

    player: str | None
    seat: int
    level: str


@dataclass(frozen=True)
class Play:
    seat: int | None
    move: Move
    version: int
    """The last version the sender saw; stale if the game changed since."""
    turn: Turn | None = None
    """R39, a hand-laid line: the tile turns left or right (None: straight on)."""


@dataclass(frozen=True)
class Straighten:
    """R39: ``seat``, in its turn, rotates the tail of the line beyond ``at`` a quarter
    ``turn``; not a move (the same seat plays afterwards)."""

    seat: int | None
    at: Tile
    turn: Turn
    version: int
    """The last version the sender saw; stale if the game changed since."""


@dataclass(frozen=True)
class Continue:
    """R25: ``seat`` has seen the round and is ready for the next."""

    seat: int | None


@dataclass(frozen=True)
class Chat:
    """A message from ``seat`` (None: a spectator, ``player``): a text or a quick phrase."""

    seat: int | None
    player: Player | None
    text: str | None = None
    phrase: Phrase | None = None


@dataclass(frozen=True)
class Rematch:
    """After the game, ``seat`` would play again with the same seats and options (or,
    ``agree`` false, would rather not: the others need not wait for it)."""

    seat: int | None
    agree: bool = True


@dataclass(frozen=True)
class Leave:
    """``seat``'s player leaves. During the game a bot plays for the seat from now on, with no
    grace period to wait out, until the player opens the table again. Before it, the
    creator's leaving closes the table, and anyone else's frees their seat."""

    seat: int | None
    before_start: bool = False
    """Only before the start: a page's waiting room that the game's start overtook must not
    hand a game just begun to a bot."""


@dataclass(frozen=True)
class Unchat:
    """One of the site's operators removes the chat entry ``chat``, however old (the shell
    checks who asks: the table takes the command of anyone who can send it)."""

    chat: int


@dataclass(frozen=True)
class Rechat:
    """One of the site's operators restores the chat entry ``chat`` they removed (``Unchat``)
    by mistake. ``said`` is that entry as the stored log holds it (None: the log has no such
    entry): the shell reads it there, since the table keeps the words of its last messages
    only."""

    chat: int
    said: Entry | None = field(default=None, repr=False)


@dataclass(frozen=True)
class RematchOpened:
    """The shell made the rematch's table ``table``."""

    table: str


@dataclass(frozen=True)
class BotMove:
    """A move found for ``seat`` on the table at ``version``; dropped if the table moved on."""

    seat: int
    move: Move
    version: int
    stand: Stand


@dataclass(frozen=True)
class Connect:
    """A socket of ``seat`` (None: a spectator) says hello, after version ``since``; the
    answer is the table's version and the socket's first frames (a snapshot, or a resume)."""

    socket: str
    """The socket's key, unique among all the server's sockets."""
    seat: int | None
    since: int | None = None
    token: str | None = field(default=None, repr=False)
    """The seat's token, as the socket said hello with it: the seat must still be its
    (it may have been freed, and taken again, since the socket looked it up)."""


@dataclass(frozen=True)
class Disconnect:
    socket: str


@dataclass(frozen=True)
class Hold:
    """These sockets are at the table (told again to a table rebuilt or taken over)."""

    sockets: tuple[tuple[str, int], ...]
    """Each socket's key and seat."""


@dataclass(frozen=True)
class Start:
    """Start the game if every seat is taken (a table made full: a challenge, a rematch)."""


@dataclass(frozen=True)
class Tick:
    """Act on every clock that has run out by now."""


Command = (
    Join
    | Rekey
    | SetBot
    | Play
    | Straighten
    | Continue
    | Chat
    | Rematch
    | Leave
    | Unchat
    | Rechat
    | RematchOpened
    | BotMove
    | Connect
    | Disconnect
    | Hold
    | Start
    | Tick
)
