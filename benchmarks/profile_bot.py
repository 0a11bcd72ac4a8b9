"""Where a searching bot's time goes: one arena deal under cProfile, by part of the search.

    python benchmarks/profile_bot.py [--bot expert] [--preset kozel] [--players N] [--ms 300]

Prints the share of the bot's time spent in each part (sampling deals,
weighing them by the opponent model, playouts, the exact solver, scoring
endings) and the functions that cost the most. Times are inflated by the
profiler about evenly, so the shares are what to read, not the seconds.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats

from doublesix.bots.arena import deal_seed, play_deal
from doublesix.rules.ruleset import preset

PARTS = {
    "sampling deals": ("sampler.py", "random.py"),
    "weighing deals (opponent model)": ("expert.py:102(log_likelihood)",),
    "playouts": ("search.py:141(smart_playout)", "search.py:88(greedy_playout)"),
    "exact solver": ("search.py:262(value_after)", "search.py:292(search)", "search.py:35(step)"),
    "scoring endings": ("core.py",),
    "inference from the view": ("inference.py",),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--preset", default="kozel")
    parser.add_argument("--players", type=int)
    parser.add_argument("--ms", type=float, default=300.0)
    parser.add_argument("--deal", type=int, default=0)
    args = parser.parse_args()
    ruleset = preset(args.preset, args.players)
    profile = cProfile.Profile()
    profile.enable()
    play_deal(ruleset, args.bot, "greedy", deal_seed(1, args.deal), args.ms)
    profile.disable()
    stats = pstats.Stats(profile)
    own = {  # function -> its own time
        f"{path.rsplit('/', 1)[-1]}:{line}({name})": row[2]
        for (path, line, name), row in stats.stats.items()  # type: ignore[attr-defined]
    }
    total = sum(own.values())
    print(f"{args.bot} against greedy, {args.preset}, one deal, {args.ms:g} ms a move:")
    counted = 0.0
    for part, needles in PARTS.items():
        seconds = sum(t for f, t in own.items() if any(n in f for n in needles))
        counted += seconds
        print(f"  {part:34} {100 * seconds / total:5.1f}%")
    print(f"  {'everything else':34} {100 * (total - counted) / total:5.1f}%")
    stats.sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
