"""The expert of 2026: weighted determinised search over the hidden tiles.

It was the table's ``expert`` until the tree search of ``fitted`` (on its C
core) was shown stronger; frozen since as ``expert-2026``, the arena's
yardstick, it also ranks the hint's moves (``hint``: it estimates each
move's chance to win the round and its points) and plays the tree search's
exact endgame. For each decision it

1. reads its view into what each seat may hold (``inference``: voids from
   passes and draws, tiles drawn later kept apart, R16's opening double);
2. samples many deals consistent with that (``sampler``), each with its
   importance weight, and weighs each by how likely it makes the plays the
   others were seen to choose: players shed heavy tiles, so a seat that
   played a 1-2 where a 6-5 would have fitted probably has no 6-5
   (``OpponentModel``);
3. evaluates every legal move on the heaviest samples first: an exact
   alpha–beta solve once few tiles remain (its side maximises, the others
   minimise), otherwise a playout in which every seat weighs pips, doubles,
   the answers it keeps and whether the next seat can answer
   (``smart_playout``); every move is tried on the same deals;
4. scores every ending the way the game does — winner-takes points, Kozel
   charges with the lone 0-0 and 6-6, the 13-rule, eggs, fish — for its
   side (partners together), with a bonus where the round decides the game;
5. plays the move with the best weighted mean.

The budget is counted in work units (``UNITS_PER_MS`` converts a time
budget on one core), so a seed always gives the same move.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from doublesix.bots.base import register
from doublesix.bots.budget import Work
from doublesix.bots.core import Scorer
from doublesix.bots.inference import Knowledge, infer
from doublesix.bots.pimc import SAFETY_S, root_moves, stop_of, to_move
from doublesix.bots.sampler import Sample, Sampler, choices
from doublesix.bots.search import Exhausted, Playout, Solver, smart_playout, step
from doublesix.rules.moves import Move
from doublesix.rules.ruleset import DrawRule
from doublesix.rules.view import SeatView
from doublesix.tiles import DOUBLES, HIGH, LOW, OTHER, SUIT, VALUE

BUDGET_MS = 100.0
"""The table's budget per move (ms of one core) unless one is given: the cheapest within one
95% interval of the best against ``greedy`` (``benchmarks/choose_budgets.py``)."""

UNITS_PER_MS = 2250
"""Work units per millisecond of budget (``COST`` gives each kind of work its units)."""

COST = Work(attempts=32, weighed=1, nodes=5, solved=6, plays=3, played=5)
"""Units charged for each kind of work: about its CPU time relative to the others."""

SOLVE_AT = 20
"""Solve exactly once the hands and the drawable boneyard hold this many tiles or fewer…"""

ALWAYS_SOLVE = 10
"""…always at this many or fewer; between, only while solves fit the budget (``MIN_SAMPLES``)."""

SOLVE_NODES = 20000
"""Node cap of one exact solve; past it the sample falls back to playouts."""

MIN_SAMPLES = 48
"""A solve may cost at most the budget shared among this many samples."""

POOL = 48
"""Samples drawn and weighed at a time."""


class OpponentModel:
    """How likely a seat was to play ``tile`` from the tiles it could play.

    A mix of a uniform choice (``noise``) and a softmax over the tiles'
    pips (``beta``): players tend to shed their heaviest tiles.
    """

    def __init__(self, beta: float = 0.45, noise: float = 0.15, smart: bool = False) -> None:
        self.noise = noise
        self.beta = beta
        self.smart = smart
        self.exp = [math.exp(beta * v) for v in VALUE]

    def _smart_scores(self, hand: int, playable: int, left: int, right: int) -> dict[int, float]:
        """The playout policy's score of each playable tile (pips, doubles, answers kept)."""
        out: dict[int, float] = {}
        q = playable
        while q:
            low = q & -q
            x = low.bit_length() - 1
            q ^= low
            rest = hand ^ low
            base = VALUE[x] + (4 if DOUBLES & low else 0)
            if left < 0:
                keep = (rest & (SUIT[LOW[x]] | SUIT[HIGH[x]])).bit_count()
            else:
                keep = 0
                if SUIT[left] & low:
                    keep = (rest & (SUIT[OTHER[x][left]] | SUIT[right])).bit_count()
                if SUIT[right] & low:
                    keep = max(keep, (rest & (SUIT[left] | SUIT[OTHER[x][right]])).bit_count())
            out[x] = base + 3 * keep
        return out

    def weigh(self, k: Knowledge, sample: Sample) -> tuple[float, int]:
        """``log_likelihood``, and the seats that play their heaviest tile in this deal (a mask)."""
        return self.log_likelihood(k, sample), 0

    def log_likelihood(self, k: Knowledge, sample: Sample) -> float:
        total = 0.0
        exp = self.exp
        noise = self.noise
        for d, hand, playable in choices(k, sample):
            if self.smart:
                scores = self._smart_scores(hand, playable, d.left, d.right)
                if len(scores) <= 1:
                    continue
                top = max(scores.values())
                zs = sum(math.exp(self.beta * (v - top)) for v in scores.values())
                ps = math.exp(self.beta * (scores[d.tile] - top)) / zs
                total += math.log(noise / len(scores) + (1.0 - noise) * ps)
                continue
            count = 0
            z = 0.0
            q = playable
            while q:
                low = q & -q
                z += exp[low.bit_length() - 1]
                count += 1
                q ^= low
            if count <= 1:
                continue
            p = noise / count + (1.0 - noise) * exp[d.tile] / z
            total += math.log(p)
        return total


