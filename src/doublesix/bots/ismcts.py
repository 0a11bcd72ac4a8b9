"""``ismcts``: information-set tree search over the expert's weighted deals.

The expert of 2026 (``ExpertBot``) values each move by one playout per
sampled deal: after the move every seat plays the fixed playout policy, so
more time only lowers the noise of a fixed estimate. This search grows one
tree over all the sampled deals instead (single-observer ISMCTS, ``tree``):

1. deals come from the expert's sampler in pools, each deal drawn from its
   pool in proportion to its weight under the opponent model;
2. on each deal, every legal move of the root is tried in turn (all moves
   on the same deals, as the expert does: in dominoes the deal decides
   far more than the move, and comparing moves on the same deals removes
   that noise); after the root move the search descends the tree, keyed
   by the plays from the root, choosing among the plays legal *in that
   deal* by PUCT (``tree.Puct``): the seat to move maximises its own side's
   mean, a prior from the playout policy's scores says what to try first;
3. from the first play new to the tree, ``smart_playout`` ends the round;
4. every side's value of the ending is added along the path.

A node is shared by every deal that reaches it, so a seat's choice there
cannot depend on tiles it does not see (no strategy fusion below the root),
and as the tree grows its choices replace the playout policy's where the
policy is wrong: more time buys better play, not only less noise. The move
played is the root move with the best mean.

With ``ALWAYS_SOLVE`` tiles or fewer left, the expert's exact solve of
every deal is cheap and exact, so ``IsmctsBot`` hands the decision to it.
The budget is counted in work units, so a seed always gives the same move.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from doublesix.bots.base import register
from doublesix.bots.budget import Work
from doublesix.bots.core import Scorer
from doublesix.bots.expert import ALWAYS_SOLVE, POOL, ExpertBot, OpponentModel
from doublesix.bots.inference import Knowledge, infer
from doublesix.bots.native import core as native
from doublesix.bots.pimc import SAFETY_S, root_moves, stop_of, to_move
from doublesix.bots.sampler import Sample, Sampler
from doublesix.bots.search import smart_playout, step
from doublesix.bots.tables import SUIT
from doublesix.bots.tree import Edge, Node, Puct, key, moves
from doublesix.rules.moves import Move
from doublesix.rules.ruleset import DrawRule, Ruleset
from doublesix.rules.view import SeatView

if TYPE_CHECKING:
    from doublesix.bots import _native

BUDGET_MS = 100.0
"""The budget per move (ms of one core) unless one is given."""

UNITS_PER_MS = 35000
"""Work units per millisecond of budget (``COST``: units of each kind), for the compiled core
with its C part (``bots/c/``): fitted by ``benchmarks/calibrate_bots.py --bot ismcts-fit``
(``benchmarks/calibrate_ismcts_fit.log``) so that a decision takes about 0.8–0.9 of its
budget. The expert's 2,250 were calibrated on the pure-Python core; pure, this search takes
some 20 times its budget (the same moves, unless the 0.95 s safety stop ends it first)."""

COST = Work(attempts=190, weighed=30, plays=3, played=15, tree=1)
"""Units charged for each kind of work: about its CPU time relative to the others (a tree
step in C is the unit; a deal drawn, some 5 µs in Python, is 190 of them)."""

C_PUCT = 1.5
"""Weight of the exploration term, in standard deviations of the root's returns."""

PRIOR_T = 4.0
"""Temperature of the prior: a softmax over the playout policy's scores (in its points)."""

REUSE = 4
"""Deals played per deal sampled: a pool of ``POOL`` deals serves ``REUSE * POOL`` draws."""


class Returns:
    """The spread of the root's returns: exploration is scaled by their standard deviation."""

    def __init__(self) -> None:
        self.n = 0
        self.total = 0.0
        self.squares = 0.0

    def add(self, v: float) -> None:
        self.n += 1
        self.total += v
        self.squares += v * v

    def scale(self) -> float:
        if self.n < 8:
            return 10.0
        mean = self.total / self.n
        return max(1.0, math.sqrt(max(0.0, self.squares / self.n - mean * mean)))


