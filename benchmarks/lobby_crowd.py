"""What one player coming to a crowded lobby costs: frames, bytes, time and server CPU.

    python benchmarks/lobby_crowd.py --players 100 250 500 --arrivals 5 [--source DIR ...]

For each crowd size N it starts ``doublesix serve`` (SQLite, ``--no-limits``), opens N lobby
sockets as named guests and waits until the lobby is quiet; then players arrive one at a
time (and leave again). For each arrival it measures what the N sockets already there
receive until every one of them has heard of the newcomer: the bytes, the frames, the time
from the newcomer's socket opening until the last of them heard, and the CPU time the
server's process spent meanwhile (user + system, from /proc). It prints the medians over
the arrivals, one line a crowd size; ``--json`` prints every measurement. Each ``--source``
is a checkout whose ``src`` the server runs (``PYTHONPATH``; without one, the installed
package), each crowd size played on every source in turn, so two versions are measured
side by side in one run.

Guests only: an account's entry in the list of who is online also carries its ratings, some
five times a guest's bytes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of the process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


@dataclass
class Listener:
    """One lobby socket: what it received, and when it first heard of each name."""

    ws: ClientConnection
    bytes: int = 0
    frames: int = 0
    heard: dict[str, float] = field(default_factory=dict)
    gone: dict[str, float] = field(default_factory=dict)

    async def listen(self) -> None:
        async for text in self.ws:
            now = time.perf_counter()
            self.bytes += len(text)
            self.frames += 1
            frame = json.loads(text)
            if frame["type"] not in ("welcome", "online"):
                continue
            for p in frame.get("players", []) + frame.get("added", []):
                self.heard.setdefault(p["name"], now)
            for p in frame.get("removed", []):  # the changes only, as the lobby sends them now
                self.gone.setdefault(p["name"], now)
            if frame["type"] == "online" and "players" in frame:  # the whole list each time
                names = {p["name"] for p in frame["players"]}
                for name in self.heard:
                    if name not in names:
                        self.gone.setdefault(name, now)


@dataclass(frozen=True)
class Mark:
    """Where the crowd's counts and the server's CPU stood when something began."""

    at: float
    bytes: int
    frames: int
    cpu: float

    @classmethod
    def now(cls, crowd: list[Listener], pid: int) -> Mark:
        bytes_, frames = sum(c.bytes for c in crowd), sum(c.frames for c in crowd)
        return cls(time.perf_counter(), bytes_, frames, cpu_seconds(pid))

    def until(self, crowd: list[Listener], pid: int, last: float) -> dict[str, Any]:
        """What it cost from this mark on, the last socket told at ``last``."""
        later = Mark.now(crowd, pid)
        return {
            "seconds": last - self.at,
            "bytes": later.bytes - self.bytes,
            "frames": later.frames - self.frames,
            "cpu": later.cpu - self.cpu,
        }


async def all_told(crowd: list[Listener], what: str, name: str) -> float:
    """When the last socket of the crowd had ``name`` in its ``heard`` (or ``gone``)."""
    while not all(name in getattr(c, what) for c in crowd):
        await asyncio.sleep(0.01)
    return max(getattr(c, what)[name] for c in crowd)


async def arrive(base: str, port: int, name: str) -> tuple[Listener, asyncio.Task[None]]:
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.post("/api/guest", json={"name": name})
        r.raise_for_status()
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    ws = await connect(
        f"ws://127.0.0.1:{port}/ws/lobby",
        additional_headers={"Cookie": cookie, "Origin": base},
        max_size=2**24,
    )
    listener = Listener(ws)
    return listener, asyncio.create_task(listener.listen())


async def quiet(crowd: list[Listener], seconds: float = 1.0) -> None:
    """Until no socket of the crowd received a frame for ``seconds``."""
    last = -1
    while True:
        await asyncio.sleep(seconds)
        now = sum(c.frames for c in crowd)
        if now == last:
            return
        last = now


async def measure(players: int, arrivals: int, source: str | None) -> list[dict[str, Any]]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite+aiosqlite:///{tmp}/crowd.sqlite3"
        command = [sys.executable, "-c", "from doublesix.cli import main; main()", "serve"]
        server = subprocess.Popen(
            [*command, "--port", str(port), "--log-level", "warning", "--db", db, "--no-limits"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=os.environ | ({"PYTHONPATH": f"{source}/src"} if source else {}),
        )
        tasks: list[asyncio.Task[None]] = []
        try:
            async with httpx.AsyncClient(base_url=base) as http:
                for _ in range(200):
                    try:
                        if (await http.get("/api/health")).status_code == 200:
                            break
                    except httpx.TransportError:
                        pass
                    await asyncio.sleep(0.05)
            crowd: list[Listener] = []
            for start in range(0, players, 25):
                batch = await asyncio.gather(
                    *(
                        arrive(base, port, f"P{i:04d}")
                        for i in range(start, min(players, start + 25))
                    )
                )
                crowd += [listener for listener, _ in batch]
                tasks += [task for _, task in batch]
            await quiet(crowd)
            rows = []
            for k in range(arrivals):
                name = f"New{k:02d}"
                start = Mark.now(crowd, server.pid)
                newcomer, task = await arrive(base, port, name)
                tasks.append(task)
                last = await all_told(crowd, "heard", name)
                await quiet(crowd, 0.5)
                rows.append(start.until(crowd, server.pid, last) | {"event": "arrival"})
                start = Mark.now(crowd, server.pid)
                await newcomer.ws.close()
                last = await all_told(crowd, "gone", name)
                await quiet(crowd, 0.5)
                rows.append(start.until(crowd, server.pid, last) | {"event": "departure"})
            for row in rows:
                row |= {"source": source, "players": players}
            for c in crowd:
                await c.ws.close()
            return rows
        finally:
            for task in tasks:
                task.cancel()
            server.terminate()
            server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[100, 250, 500])
    parser.add_argument("--arrivals", type=int, default=5)
    parser.add_argument("--source", action="append", default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    head = "crowd  event      median: seconds  bytes to the crowd  frames  server CPU s"
    print(f"{'source':22s} {head}")
    for n in args.players:
        for source in args.source or [None]:
            found = asyncio.run(measure(n, args.arrivals, source))
            rows += found
            for event in ("arrival", "departure"):
                mine = [r for r in found if r["event"] == event]

                def med(key: str, mine: list[dict[str, Any]] = mine) -> float:
                    return float(statistics.median(r[key] for r in mine))

                print(
                    f"{source or 'installed'!s:22s} {n:5d}  {event:9s}  {med('seconds'):15.3f}"
                    f"  {med('bytes'):18.0f}  {med('frames'):6.0f}  {med('cpu'):12.3f}",
                    flush=True,
                )
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
