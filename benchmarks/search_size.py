"""How much search a budget buys: the deals a decision of a bot draws, and its CPU time.

    python benchmarks/search_size.py [--bot ismcts-fit] [--ms 100] [--positions 40]
    PYTHONPATH=OTHER/src python benchmarks/search_size.py ...   # another checkout's bots

Positions come from games of random play (seeded: the same in every checkout), a
few plies into a round, where the bot has a choice. For each preset it prints the
median number of deals a decision sampled (``Work.attempts``: every deal drawn is
played by every root move, so this is the size of the search; a count of work,
the same on every machine) and the mean CPU ms of a decision. Run in two
checkouts, the deals show how much more a faster core searches in the same
budget.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import doublesix
from doublesix.bots import make_bot
from doublesix.bots.arena import configure
from doublesix.rules.game import Game
from doublesix.rules.ruleset import preset
from doublesix.rules.view import SeatView, seat_view

PRESETS = {"kozel": ("kozel", 4), "draw-2": ("draw", 2), "block-4": ("block", 4)}


def positions(name: str, players: int, count: int) -> list[SeatView]:
    views = []
    for seed in range(count):
        game = Game(preset(name, players), seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(1, 12)):
            if game.turn is None:
                break
            game.play(rng.choice(game.legal_moves()))
        if game.turn is not None and len(game.legal_moves()) > 1:
            views.append(seat_view(game, game.turn))
    return views


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="ismcts-fit")
    parser.add_argument("--ms", type=float, default=100.0)
    parser.add_argument("--positions", type=int, default=40)
    args = parser.parse_args()
    print(f"{args.bot} at {args.ms:g} ms, doublesix from {doublesix.__file__}")
    for label, (name, players) in PRESETS.items():
        deals, seconds = [], []
        for view in positions(name, players, args.positions):
            bot = configure(make_bot(args.bot, 1), args.ms)
            start = time.process_time()
            bot.choose(view)
            seconds.append(time.process_time() - start)
            deals.append(bot.work.attempts)  # type: ignore[attr-defined]
        print(
            f"  {label:8} {len(deals):3} decisions: median {statistics.median(deals):7.0f} deals, "
            f"mean {1000 * statistics.fmean(seconds):6.1f} ms"
        )


if __name__ == "__main__":
    main()
