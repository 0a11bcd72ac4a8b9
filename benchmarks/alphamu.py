"""αμ search (Cazenave and Ventos, "The αμ Search Algorithm for the Game of Bridge") for
two-player rounds, on ``expert``'s weighted deals: an arena variant (``arena_variants.py``).

Determinised search (PIMC: every move valued on each sampled deal as if the deal were known)
suffers *strategy fusion*: on each deal it plays on as if it knew that deal, choosing its
later moves differently in deals it cannot tell apart. αμ searches the sampled deals
("worlds") together instead. At a node where the searching seat (Max) moves, it chooses one
move for all the worlds it cannot tell apart; where the other seat (Min) moves, Min chooses
per world (as double-dummy search assumes). A node's value is a *front*: a set of vectors,
each a world's outcome for one of Max's strategies below the node, none dominated by another
(no worse in every world). At a Min node the fronts of Min's moves combine world by world by
the minimum (every pair of vectors, one from each move: Min answers each strategy of Max in
each world); at a Max node they are pooled (Max picks a move, so a strategy). After ``M``
moves of Max each world is valued as ``expert-2026`` values it: an exact solve once few
tiles are left, else one ``smart_playout``. With ``M`` = 1 this is PIMC; each further move
of Max removes a level of fusion and costs five to six times more, so iterative deepening on
``M`` is a search whose answer can keep changing between 30 and 300 ms.

Outcomes here are points (the round's margin for Max's side), not wins, and worlds carry
weights (the model's): a vector is ranked by its weighted mean over the node's worlds, the
root plays the move whose front holds the best such mean, and a front keeps only its
``cap`` best vectors by that mean (the paper keeps whole fronts; here the simplification
bounds the products at Min nodes).

In Draw the boneyard's order is part of a world, so draws are deterministic in it; after
Max draws it sees the tile, so at Max's turn the worlds are split by what Max has seen (its
hand, the tiles drawn, the other hand's size), and Max chooses a move per group. Worlds of
different groups are disjoint, so their fronts combine as Min's moves' do.

Min need not answer its best in each world (it would see every hand). With ``policy_min``
it plays ``smart_playout``'s rule in each world; with ``net_min``, the tile ``expert``'s
choice network (``choice_net``, the model that weighs the deals) finds likeliest from what
Min would see in that world: its hand there, the line, the tiles played, the numbers Max
is known to lack and the boneyard's size (``net_move``). Either way Min is one move per
world, so the search no longer branches there and deepens much further.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from doublesix.bots.budget import Work
from doublesix.bots.choice_net import (
    Net,
    Public,
    expert_model,
    features,
    kind_of,
    nets,
    rows_of,
    score,
)
from doublesix.bots.core import Scorer, moves_of
from doublesix.bots.expert import ALWAYS_SOLVE
from doublesix.bots.inference import infer
from doublesix.bots.pimc import SAFETY_S, root_moves, stop_of, to_move
from doublesix.bots.sampler import Sample, Sampler
from doublesix.bots.search import Exhausted, Solver, smart_playout, step
from doublesix.bots.tables import DOUBLES, OTHER, SUIT, VALUE
from doublesix.rules.moves import End, Move, Play
from doublesix.rules.ruleset import DrawRule
from doublesix.rules.view import SeatView
from doublesix.tiles import TILES

UNCONSTRAINED = 1e9
"""A vector's entry for a world outside its node: the minimum of a Min node ignores it."""

Vector = tuple[float, ...]
Front = list[Vector]

WORLDS = 24
"""Worlds searched by default: drawn in proportion to their weight from ``POOL`` deals."""

POOL = 96
"""Deals drawn and weighed to choose the worlds from."""

CAP = 8
"""Vectors a front keeps at most: its best by weighted mean."""

MAX_M = 6
"""The deepest ``M`` iterative deepening tries where Min answers its best in each world."""

POLICY_MAX_M = 28
"""…and where Min plays the playout rule (``policy_min``) or the network's choice
(``net_min``): no cap short of the round's end, where the deepening stops by itself (an
iteration is cheap without Min's branching)."""

