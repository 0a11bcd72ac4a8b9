"""Medians and ratios of a ``bench_ab.sh`` log: ``python benchmarks/bench_ab.py LOG``."""

from __future__ import annotations

import json
import statistics
import sys
from collections import defaultdict

KEYS = ("events_per_second", "api_events_per_second")


def main(path: str) -> None:
    runs: dict[str, list[dict[str, float]]] = defaultdict(list)
    with open(path, encoding="utf-8") as log:
        for line in log:
            row = json.loads(line)
            runs[row["rev"]].append(row)
    revs = list(runs)
    for key in KEYS:
        medians = [statistics.median(r[key] for r in runs[rev]) for rev in revs]
        cells = "  ".join(f"{rev} {m:>10,.0f}" for rev, m in zip(revs, medians, strict=True))
        ratio = medians[-1] / medians[0]
        print(f"{key:<22} {cells}  ratio {ratio:.3f} ({len(runs[revs[0]])} runs each)")


if __name__ == "__main__":
    main(sys.argv[1])
