"""Hints: every legal move of the seat to move, ranked by the expert of 2026's search.

``hint(view)`` is what the table's hint button and the post-game review
use: for each move, the estimated chance that the seat's side wins the
round, the expected points of the round for that side (gained minus
conceded; penalties count negative), and the search's value. The
determinised search of the expert of 2026 (``ExpertBot``) gives all three
for every move on the same deals; the table's ``expert``, a tree search,
keeps one value per move only.

The moves are ranked by the expected points, the one figure a player is
shown (the hint's "about 4.2 points", the review's loss: the best move's
expected points minus the played move's). The search's value may hold a
bonus where the round decides the game; ranking by it would call a move
best that the figures shown call worse.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from doublesix.bots.expert import BUDGET_MS, ExpertBot
from doublesix.bots.pimc import to_move
from doublesix.rules.moves import Move
from doublesix.rules.view import SeatView


@dataclass(frozen=True)
class Hint:
    move: Move
    win_chance: float
    """Estimated chance that the seat's side wins this round (0–1)."""
    expected_points: float
    """Expected points of the round for the seat's side, gained minus conceded."""
    value: float
    """The search's value (points with a bonus where the round decides the game)."""


def hint(view: SeatView, *, ms: float | None = None, seed: int = 0) -> list[Hint]:
    """The legal moves of ``view``'s seat, most expected points first; empty when it is not
    its turn.

    ``ms`` is the search's budget, by default the ``expert`` level's.
    """
    if not view.my_turn or not view.legal_moves:
        return []
    bot = ExpertBot(random.Random(seed), ms_per_move=BUDGET_MS if ms is None else ms)
    stats = bot.evaluate(view)
    hints = []
    for st in stats:
        w = st.weight or 1.0
        move = to_move(view, st.tile, st.end)
        hints.append(Hint(move, st.won / w, st.points / w, st.mean))
        twin = _twin(view, move)
        if twin is not None:
            hints.append(Hint(twin, st.won / w, st.points / w, st.mean))
    hints.sort(key=lambda h: (-h.expected_points, -h.value))
    return hints


def _twin(view: SeatView, move: Move) -> Move | None:
    """The same tile at the other end when both ends show the same number (same effect)."""
    if view.ends is None or view.ends[0] != view.ends[1] or move.end is None:
        return None
    for m in view.legal_moves:
        if m.tile == move.tile and m.end != move.end:
            return m
    return None
