"""``doublesix loadtest``: socket clients that play real games at a running server."""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Callable

from doublesix.cli.common import CommandError, Subparsers, UsageError, number

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
    return parser


def _loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop where there is one (as the server): the clients' own event loop costs less of
    the cores it shares with the server it measures."""
    try:
        import uvloop
    except ImportError:  # not on this system
        return None
    return uvloop.new_event_loop


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
    budget = 30.0 + 0.06 * config.clients + config.seconds + EXTRA_SECONDS
    try:
        with asyncio.Runner(loop_factory=_loop_factory()) as runner:
            figures = runner.run(asyncio.wait_for(run_load(config), budget))
    except LoadError as e:
        raise CommandError(str(e)) from None
    except TimeoutError:
        raise CommandError(f"the load test did not end within {budget:.0f} s; stopped") from None
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print(text_report(figures))
    return 0