@dataclass
class MoveStats:
    """What the search found for one move: weighted sums over the samples it saw."""

    tile: int
    end: int
    weight: float = 0.0
    value: float = 0.0
    won: float = 0.0
    points: float = 0.0

    @property
    def mean(self) -> float:
        return self.value / self.weight if self.weight else 0.0


class ExpertBot:
    """Weighted determinised search with an exact endgame; see the module's text."""

    name = "expert-2026"

    def __init__(
        self,
        rng: random.Random,
        ms_per_move: float = BUDGET_MS,
        model: OpponentModel | None = None,
        bonus: float = 30.0,
        solve_at: int = SOLVE_AT,
        playout: Playout = smart_playout,
        solve_with_boneyard: bool = True,
    ) -> None:
        self.rng = rng
        self.solve_with_boneyard = solve_with_boneyard
        self.solve_at = solve_at
        self.playout = playout
        self.ms_per_move = ms_per_move
        self.model = model if model is not None else OpponentModel()
        self.bonus = bonus
        self.cost = COST
        """Units charged for each kind of work."""
        self.work = Work()
        """What the last decision did."""
        self._n = 4
        self._draw_one = False
        self._plays = 0
        self.samples = 0

    def choose(self, view: SeatView) -> Move:
        moves = root_moves(view)
        if len(moves) == 1:
            self.work = Work()
            self.samples = 0
            return to_move(view, *moves[0])
        stats = self.evaluate(view, moves)
        best = max(range(len(stats)), key=lambda i: (stats[i].mean, -i))
        return to_move(view, stats[best].tile, stats[best].end)

    def evaluate(
        self, view: SeatView, moves: Sequence[tuple[int, int]] | None = None
    ) -> list[MoveStats]:
        """Weighted statistics of every distinct legal move of ``view``'s seat."""
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
        while used < budget:
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
                if used >= budget:
                    break
                if logs[i] - top < -9.0:
                    break
                w = math.exp(min(50.0, logs[i] - ref))
                s = pool[i]
                tiles_left = sum(h.bit_count() for h in s.hands) + stop
                results = None
                if (
                    tiles_left <= self.solve_at
                    and (tiles_left <= ALWAYS_SOLVE or failures < 3)
                    and (stop == 0 or self.solve_with_boneyard)
                ):
                    cap = solve_cap if tiles_left > ALWAYS_SOLVE else max(solve_cap, 2000)
                    solver = Solver(scorer, side_of, s.bone, stop, draw_one, n, cap)
                    results = self._solve_all(solver, stats, s, left0, right0, me)
                    work.nodes += solver.nodes
                    work.solved += len(stats)
                    if results is None:
                        failures += 1
                if results is None:
                    results = self._playout_all(scorer, stats, s, left0, right0, me, stop)
                    work.plays += self._plays
                    work.played += len(stats)
                used = work.units(self.cost)
                for st, (v, won, pts) in zip(stats, results, strict=True):
                    st.weight += w
                    st.value += w * v
                    st.won += w * won
                    st.points += w * pts
                samples += 1
            if time.process_time() - started > SAFETY_S:
                break
        self.work = work
        self.samples = samples
        return stats

    def _playout_all(
        self,
        scorer: Scorer,
        stats: Sequence[MoveStats],
        s: Sample,
        left0: int,
        right0: int,
        me: int,
        stop: int,
    ) -> list[tuple[float, float, float]]:
        """Each move's (value, round won, points) on sample ``s`` by one playout.

        ``self._plays`` counts the plays simulated (the budget charges them).
        """
        n, draw_one = self._n, self._draw_one
        self._plays = 0
        out = []
        for st in stats:
            hands = s.hands.copy()
            left, right, nxt, drawn = step(
                hands, left0, right0, me, st.tile, st.end, s.bone, 0, stop, draw_one, n
            )
            if nxt >= 0:
                domino, last, plays = self.playout(
                    hands, left, right, nxt, s.bone, drawn, stop, draw_one, n
                )
                self._plays += plays
            else:
                domino, last = nxt == -2, me
            v, points, won = scorer.outcome(domino, hands, last)
            out.append((v, 1.0 if won else 0.0, points))
        return out

    @staticmethod
    def _solve_all(
        solver: Solver,
        stats: Sequence[MoveStats],
        s: Sample,
        left0: int,
        right0: int,
        me: int,
    ) -> list[tuple[float, float, float]] | None:
        """Each move's exact value on sample ``s``; None if the solver ran out of nodes.

        The value stands for the points too (it holds the game-deciding bonus, if any).
        """
        out = []
        try:
            for st in stats:
                v = solver.value_after(s.hands, left0, right0, me, st.tile, st.end, 0, -1e9, 1e9)
                out.append((v, 1.0 if v > 0 else 0.5 if v == 0 else 0.0, v))
        except Exhausted:
            return None
        return out


@register("expert-2026", table=False, ms=300.0)
def _make_2026(rng: random.Random) -> ExpertBot:
    """The expert of 2026, frozen: the yardstick that later experts are measured against.

    For the arena only (never at a table). A test pins its games move by move,
    so nothing done for ``expert`` may change how it plays.
    """
    return ExpertBot(rng)
