"""``pimc``: the plain sampler — the textbook baseline every stronger idea is measured against.

Sample deals consistent with the seat's voids, play every legal move out
with greedy playouts on each, pick the move with the best average round
score for the bot's side. No weighting, no endgame solve, no target.

The budget is counted in work, not seconds, so a seed always gives the
same move (``UNITS_PER_MS`` converts a time budget on one core).
"""

from __future__ import annotations

import random
import time

from doublesix.bots.base import register
from doublesix.bots.budget import Work
from doublesix.bots.core import Scorer, moves_of
from doublesix.bots.inference import Knowledge, infer
from doublesix.bots.sampler import Sampler
from doublesix.bots.search import greedy_playout, step
from doublesix.rules.moves import Move
from doublesix.rules.view import SeatView

BUDGET_MS = 100.0
"""The table's budget per move (ms of one core) unless one is given (measured against
``greedy`` at this budget only, so far: ``benchmarks/choose_budgets.py``)."""

UNITS_PER_MS = 2100
"""Work units per millisecond of budget (``COST`` gives each kind of work its units)."""

COST = Work(attempts=28, plays=1, played=5)
"""Units charged for each kind of work: about its CPU time relative to the others."""

SAFETY_S = 0.95
"""A move never thinks longer than this much CPU time, whatever the budget says."""


def root_moves(view: SeatView) -> list[tuple[int, int]]:
    """The distinct (tile, end) choices of the seat to move (a tile fitting two equal ends once)."""
    left, right = view.ends if view.ends is not None else (-1, -1)
    playable = 0
    for m in view.legal_moves:
        playable |= 1 << m.tile.index
    return moves_of(playable, left, right)


def to_move(view: SeatView, t: int, end: int) -> Move:
    for m in view.legal_moves:
        if m.tile.index == t and m.end_code == end:
            return m
    raise ValueError(f"no legal move for tile {t} at end {end}")  # pragma: no cover


def stop_of(view: SeatView, k: Knowledge) -> int:
    return max(0, k.boneyard - view.ruleset.keep_in_boneyard)


class PimcBot:
    """Perfect-information Monte Carlo with greedy playouts."""

    name = "pimc"

    def __init__(self, rng: random.Random, ms_per_move: float = BUDGET_MS) -> None:
        self.rng = rng
        self.ms_per_move = ms_per_move
        self.work = Work()
        """What the last decision did."""

    def choose(self, view: SeatView) -> Move:
        moves = root_moves(view)
        if len(moves) == 1:
            self.work = Work()
            return to_move(view, *moves[0])
        k = infer(view)
        sampler = Sampler(k, self.rng)
        rules = view.ruleset
        scorer = Scorer(rules, rules.side_of(view.seat), view.scores, view.eggs)
        n = rules.players
        draw_one = rules.draw_rule == "draw_one"
        stop = stop_of(view, k)
        me = view.seat
        budget = max(1, int(self.ms_per_move * UNITS_PER_MS))
        totals = [0.0] * len(moves)
        work = Work()
        used = 0
        count = 0
        started = time.process_time()
        while used < budget:
            s = sampler.sample()
            work.attempts = sampler.attempts
            work.played += len(moves)
            for i, (t, end) in enumerate(moves):
                hands = s.hands.copy()
                left, right, nxt, drawn = step(
                    hands, k.left, k.right, me, t, end, s.bone, 0, stop, draw_one, n
                )
                if nxt >= 0:
                    domino, last, plays = greedy_playout(
                        hands, left, right, nxt, s.bone, drawn, stop, draw_one, n
                    )
                    work.plays += plays
                else:
                    domino, last = nxt == -2, me
                totals[i] += scorer.value(domino, hands, last)
            used = work.units(COST)
            count += 1
            if count % 16 == 0 and time.process_time() - started > SAFETY_S:
                break
        self.work = work
        best = max(range(len(moves)), key=lambda i: (totals[i], -i))
        return to_move(view, *moves[best])


@register("pimc", ms=BUDGET_MS)
def _make(rng: random.Random) -> PimcBot:
    return PimcBot(rng)
