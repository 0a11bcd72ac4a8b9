"""The table socket ``/ws/table/{id}`` (docs/protocol.md): parse, route, send.

The socket decides nothing about the game: it parses a frame
(``incoming.parse_frame``), turns it into a command for the table's host
and sends back a refusal as an ``error`` frame to this client only.
Everything it sends otherwise is a frame the table built from this seat's
view.

A socket's seat is the one its hello's token held, or none: a seat taken later (over HTTP)
is played on a new socket that says hello with its token (the page's ``reconnect``), and a
socket only ever leaves its seat (``Connection.unseat``). A socket without a seat watches as
the player of its cookies: online, and writing in the spectators' chat under their name; so
once the session of its cookie ends it is closed (``Connection.signed_out``). A seat's socket
is its token's, and plays on while the token holds the seat: a new password gives the
account's seats new tokens (``seat_keys``), and the old token's sockets watch from then on
(``Connection.unseat``), or close if their session ended with the password.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
import uuid
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from doublesix.server.accounts import session_key
from doublesix.server.deps import SESSION_COOKIE, Server, player_of
from doublesix.server.incoming import (
    ChatFrame,
    ContinueFrame,
    Frame,
    Hello,
    HintFrame,
    LeaveFrame,
    PlayFrame,
    RematchFrame,
    StraightenFrame,
    bad,
    parse_frame,
)
from doublesix.server.lobby_room import Lobby
from doublesix.server.metrics import refused
from doublesix.server.remote import TableLink
from doublesix.server.requests import Request
from doublesix.table import commands
from doublesix.table.errors import Refusal, TableError
from doublesix.table.frames import encode
from doublesix.table.model import JSON

log = logging.getLogger(__name__)

MAX_QUEUE = 1000
"""Frames waiting for a slow client before it is disconnected."""
HELLO_SECONDS = 30.0

CLOSE_POLICY = 1008
CLOSE_TOO_SLOW = 1013
CLOSE_NO_TABLE = 4404
CLOSE_BAD_TOKEN = 4401
CLOSE_ACCOUNT_CLOSED = 4410
"""The socket's account was closed (a ban, or its player's own close), as HTTP's 410 Gone:
its sockets close at once and its seats' tokens play no more."""
CLOSE_SIGNED_OUT = 4411
"""The session the socket opened with has ended (a log-out, a new password, a log-in over
it): the page asks who it is again. Lobby sockets, and table sockets that watch: a seat is
its token's (``Connection.signed_out``), until a new password replaces the token."""


@dataclass(frozen=True)
class Goodbye:
    """The last thing a socket's sender does: close it with ``code`` and ``reason``."""

    code: int
    reason: str = ""


TOO_SLOW = Goodbye(CLOSE_TOO_SLOW, "too slow to read")
ACCOUNT_CLOSED = Goodbye(CLOSE_ACCOUNT_CLOSED, "this account is closed")
SIGNED_OUT = Goodbye(CLOSE_SIGNED_OUT, "this session has ended")


@dataclass
class _Bucket:
    rate: float
    burst: float
    tokens: float = 0.0
    last: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def error_frame(error: TableError) -> JSON:
    out: JSON = {"type": "error", "code": error.code.value, "message": error.message}
    if error.field is not None:
        out["field"] = error.field
    if error.rule is not None:
        out["rule"] = error.rule
    return out


