"""A player's latency under each attack of issue 13, against a real ``doublesix serve``.

One run: the server starts (production settings: limits on, one thinking
worker), and from 127.0.0.1 two players play Draw against each other (a
move 0.2 s after their turn comes) while a third plays Draw against an
``expert`` bot with hints on. The attacks of issue 13 run one after
another, each for ``--seconds``, from other loopback addresses (127.0.0.2
and up, as other clients would). Measured per phase:

- move: from sending a move to the update of that move (the event loop), at
  both tables;
- bot: from the update of a move to the expert's reply (bot delay + search +
  pad);
- hint: from asking a hint to its answer (every third turn at the expert's
  table);
- moves made and errors (a game that stops shows as no moves);
- the machine's load average as the phase ended (others' work shows there).

    .venv/bin/python benchmarks/hostile.py --seconds 20 | tee benchmarks/hostile.log

Only connects to this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from doublesix.rules.game import Game
from doublesix.rules.record import game_record
from doublesix.rules.ruleset import preset

BOT_DELAY = "0.2"
THINK = 0.2
"""Seconds the player waits before each move."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def long_record(target: int) -> bytes:
    game = Game(preset("draw", 2, target=target), 5)
    while not game.finished:
        if game.round.ending is not None:
            game.next_round()
        else:
            game.play(game.legal_moves()[0])
    return json.dumps(game_record(game, ["Anna", "Ben"])).encode()


def client(base: str, address: str, **kw: Any) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=120, **kw)


async def new_guest(http: httpx.AsyncClient, name: str) -> None:
    http.cookies.clear()
    r = await http.post("/api/guest", json={"name": name})
    r.raise_for_status()


