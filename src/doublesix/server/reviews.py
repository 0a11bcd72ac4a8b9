"""Post-game reviews for the game page: one seat's moves beside the expert's.

A review runs the expert's search at every decision of the seat, seconds
of CPU, so it runs in a worker process of its own (below the server's and
the bots' priority): in the server's event loop or its threads it would
hold up every table. Requests for the same game and seat share one
computation, and since a finished game never changes, a review once made
is kept (the newest ``KEEP`` in memory). Only finished games are reviewed:
during a game, the expert's choices for a seat would tell everyone what
that seat holds.

Bounds: a review searches ``REVIEW_SECONDS`` at most (the seat's moves
times the search per move; a longer game is refused, 413), runs
``TIMEOUT`` at most, and the queue holds ``WAITING`` reviews, one per
client address, served in turn: one client's slow reviews never lock out
everyone else's.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from doublesix.review import review
from doublesix.rules.game import Game
from doublesix.rules.moves import Play
from doublesix.rules.record import replay
from doublesix.server.errors import Refused
from doublesix.server.uploads import NICE, busy, read_record, refusal
from doublesix.server.workers import Busy, Workers, WorkTimeout
from doublesix.table.views import JSON

KEEP = 200
"""Reviews kept in memory, newest first."""
GAME = "game:"
"""How the key of a server game's reviews begins (then its table's id)."""
WAITING = 8
"""Reviews waiting for the worker at most; more are refused for now (503)."""
PER_CLIENT = 1
"""Reviews of one address being made or waiting at most; more are answered 429."""
REVIEW_SECONDS = 30.0
"""A review's search at most: the seat's moves times the search per move."""
TIMEOUT = 3 * REVIEW_SECONDS
"""A review's run at most, however slow the machine (its worker is killed past it)."""


def seat_moves(game: Game, seat: int) -> int:
    """The moves ``seat`` played in ``game`` (a review searches at most once each)."""
    return sum(
        1
        for r in game.rounds
        for event in r.play.events
        if isinstance(event, Play) and event.seat == seat
    )


def seat_refusal(record: dict[str, Any], seat: int) -> tuple[int, JSON] | None:
    """Why ``seat`` cannot be reviewed in ``record`` (not a seat of it), or None."""
    players = int(record["ruleset"]["players"])
    if not 0 <= seat < players:
        return 422, {"error": f"no seat {seat} at a table of {players}", "field": "seat"}
    return None


def review_record(record: dict[str, Any], seat: int, ms: float) -> tuple[int, JSON]:
    """(status, answer) of the review of ``seat`` in a finished game's record (in the worker)."""
    refused = seat_refusal(record, seat)
    if refused is not None:
        return refused
    game = replay(record)
    moves = seat_moves(game, seat)
    if moves * ms > REVIEW_SECONDS * 1000:
        limit = int(REVIEW_SECONDS * 1000 / ms)
        return 413, {
            "error": f"seat {seat} made {moves} moves; a review searches {limit} at most "
            f"({REVIEW_SECONDS:.0f} s at {ms:g} ms a move)",
            "field": "seat",
            "limit": limit,
        }
    rows = review(game, seat, ms)
    return 200, {
        "seat": seat,
        "ms": ms,
        "moves": [r.as_dict() for r in rows],
        "differ": sum(1 for r in rows if r.loss > 0),
        "total_loss": round(sum(r.loss for r in rows), 2),
    }


def review_upload(body: bytes, seat: int, ms: float) -> tuple[int, JSON]:
    """(status, answer) of the review of ``seat`` in the uploaded record ``body``."""
    try:
        record = read_record(body)
    except Exception as e:
        refused = refusal(e)
        if refused is None:
            raise
        return refused
    return review_record(record, seat, ms)


class Reviews:
    """The server's reviews, in a worker process of their own.

    A review takes seconds: in the bots' workers it would hold up the tables' moves.
    """

    def __init__(self, ms: float) -> None:
        self.ms = ms
        self._workers = Workers(1, nice=NICE, waiting=WAITING, per_key=PER_CLIENT)
        self._kept: OrderedDict[tuple[str, int], JSON] = OrderedDict()
        self._running: dict[tuple[str, int], asyncio.Future[tuple[int, JSON]]] = {}

    async def review(
        self, game: str, record: dict[str, Any], seat: int, *, client: str = ""
    ) -> JSON:
        """The review of ``seat`` in ``record``, the finished game that ``game`` names."""
        refused = seat_refusal(record, seat)
        if refused is not None:
            raise Refused(*refused)
        return await self._review((game, seat), client, review_record, record, seat)

    async def review_upload(self, body: bytes, seat: int, *, client: str = "") -> JSON:
        """The review of ``seat`` in the uploaded record ``body`` (read in the worker)."""
        key = ("record:" + hashlib.sha256(body).hexdigest(), seat)
        return await self._review(key, client, review_upload, body, seat)

    async def _review(
        self, key: tuple[str, int], client: str, function: Callable[..., Any], *args: Any
    ) -> JSON:
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        running = self._running.get(key)
        if running is None:
            try:
                running = self._workers.submit(
                    function, *args, self.ms, key=client, timeout=TIMEOUT
                )
            except Busy as e:
                raise busy(e, "reviews", PER_CLIENT) from None
            self._running[key] = running
            running.add_done_callback(lambda _: self._running.pop(key, None))
        try:
            status, found = await asyncio.shield(running)
        except WorkTimeout:
            raise Refused(413, {"error": f"the review took over {TIMEOUT:.0f} s"}) from None
        if status != 200:
            raise Refused(status, found)
        self._kept[key] = found
        while len(self._kept) > KEEP:
            self._kept.popitem(last=False)
        return found

    def forget_game(self, table_id: str) -> None:
        """The reviews kept of the game at ``table_id`` go: an account's erasure rewrote its
        record (``Lobby._reread``), and nothing derived from the record as it was is served
        again. A review holds moves, not names; one being made just then is kept."""
        for key in [k for k in self._kept if k[0] == GAME + table_id]:
            del self._kept[key]

    def close(self) -> None:
        self._workers.close()
