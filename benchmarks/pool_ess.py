"""How many distinct deals a pool gives ``expert``'s tree: the effective sample size of its weights.

    python benchmarks/pool_ess.py [--games 2] [--seed 100] [--share 0.3]

The tree search (``bots/ismcts.py``) samples deals in pools of ``POOL`` and draws
``REUSE`` times as many from each pool in proportion to the deals' weights under the
opponent model (``expert``'s: the network's). Where a few deals carry all the weight,
a pool gives the tree few distinct deals, and larger pools would give it more. This plays
Kozel games of ``expert`` at 30 ms in every seat; at a share of its decisions with a choice
(and with others' choices seen) it samples 480 deals as the search does and prints the
effective sample size, (Σw)² / Σw², of pools of 48 (ten of them, the mean) and of one pool
of 480, per decision and by how many of the others' choices the seat had seen.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from typing import Any

from doublesix.bots import make_bot
from doublesix.bots.arena import configure, play_game
from doublesix.bots.choice_net import NetBot
from doublesix.bots.inference import infer
from doublesix.bots.sampler import Sampler
from doublesix.rules.ruleset import preset
from doublesix.rules.view import SeatView

SIZES = (48, 480)
DEALS = 480


def ess(logs: list[float]) -> float:
    """The effective sample size of weights given by their logarithms."""
    top = max(logs)
    w = [math.exp(x - top) for x in logs]
    return sum(w) ** 2 / sum(x * x for x in w)


class Probe:
    """``expert``, measuring its pools' weights at some of its decisions."""

    def __init__(self, bot: NetBot, rng: random.Random, share: float, rows: list[Any]) -> None:
        self.bot = bot
        self.name = bot.name
        self.rng = rng
        self.share = share
        self.rows = rows

    def choose(self, view: SeatView) -> Any:
        if len(view.legal_moves) > 1 and self.rng.random() < self.share:
            k = infer(view)
            if k.decisions:
                model = self.bot.net_model
                model.prepare(view)
                sampler = Sampler(k, random.Random(len(self.rows)))
                pool = [sampler.sample() for _ in range(DEALS)]
                logs = [s.log_weight + model.weigh(k, s)[0] for s in pool]
                sizes = {
                    m: statistics.mean(ess(logs[i : i + m]) for i in range(0, DEALS, m))
                    for m in SIZES
                }
                self.rows.append((len(k.decisions), sizes))
        return self.bot.choose(view)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--share", type=float, default=0.3)
    args = parser.parse_args()
    rows: list[tuple[int, dict[int, float]]] = []
    rng = random.Random(args.seed)
    for g in range(args.games):
        rules = preset("kozel")
        bots = []
        for seat in range(rules.players):
            bot = configure(make_bot("expert", args.seed * 10 + g * 4 + seat), 30.0)
            assert isinstance(bot, NetBot)
            bots.append(Probe(bot, rng, args.share, rows))
        play_game(rules, args.seed + g, bots)
    print(f"Kozel, expert at 30 ms, {args.games} games, {len(rows)} decisions measured")
    print("| others' choices seen | decisions | median ESS, pool of 48 | median ESS, pool of 480 |")
    print("|---|---:|---:|---:|")
    stages = [(0, 4), (5, 9), (10, 14), (15, 99)]
    for lo, hi in [*stages, (0, 99)]:
        part = [sizes for seen, sizes in rows if lo <= seen <= hi]
        if part:
            label = "all" if (lo, hi) == (0, 99) else f"{lo}–{hi}" if hi < 99 else f"{lo}+"
            cells = " | ".join(f"{statistics.median(s[m] for s in part):.1f}" for m in SIZES)
            print(f"| {label} | {len(part)} | {cells} |")


if __name__ == "__main__":
    main()