def pct(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


@dataclass
class Phase:
    name: str
    move: list[float] = field(default_factory=list)
    bot: list[float] = field(default_factory=list)
    hint: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    attack: dict[str, int] = field(default_factory=dict)
    load: float = 0.0
    """The machine's load average (1 minute) as the phase ended: the machine is shared."""

    def row(self) -> dict[str, Any]:
        def ms(x: float | None) -> float | None:
            return None if x is None else round(x * 1000, 1)

        return {
            "phase": self.name,
            "moves": len(self.move),
            "move_p50": ms(pct(self.move, 50)),
            "move_p99": ms(pct(self.move, 99)),
            "bot_p50": ms(pct(self.bot, 50)),
            "bot_p99": ms(pct(self.bot, 99)),
            "hint_p50": ms(pct(self.hint, 50)),
            "hint_p99": ms(pct(self.hint, 99)),
            "errors": len(self.errors),
            "load": self.load,
            "error_codes": sorted(set(self.errors)),
            "attack": self.attack,
        }


class Player:
    """A legitimate player: a move ``THINK`` after its turn comes; at the expert's table
    (``against_bot``) it times the bot's replies and asks a hint every third turn."""

    def __init__(self, ws: ClientConnection, against_bot: bool) -> None:
        self.against_bot = against_bot
        self.ws = ws
        self.version = 0
        self.view: dict[str, Any] = {}
        self.phase = Phase("setup")
        self.turns = 0

    async def frame(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(await self.ws.recv())
        return frame

    async def update(self) -> dict[str, Any]:
        while True:
            frame = await self.frame()
            if frame["type"] == "update":
                self.version, self.view = frame["version"], frame["view"]
                return frame
            if frame["type"] == "error":
                self.phase.errors.append(str(frame.get("code")))
            if frame["type"] == "snapshot":
                self.version, self.view = frame["version"], frame["view"]

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            view = self.view
            seat = view.get("seat")
            if view.get("status") == "round_over":
                if seat not in view.get("continue", []):
                    await self.press_continue(seat)
                else:
                    await self.update()
                continue
            if view.get("status") == "playing" and view.get("turn") == seat:
                await asyncio.sleep(THINK)
                self.turns += 1
                if self.against_bot and self.turns % 3 == 0:
                    await self.ask_hint()
                sent = time.perf_counter()
                move = view["legal"][0]
                frame = {"type": "play", **move, "version": self.version}
                await self.ws.send(json.dumps(frame))
                await self.update()
                moved = time.perf_counter()
                self.phase.move.append(moved - sent)
                mine = self.view.get("turn") == seat
                if self.against_bot and self.view.get("status") == "playing" and not mine:
                    await self.update()
                    self.phase.bot.append(time.perf_counter() - moved)
                continue
            await self.update()

    async def press_continue(self, seat: int) -> None:
        """Press Continue and take updates until one shows it pressed. The next update
        may be the other player's press, made before this one was: answering it with a
        second press once the next round had begun was refused ``illegal``."""
        await self.ws.send(json.dumps({"type": "continue"}))
        while True:
            await self.update()
            if self.view.get("status") != "round_over" or seat in self.view.get("continue", []):
                return

    async def ask_hint(self) -> None:
        asked = time.perf_counter()
        await self.ws.send(json.dumps({"type": "hint"}))
        while True:
            frame = await self.frame()
            if frame["type"] == "hint":
                self.phase.hint.append(time.perf_counter() - asked)
                return
            if frame["type"] == "update":  # the view follows it while the hint is awaited
                self.version, self.view = frame["version"], frame["view"]
            if frame["type"] == "error":
                self.phase.errors.append(str(frame.get("code")))
                return


Attack = Callable[["Run", asyncio.Event, dict[str, int]], Awaitable[None]]


class Run:
    """What an attack needs: the server, a long record, addresses of its own."""

    def __init__(self, base: str, record: bytes, first_address: int) -> None:
        self.base = base
        self.ws = base.replace("http://", "ws://")
        self.record = record
        self.first = first_address
        self.taken = 0

    def address(self) -> str:
        """A loopback address for the next attacking client: 20 per attack, in turn."""
        found = f"127.0.0.{self.first + self.taken % 20}"
        self.taken += 1
        return found


def count(stats: dict[str, int], key: str) -> None:
    stats[key] = stats.get(key, 0) + 1


async def repeat(
    stop: asyncio.Event, stats: dict[str, int], work: Callable[[], Awaitable[str]]
) -> None:
    while not stop.is_set():
        try:
            count(stats, await work())
        except (httpx.HTTPError, OSError, WebSocketException) as e:
            count(stats, type(e).__name__)
            await asyncio.sleep(0.05)


async def uploads(run: Run, stop: asyncio.Event, stats: dict[str, int]) -> None:
    """Three clients post a 1.4 MB record (a game to 10,000) in a loop."""

    async def one() -> None:
        async with client(run.base, run.address()) as http:

            async def post() -> str:
                r = await http.post("/api/records", content=run.record)
                return str(r.status_code)

            await repeat(stop, stats, post)

    await asyncio.gather(*(one() for _ in range(3)))


async def bodies(run: Run, stop: asyncio.Event, stats: dict[str, int]) -> None:
    """Declared 300 MB bodies, 60 MB streamed to /api/guest, and deeply nested JSON."""
    host, port = run.base.removeprefix("http://").split(":")

    async def declared() -> str:
        reader, writer = await asyncio.open_connection(
            host, int(port), local_addr=(run.address(), 0)
        )
        head = f"POST /api/records HTTP/1.1\r\nHost: {host}\r\nContent-Length: 300000000\r\n"
        writer.write(head.encode() + b"\r\n")
        await writer.drain()
        line = await reader.readline()
        writer.close()
        return line.decode().split(" ")[1] if line else "closed"

    async def streamed() -> str:
        async def body() -> Any:
            for _ in range(60 * 16):
                yield b"x" * 65536

        async with client(run.base, run.address()) as http:
            r = await http.post("/api/guest", content=body())
            return str(r.status_code)

    async def nested() -> str:
        async with client(run.base, run.address()) as http:
            r = await http.post("/api/tables", content=b"[" * 1000)
            return str(r.status_code)

    await asyncio.gather(
        repeat(stop, stats, declared), repeat(stop, stats, streamed), repeat(stop, stats, nested)
    )


async def hint_flood(run: Run, stop: asyncio.Event, stats: dict[str, int]) -> None:
    """Twenty sockets of one seat ask hints as fast as the server lets them."""
    address = run.address()
    async with client(run.base, address) as http:
        await new_guest(http, "Flood")
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        body = {"preset": "draw", "seats": seats, "hints": True, "options": {"target": 10000}}
        table = (await http.post("/api/tables", json=body)).json()

    async def flood() -> None:
        async with connect(
            f"{run.ws}/ws/table/{table['id']}", local_addr=(address, 0), max_size=2**22
        ) as ws:
            await ws.send(json.dumps({"type": "hello", "token": table["token"], "since": None}))

            async def ask() -> None:
                while not stop.is_set():
                    await ws.send(json.dumps({"type": "hint"}))
                    count(stats, "asked")
                    await asyncio.sleep(0.05)

            asker = asyncio.create_task(ask())
            with contextlib.suppress(WebSocketException, TimeoutError):
                while not stop.is_set():
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 1))
                    count(stats, frame.get("code") or frame["type"])
            asker.cancel()

    await asyncio.gather(*(flood() for _ in range(20)))