NET_UNITS = 100
"""Work units (``tree``) charged for each tile the network scores for Min: some 30 µs in
Python, about a hundred units at ``UNITS_PER_MS``."""

SOLVE_NODES = 2000
"""Node cap of a leaf's exact solve; past it the leaf is played out."""

UNITS_PER_MS = 3200
"""Work units per millisecond of budget (``COST``), from a first timing of fixed ``M`` on 15
Draw-2 positions (2,700–4,100 units a ms). ``alphamu_depth.py`` since finds some 5,000, and
the arena 20 ms of CPU a decision with a choice at 30 ms, 166–172 at 300 ms: both budgets
spent alike, at about two thirds (docs/strength.md, the αμ entry)."""

COST = Work(attempts=32, weighed=1, nodes=5, solved=6, plays=3, played=5, tree=1)
"""Units for each kind of work, ``expert-2026``'s where it does the same work; ``tree``
counts the world-states the search visits and the vector entries it combines."""


class OutOfBudget(Exception):
    """A deeper iteration ran past the budget: the last finished one decides."""


@dataclass
class State:
    """One world's position inside the search: ``turn`` to move, ``drawn`` of its bone gone."""

    world: int
    hands: list[int]
    left: int
    right: int
    turn: int
    drawn: int
    played: int = 0
    """Tiles on the line (with ``net_min``: what Min's network sees)."""
    void: int = 0
    """Numbers Max is publicly known to lack, a pip mask (with ``net_min``)."""


def dominates(a: Vector, b: Vector) -> bool:
    """Whether ``a`` is at least ``b`` in every world."""
    return all(x >= y for x, y in zip(a, b, strict=True))


def mean_of(v: Vector, weights: Sequence[float]) -> float:
    """``v``'s weighted sum over its worlds (the node's own; unconstrained entries count alike
    for every vector of one front, so they do not change its order)."""
    return math.fsum(w * x for w, x in zip(weights, v, strict=True))


def pareto(vectors: Iterable[Vector], weights: Sequence[float], cap: int) -> Front:
    """The vectors no other dominates (one of equal ones), at most ``cap``, best mean first."""
    ranked = sorted(set(vectors), key=lambda v: -mean_of(v, weights))
    kept: Front = []
    for v in ranked:
        if not any(dominates(u, v) for u in kept):
            kept.append(v)
            if len(kept) == cap:
                break
    return kept


def product(a: Front, b: Front, weights: Sequence[float], cap: int) -> Front:
    """Every pair of strategies, one from each front, world by world the worse for Max."""
    return pareto((tuple(map(min, x, y)) for x in a for y in b), weights, cap)


def policy_move(hands: Sequence[int], left: int, right: int, turn: int) -> tuple[int, int]:
    """The play ``smart_playout``'s rule chooses for ``turn`` (two players; one playable tile
    at least, the line begun): pips, a double, the tiles kept that fit, the next seat's
    answer."""
    h = hands[turn]
    sl, sr = SUIT[left], SUIT[right]
    p = h & (sl | sr)
    if p & (p - 1) == 0:
        t = p.bit_length() - 1
        if not sl >> t & 1:
            return t, 1
        if sr >> t & 1 and left != right:
            rest = h ^ p
            kept_left = (rest & (SUIT[OTHER[t][left]] | sr)).bit_count()
            kept_right = (rest & (sl | SUIT[OTHER[t][right]])).bit_count()
            return t, 1 if kept_right > kept_left else 0
        return t, 0
    best, move = -1000, (-1, 0)
    answer = hands[1 - turn]
    q = p
    while q:
        low = q & -q
        x = low.bit_length() - 1
        q ^= low
        rest = h ^ low
        base = VALUE[x] + (4 if DOUBLES & low else 0)
        for end, ends in ((0, SUIT[OTHER[x][left]] | sr), (1, sl | SUIT[OTHER[x][right]])):
            if not (sl if end == 0 else sr) & low or (end == 1 and left == right):
                continue
            score = base + 3 * (rest & ends).bit_count() + (0 if answer & ends else 12)
            if score > best:
                best, move = score, (x, end)
    return move


