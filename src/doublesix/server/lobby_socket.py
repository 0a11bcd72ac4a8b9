"""The lobby socket ``/ws/lobby`` (docs/protocol.md, "The lobby"): pushed, never polled.

The player is the one of the request's cookies (an account's session, else a
guest's); a visitor without a name gets the lists read-only. The first frame is
``welcome`` (who you are, who is online, your open challenges, your seek and
how many seek each kind of game, the last chat messages); then ``online``,
``challenge``, ``seek``, ``pool``, ``chat``, ``tournament`` and ``tournament_paired`` frames
as things change. The
client sends only ``chat`` frames, parsed at the edge like the table socket's
(``incoming.parse_frame``: size, JSON, phrase) and rate-limited like them. The server
closes it with 4410 once its account is closed (``Lobby.shut_out``), and with 4411 once the
session it was opened with ends (``Lobby.sign_out``: a log-out, a new password, a log-in over
it); it handles none of the client's frames after either.

``/ws/lobby?only=me`` is a page's personal socket where there is no lobby (a table, a
player's page...): a ``welcome`` (who you are, your open challenges, an account's unread
messages), then only the ``challenge`` and ``message`` frames addressed to its player. Its
player is online, not in the lobby; it refuses every frame, and is closed with 4410 and
4411 as the lobby's.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import uuid
from collections.abc import Awaitable, Callable

from limits import RateLimitItemPerSecond
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from doublesix.server import messages, metrics
from doublesix.server.deps import Server, player_of
from doublesix.server.incoming import ChatFrame, bad, parse_frame
from doublesix.server.lobby_room import Lobby
from doublesix.server.store import Guest
from doublesix.server.windows import MovingWindows
from doublesix.server.ws import (
    ACCOUNT_CLOSED,
    CLOSE_POLICY,
    MAX_QUEUE,
    SIGNED_OUT,
    TOO_SLOW,
    Goodbye,
    error_frame,
    send_frames,
    session_of,
    side_by_side,
)
from doublesix.table.commands import Player
from doublesix.table.errors import Refusal, TableError
from doublesix.table.frames import encode
from doublesix.table.model import JSON

_frames = MovingWindows()
ONLY_ME = "me"
"""``/ws/lobby?only=me``: the personal socket of a page without the lobby."""
Handler = Callable[[str | None], Awaitable[None]]
"""What a socket does with a client's frame (its text; None for a binary one)."""


class LobbyConnection:
    """One lobby socket's frames, queued for its sender (a slow client is dropped)."""

    def __init__(self, session: str | None) -> None:
        self.session = session
        """The key of the session of its cookie, if it had one (``Lobby.in_session``)."""
        self.player: str | None = None
        """Its player, once its cookies are read."""
        self.queue: asyncio.Queue[str | Goodbye] = asyncio.Queue()
        self.goodbye: Goodbye | None = None
        """Set once the socket is shut: the client's frames from then on are not handled."""
        self._early: list[JSON] | None = []
        """Frames that came while the first one was being made (sent after it)."""

    def belongs_to(self, player_id: str) -> bool:
        return player_id == self.player

    def account_closed(self) -> None:
        self._shut(ACCOUNT_CLOSED)

    def signed_out(self) -> None:
        self._shut(SIGNED_OUT)

    def _shut(self, goodbye: Goodbye) -> None:
        """Close the socket after the frames queued so far (its sender does)."""
        self.goodbye = goodbye
        self.queue.put_nowait(goodbye)

    def start(self, welcome: JSON) -> None:
        early, self._early = self._early or [], None
        for frame in [welcome, *early]:
            self.send(frame)

    def send(self, frame: JSON) -> None:
        if self._early is not None:
            self._early.append(frame)
            return
        if self.queue.qsize() >= MAX_QUEUE:
            self.queue.put_nowait(TOO_SLOW)
            return
        self.queue.put_nowait(encode(frame))