async def abandoned(run: Run, stop: asyncio.Event, stats: dict[str, int]) -> None:
    """Ten tables of three expert bots and a human who left, to an endless target."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "expert"}] * 3
    body = {"preset": "kozel", "seats": seats, "options": {"target": 10000}}
    for g in range(2):
        async with client(run.base, run.address()) as http:
            await new_guest(http, f"Gone {g}")
            for _ in range(5):
                count(stats, str((await http.post("/api/tables", json=body)).status_code))
    await stop.wait()


async def reviews(run: Run, stop: asyncio.Event, stats: dict[str, int]) -> None:
    """Eight clients ask reviews of a long record in a loop."""

    async def one(n: int) -> None:
        async with client(run.base, run.address()) as http:

            async def post() -> str:
                r = await http.post(
                    "/api/records/review", params={"seat": n % 2}, content=run.record
                )
                return str(r.status_code)

            await repeat(stop, stats, post)

    await asyncio.gather(*(one(n) for n in range(8)))


async def half_open(run: Run, stop: asyncio.Event, stats: dict[str, int]) -> None:
    """A thousand half-sent requests from one address, again as they are closed."""
    host, port = run.base.removeprefix("http://").split(":")
    address = run.address()

    async def hold() -> str:
        reader, writer = await asyncio.open_connection(host, int(port), local_addr=(address, 0))
        writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
        line = await reader.readline()
        writer.close()
        return line.decode().split(" ")[1] if line else "closed"

    await asyncio.gather(*(repeat(stop, stats, hold) for _ in range(1000)))


async def sockets(run: Run, stop: asyncio.Event, stats: dict[str, int]) -> None:
    """Three thousand spectator sockets from one address."""
    address = run.address()
    async with client(run.base, address) as http:
        table = (await http.get("/api/tables")).json()["playing"][0]["id"]

    async def watch() -> str:
        async with connect(f"{run.ws}/ws/table/{table}", local_addr=(address, 0)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": None, "since": None}))
            while not stop.is_set():
                await asyncio.wait_for(ws.recv(), 5)
        return "held"

    async def one() -> None:
        await repeat(stop, stats, watch)

    await asyncio.gather(*(one() for _ in range(3000)))


async def tables(run: Run, stop: asyncio.Event, stats: dict[str, int]) -> None:
    """One client makes guests and tables as fast as it may."""
    async with client(run.base, run.address()) as http:
        n = 0

        async def make() -> str:
            nonlocal n
            n += 1
            if n % 6 == 1:
                r = await http.post("/api/guest", json={"name": f"Spam {n}"})
                if r.status_code != 200:
                    return f"guest {r.status_code}"
            r = await http.post("/api/tables", json={"preset": "draw"})
            return str(r.status_code)

        await repeat(stop, stats, make)


async def requests(run: Run, stop: asyncio.Event, stats: dict[str, int]) -> None:
    """Fifty clients of one address ask for the lobby as fast as they can."""
    async with client(run.base, run.address()) as http:

        async def ask() -> str:
            return str((await http.get("/api/tables")).status_code)

        await asyncio.gather(*(repeat(stop, stats, ask) for _ in range(50)))


ATTACKS: dict[str, Attack] = {
    "uploads (3 clients, 1.4 MB records)": uploads,
    "bodies (300 MB declared, 60 MB streamed, nested JSON)": bodies,
    "hint flood (20 sockets of one seat)": hint_flood,
    "10 abandoned tables of 3 experts": abandoned,
    "reviews (8 clients, long records)": reviews,
    "1,000 half-sent requests": half_open,
    "3,000 spectator sockets": sockets,
    "table spam (guests and tables)": tables,
    "request flood (50 clients)": requests,
}


async def attack_alone(name: str, base: str, seconds: float, first_address: int) -> None:
    """Run one attack for ``seconds`` (in a process of its own); print what it met."""
    run = Run(base, long_record(10_000), first_address)
    stop = asyncio.Event()
    stats: dict[str, int] = {}
    task = asyncio.create_task(ATTACKS[name](run, stop, stats))
    await asyncio.sleep(seconds)
    stop.set()
    task.cancel()
    with contextlib.suppress(BaseException):
        await asyncio.wait_for(task, 10)
    print(json.dumps(stats), flush=True)


async def sit(ws: str, table: dict[str, Any], token: str, against_bot: bool) -> Player:
    """A player's socket at ``table``, greeted."""
    socket_ = await connect(f"{ws}/ws/table/{table['id']}", local_addr=("127.0.0.1", 0))
    player = Player(socket_, against_bot)
    await socket_.send(json.dumps({"type": "hello", "token": token, "since": None}))
    first = await player.frame()
    player.version, player.view = first["version"], first["view"]
    return player


