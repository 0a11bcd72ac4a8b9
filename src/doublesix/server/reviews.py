"""Post-game reviews for the game page: one seat's moves beside the expert's.

A review runs the expert's search at every decision of the seat, seconds
of CPU, so it runs in a worker process of its own: in the server's event
loop or its threads it would hold up every table. Requests for the same
game and seat share one computation, and since a finished game never
changes, a review once made is kept (the newest ``KEEP`` in memory).
Only finished games are reviewed: during a game, the expert's choices for
a seat would tell everyone what that seat holds.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from doublesix.review import review
from doublesix.rules.record import replay
from doublesix.server.workers import Workers
from doublesix.table.views import JSON

KEEP = 200
"""Reviews kept in memory, newest first."""
WAITING = 8
"""Reviews being made or waiting for the worker at most; more are refused for now."""


class ReviewsBusy(Exception):
    """``WAITING`` reviews are queued already: this one is not started."""


def review_record(record: dict[str, Any], seat: int, ms: float) -> JSON:
    """The review of ``seat`` in a finished game's record (runs in the worker process)."""
    rows = review(replay(record), seat, ms)
    return {
        "seat": seat,
        "ms": ms,
        "moves": [r.as_dict() for r in rows],
        "differ": sum(1 for r in rows if r.loss > 0),
        "total_loss": round(sum(r.loss for r in rows), 2),
    }


class Reviews:
    """The server's reviews, in a worker process of their own.

    A review takes seconds: in the bots' workers it would hold up the tables' moves.
    """

    def __init__(self, ms: float) -> None:
        self.ms = ms
        self._workers = Workers(1)
        self._kept: OrderedDict[tuple[str, int], JSON] = OrderedDict()
        self._running: dict[tuple[str, int], asyncio.Future[JSON]] = {}

    async def review(self, game: str, record: dict[str, Any], seat: int) -> JSON:
        """The review of ``seat`` in ``record``, the finished game that ``game`` names."""
        key = (game, seat)
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        running = self._running.get(key)
        if running is None:
            if len(self._running) >= WAITING:
                raise ReviewsBusy
            running = asyncio.ensure_future(self._workers.run(review_record, record, seat, self.ms))
            self._running[key] = running
            running.add_done_callback(lambda _: self._running.pop(key, None))
        found = await asyncio.shield(running)
        self._kept[key] = found
        while len(self._kept) > KEEP:
            self._kept.popitem(last=False)
        return found

    def close(self) -> None:
        self._workers.close()
