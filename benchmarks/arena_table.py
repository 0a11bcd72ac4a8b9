"""The README's table of bot measurements, from the arena logs in benchmarks/arena/.

    python benchmarks/arena_table.py [LOG.jsonl ...]

Reads each log (complete or still running: it counts the deals played so
far), merges its deals as the arena does and prints one Markdown row per
run: each side's budget per move (one figure when both sides search with the
same, "A / B" when they differ), games, A's win rate with its 95% interval,
Elo, points per round of each side, and each bot's CPU time per decision
with a choice (mean) and per move (max).

Where the same match (preset, levels, seed) was run at several budgets, a
second table compares them on the deals every one of those runs has played,
so that the rows differ only in the time each bot had.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from pathlib import Path

from doublesix.bots.arena import ArenaResult
from doublesix.bots.base import BOTS, budget_of
from doublesix.rules.ruleset import Ruleset

LOGS = Path(__file__).resolve().parent / "arena"

RENAMED = (
    (
        "expert",
        "expert-2026",
        frozenset(
            {
                "block4-expert-greedy",
                "block4-expert-greedy-100ms",
                "block4-expert30-greedy",
                "draw2-expert-greedy",
                "draw2-expert-ismcts",
                "draw2-expert-pimc",
                "draw2-expert30-greedy",
                "kozel-expert-greedy",
                "kozel-expert-greedy-100ms",
                "kozel-expert-greedy-1s",
                "kozel-expert-ismcts",
                "kozel-expert-pimc",
                "kozel-expert30-greedy",
            }
        ),
    ),
    (
        "expert",
        "ismcts-fit",
        frozenset(
            {
                "draw2-expert-ismcts-tree",
                "draw2-expert30-greedy-tree",
                "block4-expert30-greedy-tree",
                "draw2-net30-expert30",
                "kozel-expert-ismcts-tree",
                "kozel-expert100-greedy-s2",
                "kozel-expert30-expert2026-100-tree",
                "kozel-expert30-greedy-tree",
                "kozel-expert300-expert30-tree",
                "kozel-net30-expert30",
                "kozel-netstyle30-expert30",
                "kozel-netstyle96-30-expert30",
                "round-draw2-c075-100-expert100-s30",
                "round-draw2-honest100-expert100-s30",
                "round-draw2-inf100-expert100-s30",
                "round-draw2-net100-expert100-s30",
                "round-draw2-pub100-expert100-s30",
                "round-draw2-pub30-expert30-s30",
                "round-draw2-pub300-expert300-s30",
                "round-draw2-s0-100-expert100-s30",
                "round-draw2-s14-100-expert100-s30",
                "round-draw2-s6-100-expert100-s30",
                "round-kozel-c075-100-expert100-s30",
                "round-kozel-honest100-expert100-s30",
                "round-kozel-inf100-expert100-s30",
                "round-kozel-net100-expert100-s30",
                "round-kozel-pub100-expert100-s30",
                "round-kozel-pub30-expert30-s30",
                "round-kozel-pub300-expert300-s30",
                "round-kozel-s0-100-expert100-s30",
                "round-kozel-s14-100-expert100-s30",
                "round-kozel-s6-100-expert100-s30",
            }
        ),
    ),
    (
        "expert",
        "ismcts-net",
        frozenset(
            {
                "draw2-expert300-expert30-net",
                "draw2-expertnet-ismcts",
                "draw2-netread30-expert30",
                "kozel-expert300-expert30-net-s20",
                "kozel-expertnet-ismcts",
                "kozel-netread30-expert30",
                "round-kozel-b05-expert30-s30",
                "round-kozel-pb05-expert30-s30",
                "round-kozel-pool300-expert30-s30",
                "round-kozel-pool300-expert30-s31",
            }
        ),
    ),
    (
        "ismcts-net-read",
        "expert",
        frozenset(
            {
                "block4-netread30-greedy",
                "draw2-netread30-expert30",
                "draw2-netread30-greedy",
                "draw2-netread30-greedy-s2",
                "kozel-netread30-expert30",
                "kozel-netread30-greedy",
                "kozel-netread30-greedy-s2",
                "kozel-netread30-greedy-s3",
                "kozel-netread300-netread30",
            }
        ),
    ),
)
"""Bots read under their present names, as (name in the log, name now, logs).

