"""Weighing deals by the others' own search: is a likelihood that costs time truer?

    python benchmarks/belief_sim.py --rounds 10 --seed 1 --pool 100 --simulate expert:3

``expert`` weighs a deal by how likely its network makes the others' plays: a fixed cost a
deal, so ten times the time cannot make its odds truer. A likelihood that does cost time
could: ask, for each of the others' past plays, what a searching player would have chosen
from that seat's own view *in this deal* (its hand then as the deal says, the plays before
it), and weigh the deal up where the answer is the play that was seen. Run the search
longer, or for more deals, and the odds could keep improving with the budget — the kind of
model the ratio of budgets asks for (docs/strength.md).

This script measures whether such odds are truer, before any bot is built on them. In
single Kozel rounds of ``expert`` at 30 ms in every seat (``belief.decisions``), at each
decision with a choice it draws ``--pool`` deals and weighs them by the network (as
``expert``), by the simulation alone, and by both. A deal's simulated likelihood is, over
the others' past choices, ``eps / n + (1 - eps) * [the simulated choice is the seen
one]`` (``n``: the tiles the seat could play then in the deal; ``--eps``): ``--simulate``
(a level and budget) replays the round on the deal and chooses for the seat. Scores are
``belief.py``'s (share placed, Brier score), each less uniform, paired by round, with 95%
intervals over rounds. Kozel only: it has no boneyard, so a deal and the public plays
replay the round exactly.
"""

from __future__ import annotations

import argparse
import math
import statistics
from collections import defaultdict

from belief import brier, decisions, placed, weighted
from time_regret import interval

from doublesix.bots import make_bot
from doublesix.bots.inference import Knowledge
from doublesix.bots.sampler import Sample, choices
from doublesix.rules.deal import Deal, RecordedDealer
from doublesix.rules.game import Game
from doublesix.rules.moves import Move, Play
from doublesix.rules.ruleset import Ruleset, preset
from doublesix.rules.view import seat_view


def simulated(
    rules: Ruleset, real: Game, k: Knowledge, sample: Sample, level: str, seed: int, eps: float
) -> float | None:
    """The log of the chance that ``level``, playing each other seat from its own view in
    ``sample``'s deal, chooses the plays that were seen; None where the deal does not replay
    (a deal the rules would have thrown in)."""
    me = k.seat
    now = [k.hand if s == me else sample.hands[s] for s in range(rules.players)]
    start = tuple(now[s] | k.played_by[s] for s in range(rules.players))
    try:
        game = Game(rules, dealer=RecordedDealer([Deal(start, (), 0)]))
    except (ValueError, StopIteration):  # thrown in (R13), or not a deal at all
        return None
    options = {d.index: playable.bit_count() for d, _, playable in choices(k, sample)}
    seen = {d.index: d for d in k.decisions}
    log = 0.0
    events = real.round.events
    for i in range(len(game.round.events), len(events)):
        e = events[i]
        if not isinstance(e, Play):
            continue
        d = seen.get(i)
        if d is not None and options.get(i, 0) > 1:
            bot = make_bot(level, seed * 1_000 + i)
            chosen = bot.choose(seat_view(game, d.seat))
            hit = isinstance(chosen, Move) and chosen.tile.index == d.tile
            n = options[i]
            log += math.log(eps / n + (1.0 - eps) * hit)
        try:
            game.play(Move(e.tile, e.end))
        except ValueError:  # an illegal play in this deal: the sampler's relaxation let it be
            return None
    return log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pool", type=int, default=100, help="deals drawn a decision")
    parser.add_argument("--simulate", default="expert:3", help="the level (and budget) simulated")
    parser.add_argument("--eps", type=float, default=0.3, help="the simulation's slack")
    args = parser.parse_args()
    if args.rounds < 2:
        parser.error("--rounds: at least 2, for an interval over rounds")
    if not 0 < args.eps <= 1:
        parser.error("--eps: a share above 0 and at most 1")
    rules = preset("kozel", target="round")
    models = ("network", "simulation", "both")
    per_round: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    count = dropped = 0
    for m in decisions(rules, args.rounds, args.seed, "expert:30", "expert"):
        pool = [m.sampler.sample() for _ in range(args.pool)]
        truth = m.game.round.hands
        seed = args.seed * 10_000 + m.round
        sims = [simulated(rules, m.game, m.k, s, args.simulate, seed, args.eps) for s in pool]
        kept = [(s, x) for s, x in zip(pool, sims, strict=True) if x is not None]
        dropped += len(pool) - len(kept)
        pool = [s for s, _ in kept]
        sim = [x for _, x in kept]
        right = [placed(s, truth, m.seat) for s in pool]
        uniform = [s.log_weight for s in pool]
        net = [m.judge.model.weigh(m.k, s)[0] for s in pool]
        logs = {
            "network": [u + x for u, x in zip(uniform, net, strict=True)],
            "simulation": [u + y for u, y in zip(uniform, sim, strict=True)],
            "both": [u + x + y for u, x, y in zip(uniform, net, sim, strict=True)],
        }
        base_placed = weighted(right, uniform)
        base_brier = brier(pool, uniform, truth, m.seat, m.k.unknown)
        for name in models:
            per_round[m.round][f"{name} placed"].append(weighted(right, logs[name]) - base_placed)
            per_round[m.round][f"{name} brier"].append(
                brier(pool, logs[name], truth, m.seat, m.k.unknown) - base_brier
            )
        count += 1
    print(
        f"kozel: {args.rounds} rounds of expert:30, {count} decisions, {args.pool} deals each "
        f"(seed {args.seed}; {dropped} deals that do not replay left out), the others simulated "
        f"by {args.simulate}, slack {args.eps:g}"
    )
    print("| model | placed less uniform | Brier score less uniform |")
    print("|---|---|---|")
    for name in models:
        cells = []
        for score in ("placed", "brier"):
            means = [statistics.fmean(r[f"{name} {score}"]) for r in per_round.values()]
            mean, half = interval(means)
            cells.append(f"{mean:+.3f} ± {half:.3f}")
        print(f"| {name} | {cells[0]} | {cells[1]} |")
    for name in models[1:]:
        cells = []
        for score in ("placed", "brier"):
            gains = [
                statistics.fmean(r[f"{name} {score}"]) - statistics.fmean(r[f"network {score}"])
                for r in per_round.values()
            ]
            mean, half = interval(gains)
            cells.append(f"{mean:+.3f} ± {half:.3f}")
        print(f"| {name} less network | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
