"""Does a tilt fitted to where the tiles truly were place them better than ``expert``'s model?

    python benchmarks/hands_tilt.py --preset kozel --train 600 --test 200

``expert`` weighs a deal by how likely its network makes the others' plays: a model of
their *choices*, fitted to choices, and trusted to be right. This script fits the weights
to the *hands* instead. It plays single rounds of ``expert`` at 30 ms in every seat (as
``belief.py`` does) and, at each decision with a choice, draws ``--pool`` deals by the
seat's sampler and weighs them by the sampler and the network (the ``expert`` column),
and by those times a tilt: ``exp(theta . F(deal))``, where ``F`` adds, over each other
seat and each hidden tile the deal gives it, a few features of that seat and tile read
from the public plays (how often the seat left the tile unplayed where it fitted, opened
or played its numbers, the tile's pips and doubleness, early or late). ``theta`` (one set
per relation: partner or opponent) is fitted on the ``--train`` rounds to the log-score of
each hidden tile's true place under the weighted deals (a proper score), with an L2
penalty, and judged on ``--test`` other rounds by ``belief.py``'s Brier score and share
placed, paired round by round against the network alone, with 95% intervals over rounds.

A tilt that scores no better says the network's odds are as true as these features can
make them; one that does says where the network is wrong, and by how much.
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass

import numpy as np
from belief import decisions
from scipy.optimize import minimize
from time_regret import interval

from doublesix.bots.inference import Knowledge
from doublesix.rules.ruleset import Ruleset, preset
from doublesix.tiles import DOUBLES, OTHER, SUIT, TILES

NAMES = (
    "left unplayed where it fitted",
    "  the same, times its pips / 12",
    "  the same, if a double",
    "  at the seat's last play",
    "  on the number the seat played on",
    "the seat opened one of its numbers",
    "the seat played a tile sharing a number",
    "pips / 12",
    "double",
    "pips / 12, times the seat's plays / hand size",
    "double, times the seat's plays / hand size",
)
NF = len(NAMES)
PIPS = np.array([(t.low + t.high) / 12 for t in TILES])
DOUBLE = np.array([1.0 if DOUBLES >> i & 1 else 0.0 for i in range(28)])


def relation(me: int, seat: int, players: int) -> int:
    """0 for an opponent, 1 for a partner (Kozel's seat across)."""
    return 1 if players == 4 and (seat - me) % 4 == 2 else 0


def features(k: Knowledge, rules: Ruleset) -> np.ndarray:
    """Per seat and tile, the features of that seat holding that tile (zero for the seat
    itself and for tiles that are not hidden), shape (players, 28, NF)."""
    n = k.players
    phi = np.zeros((n, 28, NF))
    last: dict[int, int] = {}
    for d in k.decisions:
        last[d.seat] = d.index
    for d in k.decisions:
        o = d.seat
        if d.left < 0:
            continue
        fits = SUIT[d.left] | SUIT[d.right]
        tile = TILES[d.tile]
        laid_on = d.left if d.left in (tile.low, tile.high) else d.right
        opened = OTHER[d.tile][laid_on]
        for t in range(28):
            bit = 1 << t
            if not k.unknown & bit:
                continue
            if fits & bit:
                phi[o, t, 0] += 1
                phi[o, t, 1] += PIPS[t]
                phi[o, t, 2] += DOUBLE[t]
                if last[o] == d.index:
                    phi[o, t, 3] += 1
                if SUIT[laid_on] & bit:
                    phi[o, t, 4] += 1
            if SUIT[opened] & bit:
                phi[o, t, 5] += 1
    for o in range(n):
        if o == k.seat:
            continue
        played = k.played_by[o]
        plays = played.bit_count() / rules.hand_size
        for t in range(28):
            if not k.unknown >> t & 1:
                continue
            tile = TILES[t]
            phi[o, t, 6] = (played & (SUIT[tile.low] | SUIT[tile.high])).bit_count()
            phi[o, t, 7] = PIPS[t]
            phi[o, t, 8] = DOUBLE[t]
            phi[o, t, 9] = PIPS[t] * plays
            phi[o, t, 10] = DOUBLE[t] * plays
    return phi


@dataclass
class Decision:
    """One decision's pool: base log weights, features per relation, where each hidden tile
    is in each deal and in truth."""

    round: int
    base: np.ndarray  # (pool,)
    feats: np.ndarray  # (pool, relations * NF)
    where: np.ndarray  # (pool, hidden) the seat holding each hidden tile, -1 for none
    truth: np.ndarray  # (hidden,)
    others: list[int]


def collect(rules: Ruleset, rounds: int, seed: int, pool: int) -> list[Decision]:
    out: list[Decision] = []
    relations = 2 if rules.players == 4 else 1
    for m in decisions(rules, rounds, seed, "expert:30", "expert"):
        k, me = m.k, m.seat
        deals = [m.sampler.sample() for _ in range(pool)]
        hidden = [t for t in range(28) if k.unknown >> t & 1]
        others = [o for o in range(rules.players) if o != me]
        phi = features(k, rules)
        where = np.full((pool, len(hidden)), -1, dtype=np.int8)
        feats = np.zeros((pool, relations * NF))
        for i, deal in enumerate(deals):
            for o in others:
                h = deal.hands[o]
                rel = relation(me, o, rules.players) if relations == 2 else 0
                mine = [j for j, t in enumerate(hidden) if h >> t & 1]
                where[i, mine] = o
                feats[i, rel * NF : (rel + 1) * NF] += phi[o, [hidden[j] for j in mine]].sum(0)
        hands = m.game.round.hands
        truth = np.array(
            [next((o for o in others if hands[o] >> t & 1), -1) for t in hidden], dtype=np.int8
        )
        base = np.array([deal.log_weight + m.judge.model.weigh(k, deal)[0] for deal in deals])
        out.append(Decision(m.round, base, feats, where, truth, others))
    return out


def weights(d: Decision, theta: np.ndarray) -> np.ndarray:
    x = d.base + d.feats @ theta
    w = np.exp(x - x.max())
    return w / w.sum()


def loss(theta: np.ndarray, data: list[Decision], l2: float) -> tuple[float, np.ndarray]:
    """Minus the mean log-score of the hidden tiles' true places, and its gradient."""
    total = 0.0
    grad = np.zeros_like(theta)
    count = 0
    for d in data:
        w = weights(d, theta)
        mean_f = w @ d.feats
        right = d.where == d.truth[None, :]  # (pool, hidden)
        p = w @ right  # (hidden,)
        p = np.maximum(p, 1e-6)
        total -= np.log(p).sum()
        # d log p_t / d theta = E[F | right_t] - E[F]
        cond = ((w[:, None] * right).T @ d.feats) / p[:, None]
        grad -= (cond - mean_f[None, :]).sum(0)
        count += len(d.truth)
    total /= count
    grad /= count
    return total + l2 * float(theta @ theta), grad + 2 * l2 * theta


def scores(d: Decision, theta: np.ndarray) -> tuple[float, float]:
    """The Brier score of the tiles' odds and the share placed, under ``theta``'s tilt."""
    w = weights(d, theta)
    brier = 0.0
    for o in d.others:
        p = w @ (d.where == o)
        x = (d.truth == o).astype(float)
        brier += float(((p - x) ** 2).sum())
    p_none = w @ (d.where == -1)
    x_none = (d.truth == -1).astype(float)
    brier += float(((p_none - x_none) ** 2).sum())
    held = d.truth >= 0
    placed = float((w @ ((d.where == d.truth[None, :]) & held[None, :])).sum() / max(held.sum(), 1))
    return brier / len(d.truth), placed


def judged(data: list[Decision], theta: np.ndarray) -> tuple[str, str]:
    zero = np.zeros_like(theta)
    by_round: dict[int, list[tuple[float, float]]] = {}
    for d in data:
        b0, p0 = scores(d, zero)
        b1, p1 = scores(d, theta)
        by_round.setdefault(d.round, []).append((b1 - b0, p1 - p0))
    brier = [statistics.fmean(x for x, _ in v) for v in by_round.values()]
    placed = [statistics.fmean(y for _, y in v) for v in by_round.values()]
    (mb, hb), (mp, hp) = interval(brier), interval(placed)
    return f"{mb:+.4f} ± {hb:.4f}", f"{mp:+.4f} ± {hp:.4f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="kozel")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--train", type=int, default=600, help="rounds to fit on")
    parser.add_argument("--test", type=int, default=200, help="rounds to judge on")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pool", type=int, default=300, help="deals drawn a decision")
    parser.add_argument("--l2", type=float, default=1e-4)
    args = parser.parse_args()
    if args.test < 2:
        parser.error("--test: at least 2 rounds, for an interval over rounds")
    rules = preset(args.preset, args.players, target="round")
    train = collect(rules, args.train, args.seed, args.pool)
    test = collect(rules, args.test, args.seed + 1, args.pool)
    size = train[0].feats.shape[1]
    fit = minimize(loss, np.zeros(size), args=(train, args.l2), jac=True, method="L-BFGS-B")
    theta = fit.x
    print(
        f"{rules.preset}, {rules.players} players: fitted on {args.train} rounds "
        f"({len(train)} decisions, seed {args.seed}), judged on {args.test} others "
        f"({len(test)}, seed {args.seed + 1}); {args.pool} deals a decision, L2 {args.l2:g}"
    )
    print(
        f"log-score a hidden tile: network {-loss(np.zeros(size), test, 0)[0]:.4f}, "
        f"tilted {-loss(theta, test, 0)[0]:.4f} (fitted on: "
        f"{-loss(np.zeros(size), train, 0)[0]:.4f}, {-loss(theta, train, 0)[0]:.4f})"
    )
    brier, placed = judged(test, theta)
    print(f"tilted less network, on the judged rounds: Brier {brier}, placed {placed}")
    relations = ("opponent", "partner")[: size // NF]
    print("| feature | " + " | ".join(relations) + " |")
    print("|---|" + "---:|" * len(relations))
    for i, name in enumerate(NAMES):
        print(
            f"| {name} | "
            + " | ".join(f"{theta[r * NF + i]:+.3f}" for r in range(len(relations)))
            + " |"
        )


if __name__ == "__main__":
    main()