class Values:
    """Every side's value of an ending (two sides: one's gain is the other's loss)."""

    def __init__(self, rules: Ruleset, view: SeatView, bonus: float) -> None:
        self.me = rules.side_of(view.seat)
        self.two = rules.sides == 2
        sides = [self.me] if self.two else list(range(rules.sides))
        self.scorers = [Scorer(rules, side, view.scores, view.eggs, bonus) for side in sides]

    def rows(self) -> list[_native.ScorerRow]:
        """The scorers as the C core's ``Tree`` takes them."""
        return [
            (
                s.side,
                s.kozel,
                s.goat,
                s.winner_takes,
                s.penalties,
                s.fish_all,
                s.target,
                s.eggs,
                s.lone00,
                s.lone66,
                s.scores,
                s.bonus,
            )
            for s in self.scorers
        ]

    def of(self, domino: bool, hands: Sequence[int], last: int) -> list[float]:
        if self.two:
            v = self.scorers[0].value(domino, hands, last)
            return [v, -v] if self.me == 0 else [-v, v]
        return [s.value(domino, hands, last) for s in self.scorers]


class Search:
    """One decision's search; ``run`` spends the budget and returns the root's edges."""

    def __init__(
        self,
        view: SeatView,
        k: Knowledge,
        rng: random.Random,
        model: OpponentModel,
        bonus: float,
        c_puct: float = C_PUCT,
        prior_t: float = PRIOR_T,
        compiled: bool = True,
    ) -> None:
        rules = view.ruleset
        self.k = k
        self.rng = rng
        self.model = model
        self.values = Values(rules, view, bonus)
        self.moves = root_moves(view)
        self.n = rules.players
        self.side_of = [rules.side_of(s) for s in range(self.n)]
        self.draw_one = rules.draw_rule is DrawRule.DRAW_ONE
        self.stop = stop_of(view, k)
        self.me = view.seat
        self.c_puct = c_puct
        self.puct = Puct(prior_t)
        self.root = Node()
        self.returns = Returns()
        self.work = Work()
        self.tree: _native.Tree | None = None
        """The same search's iterations in C, when built (``compiled``, the default, asks)."""
        if compiled and native is not None:
            self.tree = native.Tree(
                self.n,
                self.me,
                self.side_of,
                k.left,
                k.right,
                self.stop,
                self.draw_one,
                c_puct,
                self.puct.prior,
                self.values.two,
                self.values.rows(),
            )

    def run(self, budget: int, cost: Work) -> dict[int, Edge]:
        """Search until the work reaches ``budget`` units; the root's edges."""
        sampler = Sampler(self.k, self.rng)
        work = self.work
        tree = self.tree
        started = time.process_time()
        while work.units(cost) < budget:
            pool = [sampler.sample() for _ in range(POOL)]
            weighed = [self.model.weigh(self.k, s) for s in pool]
            logs = [s.log_weight + w[0] for s, w in zip(pool, weighed, strict=True)]
            work.attempts = sampler.attempts
            work.weighed += len(self.k.decisions) * POOL
            top = max(logs)
            weights = [math.exp(x - top) for x in logs]
            for i in self.rng.choices(range(POOL), weights, k=REUSE * POOL):
                s, heavy = pool[i], weighed[i][1]
                if tree is None:
                    for move in self.moves:
                        self.iterate(s, move, heavy)
                else:
                    tree.deal(s.hands, s.bone, self.moves, heavy)
                    work.tree, work.plays, work.played = tree.work()
                if work.units(cost) >= budget:
                    break
            if time.process_time() - started > SAFETY_S:
                break
        return self.edges()

    def edges(self) -> dict[int, Edge]:
        """The root's edges, from whichever of the two cores searched."""
        if self.tree is None:
            return self.root.edges
        edges = {}
        for k, (visits, avail, total) in self.tree.root().items():
            e = edges[k] = Edge()
            e.visits, e.avail, e.total = visits, avail, total
        return edges

    def iterate(self, s: Sample, first: tuple[int, int], heavy: int = 0) -> None:
        """Root move ``first`` on deal ``s``, down the tree, a playout, and the backup.

        The seats of the mask ``heavy`` play their heaviest tile, in the tree and the playout.
        """
        hands = s.hands.copy()
        bone = s.bone
        stop, draw_one, n = self.stop, self.draw_one, self.n
        left, right = self.k.left, self.k.right
        turn = self.me
        drawn = 0
        t, end = first
        edge = self.root.edge(turn, t, end)
        path: list[tuple[Edge, int]] = []
        c = self.c_puct * self.returns.scale()
        work = self.work
        while True:
            path.append((edge, self.side_of[turn]))
            new = edge.visits == 0
            left, right, nxt, drawn = step(
                hands, left, right, turn, t, end, bone, drawn, stop, draw_one, n
            )
            if nxt < 0:
                # the step that ended the round is counted as a tree step: otherwise a decision
                # whose every move ends the round (its last tile) counts no work for its
                # iterations and runs until the sampling alone has spent the budget
                work.tree += 1
                vals = self.values.of(nxt == -2, hands, turn)
                break
            if new:
                domino, last, plays = smart_playout(
                    hands, left, right, nxt, bone, drawn, stop, draw_one, n, heavy
                )
                work.plays += plays
                work.played += 1
                vals = self.values.of(domino, hands, last)
                break
            if edge.child is None:
                edge.child = Node()
            node = edge.child
            turn = nxt
            h = hands[turn]
            legal = moves(h & (SUIT[left] | SUIT[right]), left, right)
            work.tree += 1
            if len(legal) == 1:
                t, end = legal[0]
                edge = node.edge(turn, t, end)
            elif heavy >> turn & 1:
                t, end = max(legal, key=lambda m: m[0])
                edge = node.edge(turn, t, end)
            else:
                t, end, edge = self.puct.select(
                    node, legal, turn, h, hands[(turn + 1) % n], left, right, c
                )
        for e, side in path:
            e.visits += 1
            e.total += vals[side]
        self.returns.add(vals[self.side_of[self.me]])


