"""The table socket ``/ws/table/{id}`` (docs/protocol.md): validate, route, send.

The socket decides nothing about the game: it checks that a frame is well
formed, turns it into a command for the table's actor and sends back the
actor's refusal as an ``error`` frame to this client only. Everything it
sends otherwise is a frame the actor built from this seat's view.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from doublesix.server.actor import (
    CommandError,
    ConnectCommand,
    ContinueCommand,
    DisconnectCommand,
    PlayCommand,
    TableActor,
    ViewCommand,
)
from doublesix.server.manager import TableManager
from doublesix.server.workers import Busy

log = logging.getLogger(__name__)

MAX_FRAME = 4096
"""Characters in one client frame; a longer one is refused."""
MAX_QUEUE = 1000
"""Frames waiting for a slow client before it is disconnected."""
HELLO_SECONDS = 30.0

CLOSE_POLICY = 1008
CLOSE_TOO_SLOW = 1013
CLOSE_NO_TABLE = 4404
CLOSE_BAD_TOKEN = 4401


@dataclass
class Limits:
    frames_per_second: float = 20.0
    burst: float = 40.0
    """A client may send ``burst`` frames at once, then ``frames_per_second``."""


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


class Connection:
    """One socket's listener: frames of its seat, in version order, after its first ones.

    The table's actor starts it (``start``) and subscribes it in one step, so
    no update can fall between its first frames and the rest; an update of a
    version it has already queued is never queued again.
    """

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.floor: int | None = None
        """The last version queued; None until the first frames are."""
        self.hint: asyncio.Task[None] | None = None
        """The hint being found for this socket (stopped when it closes)."""

    def deliver(self, version: int | None, frame: str) -> None:
        if self.floor is None:
            return  # not started: its first frames will hold this
        if version is None:
            self._put(frame)
        elif version > self.floor:
            self.floor = version
            self._put(frame)

    def start(self, version: int, frames: Sequence[str]) -> None:
        """Queue the first frames (a snapshot, or a resume and the missing updates)."""
        self.floor = version
        for frame in frames:
            self._put(frame)

    def send(self, message: dict[str, Any]) -> None:
        self._put(json.dumps(message))

    def _put(self, frame: str) -> None:
        if self.queue.qsize() >= MAX_QUEUE:
            self.queue.put_nowait(None)  # too slow: the sender closes the socket
            return
        self.queue.put_nowait(frame)


def _bad(message: str) -> CommandError:
    return CommandError("bad_frame", message)


def parse_frame(text: str | None) -> dict[str, Any]:
    """A client frame as a JSON object with a string ``type``; CommandError otherwise."""
    if text is None:
        raise _bad("frames are JSON text, not binary")
    if len(text) > MAX_FRAME:
        raise _bad(f"a frame is at most {MAX_FRAME} characters")
    try:
        data = json.loads(text)
    except ValueError:
        raise _bad("not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise _bad('a frame is an object with a "type"')
    return data


def _version(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad('"version" must be the last version you saw, a whole number')
    return value


async def _receive(ws: WebSocket) -> str | bool | None:
    """The next text frame; None for a binary one, False once the client is gone."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        return False
    text = message.get("text")
    return text if isinstance(text, str) else None


async def _close(ws: WebSocket, code: int, error: CommandError | None = None) -> None:
    with contextlib.suppress(Exception):
        if error is not None:
            await ws.send_text(json.dumps(error.frame()))
        await ws.close(code)


async def _sender(ws: WebSocket, conn: Connection) -> None:
    while True:
        frame = await conn.queue.get()
        if frame is None:
            await _close(ws, CLOSE_TOO_SLOW)
            return
        await ws.send_text(frame)


