"""What ``serve --metrics`` costs: one server with and one without it, side by side.

    .venv/bin/python benchmarks/metrics_cost.py > benchmarks/metrics_cost.log

Starts ``doublesix serve`` (one process, SQLite in a temporary folder, ``--no-limits``,
``--bot-delay 0``) without and with ``--metrics``, alternating (without first in one pair,
with first in the next), ``--pairs`` times each, and measures each one in two phases:

1. HTTP: ``--clients`` connections asking ``GET /api/bots`` (the cheapest route: what
   the middleware adds to every request weighs most there) for ``--http-seconds``;
   requests per second and the server's CPU microseconds a request;
2. play: ``doublesix loadtest`` flat out (think 0, 50 tables, 100 clients) for
   ``--play-seconds``: moves per second, p50/p99 of a move's latency, and the server's
   CPU milliseconds a move (its tables' set-up included; the table commands, group
   commits and bots are counted on that path).

With ``--metrics``, ``/metrics`` is scraped every ``--scrape-seconds`` meanwhile (a
Prometheus scrapes every 15 to 60 s), so its cost is in the figures. Each run is one
JSON line; then the medians of each side and their ratio (with / without). The first
line is the command and the machine's load average before the runs.

What is counted costs less than a shared machine's noise between runs, so it is also
measured alone, last, in a process of its own, with one process's metrics and in
``--workers N``'s multiprocess mode (values written to files): the microseconds
``HttpMetrics`` adds to a request to an app that answers at once, and those of counting a
table's command, a group commit and a bot's move.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from processes import START, cpu_seconds, free_port, loadtest, serving

WARM_UP_SECONDS = 1.0
"""Requests before each HTTP phase, not counted: a server's first ones are slow."""


def start(folder: Path, metrics: str | None) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    extra = [] if metrics is None else ["--metrics", metrics]
    proc = subprocess.Popen(
        [
            sys.executable, "-c", START, "serve", "--port", str(port),
            "--db", str(folder / "games.sqlite3"), "--no-limits", "--bot-delay", "0",
            "--think-workers", "1", "--log-level", "warning", *extra,
        ],
        stdout=(folder / "serve.log").open("wb"),
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    return serving(proc, port, folder / "serve.log")


async def ask(url: str, clients: int, seconds: float) -> int:
    """``GET /api/bots`` from ``clients`` connections for ``seconds``: how many answered."""
    answered = 0
    stop = time.monotonic() + seconds

    async def client(http: httpx.AsyncClient) -> None:
        nonlocal answered
        while time.monotonic() < stop:
            (await http.get("/api/bots")).raise_for_status()
            answered += 1

    limits = httpx.Limits(max_connections=clients)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=30) as http:
        await asyncio.gather(*(client(http) for _ in range(clients)))
    return answered


class Scraper(threading.Thread):
    """Scrapes ``url`` every ``seconds`` until stopped; how many times it did."""

    def __init__(self, url: str, seconds: float) -> None:
        super().__init__(daemon=True)
        self.url, self.seconds = url, seconds
        self.scrapes = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(self.seconds):
            httpx.get(self.url, timeout=10).raise_for_status()
            self.scrapes += 1


def measure(args: argparse.Namespace, metrics: bool) -> dict[str, Any]:
    address = f"127.0.0.1:{free_port()}"
    with tempfile.TemporaryDirectory(prefix="doublesix-metrics-cost-") as folder:
        proc, url = start(Path(folder), address if metrics else None)
        scraper = Scraper(f"http://{address}/metrics", args.scrape_seconds)
        if metrics:
            scraper.start()
        try:
            asyncio.run(ask(url, args.clients, WARM_UP_SECONDS))
            before = cpu_seconds(proc)
            answered = asyncio.run(ask(url, args.clients, args.http_seconds))
            http_cpu = cpu_seconds(proc) - before
            before = cpu_seconds(proc)
            play = loadtest(
                [url], "--tables", "50", "--clients", "100", "--think", "0",
                "--seconds", str(args.play_seconds),
            )  # fmt: skip
            play_cpu = cpu_seconds(proc) - before
        finally:
            scraper.done.set()
            proc.terminate()
            proc.wait(30)
    moves = play["moves_per_second"] * args.play_seconds
    return {
        "metrics": metrics,
        "requests_per_second": round(answered / args.http_seconds, 1),
        "cpu_us_per_request": round(1e6 * http_cpu / answered, 1),
        "moves_per_second": play["moves_per_second"],
        "latency_ms": play["latency_ms"],
        "errors": play["errors"],
        "cpu_ms_per_move": round(1e3 * play_cpu / moves, 3),
        "scrapes": scraper.scrapes,
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }


KEYS = ("requests_per_second", "cpu_us_per_request", "moves_per_second", "cpu_ms_per_move")


def summary(runs: list[dict[str, Any]]) -> None:
    sides = {side: [r for r in runs if r["metrics"] is side] for side in (False, True)}
    for key in (*KEYS, "p50_ms", "p99_ms"):

        def figure(run: dict[str, Any], key: str = key) -> float:
            if key.endswith("_ms"):
                return float(run["latency_ms"][key.removesuffix("_ms")])
            return float(run[key])

        off, on = (statistics.median(figure(r) for r in sides[side]) for side in (False, True))
        print(
            f"{key:<20} without {off:>8.4g}  with {on:>8.4g}  ratio {on / off:.3f} "
            f"(medians of {len(sides[False])} and {len(sides[True])})"
        )


def middleware_us(calls: int = 20_000) -> float:
    """Microseconds ``HttpMetrics`` adds to a request to an app that answers at once (the
    median of 5 rounds of ``calls`` requests each way)."""
    from starlette.routing import Route
    from starlette.types import Message, Receive, Scope, Send

    from doublesix.server.metrics import HttpMetrics

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"[]"})

    async def receive() -> Message:
        return {"type": "http.request", "body": b""}

    async def send(message: Message) -> None:
        return None

    route = Route("/api/tables/{table_id}", app)
    scope = {"type": "http", "method": "GET", "path": "/api/tables/x", "route": route}
    counted = HttpMetrics(app)

    async def timed(handler: Any) -> float:
        started = time.perf_counter()
        for _ in range(calls):
            await handler(scope, receive, send)
        return time.perf_counter() - started

    async def rounds() -> list[float]:
        return [await timed(counted) - await timed(app) for _ in range(5)]

    return 1e6 * statistics.median(asyncio.run(rounds())) / calls


def counting_us(calls: int = 100_000) -> dict[str, float]:
    """Microseconds of what a move counts: a table's command, a group commit, a bot's move."""
    from doublesix.server.metrics import BOT_SECONDS, TABLE_COMMANDS, group_committed

    def per_call(count: Callable[[], None]) -> float:
        return round(1e6 * timeit.timeit(count, number=calls) / calls, 2)

    return {
        "command_us": per_call(lambda: TABLE_COMMANDS.labels("Play", "applied").inc()),
        "group_commit_us": per_call(lambda: group_committed(4, 0.002)),
        "bot_move_us": per_call(lambda: BOT_SECONDS.labels("greedy").observe(0.01)),
    }


def alone() -> dict[str, dict[str, float]]:
    """``--alone`` in a fresh process: with one process's metrics, and in multiprocess mode."""
    figures = {}
    for mode in ("one_process", "multiprocess"):
        with tempfile.TemporaryDirectory(prefix="doublesix-metrics-cost-") as folder:
            env = dict(os.environ)
            if mode == "multiprocess":
                env["PROMETHEUS_MULTIPROC_DIR"] = folder
            done = subprocess.run(
                [sys.executable, __file__, "--alone"],
                env=env, capture_output=True, text=True, check=True,
            )  # fmt: skip
            figures[mode] = json.loads(done.stdout)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--http-seconds", type=float, default=6.0)
    parser.add_argument("--play-seconds", type=float, default=8.0)
    parser.add_argument("--scrape-seconds", type=float, default=5.0)
    parser.add_argument(
        "--alone",
        action="store_true",
        help="only measure the middleware and the counting alone, in this process",
    )
    args = parser.parse_args()
    if args.alone:
        print(json.dumps({"middleware_us": round(middleware_us(), 2), **counting_us()}))
        return
    load = [round(x, 2) for x in os.getloadavg()]
    print(f"# .venv/bin/python benchmarks/metrics_cost.py {' '.join(sys.argv[1:])}".rstrip())
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load average {load}")
    runs = []
    for pair in range(args.pairs):
        for metrics in (False, True) if pair % 2 == 0 else (True, False):
            runs.append(measure(args, metrics))
            print(json.dumps(runs[-1]), flush=True)
    measured_alone = alone()
    print(json.dumps(measured_alone))
    summary(runs)
    for mode, figures in measured_alone.items():
        print(
            f"alone ({mode}): the middleware {figures['middleware_us']} µs a request; "
            f"a command {figures['command_us']} µs, a group commit "
            f"{figures['group_commit_us']} µs, a bot's move {figures['bot_move_us']} µs"
        )


if __name__ == "__main__":
    main()
