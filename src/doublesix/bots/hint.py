"""Hints: every legal move of the seat to move, ranked by the expert of 2026's search.

``hint(view)`` is what the table's hint button and the post-game review
use: for each move, the estimated chance that the seat's side wins the
round, the expected points of the round for that side (gained minus
conceded; penalties count negative), and the search's value. The
determinised search of the expert of 2026 (``ExpertBot``) gives all three
for every move on the same deals; the table's ``expert``, a tree search,
keeps one value per move only.

Where ``expert`` has a network of the others' choices for the game kind
(Kozel, 2-player Draw), the deals are weighed as ``expert`` weighs its own
(``choice_net.expert_model``: the network, and the styles the seats showed
in the rounds before); elsewhere by the 2026 expert's own pips-only model.
Single rounds of a player who always takes the hint (``hint-net`` against
``hint-2026``, ``benchmarks/arena_variants.py``, two seeds' 800 deals): the
network's weighing wins 0.85 ± 0.61 points a round in 2-player Draw and is
even in Kozel (one seed), but ``expert``'s fallback without a network, its
fitted logit, loses 0.68 ± 0.42 in 4-player Block (README: "Bots").

The moves are ranked by the expected points, the one figure a player is
shown (the hint's "about 4.2 points", the review's loss: the best move's
expected points minus the played move's). The search's value may hold a
bonus where the round decides the game; ranking by it would call a move
best that the figures shown call worse.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from doublesix.bots.choice_net import expert_model, kind_of, nets
from doublesix.bots.expert import BUDGET_MS, ExpertBot, OpponentModel
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


def hint(
    view: SeatView, *, ms: float | None = None, seed: int = 0, model: OpponentModel | None = None
) -> list[Hint]:
    """The legal moves of ``view``'s seat, most expected points first; empty when it is not
    its turn.

    ``ms`` is the search's budget, by default the 2026 expert's; ``model`` weighs its deals,
    by default ``hint_model``'s.
    """
    if not view.my_turn or not view.legal_moves:
        return []
    budget = BUDGET_MS if ms is None else ms
    weigh = hint_model(view) if model is None else model
    bot = ExpertBot(random.Random(seed), ms_per_move=budget, model=weigh)
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


def hint_model(view: SeatView) -> OpponentModel:
    """What the hint weighs its deals by at ``view``: ``expert``'s model where it has a
    network for the game kind, else the 2026 expert's (the module's text says why)."""
    if kind_of(view.ruleset) not in nets():
        return OpponentModel()
    return expert_model(view)


def _twin(view: SeatView, move: Move) -> Move | None:
    """The same tile at the other end when both ends show the same number (same effect)."""
    if view.ends is None or view.ends[0] != view.ends[1] or move.end is None:
        return None
    for m in view.legal_moves:
        if m.tile == move.tile and m.end != move.end:
            return m
    return None
