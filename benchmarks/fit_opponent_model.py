"""Fit the expert's model of how the others choose their tiles, to the choices of real bots.

    python benchmarks/fit_opponent_model.py [--bot expert:30] [--games 20] [--jobs 2]

Plays whole games with BOT in every seat (Kozel and 2-player Draw), keeps each
choice between two or more tiles (the hand, the ends, the tile chosen), and
fits a conditional logit: the chance of a tile is a softmax over the playable
tiles of ``w · features`` (``features``: pips, a double, the hand's tiles
that still fit the ends after it, and those of the number it leaves open;
for playouts, where every hand is known, also whether the next seat cannot
answer). It prints the fitted weights and the mean log-likelihood of a
choice under the expert's present model, the fitted one and ``greedy`` (its
heaviest tile), on the choices the fit did not see (every fifth game), for
each game kind and both together.
"""

from __future__ import annotations

import argparse
import math
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from doublesix.bots import make_bot
from doublesix.bots.arena import play_game
from doublesix.rules.ruleset import preset
from doublesix.tiles import DOUBLES, HIGH, LOW, OTHER, SUIT, VALUE, mask_of

Choice = tuple[int, int, int, int, int]
"""(hand mask, left end, right end, tile chosen, the next seat's hand); ends -1 on an empty
line. The next seat's hand is the true one: the chooser did not see it."""


def features(hand: int, left: int, right: int) -> dict[int, tuple[float, float, float, float]]:
    """Per playable tile of ``hand``: (pips, double, tiles kept that fit, tiles of the open number).

    "Kept that fit": the hand's other tiles that fit an end after the tile is
    played (at its better end); "open number": those showing the number the
    tile leaves open. On an empty line (``left`` < 0) any tile may be played.
    """
    out: dict[int, tuple[float, float, float, float]] = {}
    playable = hand if left < 0 else hand & (SUIT[left] | SUIT[right])
    q = playable
    while q:
        low = q & -q
        x = low.bit_length() - 1
        q ^= low
        rest = hand ^ low
        double = 1.0 if DOUBLES & low else 0.0
        if left < 0:
            kept = (rest & (SUIT[LOW[x]] | SUIT[HIGH[x]])).bit_count()
            opened = (rest & SUIT[HIGH[x]]).bit_count()
        else:
            kept = opened = -1
            for end, other_end in ((left, right), (right, left)):
                if SUIT[end] & low:
                    new = OTHER[x][end]
                    k = (rest & (SUIT[new] | SUIT[other_end])).bit_count()
                    if k > kept:
                        kept, opened = k, (rest & SUIT[new]).bit_count()
        out[x] = (float(VALUE[x]), double, float(kept), float(opened))
    return out


class Recorder:
    def __init__(self, bot: Any, out: list[Choice]) -> None:
        self.bot = bot
        self.name = bot.name
        self.out = out
        self.game: Any = None

    def see(self, game: Any) -> None:
        self.game = game

    def choose(self, view: Any) -> Any:
        move = self.bot.choose(view)
        if len({m.tile.index for m in view.legal_moves}) > 1:
            left, right = view.ends if view.ends is not None else (-1, -1)
            nxt = self.game.round.hands[(view.seat + 1) % view.ruleset.players]
            self.out.append((mask_of(view.hand), left, right, move.tile.index, nxt))
        return move


def play(task: tuple[str, str, int | None, int]) -> list[Choice]:
    spec, name, players, seed = task
    rules = preset(name, players)
    out: list[Choice] = []
    bots = [Recorder(make_bot(spec, seed * 10 + s), out) for s in range(rules.players)]
    play_game(rules, seed, bots)
    return out


def rows(choice: Choice) -> tuple[list[list[float]], int]:
    """The features of each playable tile and the index of the chosen one.

    A fifth feature, for playouts (where every hand is known): the next seat
    cannot answer the ends the tile leaves (at its better end, as ``features``).
    """
    hand, left, right, tile, nxt = choice
    feats = features(hand, left, right)
    tiles = sorted(feats)
    out = []
    for t in tiles:
        ends = [(LOW[t], HIGH[t])] if left < 0 else []
        if left >= 0 and SUIT[left] >> t & 1:
            ends.append((OTHER[t][left], right))
        if left >= 0 and SUIT[right] >> t & 1:
            ends.append((left, OTHER[t][right]))
        blocked = max(0.0 if nxt & (SUIT[a] | SUIT[b]) else 1.0 for a, b in ends)
        out.append([*feats[t], blocked])
    return out, tiles.index(tile)