async def table_socket(ws: WebSocket, table_id: str) -> None:
    manager: TableManager = ws.app.state.server.manager
    limits: Limits = ws.app.state.server.limits
    await ws.accept()
    try:
        first = await asyncio.wait_for(_receive(ws), HELLO_SECONDS)
    except (TimeoutError, WebSocketDisconnect):
        await _close(ws, CLOSE_POLICY, _bad("say hello first"))
        return
    if first is False:
        return
    try:
        hello = parse_frame(first if isinstance(first, str) else None)
        if hello["type"] != "hello":
            raise _bad('the first frame is {"type": "hello", "token": ..., "since": ...}')
        token, since = hello.get("token"), hello.get("since")
        if token is not None and not isinstance(token, str):
            raise _bad('"token" must be a string or null')
        if since is not None:
            since = _version(since)
    except CommandError as e:
        await _close(ws, CLOSE_POLICY, e)
        return
    actor = await manager.get(table_id)
    if actor is None:
        await _close(ws, CLOSE_NO_TABLE, CommandError("no_table", f"no table {table_id!r}"))
        return
    seat = None if token is None else actor.seat_of_token(token)
    if token is not None and seat is None:
        await _close(
            ws, CLOSE_BAD_TOKEN, CommandError("bad_token", "that token holds no seat here")
        )
        return
    await _serve(ws, actor, manager, Connection(seat), limits, since)


async def _serve(
    ws: WebSocket,
    actor: TableActor,
    manager: TableManager,
    conn: Connection,
    limits: Limits,
    since: int | None,
) -> None:
    sender: asyncio.Task[None] | None = None
    connected = False
    try:
        await actor.submit(ConnectCommand(conn, since))
        connected = True
        sender = asyncio.create_task(_sender(ws, conn))
        bucket = _Bucket(limits.frames_per_second, limits.burst)
        while True:
            text = await _receive(ws)
            if text is False:
                return
            if not bucket.take():
                conn.send(CommandError("rate_limited", "too many frames; slow down").frame())
                continue
            try:
                await _handle(actor, conn, parse_frame(text if isinstance(text, str) else None))
            except CommandError as e:
                conn.send(e.frame())
    except (WebSocketDisconnect, CommandError):
        return
    finally:
        if conn.hint is not None:
            conn.hint.cancel()
        manager.hub.unsubscribe(actor.id, conn)
        if connected:
            with contextlib.suppress(CommandError):  # a table that stopped has nobody to tell
                await actor.submit(DisconnectCommand(conn))
        if sender is not None:
            sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await sender
        if ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()


async def _handle(actor: TableActor, conn: Connection, frame: dict[str, Any]) -> None:
    kind = frame["type"]
    if kind == "play":
        if "tile" not in frame or "version" not in frame:
            raise _bad('play needs "tile" and "version" (and "end" once the line has one)')
        await actor.submit(
            PlayCommand(conn.seat, frame["tile"], frame.get("end"), _version(frame["version"]))
        )
    elif kind == "continue":
        await actor.submit(ContinueCommand(conn.seat))
    elif kind == "hint":
        if conn.hint is not None and not conn.hint.done():
            raise CommandError("hint_pending", "your hint is being found")
        conn.hint = asyncio.create_task(_hint(actor, conn))
    elif kind == "hello":
        raise _bad("hello comes once, first")
    else:
        raise _bad(f"unknown frame type {kind!r}")


async def _hint(actor: TableActor, conn: Connection) -> None:
    try:
        conn.send({"type": "hint", "moves": await _hint_moves(actor, conn)})
    except CommandError as e:
        conn.send(e.frame())


async def _hint_moves(actor: TableActor, conn: Connection) -> list[Any]:
    if conn.seat is None:
        raise CommandError("spectator", "hints are for the seat to move")
    if not actor.table.hints:
        raise CommandError("hints_off", "this table plays without hints")
    view = await actor.submit(ViewCommand(conn.seat))
    if view is None or not view.my_turn:
        raise CommandError("not_your_turn", "a hint is for your own turn")
    try:
        return await actor.thinking.hints(view, table=actor.id, seat=conn.seat)
    except BrokenProcessPool:
        raise CommandError("no_hints", "the hint's search stopped; ask again") from None
    except Busy:
        raise CommandError("busy", "this table's thinking is busy; ask again soon") from None
