"""Tune the playout policy's weights by play between policies on duplicate deals.

``smart_playout`` scores a tile as its pips, plus 4 for a double, plus 3 for
each tile kept that fits the new ends, plus 12 if the next seat cannot answer
them: weights chosen by hand. This script plays a policy with other weights
against those on the same deals (each deal twice, the policies' sides
swapped; every seat sees every hand, as in a playout), and climbs one weight
at a time while the mean margin a round grows by more than its noise.

The features of a tile ``x`` played at an end, with ``rest`` the hand after it
and ``ns`` the tiles that fit the new ends:

0. pips; 1. a double; 2. tiles of ``rest`` in ``ns``; 3. the next seat has none
of ``ns``; 4. the partner (four seats, pairs) has one of ``ns``; 5. tiles of
``rest`` with the number the play opens; 6. tiles of ``ns`` in the next seat's
hand.

    python benchmarks/tune_playout.py --preset kozel --players 4 --deals 4000
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Sequence

from doublesix.bots.core import BLOCKED, Scorer, advance
from doublesix.bots.tables import DOUBLES, HIGH, LOW, OTHER, SUIT, VALUE
from doublesix.rules.ruleset import DrawRule, Ruleset, preset

Weights = tuple[float, ...]

HAND_MADE: Weights = (1.0, 4.0, 3.0, 12.0, 0.0, 0.0, 0.0)
"""``smart_playout``'s weights."""

NAMES = ("pips", "double", "kept", "next-blocked", "partner-answers", "open-kept", "next-fits")


def choose(
    hands: list[int], seat: int, left: int, right: int, n: int, pairs: bool, w: Weights
) -> tuple[int, int]:
    """The best (tile, end) for ``seat`` under ``w``; ``left < 0`` is the lead."""
    h = hands[seat]
    nh = hands[(seat + 1) % n]
    ph = hands[(seat + 2) % n] if pairs else 0
    best = -math.inf
    choice = (-1, 0)
    if left < 0:
        cands = [(x, 2) for x in range(28) if h >> x & 1]
    else:
        sl, sr = SUIT[left], SUIT[right]
        cands = []
        for x in range(28):
            if not h >> x & 1:
                continue
            if sl >> x & 1:
                cands.append((x, 0))
            if sr >> x & 1 and left != right:
                cands.append((x, 1))
    for x, end in cands:
        rest = h ^ (1 << x)
        if end == 2:
            nl, nr, opened = LOW[x], HIGH[x], HIGH[x]
        elif end == 0:
            nl, nr = OTHER[x][left], right
            opened = nl
        else:
            nl, nr = left, OTHER[x][right]
            opened = nr
        ns = SUIT[nl] | SUIT[nr]
        f = (
            VALUE[x],
            1.0 if DOUBLES >> x & 1 else 0.0,
            (rest & ns).bit_count(),
            0.0 if nh & ns else 1.0,
            1.0 if ph & ns else 0.0,
            (rest & SUIT[opened]).bit_count(),
            (nh & ns).bit_count(),
        )
        sc = sum(a * b for a, b in zip(w, f, strict=True))
        if sc > best:
            best, choice = sc, (x, end)
    return choice


def play_round(
    hands: list[int],
    bone: Sequence[int],
    rules: Ruleset,
    policy_of: Sequence[Weights],
) -> tuple[bool, int]:
    """Seat 0 leads; each seat plays by its weights; returns (domino, last seat)."""
    n = rules.players
    pairs = rules.sides == 2 and n == 4
    stop = max(0, len(bone) - rules.keep_in_boneyard)
    draw_one = rules.draw_rule is DrawRule.DRAW_ONE
    drawn = 0
    t, end = choose(hands, 0, -1, -1, n, pairs, policy_of[0])
    hands[0] ^= 1 << t
    left, right = LOW[t], HIGH[t]
    seat = 0
    while True:
        if not hands[seat]:
            return True, seat
        s, drawn = advance(
            hands, SUIT[left] | SUIT[right], (seat + 1) % n, bone, drawn, stop, draw_one, n
        )
        if s == BLOCKED:
            return False, seat
        seat = s
        t, end = choose(hands, seat, left, right, n, pairs, policy_of[seat])
        hands[seat] ^= 1 << t
        if end == 0:
            left = OTHER[t][left]
        else:
            right = OTHER[t][right]


def margins(rules: Ruleset, deals: Sequence[list[int]], a: Weights, b: Weights) -> list[float]:
    """``a``'s margin over ``b`` on each deal: the mean of its two sides' gains."""
    n = rules.players
    size = rules.hand_size
    scorer = Scorer(rules, 0, [1] * rules.sides, 0)  # no side at 0: Kozel charges every count
    out = []
    for tiles in deals:
        gains = []
        for first, second in ((a, b), (b, a)):
            hands = [sum(1 << x for x in tiles[s * size : (s + 1) * size]) for s in range(n)]
            policy_of = [first if rules.side_of(s) == 0 else second for s in range(n)]
            domino, last = play_round(hands, tiles[n * size :], rules, policy_of)
            gains.append(scorer.value(domino, hands, last))
        out.append((gains[0] - gains[1]) / 2)
    return out


def summary(xs: Sequence[float]) -> tuple[float, float]:
    """Mean and its 95% half-interval."""
    return statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def climb(rules: Ruleset, deals: Sequence[list[int]], start: Weights, rounds: int) -> Weights:
    """Coordinate ascent on the margin over ``HAND_MADE``, steps halving when none helps."""
    w = list(start)
    best, _ = summary(margins(rules, deals, tuple(w), HAND_MADE))
    steps = [1.0, 2.0, 2.0, 6.0, 4.0, 2.0, 2.0]
    for r in range(rounds):
        moved = False
        for i in range(len(w)):
            if i == 0:
                continue  # the scale: pips stay worth 1
            for sign in (1, -1):
                trial = w.copy()
                trial[i] += sign * steps[i]
                m, _ = summary(margins(rules, deals, tuple(trial), HAND_MADE))
                if m > best:
                    best, w, moved = m, trial, True
                    print(f"round {r} {NAMES[i]} -> {trial[i]:+.2f}: {m:+.3f}", flush=True)
                    break
        if not moved:
            steps = [s / 2 for s in steps]
    return tuple(w)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--preset", default="kozel")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--deals", type=int, default=4000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--check", type=int, default=8000, help="fresh deals to measure the result on")
    args = p.parse_args(argv)
    rules = preset(args.preset, args.players)
    rng = random.Random(args.seed)
    deals = [rng.sample(range(28), 28) for _ in range(args.deals)]
    w = climb(rules, deals, HAND_MADE, args.rounds)
    print("weights", dict(zip(NAMES, w, strict=True)))
    fresh = [rng.sample(range(28), 28) for _ in range(args.check)]
    m, h = summary(margins(rules, fresh, w, HAND_MADE))
    print(f"on {args.check} fresh deals: {m:+.3f} ± {h:.3f} points a round over the hand-made")
    return 0


if __name__ == "__main__":
    sys.exit(main())
