"""How often two bots choose the same move in the same positions: a change's reach, in noise.

    python benchmarks/agreement.py --preset kozel --bots expert-fit:30,expert-2026:30 \
        --reference expert-2026:30 --games 4

Plays whole games with the reference bot in every seat (another seed per
seat); at each of its decisions with two distinct moves or more, it asks each
of ``--bots`` (seeded by the decision's number) and counts how often the
first two choose the same move. With ``--bots X:30,X:30`` that is X's own
noise (two seeds). A candidate whose agreement with the yardstick is about
the yardstick's with itself changes too few moves for a pilot to see. The
variants of ``arena_variants.py`` are known too.
"""

from __future__ import annotations

import argparse
from typing import Any

from arena_variants import register_variants

from doublesix.bots import make_bot
from doublesix.bots.arena import play_game
from doublesix.bots.pimc import root_moves
from doublesix.rules.ruleset import preset


class Asker:
    def __init__(self, bot: Any, specs: list[str], counts: list[int], seat: int) -> None:
        self.bot = bot
        self.name = bot.name
        self.specs = specs
        self.counts = counts
        self.seat = seat
        self.n = 0

    def choose(self, view: Any) -> Any:
        if len(root_moves(view)) > 1:
            self.n += 1
            seed = self.seat * 100_000 + self.n
            a = make_bot(self.specs[0], seed).choose(view)
            b = make_bot(self.specs[1], seed + 7).choose(view)
            self.counts[0] += 1
            self.counts[1] += a == b
        return self.bot.choose(view)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="kozel")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--bots", required=True)
    parser.add_argument("--reference", default="expert-2026:30")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = preset(args.preset, args.players)
    specs = args.bots.split(",")
    register_variants(["--bots", args.bots])
    counts = [0, 0]
    for g in range(args.games):
        seed = args.seed * 1000 + g
        bots = [
            Asker(make_bot(args.reference, seed * 10 + s), specs, counts, s)
            for s in range(rules.players)
        ]
        play_game(rules, seed, bots)
    print(
        f"{args.preset}-{rules.players} {specs[0]} and {specs[1]}: same move in"
        f" {counts[1]} of {counts[0]} decisions ({100 * counts[1] / counts[0]:.1f}%)"
    )


if __name__ == "__main__":
    main()