def net_move(net: Net, hand: int, left: int, right: int, public: Public) -> tuple[int, int, int]:
    """The play the choice network finds likeliest for ``hand`` (one playable tile at least,
    the line begun), ``public`` what everyone sees, at the end ``features`` reads it at (the
    one keeping more of the hand's tiles playable, the left on a tie); and the tiles scored."""
    playable = hand & (SUIT[left] | SUIT[right])
    scored = features(hand, playable, left, right, public)
    t = max(scored, key=lambda tx: (score(net, tx[1]), -tx[0]))[0]
    low = 1 << t
    if not SUIT[left] & low:
        return t, 1, len(scored)
    if not SUIT[right] & low or left == right:
        return t, 0, len(scored)
    rest = hand ^ low
    kept_left = (rest & (SUIT[OTHER[t][left]] | SUIT[right])).bit_count()
    kept_right = (rest & (SUIT[left] | SUIT[OTHER[t][right]])).bit_count()
    return t, 1 if kept_right > kept_left else 0, len(scored)


def min_public(view: SeatView, right: int) -> Public:
    """What the other seat sees of the table before its next play (``choice_net.rows_of``'s
    row of a play of it at the line's ``right`` end appended to the events: the row does not
    depend on the tile)."""
    other = 1 - view.seat
    tile = next(t for t in TILES if right < 0 or t.shows(right))
    events = [*view.events, Play(other, tile, End.RIGHT)]
    return rows_of(view.ruleset, events, view.boneyard_count)[len(view.events)]


