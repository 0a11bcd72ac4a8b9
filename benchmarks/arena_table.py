"""The README's table of bot measurements, from the arena logs in benchmarks/arena/.

    python benchmarks/arena_table.py [LOG.jsonl ...]

Reads each log (complete or still running: it counts the deals played so
far), merges its deals as the arena does and prints one Markdown row per
run: games, A's win rate with its 95% interval, Elo, points per round of
each side, and each bot's CPU time per decision with a choice (mean) and
per move (max).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from doublesix.bots.arena import ArenaResult
from doublesix.rules.ruleset import Ruleset

LOGS = Path(__file__).resolve().parent / "arena"


def merged(path: Path) -> tuple[dict[str, object], ArenaResult | None]:
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    result: ArenaResult | None = None
    for line in lines[1:]:
        try:
            part = ArenaResult.from_json(json.loads(line)["result"])
        except (ValueError, KeyError):
            continue  # a line cut short by a stop
        if result is None:
            result = part
        else:
            result.merge(part)
    return header, result


def row(header: dict[str, object], result: ArenaResult) -> str:
    ruleset = Ruleset.from_dict(header["ruleset"])  # type: ignore[arg-type]
    d = result.as_dict()
    a, b = result.bots
    game = ruleset.preset if ruleset.preset != "draw" else f"draw, {ruleset.players} players"
    if ruleset.preset == "block":
        game = f"block, {ruleset.players} players"
    lo, hi = d["ci95"]
    ms = header["ms_per_move"]
    budget = f"{ms:g} ms" if ms is not None else "—"
    ta, tb = d["ms_per_choice_mean"], d["b_ms_per_choice_mean"]
    penalties = " penalty" if result.penalties else ""
    return (
        f"| {game} | {a} vs {b} | {budget} | {d['games']:,} | {100 * d['a_win_rate']:.1f}% | "
        f"{100 * lo:.1f}–{100 * hi:.1f}% | {d['elo']:+.0f} | "
        f"{d['a_points_per_round']} / {d['b_points_per_round']}{penalties} | "
        f"{ta:.0f} / {tb:.0f} | {d['ms_per_move_max']:.0f} / {d['b_ms_per_move_max']:.0f} |"
    )


def main() -> None:
    paths = [Path(p) for p in sys.argv[1:]] or sorted(LOGS.glob("*.jsonl"))
    print(
        "| game | A vs B | budget | games | A's win rate | 95% interval | Elo | "
        "points a round, A / B | ms a decision, A / B | max ms a move, A / B |"
    )
    print("|---|---|---|---:|---:|---|---:|---|---|---|")
    for path in paths:
        header, result = merged(path)
        if result is not None:
            print(row(header, result))


if __name__ == "__main__":
    main()
