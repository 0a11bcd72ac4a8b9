"""``doublesix loadtest``: socket clients that play real games at a running server."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from doublesix.cli.common import CommandError, Subparsers, UsageError, number

START = "import sys; from doublesix.cli import main; sys.exit(main())"
"""How a load-test process of ``--processes`` starts (this package's command line)."""
EXTRA_SECONDS = 60.0
"""Beyond setup, play and drain: the whole run is cut off after this much more."""


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "loadtest",
        help="load a running server with socket clients that play",
        description="Start socket clients that create and join real tables of a running "
        "`doublesix serve` (bots fill the other seats) and play: each answers its turn "
        "after a human-like think time. Reports moves per second, the latency from a "
        "move to every seat having its update (p50/p99), errors, and lost or duplicated "
        "events. Only connects to this machine; stops by itself.",
    )
    parser.add_argument(
        "--url",
        action="append",
        default=None,
        help="the server, on this machine only (default http://127.0.0.1:8000); give it "
        "again for each process of a site: the clients of a table are spread over them",
    )
    parser.add_argument("--tables", type=int, default=10, help="tables (%(default)s)")
    parser.add_argument(
        "--clients",
        type=int,
        default=40,
        help="socket clients, spread over the tables (%(default)s)",
    )
    parser.add_argument(
        "--seconds",
        type=number(0, 24 * 3600, above=True),
        default=30.0,
        help="how long they play (%(default)s)",
    )
    parser.add_argument(
        "--think",
        default="0.5-2",
        metavar="LOW-HIGH",
        help="seconds a client thinks before its move, drawn evenly from the range "
        "(%(default)s); 0 plays flat out",
    )
    parser.add_argument(
        "--preset", default="draw", help="the variant the tables play (%(default)s)"
    )
    parser.add_argument(
        "--players", type=int, metavar="N", help="seats per table (default: its clients)"
    )
    parser.add_argument("--target", type=int, metavar="T", help="points that decide a game")
    parser.add_argument("--bot", default="greedy", help="the bot in the other seats (%(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the clients' choices")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        metavar="N",
        help="run the clients in N processes, each with its share of the tables, so the "
        "load test's own event loop is not the bottleneck (%(default)s)",
    )
    parser.add_argument("--report", type=Path, help=argparse.SUPPRESS)  # one of --processes
    return parser


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop where there is one (as the server): the clients' own event loop costs less of
    the cores it shares with the server it measures."""
    try:
        import uvloop
    except ImportError:  # not on this system
        return None
    return uvloop.new_event_loop


def _in_processes(args: argparse.Namespace) -> dict[str, Any]:
    """Run ``args.processes`` load tests at once, each with its share of the tables and of
    their clients (a table's clients stay in one process: one clock per latency)."""
    from doublesix.loadtest import merge

    n, tables, clients = args.processes, args.tables, args.clients
    per_table = [clients // tables + (1 if t < clients % tables else 0) for t in range(tables)]
    folder = tempfile.TemporaryDirectory(prefix="doublesix-loadtest-")
    reports = [Path(folder.name) / f"{i}.json" for i in range(n)]
    workers, start = [], 0
    for i in range(n):
        count = tables // n + (1 if i < tables % n else 0)
        share = sum(per_table[start : start + count])
        start += count
        command = [sys.executable, "-c", START, "loadtest", "--report", str(reports[i])]
        command += ["--tables", str(count), "--clients", str(share), "--processes", "1"]
        command += ["--seconds", str(args.seconds), "--think", args.think]
        command += ["--preset", args.preset, "--bot", args.bot, "--seed", str(args.seed + i)]
        for option in ("players", "target"):
            if getattr(args, option) is not None:
                command += [f"--{option}", str(getattr(args, option))]
        for url in args.url or ["http://127.0.0.1:8000"]:
            command += ["--url", url]
        workers.append(subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
    with folder:
        parts = []
        for worker, report in zip(workers, reports, strict=True):
            _, err = worker.communicate()
            if worker.returncode != 0:
                raise CommandError(f"a load-test process failed: {err.decode()[-2000:]}")
            parts.append(json.loads(report.read_text()))  # a file: a pipe may cut 64 KB
        return merge(parts)


def run(args: argparse.Namespace) -> int:
    from doublesix.loadtest import LoadConfig, LoadError, parse_think, run_load, text_report

    try:
        config = LoadConfig(
            urls=tuple(args.url or ["http://127.0.0.1:8000"]),
            tables=args.tables,
            clients=args.clients,
            seconds=args.seconds,
            think=parse_think(args.think),
            preset=args.preset,
            players=args.players,
            target=args.target,
            bot=args.bot,
            seed=args.seed,
        )
        from doublesix.loadtest import check_url

        for url in config.urls:
            check_url(url)  # before anything connects anywhere
    except LoadError as e:
        raise UsageError(str(e)) from None
    if not 1 <= args.processes <= min(config.tables, 64):
        raise UsageError(f"--processes {args.processes}: give 1 to 64, at most one per table")
    if args.processes > 1:
        figures = _in_processes(args)
        print(json.dumps(figures, indent=2) if args.json else text_report(figures))
        return 0
    config = dataclasses.replace(config, keep_latencies=args.report is not None)
    budget = 30.0 + 0.06 * config.clients + config.seconds + EXTRA_SECONDS
    try:
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            figures = runner.run(asyncio.wait_for(run_load(config), budget))
    except LoadError as e:
        raise CommandError(str(e)) from None
    except TimeoutError:
        raise CommandError(f"the load test did not end within {budget:.0f} s; stopped") from None
    if args.report is not None:  # with every latency, for the process that started this one
        args.report.write_text(json.dumps(figures))
    elif args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(text_report(figures))
    return 0
