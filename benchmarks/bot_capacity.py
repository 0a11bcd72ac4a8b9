"""How many bot moves one core makes in a second, per searching level and budget.

    python benchmarks/bot_capacity.py [--bots pimc,expert] [--games 4] [--jobs 2]
    python benchmarks/bot_capacity.py --logs [LOG.jsonl ...]

A table's bot moves the way the server's thinking workers move it: a bot made
afresh from a seed for each move (``make_bot(level, seed)``: at the level's
default budget, ``bots.BUDGETS``, or ``level:ms``), then ``choose(view)``.
This plays whole games with the bot in every seat (Kozel, 2-player Draw,
4-player Block), times every move in CPU time of the process (forced moves
too: a table waits for them as well) and prints, per bot and game, the
moves, the mean CPU time of a move and of a decision with a choice, and the
capacity: moves per core-second (moves / CPU seconds). The worker's round
trip is not counted.

With ``--logs`` it reads the same figures from the arena logs instead (the
CPU time of every move of the searching side A), for every budget measured
there.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from arena_table import LOGS, bots_of, budgets, merged, on_main, played

from doublesix.bots import make_bot
from doublesix.bots.arena import play_game
from doublesix.bots.base import budget_of, parse_spec
from doublesix.rules.ruleset import Ruleset, preset

GAMES = {"kozel": ("kozel", None), "draw-2": ("draw", 2), "block-4": ("block", 4)}


class Fresh:
    """A seat whose every move is made by a new bot of ``level``, as a server worker makes it."""

    def __init__(self, level: str, seed: int, times: list[tuple[float, bool]]) -> None:
        self.level = level
        self.name = level
        self.seed = seed
        self.times = times

    def choose(self, view: Any) -> Any:
        self.seed += 1
        start = time.process_time()
        move = make_bot(self.level, self.seed).choose(view)
        self.times.append((time.process_time() - start, len(view.legal_moves) > 1))
        return move


def play(task: tuple[str, str, int]) -> list[tuple[float, bool]]:
    level, game, seed = task
    name, players = GAMES[game]
    rules = preset(name, players)
    times: list[tuple[float, bool]] = []
    bots = [Fresh(level, 1000 * seed + 100 * s, times) for s in range(rules.players)]
    play_game(rules, seed, bots)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="pimc,expert", help="LEVEL or LEVEL:MS, comma-separated")
    parser.add_argument("--games", type=int, default=4, help="games per bot and game kind")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--logs", nargs="*", type=Path, help="read the arena logs instead")
    args = parser.parse_args()
    if args.logs is not None:
        from_logs(args.logs or sorted(LOGS.glob("*.jsonl")))
        return
    levels = args.bots.split(",")
    tasks = [(lv, game, seed) for lv in levels for game in GAMES for seed in range(args.games)]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(play, tasks))
    print(HEAD)
    for level in levels:
        every: list[tuple[float, bool]] = []
        for game in GAMES:
            times = [
                t
                for (lv, g, _), r in zip(tasks, results, strict=True)
                if (lv, g) == (level, game)
                for t in r
            ]
            every += times
            print(_row(level, game, times))
        print(_row(level, "all", every))


HEAD = (
    "| level | budget | game | moves | ms a move | ms a decision | moves per core-second |\n"
    "|---|---|---|---:|---:|---:|---:|"
)


def _row(level: str, game: str, times: list[tuple[float, bool]]) -> str:
    total = sum(t for t, _ in times)
    choices = [t for t, choice in times if choice]
    return _line(level, budget_of(level), game, len(times), total, sum(choices), len(choices))


def _line(
    spec: str, ms: float | None, game: str, moves: int, total: float, ctotal: float, choices: int
) -> str:
    level = parse_spec(spec)[0]
    return (
        f"| {level} | {ms:g} ms | {game} | {moves:,} | {1000 * total / moves:.1f} | "
        f"{1000 * ctotal / max(1, choices):.1f} | {moves / total:.1f} |"
    )


def from_logs(paths: list[Path]) -> None:
    """The capacity of side A of every arena log whose A searches."""
    rows = []
    for path in paths:
        header, deals = played(path)
        if not on_main(header):
            continue
        result = merged(deals, deals)
        ms, _ = budgets(header)
        if result is None or ms is None:
            continue
        rules = Ruleset.from_dict(header["ruleset"])  # type: ignore[arg-type]
        game = rules.preset if rules.preset == "kozel" else f"{rules.preset}-{rules.players}"
        t = result.timing[0]
        spec = bots_of(header)[0]
        line = _line(spec, ms, game, t.moves, t.total, t.choice_total, t.choices)
        rows.append(((parse_spec(spec)[0], ms, game), f"{line} {path.stem} |"))
    print(HEAD.replace("core-second |", "core-second | log |").replace(":|\n", ":|\n") + "---|")
    for _, line in sorted(rows):
        print(line)


if __name__ == "__main__":
    main()
