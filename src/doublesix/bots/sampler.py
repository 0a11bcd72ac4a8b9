"""Deals consistent with a seat's knowledge: every hidden tile placed somewhere it may be.

The hidden tiles are shared out group by group (see ``inference``), the
most constrained first, each group taking a uniform subset of the tiles it
may hold; the boneyard gets a uniform order. Filling in that order is not
uniform over consistent deals, so each sample carries the log of its
importance weight (the product of the binomials it chose from), which
makes weighted averages exact again.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from doublesix.bots.inference import Decision, Knowledge
from doublesix.bots.tables import SUIT

_LOG_C = [
    [
        math.lgamma(m + 1) - math.lgamma(k + 1) - math.lgamma(m - k + 1) if k <= m else 0.0
        for k in range(29)
    ]
    for m in range(29)
]


@dataclass
class Sample:
    """One imagined deal of the hidden tiles."""

    hands: list[int]
    bone: list[int]
    groups: list[list[int]]
    """Per seat, the tiles given to each of its groups (same order as the knowledge's)."""
    log_weight: float


def choices(k: Knowledge, sample: Sample) -> list[tuple[Decision, int, int]]:
    """Every play the others were seen to choose, newest first, with what ``sample`` says they
    chose from: (the decision, the hand then, its tiles that fitted the ends then).

    The hand is rebuilt backwards from the sampled one: the tiles the seat played since are
    put back and the groups it drew since are taken out.
    """
    out = []
    later = [0] * k.players
    drawn_after = [0] * k.players
    draws = [list(d) for d in k.drawn_by]
    for d in reversed(k.decisions):
        s = d.seat
        later[s] |= 1 << d.tile
        while draws[s] and draws[s][-1][0] > d.index:
            _, gi = draws[s].pop()
            drawn_after[s] |= sample.groups[s][gi]
        hand = (sample.hands[s] & ~drawn_after[s]) | later[s]
        playable = hand if d.left < 0 else hand & (SUIT[d.left] | SUIT[d.right])
        out.append((d, hand, playable))
    return out


class Sampler:
    """Draws deals consistent with ``knowledge``; reuse it for many samples of one decision."""

    def __init__(self, knowledge: Knowledge, rng: random.Random) -> None:
        self.k = knowledge
        self.rng = rng
        slots: list[tuple[int, int, int, int]] = []  # (-restriction, seat, group index, count)
        for s, gs in enumerate(knowledge.groups):
            for gi, g in enumerate(gs):
                if g.count:
                    allowed = knowledge.unknown & ~g.forbidden
                    slots.append((allowed.bit_count(), s, gi, g.count))
        slots.sort()
        self.slots = [(s, gi, c, knowledge.groups[s][gi].forbidden) for _, s, gi, c in slots]
        total = sum(c for _, _, c, _ in self.slots) + knowledge.boneyard + knowledge.out
        self.consistent = total == knowledge.unknown.bit_count()
        self.relaxed = 0
        """How many samples had to drop a constraint to fit (inconsistent knowledge)."""
        self.attempts = 0
        """Tries so far, failed ones included (searches charge their work for them)."""

    def sample(self) -> Sample:
        rng = self.rng
        for attempt in range(30):
            strict = attempt < 25
            self.attempts += 1
            result = self._try(rng, strict)
            if result is not None:
                if not strict:
                    self.relaxed += 1
                return result
        raise RuntimeError("no deal fits the seat's knowledge")  # pragma: no cover

    def _try(self, rng: random.Random, strict: bool) -> Sample | None:
        k = self.k
        remaining = k.unknown
        hands = [0] * k.players
        hands[k.seat] = k.hand
        groups: list[list[int]] = [[0] * len(gs) for gs in k.groups]
        log_w = 0.0
        for s, gi, count, forbidden in self.slots:
            allowed = remaining & ~forbidden if strict else remaining
            pool = _indices(allowed)
            m = len(pool)
            if m < count:
                if strict:
                    return None
                pool = _indices(remaining)
                m = len(pool)
                count = min(count, m)
            chosen = sample(rng, pool, count)
            log_w += _LOG_C[m][count]
            mask = 0
            for t in chosen:
                mask |= 1 << t
            remaining &= ~mask
            hands[s] |= mask
            groups[s][gi] = mask
        rest = _indices(remaining)
        shuffle(rng, rest)
        bone = rest[: k.boneyard]
        return Sample(hands, bone, groups, log_w)


def below(rng: random.Random, n: int) -> int:
    """``rng._randbelow(n)``: the same draws from the generator, without its calls' overhead."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def sample(rng: random.Random, population: list[int], k: int) -> list[int]:
    """``rng.sample(population, k)``, drawn as CPython draws it: the same tiles, sooner compiled.

    ``random.sample`` is pure Python, and the samplers call it for every group of every
    deal; this is its algorithm (a pool for small populations, a set of picks for large
    ones), so that a seed still deals what it dealt (``tests/test_sampling.py`` checks).
    """
    n = len(population)
    result = [0] * k
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize:
        pool = population.copy()
        for i in range(k):
            j = below(rng, n - i)
            result[i] = pool[j]
            pool[j] = pool[n - i - 1]
    else:
        selected: set[int] = set()
        for i in range(k):
            j = below(rng, n)
            while j in selected:
                j = below(rng, n)
            selected.add(j)
            result[i] = population[j]
    return result


def shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)``, drawn as CPython draws it (see ``sample``)."""
    for i in range(len(x) - 1, 0, -1):
        j = below(rng, i + 1)
        x[i], x[j] = x[j], x[i]


def _indices(mask: int) -> list[int]:
    """``list(tiles.bits(mask))`` in the compiled core, where a generator costs a call a tile."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