async def measure(
    base: str, seconds: float, only: list[str], attacker_nice: int = 0
) -> list[Phase]:
    ws = base.replace("http://", "ws://")
    async with client(base, "127.0.0.1") as http:
        await new_guest(http, "Player")
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "expert"}]
        body = {"preset": "draw", "seats": seats, "hints": True, "options": {"target": 10000}}
        expert = (await http.post("/api/tables", json=body)).json()
        await new_guest(http, "Anna")
        seats = [{"kind": "human"}, {"kind": "open"}]
        body = {"preset": "draw", "seats": seats, "options": {"target": 10000}}
        humans = (await http.post("/api/tables", json=body)).json()
        await new_guest(http, "Ben")
        ben = (await http.post(f"/api/tables/{humans['id']}/join", json={})).json()
    players = [
        await sit(ws, expert, expert["token"], True),
        await sit(ws, humans, humans["token"], False),
        await sit(ws, humans, ben["token"], False),
    ]
    phases: list[Phase] = []
    names = ["quiet", *[a for a in ATTACKS if not only or any(o in a for o in only)]]
    for n, name in enumerate(names):
        phase = Phase(name)
        attacker = None
        if name != "quiet":
            attacker = await asyncio.create_subprocess_exec(
                "nice",
                "-n",
                str(attacker_nice),
                sys.executable,
                __file__,
                "--attack",
                name,
                "--url",
                base,
                "--seconds",
                str(seconds + 2),
                "--first-address",
                str(2 + 20 * (n - 1)),
                stdout=asyncio.subprocess.PIPE,
            )
            await asyncio.sleep(2)  # the attack is under way
        stop = asyncio.Event()
        for player in players:
            player.phase = phase
        playing = [asyncio.create_task(p.play(stop)) for p in players]
        await asyncio.sleep(seconds)
        stop.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*playing), 60)
        if attacker is not None:
            out, _ = await attacker.communicate()
            with contextlib.suppress(ValueError, IndexError):
                phase.attack = json.loads(out.decode().strip().splitlines()[-1])
        phase.load = round(os.getloadavg()[0], 1)
        phases.append(phase)
        print(json.dumps(phase.row()), flush=True)
        await asyncio.sleep(3)  # the server settles
    for player in players:
        await player.ws.close()
    return phases


def table(phases: list[Phase]) -> str:
    quiet = phases[0].row()
    lines = [
        "| phase | moves | move p50 ms | move p99 ms | p99 / quiet | bot reply p50 / p99 ms"
        " | hint p50 / p99 ms | errors | load |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for phase in phases:
        r = phase.row()
        ratio = (
            f"{r['move_p99'] / quiet['move_p99']:.1f}×"
            if r["move_p99"] and quiet["move_p99"]
            else "–"
        )
        lines.append(
            f"| {r['phase']} | {r['moves']} | {r['move_p50']} | {r['move_p99']} | {ratio} "
            f"| {r['bot_p50']} / {r['bot_p99']} | {r['hint_p50']} / {r['hint_p99']} "
            f"| {r['errors']} | {r['load']} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds per phase")
    parser.add_argument("--only", action="append", default=[], help="attacks whose name has this")
    parser.add_argument(
        "--attacker-nice",
        type=int,
        default=0,
        help="the attack processes' niceness: 19 gives the server and the players the CPU "
        "first, as an attacker on another machine would (default %(default)s: they share it)",
    )
    parser.add_argument("--attack", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--first-address", type=int, default=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.attack:
        asyncio.run(attack_alone(args.attack, args.url, args.seconds, args.first_address))
        return 0
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "serve.log"
        command = [
            sys.executable,
            "-c",
            "import sys; from doublesix.cli import main; sys.exit(main())",
            "serve",
            "--port",
            str(port),
            "--db",
            str(Path(folder) / "bench.sqlite3"),
            "--bot-delay",
            BOT_DELAY,
            "--think-workers",
            "1",
            "--log-level",
            "warning",
        ]
        server = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(base + "/api/bots", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    print(log.read_text(), file=sys.stderr)
                    return 1
                time.sleep(0.2)
            print(
                f"# doublesix benchmarks/hostile.py --seconds {args.seconds:g} "
                f"--attacker-nice {args.attacker_nice}: "
                f"{platform.python_version()}, {os.cpu_count()} cores, "
                f"load {os.getloadavg()[0]:.1f}, bot delay {BOT_DELAY} s, think {THINK} s",
                flush=True,
            )
            phases = asyncio.run(measure(base, args.seconds, args.only, args.attacker_nice))
            print(table(phases))
            print(
                f"# server log: {len(log.read_text().splitlines())} lines; load after "
                f"{os.getloadavg()[0]:.1f}; what each attack met: the JSON lines above"
            )
        finally:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                print("# the server did not stop within 30 s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