class Connection:
    """One socket's listener: frames of its seat, in version order, after its first ones.

    It listens before it asks for its first frames, and keeps what arrives
    meanwhile: ``start`` then queues the first frames and, after them, the
    frames of later versions, so none falls between the two. A frame of a
    version it has queued already is never queued again.
    """

    def __init__(self, seat: int | None, session: str | None = None) -> None:
        self.seat = seat
        self.session = session
        """The key of the session of its cookie, if it had one (``Lobby.in_session``)."""
        self._session_ended = False
        """That session ended while the socket held its seat: it closes once it leaves it."""
        self.queue: asyncio.Queue[str | Goodbye] = asyncio.Queue()
        self.floor: int | None = None
        """The last version queued; None until the first frames are."""
        self._early: list[tuple[int, str]] = []
        self._first: int | None = None
        """The version of the first frames: the seat was this socket's then."""
        self._freed: int | None = None
        """A version at which the seat was freed, told before the first frames came."""
        self.hint: asyncio.Task[None] | None = None
        """The hint being found for this socket (stopped when it closes)."""
        self.on_unseat: Callable[[], None] = lambda: None
        """Called once the socket holds its seat no more."""
        self.goodbye: Goodbye | None = None
        """Set once the socket is shut: the frames it receives from then on are not handled."""

    def deliver(self, version: int | None, frame: str) -> None:
        if self.floor is None:
            if version is not None:
                self._early.append((version, frame))
            return  # a frame without a number (presence) is in the first frames too
        if version is None:
            self._put(frame)
        elif version > self.floor:
            self.floor = version
            self._put(frame)

    def start(self, version: int, frames: Sequence[str]) -> None:
        """Queue the first frames (a snapshot, or a resume and the missing frames)."""
        self.floor = self._first = version
        for frame in frames:
            self._put(frame)
        early, self._early = self._early, []
        for v, frame in early:
            self.deliver(v, frame)
        if self._freed is not None:
            self.unseat(self.seat, self._freed)

    def unseat(self, seat: int | None, version: int) -> None:
        """``seat`` was freed, or took a new token, at ``version``. If this socket held it from
        before, it watches from now on (the ``unseat`` frame tells its page); a socket that
        came later belongs to whoever sat down since, or holds the new token."""
        if seat is None or seat != self.seat:
            return
        if self._first is None:
            self._freed = version  # decided once the first frames say when it held the seat
            return
        self._freed = None
        if self._first < version:
            self.seat = None
            self.send({"type": "unseat", "seat": seat})
            self.on_unseat()
            if self._session_ended:
                self.shut(SIGNED_OUT)

    def signed_out(self) -> None:
        """The session of its cookie has ended. A socket that watches is closed at once: it
        watched, and would write in the spectators' chat, as that session's player. One that
        holds its seat plays on, the seat being its token's and not the session's, until it
        leaves the seat (``unseat``): it would watch as that player from then on, so it is
        closed then, after its ``unseat`` frame."""
        if self.seat is None:
            self.shut(SIGNED_OUT)
        else:
            self._session_ended = True

    def send(self, message: JSON) -> None:
        self._put(encode(message))

    def shut(self, goodbye: Goodbye, error: TableError | None = None) -> None:
        """Close the socket after the frames queued so far and ``error`` (if any); what the
        client sends meanwhile is not handled."""
        if error is not None:
            self.send(error_frame(error))
        self.goodbye = goodbye
        self.queue.put_nowait(goodbye)

    def _put(self, frame: str) -> None:
        if self.queue.qsize() >= MAX_QUEUE:
            self.queue.put_nowait(TOO_SLOW)  # the sender closes the socket
            return
        self.queue.put_nowait(frame)


def session_of(ws: WebSocket) -> str | None:
    """The key of the session of the socket's cookie (what the database keeps of it, never
    the secret), if it has one."""
    secret = ws.cookies.get(SESSION_COOKIE)
    return session_key(secret) if secret else None


async def _receive(ws: WebSocket) -> str | bool | None:
    """The next text frame; None for a binary one, False once the client is gone."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return False
    text = message.get("text")
    return text if isinstance(text, str) else None


async def _close(
    ws: WebSocket, code: int, error: TableError | None = None, reason: str | None = None
) -> None:
    with contextlib.suppress(Exception):
        if error is not None:
            await ws.send_text(encode(error_frame(error)))
        await ws.close(code, reason)


async def send_frames(ws: WebSocket, queue: asyncio.Queue[str | Goodbye]) -> None:
    """A socket's sender: the queued frames in order, until a ``Goodbye`` closes it."""
    while True:
        frame = await queue.get()
        if isinstance(frame, Goodbye):
            await _close(ws, frame.code, reason=frame.reason)
            return
        await ws.send_text(frame)


async def side_by_side(
    reader: Coroutine[Any, Any, None], sender: Coroutine[Any, Any, None]
) -> None:
    """Run a socket's reader and sender until either ends: the client went away (the reader
    returns), or the sender closed the socket (a ``Goodbye``) or could not send. The socket
    is done with then, whether or not the client answers the close: the other one is
    stopped. An error of the reader is raised; the sender's (a client gone) is not."""
    reading, sending = asyncio.create_task(reader), asyncio.create_task(sender)
    try:
        await asyncio.wait((reading, sending), return_when=asyncio.FIRST_COMPLETED)
    finally:
        reading.cancel()
        sending.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sending
        with contextlib.suppress(asyncio.CancelledError):
            await reading


