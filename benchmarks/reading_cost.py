"""What ``expert``'s reading of the game's earlier rounds costs a decision, kept or afresh.

    python benchmarks/reading_cost.py [--games 4] [--seed 1]

``expert`` reads each other seat's style of play from the rounds of the game before this
one (``bots/reading.py``), before every decision; that CPU is not counted in its budget's
work units. The process keeps the readings (``Readings``), so a round is read once a game
and seat, even by bots made afresh for every decision as the server's workers make them.
This plays whole Kozel games of ``greedy``, ``random`` and ``medium`` seats (fast, and
varied enough for every style to be read) and, at every decision of seat 0, times
``NetModel.prepare`` of a model made for that decision both ways side by side on the same
view, in alternating order: with the readings kept since the game's first decision, and
with none kept (what every decision did before). It prints the median and the 90th
percentile of the CPU ms a decision by how many rounds were over, and the ratio of the
medians.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from doublesix.bots import make_bot
from doublesix.bots.choice_net import NetModel, nets
from doublesix.bots.fitted import HEAVIEST_SLIP, STYLES
from doublesix.bots.reading import Readings
from doublesix.rules.game import Game
from doublesix.rules.ruleset import preset
from doublesix.rules.view import SeatView, seat_view

NAMES = ("medium", "greedy", "random", "medium")


def timed(model: NetModel, view: SeatView) -> float:
    """The CPU ms of ``model.prepare(view)``."""
    started = time.process_time()
    model.prepare(view)
    return (time.process_time() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    kept_ms: dict[int, list[float]] = defaultdict(list)
    fresh_ms: dict[int, list[float]] = defaultdict(list)
    rng = random.Random(args.seed)
    for g in range(args.games):
        game = Game(preset("kozel"), seed=args.seed + g)
        bots = [make_bot(name, rng.randrange(1 << 30)) for name in NAMES]
        readings = Readings(HEAVIEST_SLIP)
        while not game.finished:
            if game.turn is None:
                game.next_round()
                continue
            seat = game.turn
            view = seat_view(game, seat)
            if seat == 0:
                rounds = len(view.past_rounds)
                kept = NetModel(nets(), STYLES, readings)
                fresh = NetModel(nets(), STYLES, Readings(HEAVIEST_SLIP))
                pair = [(kept, kept_ms), (fresh, fresh_ms)]
                for model, times in pair if len(kept_ms[rounds]) % 2 else pair[::-1]:
                    times[rounds].append(timed(model, view))
                assert kept.seat_styles == fresh.seat_styles
            game.play(bots[seat].choose(view), seat)
    print(f"Kozel, {args.games} games (seed {args.seed}), seat 0's decisions; CPU ms a prepare")
    print("rounds over | decisions | kept: median, p90 | afresh: median, p90")
    for rounds in sorted(kept_ms):
        k, f = kept_ms[rounds], fresh_ms[rounds]
        print(
            f"{rounds:>11} | {len(k):>9} | {statistics.median(k):.3f}, {_p90(k):.3f}"
            f" | {statistics.median(f):.3f}, {_p90(f):.3f}"
        )
    every_k = [x for times in kept_ms.values() for x in times]
    every_f = [x for times in fresh_ms.values() for x in times]
    mk, mf = statistics.median(every_k), statistics.median(every_f)
    print(f"all decisions: kept median {mk:.3f} ms, afresh {mf:.3f} ms, ratio {mf / mk:.1f}")


def _p90(xs: list[float]) -> float:
    return sorted(xs)[int(0.9 * (len(xs) - 1))]


if __name__ == "__main__":
    main()
