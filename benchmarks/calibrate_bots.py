"""Calibrate the searching bots' work units against CPU time on this machine.

The bots count their budget in work (``doublesix.bots.budget``), so that a
seed always gives the same move; this script checks that the count tracks
time. It plays games of a bot against ``greedy`` at a budget, times every
decision with a choice (CPU time of the process) and records what the
decision did by kind. A least-squares fit of the seconds to the counts
gives the microseconds of each kind: the costs (``COST``) should be in the
same proportions, and ``UNITS_PER_MS`` the units of one millisecond.

    python benchmarks/calibrate_bots.py --bot expert [--ms 100] [--games 4] [--jobs 3]
        [--games-of kozel,draw-2]

It prints the fit, then per preset the CPU time of a decision against its
budget with the bot's present constants (mean and max), and the
``UNITS_PER_MS`` that would make the mean decision take ``--fraction`` of
its budget.
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import astuple, fields
from typing import Any

from doublesix.bots import choice_net, expert, fitted, ismcts, make_bot, pimc
from doublesix.bots.arena import configure, play_game
from doublesix.bots.budget import Work
from doublesix.rules.ruleset import Ruleset, preset

PRESETS = {"kozel": ("kozel", None), "draw-2": ("draw", 2), "block-4": ("block", 4)}
KINDS = [f.name for f in fields(Work)]

Row = tuple[str, tuple[int, ...], float]

CONSTANTS: dict[str, tuple[Work, int]] = {
    "expert": (choice_net.NET_COST, ismcts.UNITS_PER_MS),
    "expert-2026": (expert.COST, expert.UNITS_PER_MS),
    "pimc": (pimc.COST, pimc.UNITS_PER_MS),
    "ismcts": (ismcts.COST, ismcts.UNITS_PER_MS),
    "ismcts-fit": (fitted.ISMCTS_FIT_COST, ismcts.UNITS_PER_MS),
    "ismcts-net": (choice_net.NET_COST, ismcts.UNITS_PER_MS),
}
"""Each calibrated level's present costs per kind of work and units per millisecond."""


class Timed:
    """A bot whose decisions with a choice are timed and counted."""

    def __init__(self, bot: Any, label: str, rows: list[Row]) -> None:
        self.bot = bot
        self.name = bot.name
        self.label = label
        self.rows = rows

    def choose(self, view: Any) -> Any:
        start = time.process_time()
        move = self.bot.choose(view)
        spent = time.process_time() - start
        if len(view.legal_moves) > 1:
            self.rows.append((self.label, astuple(self.bot.work), spent))
        return move


def play(args: tuple[str, str, int, float]) -> list[Row]:
    label, bot_name, seed, ms = args
    name, players = PRESETS[label]
    ruleset: Ruleset = preset(name, players)
    rows: list[Row] = []
    bots: list[Any] = []
    for seat in range(ruleset.players):
        if seat % 2 == 0:
            bots.append(Timed(configure(make_bot(bot_name, seed * 10 + seat), ms), label, rows))
        else:
            bots.append(make_bot("greedy", seat))
    play_game(ruleset, seed, bots)
    return rows


def least_squares(xs: list[list[float]], ys: list[float]) -> list[float]:
    """Non-negative least squares by normal equations, dropping negative terms."""
    k = len(xs[0])
    active = [j for j in range(k) if any(x[j] for x in xs)]
    while True:
        a = [[sum(x[i] * x[j] for x in xs) for j in active] for i in active]
        b = [sum(x[i] * y for x, y in zip(xs, ys, strict=True)) for i in active]
        coef = _solve(a, b)
        if all(c >= 0 for c in coef):
            out = [0.0] * k
            for j, c in zip(active, coef, strict=True):
                out[j] = c
            return out
        active = [j for j, c in zip(active, coef, strict=True) if c >= 0]


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-300:
            continue
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-300 else 0.0 for i in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", choices=sorted(CONSTANTS), default="expert")
    parser.add_argument("--ms", type=float, default=100.0)
    parser.add_argument("--games", type=int, default=4, help="games per preset")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--fraction", type=float, default=0.9)
    parser.add_argument(
        "--games-of", default=",".join(PRESETS), help=f"which of {', '.join(PRESETS)}"
    )
    args = parser.parse_args()
    cost, units_per_ms = CONSTANTS[args.bot]
    labels = args.games_of.split(",")
    if unknown := [x for x in labels if x not in PRESETS]:
        parser.error(f"--games-of: {', '.join(unknown)} is not one of {', '.join(PRESETS)}")

    tasks = [(label, args.bot, seed, args.ms) for label in labels for seed in range(args.games)]
    rows: list[Row] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(play, tasks):
            rows.extend(part)

    xs = [[float(c) for c in counts] + [1.0] for _, counts, _ in rows]
    ys = [spent for _, _, spent in rows]
    coef = least_squares(xs, ys)
    print(f"{args.bot}: {len(rows)} decisions at {args.ms:g} ms, CPU time fitted per kind:")
    for kind, c, charged in zip([*KINDS, "decision"], coef, [*astuple(cost), 0], strict=True):
        print(f"  {kind:9} {1e6 * c:9.3f} µs   (charged {charged} units)")
    unit_us = [1e6 * c for c in coef[:-1]]
    base = min((u for u in unit_us if u > 0), default=1.0)
    shares = ", ".join(f"{k} {u / base:.2f}" for k, u in zip(KINDS, unit_us, strict=True))
    print(f"  proportions: {shares}")
    residuals = [
        1000 * (y - sum(a * b for a, b in zip(x, coef, strict=True)))
        for x, y in zip(xs, ys, strict=True)
    ]
    print("  fit residuals (ms): " + _spread(residuals))
    worst = sorted(range(len(rows)), key=lambda i: -residuals[i])[:5]
    for i in worst:
        label, counts, spent = rows[i]
        did = dict(zip(KINDS, counts, strict=True))
        print(f"  slowest against the fit: {label} {1000 * spent:.0f} ms, {did}")

    print(f"with UNITS_PER_MS = {units_per_ms} and COST = {cost}:")
    for label in labels:
        mine = [(counts, spent) for lab, counts, spent in rows if lab == label]
        if not mine:
            continue
        times = [1000 * spent for _, spent in mine]
        units = [Work(*counts).units(cost) for counts, _ in mine]
        ms_per_unit = sum(times) / sum(units)
        suggested = args.fraction / ms_per_unit
        print(
            f"  {label:8} {len(mine):5} decisions: mean {statistics.fmean(times):6.1f} ms, "
            f"max {max(times):6.1f} ms ({statistics.fmean(times) / args.ms:.2f} of the budget); "
            f"UNITS_PER_MS for {args.fraction:.2f}: {suggested:.0f}"
        )
        charged = [sum(counts[i] for counts, _ in mine) * c for i, c in enumerate(astuple(cost))]
        shares = ", ".join(
            f"{kind} {units / sum(charged):.2f}"
            for kind, units in zip(KINDS, charged, strict=True)
            if units
        )
        print(f"  {'':8} the units charged, by kind: {shares}")


def _spread(values: list[float]) -> str:
    q = statistics.quantiles(values, n=20)
    median = statistics.median(values)
    return f"p5 {q[0]:.1f}, median {median:.1f}, p95 {q[-1]:.1f}, max {max(values):.1f}"


if __name__ == "__main__":
    main()