async def table_socket(ws: WebSocket, table_id: str) -> None:
    """Serve ``/ws/table/{table_id}`` from its hello to its close. It is in the lobby's
    ``in_session`` from before its cookie is read, so that a session that ends closes it as
    a lobby socket (``Connection.signed_out``: if it watches)."""
    server: Server = ws.app.state.server
    await ws.accept()
    hello = await _hello(ws)
    if hello is None:
        return
    host = server.manager.hosts.get(table_id)
    table = host.table if host is not None else await server.store.table(table_id)
    if table is None:
        await _close(ws, CLOSE_NO_TABLE, TableError(Refusal.NO_TABLE, f"no table {table_id!r}"))
        return
    seat = None if hello.token is None else table.seat_with(hello.token)
    if hello.token is not None and seat is None:
        await _close(
            ws, CLOSE_BAD_TOKEN, TableError(Refusal.BAD_TOKEN, "that token holds no seat here")
        )
        return
    conn = Connection(seat, session_of(ws))
    lobby: Lobby = ws.app.state.lobby
    holder = None if seat is None else table.seats[seat].player
    with lobby.in_session(conn):  # before its cookie is read: a session ended meanwhile shuts it
        await _enter(ws, server, lobby, table_id, holder, conn, hello)


async def _hello(ws: WebSocket) -> Hello | None:
    """The client's first frame, its hello; None once the socket is closed for the lack of
    one (or the client went away)."""
    try:
        first = await asyncio.wait_for(_receive(ws), HELLO_SECONDS)
    except (TimeoutError, WebSocketDisconnect):
        await _close(ws, CLOSE_POLICY, bad("say hello first"))
        return None
    if first is False:
        return None
    try:
        hello = parse_frame(first if isinstance(first, str) else None)
        if not isinstance(hello, Hello):
            raise bad('the first frame is {"type": "hello", "token": ..., "since": ...}')
    except TableError as e:
        await _close(ws, CLOSE_POLICY, e)
        return None
    return hello


async def _enter(
    ws: WebSocket,
    server: Server,
    lobby: Lobby,
    table_id: str,
    holder: str | None,
    conn: Connection,
    hello: Hello,
) -> None:
    """Serve the socket as one of the lobby's, its player that of its cookies (``holder``:
    its seat's, if it has one)."""
    guest = await player_of(server, ws.cookies)
    player = None if guest is None else commands.Player(guest.id, guest.name, guest.account)
    socket = Socket(
        table_id,
        f"{server.manager.process}/{uuid.uuid4().hex}",
        conn,
        frozenset(p for p in (holder, None if guest is None else guest.id) if p is not None),
    )
    seated_at = None if conn.seat is None else table_id
    async with lobby.present(guest, seated_at, socket) as place:
        # Looked at once the socket is one of the lobby's: an account closed after this
        # read has it shut (``Lobby.shut_out``).
        if holder is not None and await server.accounts.is_closed(holder):
            closed = TableError(
                Refusal.ACCOUNT_CLOSED,
                "this seat's account is closed: its token plays no more",
                field="token",
            )
            await _close(ws, CLOSE_ACCOUNT_CLOSED, closed, ACCOUNT_CLOSED.reason)
            return
        await _serve(ws, server, socket, player, hello, functools.partial(lobby.stand_up, place))


@dataclass(eq=False)  # one of the lobby's sockets, each itself
class Socket:
    """A socket at a table: its table, its key among all the server's sockets, its frames,
    and whose it is: the player of its cookies and that of its seat (who may have sent no
    cookie), either of whom closing their account closes it."""

    table: str
    key: str
    conn: Connection
    players: frozenset[str]

    def belongs_to(self, player_id: str) -> bool:
        return player_id in self.players

    def account_closed(self) -> None:
        self.conn.shut(ACCOUNT_CLOSED, TableError(Refusal.ACCOUNT_CLOSED, ACCOUNT_CLOSED.reason))


