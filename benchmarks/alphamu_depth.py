"""How deep ``alphamu`` gets at two budgets, and what each ``M`` costs (docs/strength.md).

    python benchmarks/alphamu_depth.py --rounds 20 [--policy-min]

Plays single Draw-2 rounds of ``alphamu`` at 30 ms against itself; at each decision with two
or more distinct moves it asks ``alphamu`` at 300 ms too, and counts the ``M`` each budget
finished and how often their moves differ. Then, on the first decisions, it times one search
of fixed ``M`` (1 to 3) on the same worlds: CPU ms, work units and leaves valued a second.
``--policy-min`` asks the same of ``alphamu-p``, whose other seat plays the playout rule.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from alphamu import COST, WORLDS, AlphaMuBot, Search, draw_worlds

from doublesix.bots.budget import Work
from doublesix.bots.pimc import root_moves
from doublesix.rules.game import Game
from doublesix.rules.ruleset import preset
from doublesix.rules.view import SeatView, seat_view


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--timed", type=int, default=30, help="decisions timed at fixed M")
    parser.add_argument("--policy-min", action="store_true", help="as alphamu-p")
    args = parser.parse_args()
    policy = args.policy_min
    print("alphamu-p" if policy else "alphamu", f"{args.rounds} rounds")
    rules = preset("draw", 2, target="round")
    reached: dict[int, Counter[int]] = {30: Counter(), 300: Counter()}
    differ = 0
    views: list[SeatView] = []
    for seed in range(args.rounds):
        game = Game(rules, seed=1000 + seed)
        bots = [
            AlphaMuBot(random.Random(seed * 2 + s), ms_per_move=30.0, policy_min=policy)
            for s in range(2)
        ]
        while game.round.ending is None:
            seat = game.round.turn
            view = seat_view(game, seat)
            move = bots[seat].choose(view)
            if len(root_moves(view)) > 1:
                views.append(view)
                reached[30][bots[seat].reached] += 1
                longer = AlphaMuBot(random.Random(7 + seed), ms_per_move=300.0, policy_min=policy)
                differ += longer.choose(view) != move
                reached[300][longer.reached] += 1
            game.play(move, seat)
    print(f"{len(views)} decisions with a choice; the moves at 30 and 300 ms differ in {differ}")
    for ms, counts in reached.items():
        print(f"{ms} ms: decisions by the M finished:", dict(sorted(counts.items())))
    for m in (1, 2, 3):
        cpu = 0.0
        units = leaves = 0
        for view in views[: args.timed]:
            work = Work()
            started = time.process_time()
            worlds, weights = draw_worlds(view, random.Random(1), WORLDS, work)
            search = Search(view, worlds, weights, work, budget=0, policy_min=policy)
            search.root(root_moves(view), m)
            cpu += time.process_time() - started
            units += work.units(COST)
            leaves += work.played + work.solved
        n = min(len(views), args.timed)
        print(
            f"M={m}: {1000 * cpu / n:.1f} ms a decision, {units / n:.0f} units "
            f"({units / (1000 * cpu):.0f} a ms), {leaves / cpu:.0f} leaves valued a second"
        )


if __name__ == "__main__":
    main()
