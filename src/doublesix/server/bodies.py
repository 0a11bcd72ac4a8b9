"""Request bodies, capped while they stream in (an ASGI middleware).

Each route has a cap (``BODY_LIMITS``; a record upload may be larger than
a guest's name, every other body is small). A body whose declared length
is over the cap is refused before a byte of it is read; one that streams in
without a length is refused as soon as it passes the cap; and the whole
body must arrive within ``BODY_SECONDS`` (a client that trickles it in
holds nothing for long). Refusals are the protocol's JSON errors: 413 with
``limit``, 408, or 400 for a malformed length, and the connection is closed
after them (what the client still sends is never read).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Mapping
from typing import Any

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from doublesix import record_bounds

DEFAULT_LIMIT = 16 * 1024
"""Bytes of a request body where no route says otherwise (a table's options fit in 2 KB)."""
BODY_LIMITS: Mapping[str, int] = {
    "/api/records": record_bounds.MAX_BYTES,
    "/api/records/review": record_bounds.MAX_BYTES,
}
"""Routes that take more than ``DEFAULT_LIMIT``: their path and cap in bytes."""
BODY_SECONDS = 30.0
"""The whole body arrives within this many seconds of the request's start."""


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when a streamed body passes its cap (answered 413)."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"a request body here is at most {limit:,} bytes")
        self.limit = limit


async def answer(send: Send, status: int, body: dict[str, Any]) -> None:
    """Send a JSON error and close the connection (the rest of the body is never read)."""
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


class BodyLimit:
    """The ASGI middleware: ``app`` with every request body capped as the route says."""

    def __init__(
        self,
        app: ASGIApp,
        limits: Mapping[str, int] = BODY_LIMITS,
        default: int = DEFAULT_LIMIT,
        seconds: float = BODY_SECONDS,
    ) -> None:
        self.app = app
        self.limits = limits
        self.default = default
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.get(scope["path"].rstrip("/") or "/", self.default)
        declared = None
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await answer(send, 400, {"error": "Content-Length is not a number"})
                    return
        if declared is not None and declared > limit:
            await answer(send, 413, {"error": BodyTooLarge(limit).detail, "limit": limit})
            return
        await self.app(scope, _Capped(receive, limit, self.seconds), send)


class _Capped:
    """``receive`` that counts the body's bytes and keeps its deadline."""

    def __init__(self, receive: Receive, limit: int, seconds: float) -> None:
        self.receive = receive
        self.limit = limit
        self.deadline = time.monotonic() + seconds
        self.seconds = seconds
        self.read = 0
        self.done = False

    async def __call__(self) -> Message:
        if self.done:
            return await self.receive()
        left = self.deadline - time.monotonic()
        try:
            message = await asyncio.wait_for(self.receive(), max(left, 0.001))
        except TimeoutError:
            raise HTTPException(
                408, f"the request body must arrive within {self.seconds:.0f} s"
            ) from None
        if message["type"] == "http.request":
            self.read += len(message.get("body", b""))
            if self.read > self.limit:
                raise BodyTooLarge(self.limit)
            self.done = not message.get("more_body", False)
        return message