async def _serve(
    ws: WebSocket,
    server: Server,
    socket: Socket,
    player: commands.Player | None,
    hello: Hello,
    stand_up: Callable[[], None],
) -> None:
    """Serve one socket; ``stand_up`` tells the lobby when its seat is left (``unseat``)."""
    conn, table_id = socket.conn, socket.table
    since, token = hello.since, (hello.token if conn.seat is not None else None)
    here = server.sockets.setdefault(table_id, {})
    try:
        await server.hub.follow(table_id)
        server.hub.subscribe(table_id, conn)
        try:
            version, frames = await _submit(
                server, table_id, commands.Connect(socket.key, conn.seat, since, token)
            )
        except TableError as e:
            if e.code == Refusal.BAD_TOKEN:  # the seat was freed since the socket looked
                await _close(ws, CLOSE_BAD_TOKEN, e)
            raise
        if conn.seat is not None:
            here[socket.key] = conn.seat

        def unseated() -> None:
            here.pop(socket.key, None)  # its Disconnect concerns no seat now
            stand_up()

        conn.on_unseat = unseated
        conn.start(version, frames)
        await side_by_side(_read(ws, server, table_id, conn, player), send_frames(ws, conn.queue))
    except (WebSocketDisconnect, TableError):
        return
    finally:
        if conn.hint is not None:
            conn.hint.cancel()
        server.hub.unsubscribe(table_id, conn)
        if here.pop(socket.key, None) is not None:
            with contextlib.suppress(TableError):  # a table that stopped has nobody to tell
                await _submit(server, table_id, commands.Disconnect(socket.key))
        if not here:
            server.sockets.pop(table_id, None)
        if ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def _read(
    ws: WebSocket,
    server: Server,
    table_id: str,
    conn: Connection,
    player: commands.Player | None,
) -> None:
    """Handle the client's frames until it goes away; none once its socket is shut."""
    bucket = _Bucket(server.limits.frames_per_second, server.limits.burst)
    while True:
        text = await _receive(ws)
        if text is False:
            return
        if conn.goodbye is not None:
            continue  # its sender closes it
        if not bucket.take():
            refused("socket:frames")
            conn.send(error_frame(TableError(Refusal.RATE_LIMITED, "too many frames; slow down")))
            continue
        try:
            frame = parse_frame(text if isinstance(text, str) else None)
            await _handle(server, table_id, conn, player, frame)
        except TableError as e:
            conn.send(error_frame(e))


async def _link(server: Server, table_id: str) -> TableLink:
    link = await server.manager.get(table_id)
    if link is None:
        raise TableError(Refusal.NO_TABLE, f"no table {table_id!r}")
    return link


async def _submit(server: Server, table_id: str, request: Request) -> Any:
    """Hand ``request`` to the table, wherever it runs; a table that changed hands (its
    owner died) is looked up again for the next request."""
    try:
        return await (await _link(server, table_id)).submit(request)
    except TableError as e:
        if e.code == Refusal.SERVER:
            server.manager.forget(table_id)
        raise


async def _handle(
    server: Server,
    table_id: str,
    conn: Connection,
    player: commands.Player | None,
    frame: Frame,
) -> None:
    seat = conn.seat
    match frame:
        case PlayFrame(move=move, version=version, turn=turn):
            await _submit(server, table_id, commands.Play(seat, move, version, turn))
        case StraightenFrame(at=at, turn=turn, version=version):
            await _submit(server, table_id, commands.Straighten(seat, at, turn, version))
        case ContinueFrame():
            await _submit(server, table_id, commands.Continue(seat))
        case ChatFrame(text=text, phrase=phrase):
            await server.chat.check(None if player is None else player.id)
            await _submit(server, table_id, commands.Chat(seat, player, text, phrase))
        case RematchFrame(agree=agree):
            await _submit(server, table_id, commands.Rematch(seat, agree))
        case LeaveFrame(before_start=before_start):
            await _submit(server, table_id, commands.Leave(seat, before_start))
        case HintFrame():
            if seat is None:
                raise TableError(Refusal.SPECTATOR, "hints are for the seat to move")
            if conn.hint is not None and not conn.hint.done():
                raise TableError(Refusal.RATE_LIMITED, "your hint is being found")
            conn.hint = asyncio.create_task(_hint(server, table_id, conn, seat))
        case Hello():
            raise bad("hello comes once, first")


async def _hint(server: Server, table_id: str, conn: Connection, seat: int) -> None:
    """Find a hint beside the socket's other frames (stopped if the socket closes)."""
    try:
        conn.send({"type": "hint", "moves": await (await _link(server, table_id)).hint(seat)})
    except TableError as e:
        conn.send(error_frame(e))
