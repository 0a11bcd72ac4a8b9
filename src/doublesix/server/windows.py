"""Moving windows of hits per limit and key, in this process's memory.

A limit in ``limits`` notation (``parse("300/10 seconds")``) allows
``amount`` hits in any span of its length. Each (limit, key) keeps the times
of its last ``amount`` hits; a hit is allowed when there are fewer, or the
oldest is a window old. That is ``limits``' moving window, with O(1) per hit.

``limits``' own ``MemoryStorage`` is not used: it starts a thread to expire
entries whenever its last one has ended (every 10 ms under a flood of hits),
and ``Thread.start`` waits on the event loop until the thread runs. Under a
request flood that was 7.5% of the server's profile samples, in stalls of the
one loop every player shares. Here expiry is a sweep, at most once a minute,
on the caller's thread.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from limits import RateLimitItem

SWEEP_SECONDS = 60.0
"""Keys whose last hit is a window old are forgotten this often."""


class MovingWindows:
    """Hits per (limit, key) in moving windows; ``clock`` is monotonic seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._hits: dict[tuple[RateLimitItem, str], deque[float]] = {}
        self._swept = clock()

    def hit(self, item: RateLimitItem, key: str) -> bool:
        """Count a hit of ``key`` against ``item`` if the window has room; whether it had."""
        now = self.clock()
        if now - self._swept > SWEEP_SECONDS:
            self._sweep(now)
        hits = self._hits.get((item, key))
        if hits is None:
            hits = self._hits[item, key] = deque(maxlen=item.amount)
        if len(hits) == item.amount and now - hits[0] < item.get_expiry():
            return False
        hits.append(now)
        return True

    def reset_in(self, item: RateLimitItem, key: str) -> float:
        """Seconds until ``key`` may hit ``item`` again (0: it may now)."""
        hits = self._hits.get((item, key))
        if hits is None or len(hits) < item.amount:
            return 0.0
        return max(0.0, hits[0] + item.get_expiry() - self.clock())

    def _sweep(self, now: float) -> None:
        self._swept = now
        stale = [
            pair
            for pair, hits in self._hits.items()
            if not hits or now - hits[-1] >= pair[0].get_expiry()
        ]
        for pair in stale:
            del self._hits[pair]