Three times a candidate became ``expert``. In commit ea01e46 the tree search on its C core
(``ismcts-fit`` since commit 12a6ed9) did, and the expert of 2026 (``bots.expert``'s
determinised search) became ``expert-2026``: ``expert`` at 100 ms against ``greedy`` (seed 1)
won, lost and scored each of the first five deals of
``benchmarks/kozel-expert100-greedy-check.jsonl`` as ``ismcts-fit`` did in
``kozel-ismctsfit100-greedy-native``. Then ``ismcts-net`` (``ismcts-fit`` weighing its deals
by a network) did, and the logs where ``expert`` was ``ismcts-fit`` name it so again:
``expert`` played the first five deals of ``benchmarks/kozel-expert100-greedy-netcheck.jsonl``
as ``ismcts-net`` did in ``kozel-net100-greedy`` (in Block, which has no network, it was
``ismcts-fit`` still: ``benchmarks/block4-expert30-greedy-check.jsonl``). Then
``ismcts-net-read`` (``ismcts-net`` reading each seat's style of play, from the game's
earlier rounds first) did, and the logs where ``expert`` was ``ismcts-net`` name it so again:
``expert`` played the first five Kozel deals of
``benchmarks/kozel-expert30-greedy-readcheck.jsonl`` and the first three Block deals of
``benchmarks/block4-expert30-greedy-readcheck.jsonl`` as ``ismcts-net-read`` did in
``kozel-netread30-greedy`` and ``block4-netread30-greedy``. (The check logs are kept out of
``arena/``: their games are counted there already.)"""


def as_named_now(log: str, spec: str) -> str:
    """A bot of log ``log`` (its file's stem) under its present name."""
    name, colon, ms = spec.partition(":")
    for old, new, logs in RENAMED:
        if name == old and log in logs:
            return f"{new}{colon}{ms}"
    return spec


def bots_of(header: dict[str, object]) -> list[str]:
    """A log header's two bots, as ``level`` or ``level:ms``."""
    bots = header["bots"]
    assert isinstance(bots, list), bots
    return [str(spec) for spec in bots]


def levels(header: dict[str, object]) -> list[str]:
    """A log header's two bots without their budgets (a variant's name too, unlike
    ``parse_spec``, which knows only the bots registered here)."""
    return [spec.partition(":")[0] for spec in bots_of(header)]


def on_main(header: dict[str, object]) -> bool:
    """Whether a log's bots are all on main: a variant's log (``benchmarks/tried``) is read
    where its patch is applied."""
    return all(level in BOTS for level in levels(header))


def played(path: Path) -> tuple[dict[str, object], dict[int, ArenaResult]]:
    """A log's header and its finished deals, by number, its bots under their present names."""
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["bots"] = [as_named_now(path.stem, spec) for spec in header["bots"]]
    deals: dict[int, ArenaResult] = {}
    for line in lines[1:]:
        try:
            data = json.loads(line)
            result = data["result"]
            result["bots"] = [as_named_now(path.stem, spec) for spec in result["bots"]]
            deals[data["deal"]] = ArenaResult.from_json(result)
        except (ValueError, KeyError):
            continue  # a line cut short by a stop
    return header, deals


def merged(deals: dict[int, ArenaResult], numbers: Iterable[int]) -> ArenaResult | None:
    """The result of the given deals together, as the arena would report it."""
    result: ArenaResult | None = None
    for number in sorted(numbers):
        part = ArenaResult.from_json(deals[number].to_json())  # a copy: merge() adds in place
        if result is None:
            result = part
        else:
            result.merge(part)
    return result


def row(header: dict[str, object], result: ArenaResult) -> str:
    ruleset = Ruleset.from_dict(header["ruleset"])  # type: ignore[arg-type]
    d = result.as_dict()
    a, b = result.bots
    game = ruleset.preset if ruleset.preset != "draw" else f"draw, {ruleset.players} players"
    if ruleset.preset == "block":
        game = f"block, {ruleset.players} players"
    lo, hi = d["ci95"]
    budget = budget_label(header)
    ta, tb = d["ms_per_choice_mean"], d["b_ms_per_choice_mean"]
    penalties = " penalty" if result.penalties else ""
    return (
        f"| {game} | {a} vs {b} | {budget} | {d['games']:,} | {100 * d['a_win_rate']:.1f}% | "
        f"{100 * lo:.1f}–{100 * hi:.1f}% | {d['elo']:+.0f} | "
        f"{d['a_points_per_round']} / {d['b_points_per_round']}{penalties} | "
        f"{ta:.0f} / {tb:.0f} | {d['ms_per_move_max']:.0f} / {d['b_ms_per_move_max']:.0f} |"
    )


HEAD = (
    "| game | A vs B | budget | games | A's win rate | 95% interval | Elo | "
    "points a round, A / B | ms a decision, A / B | max ms a move, A / B |\n"
    "|---|---|---|---:|---:|---|---:|---|---|---|"
)


def budgets(header: dict[str, object]) -> tuple[float | None, float | None]:
    """The budget per move each side played with (None: a bot that does not search)."""
    ms = header["ms_per_move"]
    default = float(ms) if isinstance(ms, int | float) else None
    a, b = (budget_of(spec, default) for spec in bots_of(header))
    return a, b


def budget_label(header: dict[str, object]) -> str:
    a, b = budgets(header)
    if a is None and b is None:
        return "—"
    if a is None or b is None or a == b:
        return f"{a if b is None else b:g} ms"
    return f"{a:g} / {b:g} ms"


def match(header: dict[str, object]) -> str:
    """What a run's header says but the budgets: runs of a match at several budgets share it."""
    rest = {k: v for k, v in header.items() if k not in ("ms_per_move", "bots")}
    rest["levels"] = levels(header)
    return json.dumps(rest, sort_keys=True)


def curves(logs: list[tuple[dict[str, object], dict[int, ArenaResult]]]) -> list[str]:
    """One table per match run at several budgets, on the deals all its runs played."""
    matches: dict[str, list[tuple[dict[str, object], dict[int, ArenaResult]]]] = {}
    for header, deals in logs:
        matches.setdefault(match(header), []).append((header, deals))
    tables = []
    for runs in matches.values():
        if len(runs) < 2:
            continue
        common = set.intersection(*(set(deals) for _, deals in runs))
        rows = []
        for header, deals in runs:
            result = merged(deals, common)
            if result is not None:
                rows.append(row(header, result))
        if rows:
            tables.append("\n".join([HEAD, *rows]))
    return tables


def order(log: tuple[dict[str, object], dict[int, ArenaResult]]) -> tuple[str, float, float]:
    """Runs of one match together, by A's budget, then B's."""
    a, b = budgets(log[0])
    return match(log[0]), a or 0.0, b or 0.0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("logs", nargs="*", type=Path, help="arena logs (default: all in arena/)")
    paths = parser.parse_args().logs or sorted(LOGS.glob("*.jsonl"))
    for path in paths:
        if not path.is_file():
            parser.error(f"no such log: {path}")
    logs = sorted((log for log in map(played, paths) if on_main(log[0])), key=order)
    print(HEAD)
    for header, deals in logs:
        result = merged(deals, deals)
        if result is not None:
            print(row(header, result))
    for table in curves(logs):
        print("\nThe same deals at each budget:\n")
        print(table)


if __name__ == "__main__":
    main()
