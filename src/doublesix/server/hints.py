"""Hints (issue 4 item 7): the seat to move asks what the expert would play.

The server calls ``doublesix.bots.hint(view)``, which ranks every legal
move of the seat's own view and gives each ``move``, ``win_chance`` (the
chance that the seat's side wins the round) and ``expected_points``. It
runs in a worker thread, so the search does not hold up the table; the
answer is the protocol's ``{"type": "hint", "moves": [...]}``. Without a
``hint`` in ``doublesix.bots`` a request gets the error ``no_hints``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

import doublesix.bots
from doublesix.rules.moves import Move
from doublesix.rules.view import SeatView
from doublesix.server.views import JSON

HintFunction = Callable[[SeatView], Sequence[Any]]


def hint_function() -> HintFunction | None:
    """``doublesix.bots.hint``, looked up when asked (so a test can stand in for it)."""
    found = getattr(doublesix.bots, "hint", None)
    return found if callable(found) else None


def hint_json(item: Any) -> JSON:
    move = item.move
    if not isinstance(move, Move):
        raise TypeError(f"a hint's move must be a Move, not {move!r}")
    return {
        "tile": str(move.tile),
        "end": None if move.end is None else move.end.value,
        "win": round(float(item.win_chance), 4),
        "points": round(float(item.expected_points), 2),
    }


async def hints_for(view: SeatView, function: HintFunction) -> list[JSON]:
    found = await asyncio.to_thread(function, view)
    return [hint_json(item) for item in found]
