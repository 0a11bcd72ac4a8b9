"""Paired statistics of arena logs: each deal's games compared with the same deal's other seating.

    python benchmarks/arena_paired.py benchmarks/arena/pilot-*.jsonl

The arena's interval (Wilson's) treats every game as independent; on
duplicate deals a deal's games are not (a lopsided deal gives each bot one
win), so the mean over deals of A's share of the deal's games, with its
standard error over deals, is usually the tighter honest interval. It also
prints A's margin in points a round (A's points minus B's; for penalties,
B's minus A's, so that more is better for A), with its standard error over
deals. Both intervals are normal approximations (1.96 standard errors).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path


def paired(path: Path) -> str:
    lines = path.read_text().splitlines()
    shares: list[float] = []
    margins: list[float] = []
    rounds: list[int] = []
    games = 0
    name = ""
    for line in lines[1:]:
        r = json.loads(line)["result"]
        name = f"{r['preset']}-{r['players']} {r['bots'][0]} vs {r['bots'][1]}"
        shares.append((r["a_wins"] + 0.5 * r["draws"]) / r["games"])
        margin = r["a_round_points"] - r["b_round_points"]
        margins.append(-margin if r["penalties"] else margin)
        rounds.append(r["rounds"])
        games += r["games"]
    n = len(shares)
    if n < 2:
        return f"{path.name}: {n} deals"
    mean = sum(shares) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in shares) / (n - 1) / n)
    total_rounds = sum(rounds)
    per_round = sum(margins) / total_rounds
    ratio = [m - per_round * k for m, k in zip(margins, rounds, strict=True)]
    se_m = math.sqrt(sum(x * x for x in ratio) / (n - 1) / n) * n / total_rounds
    return (
        f"{name}: {n} deals, {games} games;"
        f" A's share {100 * mean:.1f}% ± {196 * se:.1f};"
        f" A's margin {per_round:+.2f} ± {1.96 * se_m:.2f} points a round"
    )


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(paired(Path(arg)))
