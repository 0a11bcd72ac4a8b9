"""Limits per client address: requests per time, sockets at once (an ASGI middleware).

One address may send ``requests`` requests per window, and fewer to the
routes that create something (``routes``: a guest, an account, a login, a
table, an upload, a review) and to the lobby's list of tables; past a limit
it gets 429 with the protocol's error naming the limit, and ``Retry-After``.
It may hold ``sockets`` table sockets at once and open ``socket_opens`` per
window; a socket past those is accepted and closed at once with code 4429
and the limit as its reason (a browser shows no reason for a refused
handshake).

Each refusal is a strike for the penalty box (``penalties``): an address
refused again and again is refused everything for a while, its requests with
429 and ``connection: close``, its sockets with 4429.

The limits are in ``limits`` notation, counted in moving windows
(``windows``, in this process's memory). ``doublesix serve`` turns them on; an
app made without them (the tests) has none.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from limits import RateLimitItem, parse
from starlette.types import ASGIApp, Receive, Scope, Send

from doublesix.server.metrics import refused
from doublesix.server.penalties import BOX, Boxed, PenaltyBox
from doublesix.server.windows import MovingWindows

CLOSE_LIMITED = 4429
"""The close code of a socket refused by a limit (its reason names the limit)."""
PENALTY_BOX = "address:penalty_box"
"""The name a refusal by the penalty box is counted under (``metrics.REFUSED``)."""


@dataclass(frozen=True)
class AddressLimits:
    """The limits of one client address (``limits`` notation: ``"100/10 seconds"``)."""

    requests: str = "300/10 seconds"
    """Every HTTP request (a page and its files are about 20)."""
    routes: Mapping[str, str] = field(
        default_factory=lambda: {
            "POST /api/guest": "30/minute",
            "POST /api/accounts": "10/minute",
            "POST /api/session": "30/minute",
            "POST /api/tables": "30/minute",
            "POST /api/records": "30/minute",
            "POST /api/records/review": "10/minute",
            "GET /api/records": "10/minute",
            "GET /api/account/data": "10/minute",
            "GET /api/tables": "30/10 seconds",
        }
    )
    """Stricter limits of the routes that make something (method and path), of the lobby's
    list of tables: a database query over every table, which a lobby page asks every 4 s
    (300 of them in a burst held the event loop, benchmarks/hostile.py), and of a player's
    records, each replayed from its table's log (``exports``), and of an account's data (up
    to ``account_data.MOST`` rows of each of its parts)."""
    sockets: int = 32
    """Table sockets open at once."""
    socket_opens: str = "120/minute"
    """Table sockets opened per window."""


def _said(item: RateLimitItem) -> str:
    multiple = item.multiples
    unit = item.GRANULARITY.name
    per = f"{multiple} {unit}s" if multiple != 1 else unit
    return f"{item.amount} per {per}"


class AddressGuard:
    """The ASGI middleware: ``app`` behind the limits of ``limits`` per client address,
    striking ``box`` at each refusal."""

    def __init__(self, app: ASGIApp, limits: AddressLimits, box: PenaltyBox = BOX) -> None:
        self.app = app
        self.limits = limits
        self.box = box
        self.windows = MovingWindows()
        self.requests = parse(limits.requests)
        self.routes = {route: parse(text) for route, text in limits.routes.items()}
        self.socket_opens = parse(limits.socket_opens)
        self.sockets: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = client[0] if client else ""
        boxed = self.box.refuses(address)
        if scope["type"] == "http":
            if boxed is not None:
                await self._boxed(send, boxed)
                return
            route = f"{scope['method']} {scope['path'].rstrip('/')}"
            for key, item in ((route, self.routes.get(route)), ("*", self.requests)):
                if item is not None and not self.windows.hit(item, f"{key} {address}"):
                    await self._too_many(send, item, key, address)
                    return
            await self.app(scope, receive, send)
            return
        refusal = self._socket_refusal(address, boxed)
        if refusal is not None:
            limit, reason = refusal
            refused(limit)
            if boxed is None:
                self.box.strike(address, reason)
            await _refuse_socket(receive, send, reason)
            return
        self.sockets[address] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.sockets[address] -= 1
            if self.sockets[address] <= 0:
                del self.sockets[address]

    def _socket_refusal(self, address: str, boxed: Boxed | None) -> tuple[str, str] | None:
        """The limit that refuses a new socket from ``address`` and the reason its close
        gives (123 bytes at most), or None: the socket is let in (and counted)."""
        if boxed is not None:
            retry = self.box.retry_after(boxed)
            return PENALTY_BOX, f"refused for {retry} s: passed its limits too often"
        if self.sockets[address] >= self.limits.sockets:
            return "address:sockets", f"at most {self.limits.sockets} sockets from one address"
        if not self.windows.hit(self.socket_opens, f"ws {address}"):
            reason = f"at most {_said(self.socket_opens)} new sockets from one address"
            return "address:socket_opens", reason
        return None

    async def _too_many(self, send: Send, item: RateLimitItem, key: str, address: str) -> None:
        retry = max(1, math.ceil(self.windows.reset_in(item, f"{key} {address}")))
        where = "requests" if key == "*" else key
        refused(f"address:{where}")
        error = f"too many {where} from your address: at most {_said(item)}"
        self.box.strike(address, f"{where}: at most {_said(item)}")
        await _too_many(send, {"error": error, "limit": _said(item), "retry_after": retry})

    async def _boxed(self, send: Send, boxed: Boxed) -> None:
        refused(PENALTY_BOX)
        retry = self.box.retry_after(boxed)
        body = {"error": boxed.message, "limit": boxed.limit, "retry_after": retry}
        await _too_many(send, body, close=True)


async def _too_many(send: Send, body: dict[str, Any], close: bool = False) -> None:
    """Answer 429 with the protocol's JSON error ``body`` (``connection: close`` if
    ``close``: the client is refused whatever it sends next)."""
    data = json.dumps(body).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(data)).encode()),
        (b"retry-after", str(body["retry_after"]).encode()),
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": 429, "headers": headers})
    await send({"type": "http.response.body", "body": data})


async def _refuse_socket(receive: Receive, send: Send, reason: str) -> None:
    """Accept the socket and close it at once with ``CLOSE_LIMITED`` and ``reason``."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": CLOSE_LIMITED, "reason": reason})
