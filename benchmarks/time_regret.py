"""What a longer search says `expert`'s 30 ms and 300 ms moves cost: the gain time can buy.

    python benchmarks/time_regret.py --preset kozel --games 4 --referee 1000

Plays whole games with ``expert`` (or ``--level``: any level of the tree search,
``IsmctsBot``, arena_variants.py's variants too — the first test of a candidate
model) at 30 ms in every seat. At each decision
with two moves or more that the tree search decides (not the exact endgame,
``solve_at``), a referee — the same search given ``--referee`` ms — values
every root move (its mean, in the search's own points: the round's points for
the seat's side, with the bonus when they decide the game), and ``expert`` at
30 ms and at 300 ms (other seeds) choose. A move's regret is the referee's
best value less the value of that move. The mean of the 30 ms regret less the
300 ms one is what the model says ten times the time is worth a decision;
multiplied by a side's decisions a round, a side's points a round — the most
the 300 ms bot can gain on this model of the hidden hands and of the others,
to set beside what it does gain in the arena (its margin a round over deals).
The 30 ms regret alone is the most any search on this model could gain: a
search that always found the referee's best move.
A noisy referee inflates both regrets alike (its best is a maximum of noisy
means), not their difference.
"""

from __future__ import annotations

import argparse
import math
import statistics

from arena_variants import register_variants

from doublesix.bots import make_bot
from doublesix.bots.arena import play_game
from doublesix.bots.ismcts import IsmctsBot
from doublesix.bots.pimc import root_moves, to_move
from doublesix.rules.moves import Move
from doublesix.rules.ruleset import preset
from doublesix.rules.view import SeatView


def referee_values(view: SeatView, level: str, ms: float, seed: int) -> list[float] | None:
    """The referee's mean for each root move, or ``None`` where the endgame decides."""
    bot = make_bot(f"{level}:{ms:g}", seed)
    assert isinstance(bot, IsmctsBot), f"{level} is not a level of the tree search"
    bot.prepare(view)
    return bot.root_values(view)


class Judged:
    """A seat played by ``level`` at 30 ms whose decisions are judged by the referee."""

    def __init__(
        self, level: str, seed: int, referee: float, rows: list[tuple[float, float]]
    ) -> None:
        self.level = level
        self.bot = make_bot(f"{level}:30", seed)
        self.name = self.bot.name
        self.seed = seed
        self.referee = referee
        self.rows = rows
        self.endgame = 0

    def choose(self, view: SeatView) -> Move:
        moves = root_moves(view)
        if len(moves) > 1:
            self.seed += 1
            values = referee_values(view, self.level, self.referee, self.seed)
            if values is None:
                self.endgame += 1
            else:
                best = max(values)
                legal = [to_move(view, *m) for m in moves]
                fast, slow = (
                    best - values[legal.index(make_bot(spec, self.seed + shift).choose(view))]
                    for spec, shift in ((f"{self.level}:30", 7), (f"{self.level}:300", 11))
                )
                self.rows.append((fast, slow))
        return self.bot.choose(view)


def interval(xs: list[float]) -> tuple[float, float]:
    """The mean of ``xs`` and the half-width of its 95% interval."""
    return statistics.fmean(xs), 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert", help="the tree search's level judged")
    parser.add_argument("--preset", default="kozel")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--referee", type=float, default=1000.0, help="the referee's ms")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.games < 1:
        parser.error(f"--games {args.games}: at least 1")
    register_variants(["--bots", args.level])
    try:
        judged = make_bot(f"{args.level}:30")
    except ValueError as e:
        parser.error(str(e))
    if not isinstance(judged, IsmctsBot):
        parser.error(f"--level {args.level}: not a level of the tree search (IsmctsBot)")
    rules = preset(args.preset, args.players)
    rows: list[tuple[float, float]] = []
    rounds = endgame = 0
    for g in range(args.games):
        seats = [
            Judged(args.level, 1_000_000 * (args.seed + g) + 10_000 * s, args.referee, rows)
            for s in range(rules.players)
        ]
        game = play_game(rules, args.seed + g, seats)
        rounds += len(game.rounds)
        endgame += sum(s.endgame for s in seats)
    if len(rows) < 2:
        raise SystemExit(f"{len(rows)} decision judged: too few for an interval; play more games")
    mean, half = interval([a - b for a, b in rows])
    whole, whole_half = interval([a for a, _ in rows])
    per_round = len(rows) / (rounds * rules.sides)
    print(
        f"{args.preset}, {rules.players} players, {args.games} games (seed {args.seed}), "
        f"{rounds} rounds; referee: {args.level}'s search at {args.referee:g} ms"
    )
    print(f"decisions judged: {len(rows)} (the endgame's exact search decided {endgame} more)")
    print(f"differing moves: {sum(a != b for a, b in rows)} of {len(rows)}")
    print(
        f"regret a decision, mean: 30 ms {statistics.fmean(a for a, _ in rows):.3f}, "
        f"300 ms {statistics.fmean(b for _, b in rows):.3f} points"
    )
    print(f"gain of 300 ms a decision: {mean:+.3f} ± {half:.3f} points")
    print(
        f"a side's judged decisions a round: {per_round:.2f}; gain a round: "
        f"{mean * per_round:+.2f} ± {half * per_round:.2f} points"
    )
    print(
        f"the most any search on this model gains over 30 ms (the 30 ms move's whole regret): "
        f"{whole:.3f} ± {whole_half:.3f} points a decision, "
        f"{whole * per_round:.2f} ± {whole_half * per_round:.2f} a round"
    )


if __name__ == "__main__":
    main()