async def lobby_socket(ws: WebSocket) -> None:
    """``/ws/lobby``, or with ``?only=me`` the personal socket of a page without the lobby
    (``_personal``); any other ``only`` is refused: an error frame, then closed with 1008."""
    server: Server = ws.app.state.server
    lobby: Lobby = ws.app.state.lobby
    await ws.accept()
    only = ws.query_params.get("only")
    if only not in (None, ONLY_ME):
        refused = TableError(Refusal.BAD_FRAME, "only=me is the one mode", field="only")
        await ws.send_text(encode(error_frame(refused)))
        await ws.close(CLOSE_POLICY)
        return
    conn = LobbyConnection(session_of(ws))
    try:
        with lobby.in_session(conn):
            player = await player_of(server, ws.cookies)
            conn.player = None if player is None else player.id
            if only == ONLY_ME:
                await _personal(ws, server, lobby, conn, player)
            else:
                await _lobby(ws, server, lobby, conn, player)
    except WebSocketDisconnect:
        return
    finally:
        lobby.listeners.discard(conn)
        lobby.personal.discard(conn)
        if ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def _lobby(
    ws: WebSocket, server: Server, lobby: Lobby, conn: LobbyConnection, player: Guest | None
) -> None:
    """The lobby's socket: every frame of the lobby, and the client's chat."""
    async with lobby.present(player, None, conn, lobby=True):
        lobby.listeners.add(conn)
        you = None if player is None else player.own()
        # The list is read with no await since the socket joined the listeners: every
        # ``online`` frame it gets from now on changes exactly that list.
        conn.start(
            {
                "type": "welcome",
                "you": you,
                "players": lobby.shown(),
                "challenges": [] if player is None else await lobby.mine(player.id),
                "seek": None if player is None else await lobby.seeking.mine(player.id),
                "pool": await lobby.seeking.counts(),
                "chat": await lobby.history.last(),
            }
        )
        chat = functools.partial(_chat, server, lobby, player)
        await side_by_side(_read(ws, server, conn, chat), send_frames(ws, conn.queue))


async def _personal(
    ws: WebSocket, server: Server, lobby: Lobby, conn: LobbyConnection, player: Guest | None
) -> None:
    """A personal socket: its player is online (not in the lobby: Play now and tournaments
    pair nobody on it), and it gets only the frames addressed to them that every page shows
    (``lobby_room.PERSONAL_FRAMES``). A visitor without a name gets ``you: null`` and
    nothing after. It takes no frame from the client."""
    async with lobby.present(player, None, conn):
        if player is not None:
            lobby.personal.add(conn)
        conn.start(await _personal_welcome(lobby, player))
        await side_by_side(_read(ws, server, conn, _refuse), send_frames(ws, conn.queue))


async def _personal_welcome(lobby: Lobby, player: Guest | None) -> JSON:
    """Who you are and your open challenges; for an account, its unread messages (the
    header's badge, as ``GET /api/account/unread``)."""
    welcome: JSON = {"type": "welcome", "only": ONLY_ME, "you": None, "challenges": []}
    if player is None:
        return welcome
    welcome |= {"you": player.own(), "challenges": await lobby.mine(player.id)}
    if player.account:
        welcome["unread"] = await messages.unread(lobby.book.store, player.id)
    return welcome


async def _read(ws: WebSocket, server: Server, conn: LobbyConnection, handle: Handler) -> None:
    """Take the client's frames until it goes away: each one, within the rate, to ``handle``,
    whose TableError is sent back as an ``error`` frame; none once the socket is shut."""
    key = uuid.uuid4().hex
    limit = server.limits
    rate = RateLimitItemPerSecond(
        max(1, int(limit.burst)), max(1, round(limit.burst / limit.frames_per_second))
    )
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        if conn.goodbye is not None:
            continue  # its sender closes it
        if not _frames.hit(rate, key):
            metrics.refused("socket:frames")
            conn.send(error_frame(TableError(Refusal.RATE_LIMITED, "too many frames; slow down")))
            continue
        text = message.get("text")
        try:
            await handle(text if isinstance(text, str) else None)
        except TableError as e:
            conn.send(error_frame(e))


async def _chat(server: Server, lobby: Lobby, player: Guest | None, text: str | None) -> None:
    """A lobby chat frame, said to the lobby; TableError if it is none or may not be said."""
    frame = parse_frame(text)
    if not isinstance(frame, ChatFrame):
        raise bad('the lobby takes only {"type": "chat", ...} frames')
    if player is None:
        raise TableError(Refusal.CHAT, "choose a name before you chat", field="name")
    await server.chat.check(player.id)
    await lobby.chat(Player(player.id, player.name, player.account), frame.text, frame.phrase)


async def _refuse(text: str | None) -> None:
    """The personal socket's answer to any frame."""
    raise bad("the personal lobby socket (only=me) takes no frames")
