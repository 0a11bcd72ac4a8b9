"""The tables' thinking: bots' moves and hints, searched in worker processes.

The searching levels (``pimc``, ``expert``) and the hint (the expert's
search) run in ``Workers``, so that a table's bot thinking 300 ms does not
hold up the other tables. The levels without search decide in microseconds,
less than the round trip to a worker costs: they decide in a thread.

A decision makes its bot afresh from the seed it is given (the table derives
it from its own seed, the seat and its version): the move depends on the
seat's view and that seed only, in whichever worker, and after a restart.
The hint answers the protocol's ``{"type": "hint", "moves": [...]}``.

Fair shares: each table's work waits in the table's own queue and the
workers serve the tables in turn; a table nobody watches (``watched=False``)
is served only when no watched table waits. A seat has one hint in flight:
asking again while it is being searched waits for the same search, and
asking again in the same position gets the hint found for it.

The clock tells nothing: a searching level answers when its search would
have ended at the longest (``Pad``), whether it searched or had a single
move, so the time a bot takes says nothing of the tiles it holds.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from doublesix.bots import hint, make_bot
from doublesix.rules.moves import Move
from doublesix.rules.view import SeatView
from doublesix.server.workers import Workers
from doublesix.table.views import JSON

T = TypeVar("T")

INSTANT_LEVELS = frozenset({"random", "greedy", "medium"})
"""Levels without search: they decide in the server's thread pool."""
HINT_MS = 300.0
"""The hint's search (``doublesix.bots.hint``'s default budget)."""
HINTS_KEPT = 1000
"""Seats whose last hint is kept for their position (asked again, it is not searched again)."""
QUEUED_PER_TABLE = 8
"""A table's decisions and hints waiting for a worker at most (more are refused)."""


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
        for h in hint(view, ms=HINT_MS)
    ]


def timed(function: Callable[..., T], *args: Any) -> tuple[T, float]:
    """``function(*args)`` and the seconds it took (run in the worker)."""
    started = time.perf_counter()
    return function(*args), time.perf_counter() - started


def budget_seconds(level: str) -> float:
    """The search budget of bot ``level`` in seconds (0 for a level that does not search)."""
    ms = getattr(make_bot(level), "ms_per_move", 0.0)
    return float(ms) / 1000.0


class Pad:
    """How long a searching decision takes, whatever it found: every answer waits for it.

    The pad is the longest of the recent searches (``WINDOW`` of them, each
    timed in its worker) and the budget, with a margin, plus a random jitter:
    a one-option move, answered at once by the bot, waits as long as a
    searched one. On a machine that slows down, the searches get longer and
    the pad follows them for everyone.
    """

    WINDOW = 64
    MARGIN = 1.15
    JITTER = 0.15
    """Up to this share of the pad is added at random (hides sub-millisecond differences)."""

    def __init__(self, budget: float) -> None:
        self.budget = budget
        self._recent: deque[float] = deque(maxlen=self.WINDOW)
        self._random = random.Random()

    def seconds(self) -> float:
        longest = max(self._recent, default=0.0)
        return max(self.budget, longest) * self.MARGIN

    async def wait(self, took: float, *, learn: bool = True) -> None:
        """After a search of ``took`` seconds: wait until the pad has passed since it began.

        ``learn``: count this search among the recent ones (the searches of tables
        nobody watches do not lengthen everyone's pad)."""
        pad = self.seconds() * (1 + self.JITTER * self._random.random())
        if learn:
            self._recent.append(took)
        if pad > took:
            await asyncio.sleep(pad - took)


class _Flight:
    """A seat's hint being searched, and how many askers still wait for it."""

    def __init__(self, view: SeatView, task: asyncio.Task[list[JSON]]) -> None:
        self.view = view
        self.task = task
        self.askers = 0


class Thinking:
    """Where the tables' bots and hints think: ``workers`` processes, started when needed."""

    def __init__(self, workers: int) -> None:
        self._workers = Workers(workers, per_key=QUEUED_PER_TABLE)
        self._pads: dict[str, Pad] = {}
        self._hints: dict[Hashable, _Flight] = {}

    def pad(self, level: str) -> Pad:
        """The pad of ``level`` (``"hint"`` for the hints)."""
        found = self._pads.get(level)
        if found is None:
            budget = HINT_MS / 1000 if level == "hint" else budget_seconds(level)
            found = self._pads[level] = Pad(budget)
        return found

    async def choose(
        self,
        level: str,
        seed: int,
        view: SeatView,
        *,
        table: str | None = None,
        watched: bool = True,
    ) -> Move:
        """The move of bot ``level`` for ``view``'s seat at ``table``.

        ``watched``: whether a human follows the table (a socket of a human
        seat is open); the others' bots think when no watched table waits.
        Cancelling the call before a worker took it means it never starts.
        """
        if level in INSTANT_LEVELS:
            return await asyncio.to_thread(decide, level, seed, view)
        found: tuple[Move, float] = await self._workers.run(
            timed, decide, level, seed, view, key=table, urgent=watched
        )
        move, took = found
        await self.pad(level).wait(took, learn=watched)
        return move

    async def hints(
        self, view: SeatView, *, table: str | None = None, seat: int | None = None
    ) -> list[JSON]:
        """The hint rows for ``view``'s seat; one search per seat at a time, shared by
        every asker of the same position (and kept for it: asking again in the same
        position costs nothing); it stops if all of them stop waiting."""
        key = (table, seat) if table is not None and seat is not None else None
        flight = None if key is None else self._hints.get(key)
        if flight is None or flight.view != view or flight.task.cancelled():
            flight = _Flight(view, asyncio.ensure_future(self._hint(view, table)))
            if key is not None:
                self._hints.pop(key, None)
                self._hints[key] = flight  # the newest last: the oldest are forgotten first
                while len(self._hints) > HINTS_KEPT:
                    del self._hints[next(iter(self._hints))]
                flight.task.add_done_callback(lambda _: self._forget(key, flight))
        flight.askers += 1
        try:
            return await asyncio.shield(flight.task)
        finally:
            flight.askers -= 1
            if flight.askers == 0 and not flight.task.done():
                flight.task.cancel()

    def _forget(self, key: Hashable, flight: _Flight) -> None:
        """Forget a search that failed or was stopped (a found hint is kept for its position)."""
        failed = flight.task.cancelled() or flight.task.exception() is not None
        if failed and self._hints.get(key) is flight:
            del self._hints[key]

    async def _hint(self, view: SeatView, table: str | None) -> list[JSON]:
        found: tuple[list[JSON], float] = await self._workers.run(
            timed, hint_moves, view, key=table
        )
        moves, took = found
        await self.pad("hint").wait(took)
        return moves

    def close(self) -> None:
        self._workers.close()
