"""Connections as uvicorn accepts them: a header timeout, a cap per address, the penalty box.

uvicorn's HTTP protocol (h11) waits forever for a request's headers: a
thousand half-sent requests were held for good. ``GuardedH11Protocol`` is
that protocol with three bounds more:

- the headers of each request must be complete within ``HEADER_SECONDS``
  of the connection (or of the previous response, on a kept-alive one);
- one address holds ``PER_ADDRESS`` connections at most; one more is
  answered 429 and closed at once (a WebSocket, once upgraded, is counted by
  ``addresses.AddressLimits`` instead), and that is a strike for the penalty box;
- an address in the penalty box (``penalties``) has its new connections
  answered 429 and closed at once (a request on a connection admitted before
  is refused by ``addresses.AddressGuard``).

A connection is refused before h11 is set up for it: the protocol's own set-up
waits until the connection is admitted. A flood of connections refused by
the cap spent a quarter of the server's profile samples in that set-up
(``H11Protocol.__init__``, ``connection_made``'s address look-ups,
``connection_lost``).

``doublesix serve`` passes it to uvicorn (``http=``).
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections import Counter
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from doublesix.server.addresses import PENALTY_BOX
from doublesix.server.metrics import refused
from doublesix.server.penalties import BOX, Boxed, PenaltyBox

HEADER_SECONDS = 10.0
"""A request's headers arrive within this many seconds."""
PER_ADDRESS = 64
"""TCP connections one address may hold at once (a browser opens 6 to 10)."""

_open: Counter[str] = Counter()
"""Open HTTP connections per client address, in this process."""


def _refusal(status: int, reason: str, fields: dict[str, Any], retry_after: int = 0) -> bytes:
    """A whole HTTP response: the protocol's JSON error ``fields``, then the connection
    closes."""
    body = json.dumps(fields).encode()
    retry = f"retry-after: {retry_after}\r\n" if retry_after else ""
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\n{retry}connection: close\r\n\r\n"
    )
    return head.encode() + body


@functools.lru_cache(maxsize=256)
def _too_many(message: str, limit: str, retry_after: int = 0) -> bytes:
    """A 429 naming ``limit`` (made once per message and second: a flood meets the same)."""
    fields: dict[str, Any] = {"error": message, "limit": limit}
    if retry_after:
        fields["retry_after"] = retry_after
    return _refusal(429, "Too Many Requests", fields, retry_after)


def _boxed(box: PenaltyBox, boxed: Boxed) -> bytes:
    return _too_many(boxed.message, boxed.limit, box.retry_after(boxed))


def _peer(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple | list) and peer else ""


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header timeout, a connection cap per address and the
    penalty box; set up only for a connection it admits."""

    header_seconds = HEADER_SECONDS
    per_address = PER_ADDRESS
    box = BOX

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._setup = (args, kwargs)  # H11Protocol's, once the connection is admitted
        self._refused = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        address = _peer(transport)
        refusal = self._refusal_of(address)
        if refusal is not None:
            self._refused = True
            transport.write(refusal)
            transport.close()
            return
        args, kwargs = self._setup
        super().__init__(*args, **kwargs)
        super().connection_made(transport)
        self._address = address
        self._header_timer: asyncio.TimerHandle | None = None
        _open[address] += 1
        self._counted = True
        self._arm()

    def _refusal_of(self, address: str) -> bytes | None:
        """The answer to a new connection from ``address``, or None: it is admitted."""
        boxed = self.box.refuses(address)
        if boxed is not None:
            refused(PENALTY_BOX)
            return _boxed(self.box, boxed)
        if _open[address] >= self.per_address:
            refused("address:connections")
            limit = f"at most {self.per_address} connections from one address"
            self.box.strike(address, limit)
            return _too_many(limit, limit)
        return None

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            limit = f"a request's headers arrive within {self.header_seconds:g} s"
            self.transport.write(_refusal(408, "Request Timeout", {"error": limit}))
            self.transport.close()

    def _uncount(self) -> None:
        if self._counted:
            self._counted = False
            _open[self._address] -= 1
            if _open[self._address] <= 0:
                del _open[self._address]

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:  # a request's headers are complete
            self._disarm()

    def handle_websocket_upgrade(self, event: Any) -> None:
        self._disarm()
        self._uncount()
        super().handle_websocket_upgrade(event)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._arm()  # the next request's headers are timed too

    def connection_lost(self, exc: Exception | None) -> None:
        if self._refused:  # nothing was set up
            return
        self._disarm()
        self._uncount()
        super().connection_lost(exc)


def open_connections() -> dict[str, int]:
    """Open HTTP connections per address (for tests and the log)."""
    return dict(_open)


class OneAddressH11Protocol(GuardedH11Protocol):
    """The header timeout without the cap per address (``serve --no-limits``: a load test
    from one address)."""

    per_address = 1 << 30