class IsmctsBot:
    """Information-set tree search with the expert's deals and endgame; see the module's text."""

    name = "ismcts"
    cost = COST
    """Units charged for each kind of work."""

    def __init__(
        self,
        rng: random.Random,
        ms_per_move: float = BUDGET_MS,
        model: OpponentModel | None = None,
        bonus: float = 30.0,
        solve_at: int = ALWAYS_SOLVE,
        c_puct: float = C_PUCT,
        prior_t: float = PRIOR_T,
    ) -> None:
        self.rng = rng
        self.ms_per_move = ms_per_move
        self.model = model if model is not None else OpponentModel()
        self.bonus = bonus
        self.solve_at = solve_at
        """From this many tiles left (hands and drawable boneyard), the expert's search decides."""
        self.c_puct = c_puct
        self.prior_t = prior_t
        self.work = Work()
        """What the last decision did."""

    def endgame(self) -> ExpertBot:
        """The expert that decides from ``solve_at`` tiles left."""
        return ExpertBot(self.rng, self.ms_per_move, self.model, self.bonus)

    def choose(self, view: SeatView) -> Move:
        self.prepare(view)
        legal = root_moves(view)
        if len(legal) == 1:
            self.work = Work()
            return to_move(view, *legal[0])
        values = self.root_values(view)
        if values is None:
            expert = self.endgame()
            move = expert.choose(view)
            self.work = expert.work
            return move
        best = max(range(len(legal)), key=lambda i: (values[i], -i))
        return to_move(view, *legal[best])

    def prepare(self, view: SeatView) -> None:
        """Ready the search's model for ``view``, as ``choose`` does first: a caller of
        ``root_values`` calls it before. The plain search's model needs nothing."""

    def root_values(self, view: SeatView) -> list[float] | None:
        """The tree search's mean return of each of ``root_moves(view)`` (minus infinity for
        a move it never tried), or None where the endgame's exact search decides instead."""
        k = infer(view)
        if sum(view.hand_counts) + stop_of(view, k) <= self.solve_at:
            return None
        search = Search(view, k, self.rng, self.model, self.bonus, self.c_puct, self.prior_t)
        edges = search.run(max(1, int(self.ms_per_move * UNITS_PER_MS)), self.cost)
        self.work = search.work
        values = []
        for move in root_moves(view):
            e = edges.get(key(view.seat, *move))
            values.append(e.total / e.visits if e is not None and e.visits else -math.inf)
        return values


@register("ismcts", table=False, ms=BUDGET_MS)
def _make(rng: random.Random) -> IsmctsBot:
    return IsmctsBot(rng)
