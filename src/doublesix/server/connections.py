"""Connections as uvicorn accepts them: a header timeout, and a cap per address.

uvicorn's HTTP protocol (h11) waits forever for a request's headers: a
thousand half-sent requests were held for good. ``GuardedH11Protocol`` is
that protocol with two bounds more:

- the headers of each request must be complete within ``HEADER_SECONDS``
  of the connection (or of the previous response, on a kept-alive one);
- one address holds ``PER_ADDRESS`` connections at most; one more is
  answered 429 and closed at once (a WebSocket, once upgraded, is counted by
  ``addresses.AddressLimits`` instead).

``doublesix serve`` passes it to uvicorn (``http=``).
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_SECONDS = 10.0
"""A request's headers arrive within this many seconds."""
PER_ADDRESS = 64
"""TCP connections one address may hold at once (a browser opens 6 to 10)."""

_open: Counter[str] = Counter()
"""Open HTTP connections per client address, in this process."""


def _refusal(status: int, reason: str, message: str) -> bytes:
    body = json.dumps({"error": message}).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header timeout and a connection cap per address."""

    header_seconds = HEADER_SECONDS
    per_address = PER_ADDRESS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = self.client[0] if self.client else ""
        self._counted = False
        self._header_timer: asyncio.TimerHandle | None = None
        if _open[self._address] >= self.per_address:
            transport.write(
                _refusal(
                    429,
                    "Too Many Requests",
                    f"at most {self.per_address} connections from one address",
                )
            )
            transport.close()
            return
        _open[self._address] += 1
        self._counted = True
        self._arm()

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
            self.transport.write(
                _refusal(
                    408,
                    "Request Timeout",
                    f"a request's headers arrive within {self.header_seconds:g} s",
                )
            )
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
