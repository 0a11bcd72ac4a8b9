"""The penalty box: an address that passes its limits again and again is refused at once.

A limit's refusal (too many requests, connections or sockets from one
address) is a strike against the address. One with more than ``strikes``
strikes in their window is boxed for ``seconds``: a connection it opens is
answered 429 and closed as soon as it is accepted, before any HTTP parsing
(``connections.GuardedH11Protocol``), and so is a request on a connection it
kept alive; a socket it opens is closed with 4429 (``addresses.AddressGuard``).
The refusal names the limit that was passed and when to come back.

Why: a limit refuses a flood one request at a time, and each refusal still
costs the one event loop every player shares (parsing, the app's middleware,
a lobby query for each request the limit still lets through). A browser
(6 to 10 connections, some 20 requests a page) never passes a limit, let alone
``strikes`` times in a few seconds.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from limits import parse

from doublesix.server.windows import MovingWindows

log = logging.getLogger(__name__)

STRIKES = "20/10 seconds"
"""Refusals by the limits an address may meet in a window before it is boxed."""
SECONDS = 60.0
"""How long a boxed address is refused."""


@dataclass(frozen=True)
class Boxed:
    """Why and until when (monotonic seconds) an address is refused."""

    until: float
    limit: str
    """The limit it last passed, in words ("at most 300 requests per 10 seconds")."""
    message: str


class PenaltyBox:
    """Strikes per address, and the addresses boxed for passing their limits too often."""

    def __init__(
        self,
        strikes: str = STRIKES,
        seconds: float = SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.strikes = parse(strikes)
        self.seconds = seconds
        self.clock = clock
        self.windows = MovingWindows(clock)
        self._boxed: dict[str, Boxed] = {}
        self.refused = 0
        """Connections, requests and sockets refused by the box (not by a limit)."""

    def strike(self, address: str, limit: str) -> None:
        """``address`` was refused by ``limit`` (in words); boxed if that is once too often."""
        now = self.clock()
        held = self._boxed.get(address)
        if (held is not None and held.until > now) or self.windows.hit(self.strikes, address):
            return
        self._boxed = {other: b for other, b in self._boxed.items() if b.until > now}
        boxed = Boxed(
            until=now + self.seconds,
            limit=limit,
            message=(
                f"your address passed its limits more than {self.strikes.amount} times in "
                f"{self.strikes.get_expiry()} s (the last: {limit}); "
                f"refused for {self.seconds:g} s"
            ),
        )
        self._boxed[address] = boxed
        log.warning("address %s refused for %g s: passed %s", address, self.seconds, limit)

    def refuses(self, address: str) -> Boxed | None:
        """Why ``address`` is refused now (counted in ``refused``), or None: not boxed, or
        its time is up."""
        boxed = self._boxed.get(address)
        if boxed is None:
            return None
        if self.clock() >= boxed.until:
            del self._boxed[address]
            return None
        self.refused += 1
        return boxed

    def retry_after(self, boxed: Boxed) -> int:
        """Whole seconds until ``boxed`` is let go (at least 1)."""
        return max(1, math.ceil(boxed.until - self.clock()))


BOX = PenaltyBox()
"""This process's box, shared by the connections' protocol and the app's limits."""
