"""The lobby socket ``/ws/lobby`` (docs/protocol.md, "The lobby"): pushed, never polled.

The player is the one of the request's cookies (an account's session, else a
guest's); a visitor without a name gets the lists read-only. The first frame is
``welcome`` (who you are, who is online, your open challenges, your seek and
how many seek each kind of game, the last chat messages); then ``online``,
``challenge``, ``seek``, ``pool``, ``chat``, ``tournament`` and ``tournament_paired`` frames
as things change. The
client sends only ``chat`` frames, parsed at the edge like the table socket's
(``incoming.parse_frame``: size, JSON, phrase) and rate-limited like them. The server
closes it with 4410 once its account is closed (``Lobby.shut_out``).
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid

from limits import RateLimitItemPerSecond
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from doublesix.server.deps import Server, player_of
from doublesix.server.incoming import ChatFrame, bad, parse_frame
from doublesix.server.lobby_room import Lobby
from doublesix.server.store import Guest
from doublesix.server.windows import MovingWindows
from doublesix.server.ws import (
    ACCOUNT_CLOSED,
    MAX_QUEUE,
    TOO_SLOW,
    Goodbye,
    error_frame,
    send_frames,
    side_by_side,
)
from doublesix.table.commands import Player
from doublesix.table.errors import Refusal, TableError
from doublesix.table.frames import encode
from doublesix.table.model import JSON

_frames = MovingWindows()


class LobbyConnection:
    """One lobby socket's frames, queued for its sender (a slow client is dropped)."""

    def __init__(self, player: str | None) -> None:
        self._player = player
        self.queue: asyncio.Queue[str | Goodbye] = asyncio.Queue()
        self._early: list[JSON] | None = []
        """Frames that came while the first one was being made (sent after it)."""

    @property
    def player(self) -> str | None:
        return self._player

    def belongs_to(self, player_id: str) -> bool:
        return player_id == self._player

    def account_closed(self) -> None:
        self.queue.put_nowait(ACCOUNT_CLOSED)  # after the frames queued: the sender closes it

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
    server: Server = ws.app.state.server
    lobby: Lobby = ws.app.state.lobby
    await ws.accept()
    player = await player_of(server, ws.cookies)
    conn = LobbyConnection(None if player is None else player.id)
    try:
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
            await side_by_side(_read(ws, server, lobby, conn, player), send_frames(ws, conn.queue))
    except WebSocketDisconnect:
        return
    finally:
        lobby.listeners.discard(conn)
        if ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def _read(
    ws: WebSocket, server: Server, lobby: Lobby, conn: LobbyConnection, player: Guest | None
) -> None:
    """Take the client's chat frames until it goes away."""
    key = uuid.uuid4().hex
    limit = server.limits
    rate = RateLimitItemPerSecond(
        max(1, int(limit.burst)), max(1, round(limit.burst / limit.frames_per_second))
    )
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        if not _frames.hit(rate, key):
            conn.send(error_frame(TableError(Refusal.RATE_LIMITED, "too many frames; slow down")))
            continue
        text = message.get("text")
        try:
            frame = parse_frame(text if isinstance(text, str) else None)
            if not isinstance(frame, ChatFrame):
                raise bad('the lobby takes only {"type": "chat", ...} frames')
            if player is None:
                raise TableError(Refusal.CHAT, "choose a name before you chat", field="name")
            await server.chat.check(player.id)
            await lobby.chat(
                Player(player.id, player.name, player.account), frame.text, frame.phrase
            )
        except TableError as e:
            conn.send(error_frame(e))
