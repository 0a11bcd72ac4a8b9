"""``expert-race``: ``expert``'s search that stops spending samples on moves already beaten.

``expert`` evaluates every legal move on every sampled deal until its budget
is spent, so with four moves a clearly bad one takes a quarter of the
samples to the end. ``RaceBot`` races them instead: all moves are still
valued on the same deals (their difference on a deal is paired, so its
noise is small), and every ``EVERY`` deals from ``FIRST`` on, a move whose
weighted mean difference to the leader's is below zero by more than ``Z``
standard errors is dropped; the deals left in the budget go to the moves
still in the race, and the move played is the best of those. When one move
is left the decision is made. The deals, their weights, the playouts and
the exact solves are ``expert``'s; only where the samples go changes.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from doublesix.bots.base import register
from doublesix.bots.budget import Work
from doublesix.bots.core import Scorer
from doublesix.bots.expert import (
    ALWAYS_SOLVE,
    MIN_SAMPLES,
    POOL,
    SOLVE_NODES,
    UNITS_PER_MS,
    ExpertBot,
    MoveStats,
)
from doublesix.bots.inference import infer
from doublesix.bots.pimc import SAFETY_S, root_moves, stop_of, to_move
from doublesix.bots.sampler import Sampler
from doublesix.bots.search import Solver
from doublesix.rules.moves import Move
from doublesix.rules.ruleset import DrawRule
from doublesix.rules.view import SeatView

FIRST = 16
"""Deals every move is valued on before any is dropped."""

EVERY = 8
"""Deals between two looks at the race."""

Z = 2.5
"""Standard errors below the leader that drop a move."""


class Race:
    """Running weighted sums of every move's values on the same deals, and who is beaten.

    ``cross[i][j]`` is the weighted sum of move i's value times move j's, so
    the paired difference of any two moves has its mean and variance at hand
    whichever move leads.
    """

    def __init__(self, moves: int) -> None:
        self.total = [0.0] * moves
        self.cross = [[0.0] * moves for _ in range(moves)]
        self.weight = 0.0
        self.squares = 0.0
        """The sum of the squared weights (for the weights' effective number of deals)."""

    def add(self, w: float, values: dict[int, float]) -> None:
        """One deal of weight ``w``: the value of each move in the race (by index)."""
        self.weight += w
        self.squares += w * w
        for i, v in values.items():
            self.total[i] += w * v
            row = self.cross[i]
            for j, u in values.items():
                row[j] += w * v * u

    def beaten(self, i: int, leader: int) -> bool:
        """Is move ``i`` worse than ``leader`` on the deals by more than ``Z`` standard errors?"""
        w = self.weight
        if w <= 0.0:
            return False
        mean = (self.total[i] - self.total[leader]) / w
        if mean >= 0.0:
            return False
        c = self.cross
        second = (c[i][i] - 2.0 * c[i][leader] + c[leader][leader]) / w
        var = max(0.0, second - mean * mean)
        n_eff = w * w / self.squares
        return mean + Z * math.sqrt(var / n_eff) < 0.0


class RaceBot(ExpertBot):
    """``expert`` with its moves raced on the same deals; see the module's text."""

    name = "expert-race"

    def __init__(self, rng: random.Random, ms_per_move: float = 100.0) -> None:
        super().__init__(rng, ms_per_move)
        self.active: list[int] = []
        """The moves still in the race after the last decision (indices of its moves)."""

    def choose(self, view: SeatView) -> Move:
        moves = root_moves(view)
        if len(moves) == 1:
            self.work = Work()
            self.samples = 0
            return to_move(view, *moves[0])
        stats = self.evaluate(view, moves)
        best = max(self.active, key=lambda i: (stats[i].mean, -i))
        return to_move(view, stats[best].tile, stats[best].end)

    def evaluate(
        self, view: SeatView, moves: Sequence[tuple[int, int]] | None = None
    ) -> list[MoveStats]:
        """``ExpertBot.evaluate``, with the moves beaten on the same deals dropped."""
        if moves is None:
            moves = root_moves(view)
        rules = view.ruleset
        k = infer(view)
        sampler = Sampler(k, self.rng)
        side = rules.side_of(view.seat)
        scorer = Scorer(rules, side, view.scores, view.eggs, self.bonus)
        n = rules.players
        side_of = [rules.side_of(s) for s in range(n)]
        draw_one = rules.draw_rule is DrawRule.DRAW_ONE
        stop = stop_of(view, k)
        me = view.seat
        stats = [MoveStats(t, e) for t, e in moves]
        active = list(range(len(stats)))
        race = Race(len(stats))
        budget = max(1, int(self.ms_per_move * UNITS_PER_MS))
        work = Work()
        used = 0
        samples = 0
        started = time.process_time()
        model = self.model
        left0, right0 = k.left, k.right
        ref: float | None = None
        failures = 0
        solve_cap = min(SOLVE_NODES, budget // (MIN_SAMPLES * len(stats) * 6))
        self._n, self._draw_one = n, draw_one
        while used < budget and len(active) > 1:
            pool = [sampler.sample() for _ in range(POOL)]
            logs = [s.log_weight + model.log_likelihood(k, s) for s in pool]
            work.attempts = sampler.attempts
            work.weighed += len(k.decisions) * POOL
            used = work.units(self.cost)
            top = max(logs)
            if ref is None:
                ref = top
            order = sorted(range(POOL), key=lambda i: -logs[i])
            for i in order:
                if used >= budget or len(active) == 1:
                    break
                if logs[i] - top < -9.0:
                    break
                w = math.exp(min(50.0, logs[i] - ref))
                s = pool[i]
                racing = [stats[j] for j in active]
                tiles_left = sum(h.bit_count() for h in s.hands) + stop
                results = None
                if (
                    tiles_left <= self.solve_at
                    and (tiles_left <= ALWAYS_SOLVE or failures < 3)
                    and (stop == 0 or self.solve_with_boneyard)
                ):
                    cap = solve_cap if tiles_left > ALWAYS_SOLVE else max(solve_cap, 2000)
                    solver = Solver(scorer, side_of, s.bone, stop, draw_one, n, cap)
                    results = self._solve_all(solver, racing, s, left0, right0, me)
                    work.nodes += solver.nodes
                    work.solved += len(racing)
                    if results is None:
                        failures += 1
                if results is None:
                    results = self._playout_all(scorer, racing, s, left0, right0, me, stop)
                    work.plays += self._plays
                    work.played += len(racing)
                used = work.units(self.cost)
                for st, (v, won, pts) in zip(racing, results, strict=True):
                    st.weight += w
                    st.value += w * v
                    st.won += w * won
                    st.points += w * pts
                race.add(w, {j: r[0] for j, r in zip(active, results, strict=True)})
                samples += 1
                if samples >= FIRST and samples % EVERY == 0:
                    leader = max(active, key=lambda j: (stats[j].mean, -j))
                    active = [j for j in active if j == leader or not race.beaten(j, leader)]
            if time.process_time() - started > SAFETY_S:
                break
        self.active = active
        self.work = work
        self.samples = samples
        return stats


@register("expert-race", table=False, ms=100.0)
def _make(rng: random.Random) -> RaceBot:
    return RaceBot(rng)
