"""Paired statistics of arena logs: each deal's games compared with the same deal's other seating.

    python benchmarks/arena_paired.py benchmarks/arena/pilot-*.jsonl
    python benchmarks/arena_paired.py --versus NEW.jsonl OLD.jsonl
    python benchmarks/arena_paired.py --pool RUN-s30.jsonl RUN-s31.jsonl

The arena's interval (Wilson's) treats every game as independent; on
duplicate deals a deal's games are not (a lopsided deal gives each bot one
win), so the mean over deals of A's share of the deal's games, with its
standard error over deals, is usually the tighter honest interval. It also
prints A's margin in points a round (A's points minus B's; for penalties,
B's minus A's, so that more is better for A), with its standard error over
deals. Both intervals are normal approximations (1.96 standard errors).

``--versus NEW OLD`` compares two runs of different A bots against the same
B on the same deals (same rules, seed and B): NEW's margin in points a round
minus OLD's, deal by deal, over the deals both played, with its standard
error over deals — the change, with the deals' luck taken out twice.

``--pool RUN...`` takes the deals of several runs of the same bots in the same game,
played on other seeds, together: one share and one margin over all of them.

Bots are named as they are now (``arena_table.RENAMED``).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path

from arena_table import as_named_now


def _read(path: Path) -> tuple[dict[str, object], list[str]]:
    """The log's header (the run's rules, seed and bots) and its lines of deals."""
    lines = path.read_text().splitlines()
    header = json.loads(lines[0]) if lines else None
    if not isinstance(header, dict) or "bots" not in header:
        raise ValueError("its first line is not an arena log's header")
    return header, lines[1:]


def _margins(deals: list[str]) -> dict[int, tuple[float, int]]:
    """Each deal's A margin (more is better for A) and its rounds, by deal index."""
    out = {}
    for line in deals:
        row = json.loads(line)
        r = row["result"]
        margin = r["a_round_points"] - r["b_round_points"]
        out[row["deal"]] = (-margin if r["penalties"] else margin, r["rounds"])
    return out


def versus(new: Path, old: Path) -> str:
    (a, deals_a), (b, deals_b) = _read(new), _read(old)
    for field in ("ruleset", "seed"):
        if a.get(field) != b.get(field):
            raise SystemExit(f"{new.name} and {old.name} differ in {field}: not the same deals")
    bots_a, bots_b = a["bots"], b["bots"]
    assert isinstance(bots_a, list) and isinstance(bots_b, list)
    bots_a = [as_named_now(new.stem, spec) for spec in bots_a]
    bots_b = [as_named_now(old.stem, spec) for spec in bots_b]
    if bots_a[1] != bots_b[1]:
        raise SystemExit(f"{new.name} and {old.name} play different opponents")
    ma, mb = _margins(deals_a), _margins(deals_b)
    deals = sorted(set(ma) & set(mb))
    n = len(deals)
    if n < 2:
        return f"{new.name} vs {old.name}: {n} deals in common"
    diffs = [ma[d][0] - mb[d][0] for d in deals]
    rounds = sum(ma[d][1] + mb[d][1] for d in deals) / 2
    mean = sum(diffs) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1) / n)
    return (
        f"{bots_a[0]} instead of {bots_b[0]} against {bots_a[1]}, {n} deals:"
        f" margin {mean * n / rounds:+.2f} ± {1.96 * se * n / rounds:.2f} points a round"
    )


def paired(paths: Sequence[Path]) -> str:
    """A's share and margin over the deals of ``paths``: one run, or runs of the same bots
    in the same game on other seeds (``--pool``), each deal counted once."""
    shares: list[float] = []
    margins: list[float] = []
    rounds: list[int] = []
    games = 0
    name = ""
    seeds: dict[object, str] = {}
    first: tuple[object, list[str]] | None = None
    for path in paths:
        header, deals = _read(path)
        bots = header["bots"]
        assert isinstance(bots, list)
        run = (header.get("ruleset"), [as_named_now(path.stem, spec) for spec in bots])
        if first is None:
            first = run
        elif run != first:
            raise SystemExit(f"{path.name} is another game or other bots: not pooled")
        seed = header.get("seed")
        if seed in seeds:
            raise SystemExit(f"{path.name} and {seeds[seed]} share seed {seed}: the same deals")
        seeds[seed] = path.name
        for line in deals:
            r = json.loads(line)["result"]
            a, b = (as_named_now(path.stem, spec) for spec in r["bots"])
            name = f"{r['preset']}-{r['players']} {a} vs {b}"
            shares.append((r["a_wins"] + 0.5 * r["draws"]) / r["games"])
            margin = r["a_round_points"] - r["b_round_points"]
            margins.append(-margin if r["penalties"] else margin)
            rounds.append(r["rounds"])
            games += r["games"]
    n = len(shares)
    if n < 2:
        return f"{', '.join(p.name for p in paths)}: {n} deals"
    if len(paths) > 1:
        name += f" ({len(paths)} runs)"
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


def main(args: list[str]) -> int:
    """Print the statistics the arguments ask for; 2 (and why, on stderr) when they cannot be
    read as arena logs."""
    try:
        if args[:1] == ["--versus"] and len(args) == 3:
            print(versus(Path(args[1]), Path(args[2])))
        elif args[:1] == ["--pool"] and len(args) >= 3 and "--versus" not in args:
            print(paired([Path(arg) for arg in args[1:]]))
        elif args and "--versus" not in args and "--pool" not in args:
            for arg in args:
                print(paired([Path(arg)]))
        else:
            print(__doc__.split("\n\n")[1], file=sys.stderr)
            return 2
    except OSError as e:
        print(f"arena_paired: {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    except (ValueError, KeyError, IndexError, TypeError) as e:
        print(f"arena_paired: not an arena log ({type(e).__name__}: {e})", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
