"""Does a learned value of a position predict a round's real outcome better than a playout?

The tree search values a new leaf by one ``smart_playout`` on its deal. A
small learned value model (the issue's "learned policy/value model") would
replace or join it. Before any search is changed, this script asks the
question that decides whether it can help: on positions of real play, whose
outcome is known, how far from the outcome is

- one playout from the position (what the tree uses now; on a whole deal
  the playout is deterministic, so one is all there is),
- a linear model of the position, fitted on other rounds' positions,
- the best mix of the model and one playout (its weight fitted too)?

The positions come from bots playing single rounds (``expert-2026`` at
10 ms on every seat: its play is the players' play the search should
predict), every decision with the whole deal recorded. The value is side
0's gain as the rules score it (penalty points count negative in Kozel).
The model is least squares on features that swap sign with the sides (so
its value of a position is minus its value with the sides swapped).

    python benchmarks/value_model.py --preset kozel --players 4 --rounds 600
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from doublesix.bots.arena import configure
from doublesix.bots.base import make_bot
from doublesix.bots.core import Scorer
from doublesix.bots.search import smart_playout
from doublesix.bots.tables import DOUBLES, SUIT, VALUE
from doublesix.rules.game import Game
from doublesix.rules.round import Ending
from doublesix.rules.ruleset import DrawRule, Ruleset, preset
from doublesix.rules.view import seat_view


@dataclass(frozen=True)
class Position:
    """A decision of real play: the whole deal, and the round it belongs to."""

    round_id: int
    hands: tuple[int, ...]
    left: int
    right: int
    turn: int
    bone: tuple[int, ...]
    drawn: int
    stop: int


NAMES = (
    "pips",
    "tiles",
    "doubles",
    "tiles that fit",
    "numbers held",
    "to move",
    "to move x tiles left",
    "to move x the mover's side's pips",
    "to move x the mover's side's tiles",
    "to move x boneyard",
    "mover's plays x to move",
    "next seat's plays x to move",
)


def features(rules: Ruleset, p: Position) -> list[float]:
    """Side 0's features minus side 1's, and the side to move's sign (+1 side 0, -1 side 1)
    alone and times features that do not depend on which side is which."""
    sides = [rules.side_of(s) for s in range(rules.players)]
    ends = SUIT[p.left] | SUIT[p.right]
    per = [[0.0] * 5 for _ in range(2)]
    for seat, h in enumerate(p.hands):
        f = per[sides[seat]]
        f[0] += sum(VALUE[x] for x in range(28) if h >> x & 1)
        f[1] += h.bit_count()
        f[2] += (h & DOUBLES).bit_count()
        f[3] += (h & ends).bit_count()
        f[4] += sum(1 for k in range(7) if h & SUIT[k])
    d = [a - b for a, b in zip(per[0], per[1], strict=True)]
    mover = per[sides[p.turn]]
    t = 1.0 if sides[p.turn] == 0 else -1.0
    left = per[0][1] + per[1][1]
    n = rules.players
    return [
        *d,
        t,
        t * left,
        t * mover[0],
        t * mover[1],
        t * (p.stop - p.drawn),
        t * (p.hands[p.turn] & ends).bit_count(),
        t * (p.hands[(p.turn + 1) % n] & ends).bit_count(),
    ]


def play(rules: Ruleset, rounds: int, seed: int, ms: float) -> tuple[list[Position], list[float]]:
    """Positions of ``rounds`` single rounds of ``expert-2026`` at ``ms``, and side 0's outcome of
    each position's round."""
    scorer = Scorer(rules, 0, [1] * rules.sides, 0)  # no side at 0: Kozel charges every count
    positions: list[Position] = []
    outcome: list[float] = []
    for r in range(rounds):
        game = Game(rules, seed=seed * 100_003 + r)
        bots = [configure(make_bot("expert-2026", seed * 97 + r * 4 + s), ms) for s in range(4)]
        rnd = game.round
        start = len(positions)
        while rnd.ending is None:
            view = seat_view(game, rnd.turn)
            if rnd.left >= 0 and len(view.legal_moves) > 1:
                positions.append(
                    Position(
                        r,
                        tuple(rnd.hands),
                        rnd.left,
                        rnd.right,
                        rnd.turn,
                        tuple(rnd.boneyard),
                        rnd.drawn,
                        rnd.stop,
                    )
                )
            game.play(bots[rnd.turn].choose(view), rnd.turn)
        v = scorer.value(rnd.ending is Ending.DOMINO, rnd.hands, rnd.last_seat)
        outcome.extend([v] * (len(positions) - start))
    return positions, outcome


def playout_value(rules: Ruleset, p: Position, scorer: Scorer) -> float:
    """Side 0's value of one ``smart_playout`` from ``p``."""
    hands = list(p.hands)
    draw_one = rules.draw_rule is DrawRule.DRAW_ONE
    domino, last, _ = smart_playout(
        hands, p.left, p.right, p.turn, p.bone, p.drawn, p.stop, draw_one, rules.players
    )
    return scorer.value(domino, hands, last)


def mse(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.mean((a - b) ** 2))


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--preset", default="kozel")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--rounds", type=int, default=600)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ms", type=float, default=10.0)
    args = p.parse_args(argv)
    rules = preset(args.preset, args.players, target="round")
    if rules.sides != 2:
        print("value_model: two sides only (a pair game or two players)", file=sys.stderr)
        return 2
    positions, outcome = play(rules, args.rounds, args.seed, args.ms)
    scorer = Scorer(rules, 0, [1] * rules.sides, 0)
    x = np.array([features(rules, q) for q in positions])  # no intercept: odd in the sides
    y = np.array(outcome)
    one = np.array([playout_value(rules, q, scorer) for q in positions])
    test = np.array([q.round_id % 3 == 0 for q in positions])
    train = ~test
    w, *_ = np.linalg.lstsq(x[train], y[train], rcond=None)
    model = x @ w
    mix = np.vstack([one, model]).T
    lam, *_ = np.linalg.lstsq(mix[train], y[train], rcond=None)
    mixed = mix @ lam
    print(
        f"{rules.preset}-{rules.players}: {len(positions)} positions of {args.rounds} rounds "
        f"(expert-2026 at {args.ms:g} ms); tested on {int(test.sum())} positions of a third "
        f"of the rounds, fitted on the rest"
    )
    print(f"variance of the outcome: {float(np.var(y[test])):.2f}")
    print(f"mean squared error, one playout: {mse(one[test], y[test]):.2f}")
    print(f"mean squared error, the linear model: {mse(model[test], y[test]):.2f}")
    print(
        f"mean squared error, {lam[0]:.2f} x one playout + {lam[1]:.2f} x the model: "
        f"{mse(mixed[test], y[test]):.2f}"
    )
    print("model weights:", ", ".join(f"{n} {v:+.3f}" for n, v in zip(NAMES, w, strict=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
