"""Each searching level's default budget, chosen from the arena logs: the cheapest worth its CPU.

    python benchmarks/choose_budgets.py [--min-games 100] [LOG.jsonl ...]

For every table level that was run against ``greedy`` at several budgets in a game
(Kozel, 2-player Draw, 4-player Block), it compares those runs (each on all
its games; every run plays the same deals from the first on): the best
budget is the one with the highest win rate; the chosen one is the cheapest
whose win rate lies within the best's 95% interval (Wilson). Runs of fewer
than ``--min-games`` games are shown but not counted (a run still going
counts once it has them). A level's
default is the largest of its choices over the games, so that it is worth
its CPU in each. Prints a Markdown table and the
choices (``bots.BUDGETS`` holds the defaults in force).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from arena_table import LOGS, budgets, levels, merged, on_main, played

from doublesix.bots.arena import ArenaResult
from doublesix.bots.base import BUDGETS, MEASUREMENT_BOTS
from doublesix.rules.ruleset import Ruleset


def runs(paths: list[Path]) -> dict[tuple[str, str], dict[float, dict[int, ArenaResult]]]:
    """The table levels' runs against ``greedy``: by (level, game), by budget, the deals."""
    groups: dict[tuple[str, str], dict[float, dict[int, ArenaResult]]] = {}
    for path in paths:
        header, deals = played(path)
        if not on_main(header):
            continue
        a, b = levels(header)
        ms, _ = budgets(header)
        table_level = a in BUDGETS and a not in MEASUREMENT_BOTS
        if b != "greedy" or not table_level or ms is None or not deals:
            continue
        rules = Ruleset.from_dict(header["ruleset"])  # type: ignore[arg-type]
        game = rules.preset if rules.preset == "kozel" else f"{rules.preset}-{rules.players}"
        groups.setdefault((a, game), {})[ms] = deals
    return groups


def choose(paths: list[Path], min_games: int = 100) -> tuple[list[str], dict[str, float]]:
    """The table's rows, and each level's default: the largest of its choices over the games."""
    lines = []
    choice: dict[str, float] = {}
    for (level, game), by_ms in sorted(runs(paths).items()):
        results = {ms: merged(deals, deals) for ms, deals in sorted(by_ms.items())}
        rated = {ms: r for ms, r in results.items() if r is not None}
        counted = {ms: r for ms, r in rated.items() if r.games >= min_games}
        if not counted:
            continue
        best = max(counted, key=lambda ms: counted[ms].a_win_rate)
        floor = counted[best].ci95[0]
        cheapest = min(ms for ms, r in counted.items() if r.a_win_rate >= floor)
        for ms, r in rated.items():
            lo, hi = r.ci95
            mark = " best" if ms == best else "" if ms in counted else " (too few games)"
            mark += " **chosen**" if ms == cheapest else ""
            lines.append(
                f"| {level} | {game} | {ms:g} ms{mark} | {r.games} | "
                f"{100 * r.a_win_rate:.1f}% | {100 * lo:.1f}–{100 * hi:.1f}% |"
            )
        choice[level] = max(choice.get(level, 0.0), cheapest)
    return lines, choice


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--min-games", type=int, default=100)
    parser.add_argument("logs", nargs="*", type=Path)
    args = parser.parse_args()
    lines, choice = choose(args.logs or sorted(LOGS.glob("*.jsonl")), args.min_games)
    print("| level | game | budget | games | win rate vs greedy | 95% interval |")
    print("|---|---|---|---:|---:|---|")
    print("\n".join(lines))
    for level, ms in choice.items():
        print(f"{level}: default {ms:g} ms (in force: {BUDGETS[level]:g} ms)")


if __name__ == "__main__":
    main()