class Search:
    """αμ over ``worlds`` (deals of the hidden tiles, ``weights`` their model's weights) from
    the seat of ``view``; ``work`` is charged as it goes, and past ``budget`` units an
    iteration raises ``OutOfBudget`` where ``abortable``."""

    def __init__(
        self,
        view: SeatView,
        worlds: Sequence[Sample],
        weights: Sequence[float],
        work: Work,
        budget: int,
        cap: int = CAP,
        bonus: float = 30.0,
        policy_min: bool = False,
        net_min: bool = False,
    ) -> None:
        rules = view.ruleset
        if rules.players != 2:
            raise ValueError("this αμ search plays two-player games only")
        self.k = infer(view)
        self.me = view.seat
        self.worlds = worlds
        self.weights = weights
        self.work = work
        self.budget = budget
        self.cap = cap
        self.scorer = Scorer(rules, rules.side_of(view.seat), view.scores, view.eggs, bonus)
        self.side_of = [rules.side_of(s) for s in range(2)]
        self.draw_one = rules.draw_rule is DrawRule.DRAW_ONE
        self.stop = stop_of(view, self.k)
        self.policy_min = policy_min
        """Whether Min plays ``policy_move`` in each world instead of its best answer."""
        self.net: Net | None = nets().get(kind_of(rules)) if net_min else None
        """With ``net_min``, the network Min plays by (``net_move``); without one (Block),
        Min plays ``policy_move``."""
        self.policy_min = policy_min or (net_min and self.net is None)
        self.public = min_public(view, self.k.right) if self.net is not None else (0, 0, 0, 0)
        self.abortable = False
        self.cut = False
        """Whether the last iteration valued a position before the round's end by a leaf."""
        self.started = time.process_time()

    def root(self, moves: Sequence[tuple[int, int]], m: int) -> list[float]:
        """Each move's best weighted mean over the worlds, ``m`` moves of Max deep."""
        self.cut = False
        played, void = self.public[0], self.public[1]
        states = [
            State(i, list(w.hands), self.k.left, self.k.right, self.me, 0, played, void)
            for i, w in enumerate(self.worlds)
        ]
        return [
            max(mean_of(v, self.weights) for v in self.after_max(states, t, end, m - 1))
            for t, end in moves
        ]

    def max_node(self, states: list[State], maxes: int) -> Front:
        """Max, who sees the same in every world of ``states``, picks one move for them all."""
        s = states[0]
        hand = s.hands[self.me]
        legal = moves_of(hand & (SUIT[s.left] | SUIT[s.right]), s.left, s.right)
        fronts = [v for t, end in legal for v in self.after_max(states, t, end, maxes - 1)]
        return pareto(fronts, self.weights, self.cap)

    def after_max(self, states: list[State], t: int, end: int, maxes: int) -> Front:
        """Max plays ``t`` at ``end`` in every world; past its last move, each world valued."""
        moved, ended = self.play(states, t, end)
        if maxes == 0:
            return [self.leaf(moved, ended)]
        return self.split(moved, ended, maxes)

    def min_node(self, states: list[State], maxes: int) -> Front:
        """Min, in each world, picks its best answer to each strategy of Max (or, with
        ``policy_min``, the playout rule's move, with ``net_min`` the network's: Min is then
        no longer sure to see every hand)."""
        by_move: dict[tuple[int, int], list[State]] = {}
        for s in states:
            if self.net is not None:
                public = (s.played, s.void, 0, self.public[3] - s.drawn)
                t, end, scored = net_move(self.net, s.hands[s.turn], s.left, s.right, public)
                self.work.tree += NET_UNITS * scored
                by_move.setdefault((t, end), []).append(s)
                continue
            if self.policy_min:
                by_move.setdefault(policy_move(s.hands, s.left, s.right, s.turn), []).append(s)
                continue
            h = s.hands[s.turn]
            for move in moves_of(h & (SUIT[s.left] | SUIT[s.right]), s.left, s.right):
                by_move.setdefault(move, []).append(s)
        front: Front = [(UNCONSTRAINED,) * len(self.worlds)]
        for (t, end), some in by_move.items():
            moved, ended = self.play(some, t, end)
            front = self.combine(front, self.split(moved, ended, maxes))
        return front

    def split(self, states: list[State], ended: dict[int, float], maxes: int) -> Front:
        """The worlds after a move: those ended, Min's turns, and Max's turns grouped by what
        Max has seen; the groups' fronts combined (their worlds are disjoint)."""
        base = [UNCONSTRAINED] * len(self.worlds)
        for i, v in ended.items():
            base[i] = v
        front: Front = [tuple(base)]
        groups: dict[tuple[int, int, int], list[State]] = {}
        mins = []
        for s in states:
            if s.turn == self.me:
                seen = (s.hands[s.turn], s.drawn, s.hands[1 - s.turn].bit_count())
                groups.setdefault(seen, []).append(s)
            else:
                mins.append(s)
        for group in groups.values():
            front = self.combine(front, self.max_node(group, maxes))
        if mins:
            front = self.combine(front, self.min_node(mins, maxes))
        return front

    def combine(self, a: Front, b: Front) -> Front:
        self.work.tree += len(a) * len(b) * len(self.worlds)
        return product(a, b, self.weights, self.cap)

    def play(self, states: list[State], t: int, end: int) -> tuple[list[State], dict[int, float]]:
        """``t`` at ``end`` by the seat to move in each world: the worlds going on, and the
        value of each world where the round ended."""
        moved = []
        ended = {}
        self.work.tree += len(states)
        self.check()
        for s in states:
            hands = s.hands.copy()
            bone = self.worlds[s.world].bone
            left, right, nxt, drawn = step(
                hands, s.left, s.right, s.turn, t, end, bone, s.drawn, self.stop, self.draw_one, 2
            )
            if nxt < 0:
                ended[s.world] = self.scorer.value(nxt == -2, hands, s.turn)
                continue
            void = s.void
            if s.turn != self.me and (drawn > s.drawn or nxt == s.turn):
                void |= 1 << left | 1 << right  # Max drew or passed: seen to lack the ends
            played = s.played | 1 << t
            moved.append(State(s.world, hands, left, right, nxt, drawn, played, void))
        return moved, ended

    def leaf(self, states: list[State], ended: dict[int, float]) -> Vector:
        """Each world's value: exact with few tiles left, else one ``smart_playout``."""
        values = [UNCONSTRAINED] * len(self.worlds)
        for i, v in ended.items():
            values[i] = v
        for s in states:
            self.cut = True
            values[s.world] = self.value(s)
        self.check()
        return tuple(values)

    def check(self) -> None:
        """Raise ``OutOfBudget`` in an abortable iteration past the budget (or ``SAFETY_S``):
        checked at every node, as a line of the other seat's plays may reach no leaf."""
        if self.abortable and (
            self.work.units(COST) > self.budget or time.process_time() - self.started > SAFETY_S
        ):
            raise OutOfBudget

    def value(self, s: State) -> float:
        bone = self.worlds[s.world].bone
        work = self.work
        tiles_left = sum(h.bit_count() for h in s.hands) + self.stop - s.drawn
        if tiles_left <= ALWAYS_SOLVE:
            solver = Solver(
                self.scorer, self.side_of, bone, self.stop, self.draw_one, 2, SOLVE_NODES
            )
            try:
                v = solver.search(s.hands, s.left, s.right, s.turn, s.drawn, -1e9, 1e9)
            except Exhausted:
                pass
            else:
                return v
            finally:
                work.nodes += solver.nodes
                work.solved += 1
        hands = s.hands.copy()
        domino, last, plays = smart_playout(
            hands, s.left, s.right, s.turn, bone, s.drawn, self.stop, self.draw_one, 2
        )
        work.plays += plays
        work.played += 1
        return self.scorer.value(domino, hands, last)


