"""The tables' thinking: bots' moves and hints, searched in worker processes.

The searching levels (``pimc``, ``expert``) and the hint (the expert's
search) run in ``Workers``, so that a table's bot thinking 300 ms does not
hold up the other tables. The levels without search decide in microseconds,
less than the round trip to a worker costs: they decide in a thread.

A decision makes its bot afresh from the seed it is given (the table derives
it from its own seed, the seat and its version): the move depends on the
seat's view and that seed only, in whichever worker, and after a restart.
The hint answers the protocol's ``{"type": "hint", "moves": [...]}``.
"""

from __future__ import annotations

import asyncio

from doublesix.bots import hint, make_bot
from doublesix.rules.moves import Move
from doublesix.rules.view import SeatView
from doublesix.server.workers import Workers
from doublesix.table.views import JSON

INSTANT_LEVELS = frozenset({"random", "greedy", "medium"})
"""Levels without search: they decide in the server's thread pool."""


def decide(level: str, seed: int, view: SeatView) -> Move:
    """The move of bot ``level`` made from ``seed``, for the seat of ``view``."""
    return make_bot(level, seed).choose(view)


def hint_moves(view: SeatView) -> list[JSON]:
    """The seat's legal moves, best first, as the protocol's hint rows."""
    return [
        {
            "tile": str(h.move.tile),
            "end": None if h.move.end is None else h.move.end.value,
            "win": round(h.win_chance, 4),
            "points": round(h.expected_points, 2),
        }
        for h in hint(view)
    ]


class Thinking:
    """Where the tables' bots and hints think: ``workers`` processes, started when needed."""

    def __init__(self, workers: int) -> None:
        self._workers = Workers(workers)

    async def choose(self, level: str, seed: int, view: SeatView) -> Move:
        if level in INSTANT_LEVELS:
            return await asyncio.to_thread(decide, level, seed, view)
        return await self._workers.run(decide, level, seed, view)

    async def hints(self, view: SeatView) -> list[JSON]:
        return await self._workers.run(hint_moves, view)

    def close(self) -> None:
        self._workers.close()