def fit(data: list[tuple[list[list[float]], int]], k: int) -> list[float]:
    """Maximum likelihood of the conditional logit, by Newton's method."""
    w = [0.0] * k
    for _ in range(30):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for xs, y in data:
            zs = [sum(a * b for a, b in zip(w, x, strict=True)) for x in xs]
            top = max(zs)
            es = [math.exp(z - top) for z in zs]
            total = sum(es)
            ps = [e / total for e in es]
            mean = [sum(p * x[j] for p, x in zip(ps, xs, strict=True)) for j in range(k)]
            for j in range(k):
                grad[j] += xs[y][j] - mean[j]
                for i in range(k):
                    cov = sum(p * x[i] * x[j] for p, x in zip(ps, xs, strict=True))
                    hess[i][j] -= cov - mean[i] * mean[j]
        step = _solve([[-h for h in row] for row in hess], grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[col][col]:
                f = m[r][col] / m[col][col]
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def loglik(data: list[tuple[list[list[float]], int]], w: list[float], noise: float = 0.0) -> float:
    total = 0.0
    for xs, y in data:
        zs = [sum(a * b for a, b in zip(w, x, strict=True)) for x in xs]
        top = max(zs)
        es = [math.exp(z - top) for z in zs]
        p = es[y] / sum(es)
        total += math.log(noise / len(xs) + (1 - noise) * p)
    return total / len(data)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="expert:30")
    parser.add_argument("--games", type=int, default=20, help="games per game kind")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    kinds = [("kozel", None), ("draw", 2)]
    tasks = [
        (args.bot, name, players, seed) for name, players in kinds for seed in range(args.games)
    ]
    with ProcessPoolExecutor(args.jobs) as pool:
        games = list(pool.map(play, tasks))
    for kind in [*kinds, None]:
        picked = [
            g
            for (_, name, players, _), g in zip(tasks, games, strict=True)
            if kind is None or (name, players) == kind
        ]
        label = "both" if kind is None else f"{kind[0]}-{kind[1] or 4}"
        report(f"{args.bot}, {label}", picked)


def report(label: str, games: list[list[Choice]]) -> None:
    train = [rows(c) for i, g in enumerate(games) if i % 5 for c in g]
    test = [rows(c) for i, g in enumerate(games) if not i % 5 for c in g]
    print(f"{label}: {len(train)} choices to fit, {len(test)} to test")
    seen = [([x[:4] for x in xs], y) for xs, y in train]
    seen_test = [([x[:4] for x in xs], y) for xs, y in test]
    w = fit(seen, 4)
    print("  what the chooser saw (pips, double, kept, open number):", [round(x, 3) for x in w])
    print(f"  fitted model:      {loglik(seen_test, w):.4f} a choice")
    print(f"  fitted, noise 0.1: {loglik(seen_test, w, 0.1):.4f}")
    print(f"  expert's present:  {loglik(seen_test, [0.45, 0, 0, 0], 0.15):.4f} (pips, beta 0.45)")
    print(f"  greedy-like:       {loglik(seen_test, [5.0, 0, 0, 0], 0.05):.4f} (pips, beta 5)")
    print(f"  uniform:           {loglik(seen_test, [0.0] * 4):.4f}")
    w5 = fit(train, 5)
    print("  with the next hand (… and the next seat cannot answer):", [round(x, 3) for x in w5])
    print(f"  fitted model:      {loglik(test, w5):.4f} a choice")
    smart = [1.0, 4.0, 3.0, 0.0, 12.0]
    for beta in (0.1, 0.2):
        print(f"  smart playout x{beta}: {loglik(test, [beta * c for c in smart]):.4f}")


if __name__ == "__main__":
    main()
