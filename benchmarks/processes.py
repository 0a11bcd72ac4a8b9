"""One site on one and on two server processes, measured side by side (issue 12).

    python benchmarks/processes.py > benchmarks/processes.log

Starts ``doublesix serve`` processes on a fresh database of this machine's
PostgreSQL and on its Redis, and runs ``doublesix loadtest`` against them:

1. flat out (think 0), the same load on one process and on two (the clients
   of each table spread over both), alternating, ``--rounds`` times each:
   moves per second and the latency from a move to every seat's update;
2. 2,000 clients at 500 four-player tables with a think time of 0.5–2 s for
   ``--site-seconds`` over two processes, ``--site-runs`` times: p50/p99,
   errors, lost and duplicated events (the summary gives each run and the
   median p99).

Each run is one JSON line on stdout (the loadtest's figures, with the
phase, the processes and the CPU seconds of the servers, of the load test,
of PostgreSQL and Redis, and of the whole machine, over the load test, setup
included); a summary with medians
and the ratio goes to stderr. Each line has the machine's load average at its
end (1, 5 and 15 minutes): other people's work on the machine counts in it.
The servers run with ``--no-limits`` (every client comes from 127.0.0.1) and
``--bot-delay 0``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

PG = "postgresql://postgres@127.0.0.1:5432"
REDIS = "redis://127.0.0.1:6379/0"
START = "import sys; from doublesix.cli import main; sys.exit(main())"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def admin(sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(f"{PG}/test")
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def start(db: str, log: Path, *extra: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable, "-c", START, "serve", "--port", str(port), "--db", db,
            "--redis", REDIS, "--no-limits", "--bot-delay", "0", "--think-workers", "1",
            "--log-level", "warning", *extra,
        ],
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    return serving(proc, port, log)


def serving(
    proc: subprocess.Popen[bytes], port: int, log: Path
) -> tuple[subprocess.Popen[bytes], str]:
    """The server ``proc`` once it answers on ``port``, and its URL (its output in ``log``,
    shown if it exits first)."""
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server did not start:\n{log.read_text()}")
        try:
            if httpx.get(f"{url}/api/bots", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            time.sleep(0.2)
    raise SystemExit("the server did not start in time")


def cpu_seconds(proc: subprocess.Popen[bytes]) -> float:
    """User and system CPU seconds of a running process (Linux)."""
    fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100  # utime, stime in clock ticks


def services_cpu_seconds() -> dict[str, float]:
    """CPU seconds of this machine's PostgreSQL and Redis processes, and of all its cores
    (busy, not idle or waiting for I/O), so far (Linux)."""
    totals = {"postgres": 0.0, "redis": 0.0}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # gone meanwhile
        name = text[text.index("(") + 1 : text.rindex(")")]
        fields = text.rsplit(")", 1)[1].split()
        for service in totals:
            if name.startswith(service):
                totals[service] += (int(fields[11]) + int(fields[12])) / 100
    cores = [int(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    totals["machine"] = (sum(cores) - cores[3] - cores[4]) / 100  # less idle and iowait
    return totals


def loadtest(urls: list[str], *options: str) -> dict[str, Any]:
    command = [sys.executable, "-c", START, "loadtest", "--json", *options]
    for url in urls:
        command += ["--url", url]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the load test is the one reaped
    if done.returncode != 0:
        raise SystemExit(f"loadtest failed: {done.stderr[-3000:]}")
    figures: dict[str, Any] = json.loads(done.stdout)
    used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    figures["loadtest_cpu_seconds"] = round(used, 2)
    return figures


def measure(folder: Path, processes: int, phase: str, *options: str) -> dict[str, Any]:
    """One load test on ``processes`` fresh processes, on a database of its own."""
    name = f"ds_bench_{secrets.token_hex(4)}"
    asyncio.run(admin(f"CREATE DATABASE {name}"))
    db = f"{PG}/{name}"
    servers = [start(db, folder / f"serve-{phase}-{n}.log") for n in range(processes)]
    try:
        before = [cpu_seconds(p) for p, _ in servers]
        services = services_cpu_seconds()
        figures = loadtest([url for _, url in servers], *options)
        figures["server_cpu_seconds"] = [
            round(cpu_seconds(p) - b, 2) for (p, _), b in zip(servers, before, strict=True)
        ]
        after = services_cpu_seconds()
        for key, seconds in after.items():
            figures[f"{key}_cpu_seconds"] = round(seconds - services[key], 2)
    finally:
        for proc, _ in servers:
            proc.send_signal(signal.SIGTERM)
        for proc, _ in servers:
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
        asyncio.run(admin(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
    figures["phase"], figures["processes"] = phase, processes
    figures["load_average"] = [round(x, 2) for x in os.getloadavg()]  # the machine, after
    print(json.dumps(figures), flush=True)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flat-seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=3, help="flat-out rounds (0: the site only)")
    parser.add_argument("--site-seconds", type=float, default=60.0)
    parser.add_argument(
        "--site-runs", type=int, default=1, help="2,000-client runs, one after another"
    )
    parser.add_argument("--folder", type=Path, default=Path("/tmp/doublesix-processes"))
    parser.add_argument(
        "--loadtest-processes",
        type=int,
        default=1,
        metavar="N",
        help="run each load test in N processes (doublesix loadtest --processes N)",
    )
    args = parser.parse_args()
    spread = ("--processes", str(args.loadtest_processes)) if args.loadtest_processes > 1 else ()
    args.folder.mkdir(parents=True, exist_ok=True)
    flat = (*spread, "--tables", "100", "--clients", "200", "--think", "0", "--seconds")
    results: dict[int, list[dict[str, Any]]] = {1: [], 2: []}
    for _ in range(args.rounds):
        for processes in (1, 2):
            figures = measure(args.folder, processes, "flat", *flat, str(args.flat_seconds))
            results[processes].append(figures)
    site_load = (
        "--tables", "500", "--clients", "2000", "--players", "4",
        "--think", "0.5-2", "--seconds", str(args.site_seconds), *spread,
    )  # fmt: skip
    sites = [measure(args.folder, 2, "site", *site_load) for _ in range(args.site_runs)]

    def median(processes: int, key: str) -> float:
        values = []
        for figures in results[processes]:
            value: Any = figures
            for part in key.split("."):
                value = value[part]
            values.append(float(value))
        return statistics.median(values)

    if args.rounds:
        one, two = median(1, "moves_per_second"), median(2, "moves_per_second")
        print(
            f"flat out, median of {args.rounds}: 1 process {one:.0f} moves/s "
            f"(p50 {median(1, 'latency_ms.p50'):.1f} ms, "
            f"p99 {median(1, 'latency_ms.p99'):.1f} ms), "
            f"2 processes {two:.0f} moves/s (p50 {median(2, 'latency_ms.p50'):.1f} ms, "
            f"p99 {median(2, 'latency_ms.p99'):.1f} ms): ratio {two / one:.2f}",
            file=sys.stderr,
        )
    for site in sites:
        lat = site["latency_ms"]
        print(
            f"site: {site['clients']} clients at {site['tables']} tables over 2 processes, "
            f"{site['moves_per_second']} moves/s, p50 {lat['p50']} ms, p90 {lat['p90']} ms, "
            f"p99 {lat['p99']} ms, errors {site['errors']}, lost {site['lost']}, "
            f"duplicated {site['duplicated']}; CPU s: servers "
            f"{sum(site['server_cpu_seconds']):.0f}, load test {site['loadtest_cpu_seconds']:.0f}, "
            f"machine {site['machine_cpu_seconds']:.0f}",
            file=sys.stderr,
        )
    if len(sites) > 1:
        p99s = [site["latency_ms"]["p99"] for site in sites]
        print(
            f"site, median of {len(sites)}: p99 {statistics.median(p99s)} ms "
            f"({min(p99s)}–{max(p99s)})",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
