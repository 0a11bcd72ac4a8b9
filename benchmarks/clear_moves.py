"""How early is ``ismcts-fit``'s move clear? Its searches replayed pool by pool.

    python benchmarks/clear_moves.py [--preset kozel] [--players N] [--games 3] [--ms 100]

Plays whole games of ``ismcts-fit`` against itself; at every decision it
searches (two moves or more, more tiles left than its endgame's), the
search runs as ``Search.run`` does, and after each pool of deals it notes
the share of the budget spent, the root move with the best mean and how
many standard errors (of the root's returns) it leads the next by. The
move played is the one at the full budget. For thresholds of that lead
and of the share spent, it prints how many decisions would have stopped
early, how many of those with another move than the full budget's, and
the share of the budget they would have saved: what a search that stops
once its move is clear (``benchmarks/tried/ismcts-paced.patch``) can save.
"""

from __future__ import annotations

import argparse
import math
import random

from doublesix.bots.arena import deal_seed, play_game
from doublesix.bots.expert import POOL
from doublesix.bots.fitted import ISMCTS_FIT_COST, IsmctsFitBot
from doublesix.bots.inference import infer
from doublesix.bots.ismcts import REUSE, UNITS_PER_MS, Search
from doublesix.bots.pimc import root_moves, stop_of, to_move
from doublesix.bots.sampler import Sampler
from doublesix.bots.tree import key
from doublesix.rules.moves import Move
from doublesix.rules.ruleset import preset
from doublesix.rules.view import SeatView


class Decision:
    """One search: after each pool, (share of the budget spent, leader, its lead in errors)."""

    def __init__(self) -> None:
        self.checkpoints: list[tuple[float, int, float]] = []

    @property
    def final(self) -> int:
        return self.checkpoints[-1][1]


class Recorder:
    """``ismcts-fit`` noting its searches' checkpoints (a wrapper: compiled classes are closed)."""

    def __init__(self, rng: random.Random, ms: float, decisions: list[Decision]) -> None:
        self.bot = IsmctsFitBot(rng, ms)
        self.rng = rng
        self.decisions = decisions

    def choose(self, view: SeatView) -> Move:
        bot = self.bot
        legal = root_moves(view)
        k = infer(view)
        if len(legal) == 1 or sum(view.hand_counts) + stop_of(view, k) <= bot.solve_at:
            return bot.choose(view)
        search = Search(view, k, self.rng, bot.model, bot.bonus, bot.c_puct, bot.prior_t)
        budget = int(bot.ms_per_move * UNITS_PER_MS)
        sampler = Sampler(k, self.rng)
        work = search.work
        decision = Decision()
        while work.units(ISMCTS_FIT_COST) < budget:
            pool = [sampler.sample() for _ in range(POOL)]
            weighed = [search.model.weigh(k, s) for s in pool]
            logs = [s.log_weight + w[0] for s, w in zip(pool, weighed, strict=True)]
            work.attempts = sampler.attempts
            work.weighed += len(k.decisions) * POOL
            top = max(logs)
            weights = [math.exp(x - top) for x in logs]
            for i in self.rng.choices(range(POOL), weights, k=REUSE * POOL):
                for move in search.moves:
                    search.iterate(pool[i], move, weighed[i][1])
                if work.units(ISMCTS_FIT_COST) >= budget:
                    break
            decision.checkpoints.append(
                (work.units(ISMCTS_FIT_COST) / budget, *self._lead(search, view, legal))
            )
        self.decisions.append(decision)
        return to_move(view, *legal[decision.final])

    @staticmethod
    def _lead(search: Search, view: SeatView, legal: list[tuple[int, int]]) -> tuple[int, float]:
        """The root move with the best mean, and its lead over the next in standard errors
        (none while a move is unvisited)."""
        stats = []
        for i, (t, end) in enumerate(legal):
            e = search.root.edges.get(key(view.seat, t, end))
            if e is not None and e.visits:
                stats.append((e.total / e.visits, e.visits, i))
        stats.sort(reverse=True)
        if len(stats) < len(legal):
            return (stats[0][2] if stats else 0), 0.0
        (best, n_best, leader), (second, n_second, _) = stats[0], stats[1]
        error = search.returns.scale() * math.sqrt(1.0 / n_best + 1.0 / n_second)
        return leader, (best - second) / error


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="kozel")
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--ms", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=777)
    args = parser.parse_args()
    rules = preset(args.preset, args.players)
    decisions: list[Decision] = []
    for g in range(args.games):
        bots = [
            Recorder(random.Random(g * 10 + s), args.ms, decisions) for s in range(rules.players)
        ]
        play_game(rules, deal_seed(args.seed, g), bots)
    n = len(decisions)
    print(f"{rules.preset}-{rules.players}, ismcts-fit at {args.ms:g} ms, {args.games} games:")
    print(
        f"{n} searched decisions, {sum(len(d.checkpoints) for d in decisions) / n:.1f} pools each"
    )
    for z in (2.0, 3.0, 4.0):
        for floor in (0.2, 0.35, 0.5):
            stopped = other = 0
            saved = 0.0
            for d in decisions:
                for spent, leader, lead in d.checkpoints:
                    if spent >= floor and lead >= z:
                        stopped += 1
                        other += leader != d.final
                        saved += 1.0 - spent
                        break
            print(
                f"  lead {z:g} errors, from {floor:.0%} of the budget: {stopped} stop early "
                f"({stopped / n:.0%}), {other} with another move, {saved / n:.0%} of the "
                "budget saved"
            )


if __name__ == "__main__":
    main()
