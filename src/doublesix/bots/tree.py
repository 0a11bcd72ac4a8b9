"""The information-set tree of ``ismcts``: nodes keyed by the plays, and PUCT among them.

A node stands for the plays made since the root, whatever the deal; its
edges are the plays that have been legal there in some deal. Each edge
counts how often it was chosen (``visits``), how often it was legal when
its node was reached (``avail``), and the total value its mover's side got
after it. Selection is PUCT with availability counts: a play that is
seldom legal is not explored as if it had been passed over every time.
"""

from __future__ import annotations

import math

from doublesix.bots.tables import DOUBLES, HIGH, LOW, OTHER, SUIT, VALUE


class Edge:
    """One play from a node: how often chosen and available, and its mover's total value."""

    __slots__ = ("avail", "child", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.child: Node | None = None


class Node:
    """The plays so far from the root; its edges are keyed by ``key(seat, tile, end)``."""

    __slots__ = ("edges",)

    def __init__(self) -> None:
        self.edges: dict[int, Edge] = {}

    def edge(self, seat: int, t: int, end: int) -> Edge:
        """The edge of that play, made if new, counted as available once more."""
        k = key(seat, t, end)
        e = self.edges.get(k)
        if e is None:
            e = self.edges[k] = Edge()
        e.avail += 1
        return e


def key(seat: int, t: int, end: int) -> int:
    """An edge's key: the seat that plays is part of it, as a pass can hand the turn on."""
    return seat << 8 | t << 2 | end


def moves(playable: int, left: int, right: int) -> list[tuple[int, int]]:
    """``core.moves_of``, without its generator: the tree asks at every step."""
    out = []
    if left < 0:
        while playable:
            low = playable & -playable
            out.append((low.bit_length() - 1, 2))
            playable ^= low
        return out
    sl, sr = SUIT[left], SUIT[right]
    while playable:
        low = playable & -playable
        t = low.bit_length() - 1
        playable ^= low
        if sl & low:
            out.append((t, 0))
            if sr & low and left != right:
                out.append((t, 1))
        elif sr & low:
            out.append((t, 1))
    return out


def policy_score(hand: int, t: int, end: int, left: int, right: int, next_hand: int) -> int:
    """The playout policy's score of playing ``t`` at ``end`` (see ``smart_playout``)."""
    low = 1 << t
    rest = hand ^ low
    base = VALUE[t] + (4 if DOUBLES & low else 0)
    if left < 0:
        ns = SUIT[LOW[t]] | SUIT[HIGH[t]]
    elif end == 0:
        ns = SUIT[OTHER[t][left]] | SUIT[right]
    else:
        ns = SUIT[left] | SUIT[OTHER[t][right]]
    return base + 3 * (rest & ns).bit_count() + (0 if next_hand & ns else 12)


class Puct:
    """PUCT selection with a prior from the playout policy's scores.

    ``c`` weighs exploration in units of the value (the caller scales it by
    the spread of the returns); the prior is a softmax of the policy's
    scores at temperature ``temperature``, so that with few visits the tree
    mostly plays as the playouts do. A play never chosen here is valued at
    the mean of the plays that were (first-play urgency).
    """

    def __init__(self, temperature: float) -> None:
        self.prior = [math.exp(-d / temperature) for d in range(128)]
        """A play's unnormalised prior by how far its score is below the best one's."""

    def select(
        self,
        node: Node,
        legal: list[tuple[int, int]],
        seat: int,
        hand: int,
        next_hand: int,
        left: int,
        right: int,
        c: float,
    ) -> tuple[int, int, Edge]:
        """The play to descend by among ``legal`` (each counted available), and its edge."""
        n = len(legal)
        scores = [0] * n
        here: list[Edge] = []
        edges = node.edges
        base = seat << 8
        top = -1
        seen = 0.0
        seen_n = 0
        for i in range(n):
            t, end = legal[i]
            sc = policy_score(hand, t, end, left, right, next_hand)
            scores[i] = sc
            if sc > top:
                top = sc
            k = base | t << 2 | end
            e = edges.get(k)
            if e is None:
                e = edges[k] = Edge()
            e.avail += 1
            here.append(e)
            if e.visits:
                seen += e.total / e.visits
                seen_n += 1
        fpu = seen / seen_n if seen_n else 0.0
        prior = self.prior
        z = 0.0
        for sc in scores:
            z += prior[top - sc]
        c /= z
        best = -math.inf
        pick = 0
        for i in range(n):
            e = here[i]
            visits = e.visits
            q = e.total / visits if visits else fpu
            u = q + c * prior[top - scores[i]] * math.sqrt(e.avail) / (1 + visits)
            if u > best:
                best, pick = u, i
        t, end = legal[pick]
        return t, end, here[pick]