def draw_worlds(
    view: SeatView, rng: random.Random, count: int, work: Work
) -> tuple[list[Sample], list[float]]:
    """``count`` draws, in proportion to ``expert``'s weights, from ``POOL`` deals its sampler
    draws: the distinct deals drawn and their shares of the draws."""
    k = infer(view)
    model = expert_model(view)
    sampler = Sampler(k, rng)
    pool = [sampler.sample() for _ in range(POOL)]
    logs = [s.log_weight + model.log_likelihood(k, s) for s in pool]
    work.attempts += sampler.attempts
    work.weighed += len(k.decisions) * POOL
    top = max(logs)
    counts: dict[int, int] = {}
    for i in rng.choices(range(POOL), [math.exp(x - top) for x in logs], k=count):
        counts[i] = counts.get(i, 0) + 1
    return [pool[i] for i in counts], [c / count for c in counts.values()]


class AlphaMuBot:
    """αμ on ``expert``'s model, ``worlds`` worlds, ``M`` deepened while the budget lasts (or
    fixed at ``fixed_m``), Min's answers its best in each world, or (``policy_min``) the
    playout rule's, or (``net_min``) the choice network's; see the module's text."""

    def __init__(
        self,
        rng: random.Random,
        name: str = "alphamu",
        fixed_m: int | None = None,
        worlds: int = WORLDS,
        ms_per_move: float = 30.0,
        policy_min: bool = False,
        net_min: bool = False,
    ) -> None:
        self.rng = rng
        self.policy_min = policy_min
        self.net_min = net_min
        self.name = name
        self.fixed_m = fixed_m
        self.worlds = worlds
        self.ms_per_move = ms_per_move
        self.work = Work()
        """What the last decision did."""
        self.reached = 0
        """The deepest ``M`` the last decision finished (0: a forced move)."""

    def choose(self, view: SeatView) -> Move:
        moves = root_moves(view)
        self.work = work = Work()
        self.reached = 0
        if len(moves) == 1:
            return to_move(view, *moves[0])
        budget = max(1, int(self.ms_per_move * UNITS_PER_MS))
        worlds, weights = draw_worlds(view, self.rng, self.worlds, work)
        search = Search(
            view, worlds, weights, work, budget, policy_min=self.policy_min, net_min=self.net_min
        )
        deepest = POLICY_MAX_M if self.policy_min or self.net_min else MAX_M
        depths = [self.fixed_m] if self.fixed_m is not None else range(1, deepest + 1)
        scores: list[float] = []
        for m in depths:
            try:
                scores = search.root(moves, m)
            except OutOfBudget:
                break
            self.reached = m
            search.abortable = self.fixed_m is None
            if not search.cut:
                break  # every line reached the round's end: deeper changes nothing
        best = max(range(len(moves)), key=lambda i: (scores[i], -i))
        return to_move(view, *moves[best])
