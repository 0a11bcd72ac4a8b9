"""Load on a running server: socket clients that play real games, and what they measured.

``run_load(LoadConfig(...))`` creates guests and tables over HTTP (the
clients take the first seats of each table; bots fill the others), opens one
socket per client and plays: each client answers its turn (a move, or
Continue after a round) after a think time drawn from ``think``, until
``seconds`` have passed. A game that ends is followed by a new table for the
same clients. Then the clients stop, wait until every update of their table
has reached them, and close.

Measured:

- moves: tiles played at the tables (by clients and by bots) per second;
- latency: from a client sending a command to every client of its table
  having the update it caused (one clock: all clients live in this process;
  with several ``urls``, the clients of a table talk to different processes);
- errors: error frames (``rate_limited`` is counted apart: the client waits
  and sends again), refused requests, sockets that failed or closed early;
- lost and duplicated events: every client checks that the versions it gets
  go 1, 2, 3, ... (a gap is lost events, a repeat a duplicate), and at the
  end that it has the table's last version.

It only ever connects to this machine (``check_url``), and it stops by itself:
setup, play and drain each have a deadline. Requests go through ``httpx``, the
sockets through ``websockets``. Many clients come from one address: the server
must run without its limits per address (``serve --no-limits``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import ipaddress
import json
import random
import socket
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any
from urllib.parse import urlsplit

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from doublesix.collection import FullCollections
from doublesix.rules.ruleset import PRESETS

DRAIN_SECONDS = 5.0
"""After the play time: how long clients wait for the updates still on their way."""
CONNECTS_AT_ONCE = 50
"""Requests and socket handshakes in flight at the same time during setup."""
KEEPALIVE_SECONDS = 2.0
"""How long an idle HTTP connection is kept for the next request (below ``serve``'s 5 s)."""
RETRY_SECONDS = 0.25
"""A rate-limited client waits this long before it sends its command again."""


class LoadError(Exception):
    """The load test cannot run as asked (a bad option, no server at the URL)."""


@dataclass(frozen=True)
class LoadConfig:
    urls: tuple[str, ...] = ("http://127.0.0.1:8000",)
    """The server's processes: the clients of each table are spread over them in turn."""
    tables: int = 10
    clients: int = 40
    seconds: float = 30.0
    think: tuple[float, float] = (0.5, 2.0)
    preset: str = "draw"
    players: int | None = None
    """Seats at each table; default: enough for its clients (at least the preset's fewest)."""
    target: int | None = None
    bot: str = "greedy"
    setup_seconds: float | None = None
    """The deadline of creating the tables and connecting; default: grows with the clients."""
    seed: int = 0
    keep_latencies: bool = False
    """Report every latency too (``latencies_ms``), for ``merge`` of several processes."""


def parse_think(text: str) -> tuple[float, float]:
    """``"0.5-2"`` → (0.5, 2.0); ``"0"`` → (0.0, 0.0)."""
    try:
        low, dash, high = text.partition("-")
        a = float(low)
        b = float(high) if dash else a
    except ValueError:
        raise LoadError(f"--think {text!r}: seconds, or a range like 0.5-2") from None
    if not 0 <= a <= b <= 600:
        raise LoadError(f"--think {text!r}: 0 <= low <= high <= 600 seconds")
    return a, b


def check_url(url: str) -> tuple[str, int, str]:
    """(host, port, base path) of ``url``; LoadError unless it is http:// on this machine.

    A load test is an attack on anyone else's server: only loopback addresses
    (127.0.0.0/8, ::1) and names that resolve to nothing else are allowed.
    """
    parts = urlsplit(url)
    if parts.scheme != "http":
        raise LoadError(f"--url {url!r}: only http://127.0.0.1:PORT (or localhost) is allowed")
    host = parts.hostname
    if not host:
        raise LoadError(f"--url {url!r}: no host")
    try:
        port = parts.port or 80
    except ValueError:
        raise LoadError(f"--url {url!r}: not a port") from None
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        if host.lower() != "localhost":
            raise LoadError(
                f"--url {url!r}: a load test only runs against this machine "
                "(127.0.0.1, ::1 or localhost)"
            ) from None
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except OSError as e:
            raise LoadError(f"--url {url!r}: {e}") from None
        addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]
    if not addresses or not all(a.is_loopback for a in addresses):
        raise LoadError(f"--url {url!r}: {host} is not a loopback address of this machine")
    return host, port, parts.path.rstrip("/")


# --- the run -------------------------------------------------------------------------


@dataclass
class Stats:
    moves: int = 0
    commands: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    rate_limited: int = 0
    lost: int = 0
    duplicated: int = 0
    frames: int = 0
    games_finished: int = 0
    connected: int = 0


class _Table:
    """One table of the run: its clients, and when each of their commands was sent."""

    def __init__(self, run: _Run, table_id: str, clients: list[_Client]) -> None:
        self.run = run
        self.id = table_id
        self.clients = clients
        self.sent: dict[int, float] = {}
        """Version a command will make → when it was sent."""
        self.arrived: dict[int, int] = {}
        """Version → how many clients have it."""
        self.counted = 0
        """The last version whose moves are counted."""

    def got(self, version: int, events: list[dict[str, Any]], now: float) -> None:
        if version > self.counted:
            self.counted = version
            self.run.stats.moves += sum(1 for e in events if "play" in e)
        n = self.arrived.get(version, 0) + 1
        if n < len(self.clients):
            self.arrived[version] = n
            return
        self.arrived.pop(version, None)
        sent = self.sent.pop(version, None)
        if sent is not None and self.run.measuring:
            self.run.stats.latencies.append(now - sent)


class _Client:
    def __init__(self, run: _Run, name: str, server: _Server) -> None:
        self.run = run
        self.name = name
        self.server = server
        """The process this client talks to."""
        self.cookie: str | None = None
        self.token: str | None = None
        self.table: _Table | None = None
        self.ws: ClientConnection | None = None
        self.version = 0
        self.view: dict[str, Any] = {}
        self.acted_at = -1
        """The version at which this client last sent a command."""
        self.continued = 0
        """The round after which this client pressed Continue."""
        self.expects: int | None = None
        """The version its last move will make, while it is measured."""
        self.rng = random.Random(f"{run.config.seed}-{name}")

    @property
    def seat(self) -> int | None:
        seat = self.view.get("seat")
        return seat if isinstance(seat, int) else None

    async def play(self) -> None:
        """Read frames and answer turns until the run stops or the game ends."""
        ws = self.ws
        assert ws is not None and self.table is not None
        try:
            async for message in ws:
                now = time.perf_counter()
                self.run.stats.frames += 1
                frame = orjson.loads(message)
                self._take(frame, now)
                if self.run.stopping.is_set():
                    if self._caught_up():
                        return
                    continue
                if self.view.get("status") == "finished":
                    return
                self._maybe_act()
        except (WebSocketException, OSError) as e:
            if not self.run.closing:
                self.run.stats.errors[_socket_error(e)] += 1

    def _caught_up(self) -> bool:
        """Whether this client has its table's last version (known once the run stopped and
        asked every table for it; until then, it reads on)."""
        table = self.table
        if table is None:
            return True
        final = self.run.final.get(table.id)
        return final is not None and self.version >= final

    def _take(self, frame: dict[str, Any], now: float) -> None:
        kind = frame.get("type")
        stats = self.run.stats
        if kind == "update":
            v = frame["version"]
            if v <= self.version:
                stats.duplicated += 1
                return
            if v > self.version + 1:
                stats.lost += v - self.version - 1
            self.version = v
            if "view" in frame:
                self.view = frame["view"]
            assert self.table is not None
            self.table.got(v, frame.get("events", []), now)
        elif kind == "snapshot":
            self.version = frame["version"]
            self.view = frame["view"]
        elif kind == "error":
            code = str(frame.get("code"))
            if code == "rate_limited":  # it was not taken: send it again, a little later
                stats.rate_limited += 1
                asyncio.get_running_loop().call_later(RETRY_SECONDS, self._retry)
            else:
                stats.errors[code] += 1
                if self.expects is not None and self.table is not None:
                    self.table.sent.pop(self.expects, None)
                if code == "stale":
                    self.acted_at = -1

    def _retry(self) -> None:
        self.acted_at = -1
        self.continued = 0
        if not self.run.stopping.is_set():
            self._maybe_act()

    def _maybe_act(self) -> None:
        view = self.view
        status = view.get("status")
        if status == "playing":
            mine = view.get("turn") == self.seat
        else:  # Continue once a round (pressing again would be refused or ignored)
            mine = status == "round_over" and self.continued != view.get("round")
            mine = mine and self.seat not in view.get("continue", [])
        if mine and self.acted_at != self.version:
            self.acted_at = self.version
            if status == "round_over":
                self.continued = view.get("round", 0)
            asyncio.get_running_loop().create_task(self._act(self.version))

    async def _act(self, version: int) -> None:
        low, high = self.run.config.think
        think = self.rng.uniform(low, high)
        if think > 0:
            await asyncio.sleep(think)
        if self.run.stopping.is_set() or self.ws is None:
            return
        view = self.view
        if view.get("status") == "playing":
            legal = view.get("legal") or []
            if version != self.version or not legal:
                return  # the table moved on meanwhile (not for a turn of ours)
            move = self.rng.choice(legal)
            frame = {"type": "play", "tile": move["tile"], "end": move["end"], "version": version}
            assert self.table is not None
            self.expects = version + 1  # measured: a move, and the update it makes
            self.table.sent[version + 1] = time.perf_counter()
        elif view.get("status") == "round_over" and self.seat not in view.get("continue", []):
            frame = {"type": "continue"}  # others may have pressed meanwhile: still ours
            self.expects = None
        else:
            return
        self.run.stats.commands += 1
        try:
            await self.ws.send(json.dumps(frame))
        except (WebSocketException, OSError) as e:
            self.run.stats.errors[_socket_error(e)] += 1


def _socket_error(error: Exception) -> str:
    """How a socket failed, for ``errors_by_kind``: its exception and, for a closed one, the
    close code it got (or that none came: the connection just dropped)."""
    kind = f"socket: {type(error).__name__}"
    if isinstance(error, ConnectionClosed):
        code = error.rcvd.code if error.rcvd is not None else None
        kind += f" ({'no close frame' if code is None else code})"
    return kind


class _Server:
    """One of the server's processes: its address, and an HTTP client for it."""

    def __init__(self, url: str, gate: asyncio.Semaphore) -> None:
        host, port, self.base = check_url(url)
        self.url = url
        self.netloc = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        self.gate = gate
        # each client sends its own cookie: the shared client keeps none
        keep_none = CookieJar(DefaultCookiePolicy(allowed_domains=[]))
        self.client = httpx.AsyncClient(
            base_url=f"http://{self.netloc}{self.base}",
            cookies=keep_none,
            timeout=60,
            # a connection idle for KEEPALIVE_SECONDS is not used again: the server closes
            # idle ones after 5 s, and a request sent on one as it closes fails (ReadError)
            limits=httpx.Limits(
                max_connections=CONNECTS_AT_ONCE, keepalive_expiry=KEEPALIVE_SECONDS
            ),
        )

    async def http(
        self, method: str, path: str, body: Any = None, cookie: str | None = None
    ) -> tuple[int, Any, str | None]:
        """(status, JSON answer, the ``ds_guest`` cookie it set) of one request."""
        headers = {"Accept": "application/json"}
        if cookie is not None:
            headers["Cookie"] = f"ds_guest={cookie}"
        async with self.gate:
            r = await self.client.request(method, path, json=body, headers=headers)
        try:
            answer = r.json() if r.content else None
        except ValueError:
            answer = r.text
        return r.status_code, answer, r.cookies.get("ds_guest")


class _Run:
    def __init__(self, config: LoadConfig) -> None:
        self.config = config
        self.gate = asyncio.Semaphore(CONNECTS_AT_ONCE)
        self.servers = [_Server(url, self.gate) for url in config.urls]
        self.stats = Stats()
        self.stopping = asyncio.Event()
        self.closing = False
        self.measuring = False
        self.final: dict[str, int] = {}
        """Table id → its version when the play stopped (the drain waits for it)."""
        self.tables: list[_Table] = []

    def layout(self) -> list[int]:
        """How many clients sit at each table."""
        c = self.config
        return [
            c.clients // c.tables + (1 if i < c.clients % c.tables else 0) for i in range(c.tables)
        ]

    def seats(self, humans: int) -> int:
        c = self.config
        choices = PRESETS[c.preset].players
        players = c.players if c.players is not None else max(humans, choices[0])
        if players not in choices:
            raise LoadError(f"the {c.preset} preset is played by {choices} players, not {players}")
        if humans > players:
            raise LoadError(f"{humans} clients at a table of {players}: use more --tables")
        return players

    async def guest(self, client: _Client) -> None:
        status, answer, cookie = await client.server.http(
            "POST", "/api/guest", {"name": client.name}
        )
        if status != 200 or cookie is None:
            raise LoadError(f"POST /api/guest: {status} {answer}")
        client.cookie = cookie

    async def new_table(self, clients: list[_Client]) -> _Table:
        """A table for ``clients`` (the first creates it, the others join); started."""
        c = self.config
        players = self.seats(len(clients))
        seats = [{"kind": "human"}] + [{"kind": "open"}] * (len(clients) - 1)
        seats += [{"kind": "bot", "bot": c.bot}] * (players - len(clients))
        body: dict[str, Any] = {"preset": c.preset, "seats": seats, "hints": False}
        if c.target is not None:
            body["options"] = {"target": c.target}
        status, answer, _ = await clients[0].server.http(
            "POST", "/api/tables", body, clients[0].cookie
        )
        if status != 200:
            raise LoadError(f"POST /api/tables: {status} {answer}")
        table_id = str(answer["id"])
        clients[0].token = answer["token"]
        for n, client in enumerate(clients[1:], 1):
            status, answer, _ = await client.server.http(
                "POST", f"/api/tables/{table_id}/join", {"seat": n}, client.cookie
            )
            if status != 200:
                raise LoadError(f"POST /api/tables/{table_id}/join: {status} {answer}")
            client.token = answer["token"]
        table = _Table(self, table_id, clients)
        for client in clients:
            client.table = table
            client.version, client.view, client.acted_at = 0, {}, -1
        return table

    async def connect(self, client: _Client, stack: contextlib.AsyncExitStack) -> None:
        assert client.table is not None
        server = client.server
        url = f"ws://{server.netloc}{server.base}/ws/table/{client.table.id}"
        async with self.gate:
            ws = await stack.enter_async_context(
                connect(url, open_timeout=60, close_timeout=2, max_size=2**20)
            )
            await ws.send(json.dumps({"type": "hello", "token": client.token, "since": None}))
            first = orjson.loads(await ws.recv())
        if first.get("type") != "snapshot":
            raise LoadError(f"hello answered with {first}")
        client.ws = ws
        client.version, client.view = first["version"], first["view"]
        self.stats.connected += 1

    async def table_loop(
        self, clients: list[_Client], table: _Table, stack: contextlib.AsyncExitStack
    ) -> None:
        """Play the table's games until the run stops."""
        while True:
            for client in clients:
                client._maybe_act()
            await asyncio.gather(*(client.play() for client in clients))
            if self.stopping.is_set():
                return
            self.stats.games_finished += 1
            for client in clients:  # the game is over: a new table for the same clients
                if client.ws is not None:
                    await client.ws.close()
            table = await self.new_table(clients)
            self.tables.append(table)
            for client in clients:
                await self.connect(client, stack)

    async def table_version(self, table_id: str) -> int | None:
        status, answer, _ = await self.servers[0].http("GET", f"/api/tables/{table_id}")
        return int(answer["version"]) if status == 200 else None


async def run_load(config: LoadConfig) -> dict[str, Any]:
    """Run the load test of ``config``; its figures (see ``report``)."""
    if config.tables < 1 or config.clients < 1:
        raise LoadError("--tables and --clients must be at least 1")
    if config.clients < config.tables:
        raise LoadError("fewer clients than tables: every table needs a client")
    if config.preset not in PRESETS:
        raise LoadError(f"--preset {config.preset!r}: one of {', '.join(PRESETS)}")
    if not 0 < config.seconds <= 24 * 3600:
        raise LoadError("--seconds must be above 0 (and at most a day)")
    run = _Run(config)
    collections = FullCollections().start()  # no pause of the measuring tool's own
    try:
        for humans in run.layout():
            run.seats(humans)
        return await _run_load(config, run)
    finally:
        collections.stop()
        gc.unfreeze()  # what _run_load froze can be collected again
        for server in run.servers:
            await server.client.aclose()


async def _run_load(config: LoadConfig, run: _Run) -> dict[str, Any]:
    layout = run.layout()
    setup_budget = config.setup_seconds or 30.0 + 0.06 * config.clients
    started = time.perf_counter()
    for server in run.servers:
        try:
            status, _, _ = await asyncio.wait_for(server.http("GET", "/api/bots"), 10)
        except (OSError, TimeoutError, httpx.HTTPError) as e:
            raise LoadError(f"no doublesix server at {server.url}: {e}") from None
        if status != 200:
            raise LoadError(f"{server.url} does not answer like a doublesix server ({status})")

    async with contextlib.AsyncExitStack() as stack:
        groups: list[list[_Client]] = []

        async def setup() -> None:
            for t, humans in enumerate(layout):
                servers = run.servers
                groups.append(
                    [
                        _Client(run, f"load {t}.{i}", servers[(t + i) % len(servers)])
                        for i in range(humans)
                    ]
                )
            await asyncio.gather(*(run.guest(c) for g in groups for c in g))
            run.tables = list(await asyncio.gather(*(run.new_table(g) for g in groups)))
            await asyncio.gather(*(run.connect(c, stack) for g in groups for c in g))

        try:
            await asyncio.wait_for(setup(), setup_budget)
        except TimeoutError:
            raise LoadError(
                f"setting up {config.clients} clients took over {setup_budget:.0f} s"
            ) from None
        setup_time = time.perf_counter() - started
        gc.freeze()  # the clients live till the end: full collections (tens of ms) skip them
        run.measuring = True
        play_started = time.perf_counter()
        loops = [
            asyncio.create_task(run.table_loop(g, t, stack))
            for g, t in zip(groups, run.tables, strict=True)
        ]
        await asyncio.sleep(config.seconds)
        played = time.perf_counter() - play_started
        moves_in_time, commands_in_time = run.stats.moves, run.stats.commands
        latencies_in_time = len(run.stats.latencies)
        run.stopping.set()
        # drain: every client waits for the last version of its table
        current = {c.table.id: c.table for g in groups for c in g if c.table is not None}
        versions = await asyncio.gather(*(run.table_version(i) for i in current))
        for table_id, v in zip(current, versions, strict=True):
            if v is not None:
                run.final[table_id] = v
        for table in current.values():
            for client in table.clients:
                if client._caught_up() and client.ws is not None:
                    await client.ws.close()
        done, pending = await asyncio.wait(loops, timeout=DRAIN_SECONDS)
        run.closing = True
        for task in pending:
            task.cancel()
        for task in done:
            error = None if task.cancelled() else task.exception()
            if error is not None:
                run.stats.errors[f"client: {error}"] += 1
        for group in groups:
            for client in group:
                final = None if client.table is None else run.final.get(client.table.id)
                if final is not None and client.version < final:
                    run.stats.lost += final - client.version  # never arrived
    return report(
        config, run.stats, played, setup_time, moves_in_time, commands_in_time, latencies_in_time
    )


def merge(parts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """One report of the reports of several load-test processes that ran at once, each with
    its own tables (and its ``latencies_ms``): counts and rates add up, the percentiles are
    those of all the latencies together."""
    first = parts[0]
    out: dict[str, Any] = {key: first[key] for key in ("urls", "preset", "think")}
    for key in ("tables", "clients", "connected", "moves", "commands", "errors"):
        out[key] = sum(part[key] for part in parts)
    for key in ("rate_limited", "lost", "duplicated", "frames", "games_finished"):
        out[key] = sum(part[key] for part in parts)
    for key in ("moves_per_second", "commands_per_second"):
        out[key] = round(sum(part[key] for part in parts), 1)
    out["seconds"] = max(part["seconds"] for part in parts)
    out["setup_seconds"] = max(part["setup_seconds"] for part in parts)
    lat = [x for part in parts for x in part["latencies_ms"]]
    out["latency_ms"] = {
        "count": len(lat),
        "p50": _percentile(lat, 50),
        "p90": _percentile(lat, 90),
        "p99": _percentile(lat, 99),
        "max": max(lat) if lat else None,
    }
    kinds: Counter[str] = Counter()
    for part in parts:
        kinds.update(part["errors_by_kind"])
    out["errors_by_kind"] = dict(kinds)
    out["processes"] = len(parts)
    return out


def _percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def report(
    config: LoadConfig,
    stats: Stats,
    played: float,
    setup_time: float,
    moves: int,
    commands: int,
    measured: int,
) -> dict[str, Any]:
    """The figures of a run, as ``--json`` prints them (times in milliseconds)."""
    lat = stats.latencies[:measured] if measured else stats.latencies

    def ms(x: float | None) -> float | None:
        return None if x is None else round(x * 1000, 2)

    return {
        "urls": list(config.urls),
        "tables": config.tables,
        "clients": config.clients,
        "connected": stats.connected,
        "preset": config.preset,
        "think": list(config.think),
        "seconds": round(played, 2),
        "setup_seconds": round(setup_time, 2),
        "moves": moves,
        "moves_per_second": round(moves / played, 1) if played > 0 else 0.0,
        "commands": commands,
        "commands_per_second": round(commands / played, 1) if played > 0 else 0.0,
        "latency_ms": {
            "count": len(lat),
            "p50": ms(_percentile(lat, 50)),
            "p90": ms(_percentile(lat, 90)),
            "p99": ms(_percentile(lat, 99)),
            "max": ms(max(lat) if lat else None),
        },
        "errors": sum(stats.errors.values()),
        "errors_by_kind": dict(stats.errors),
        "rate_limited": stats.rate_limited,
        "lost": stats.lost,
        "duplicated": stats.duplicated,
        "frames": stats.frames,
        "games_finished": stats.games_finished,
    } | ({"latencies_ms": [ms(x) for x in lat]} if config.keep_latencies else {})


def text_report(figures: dict[str, Any]) -> str:
    lat = figures["latency_ms"]
    errors = figures["errors"]
    kinds = ", ".join(f"{k}: {n}" for k, n in figures["errors_by_kind"].items())
    lines = [
        f"doublesix loadtest: {figures['clients']} clients ({figures['connected']} connected) "
        f"at {figures['tables']} tables of {figures['preset']}, "
        f"think {figures['think'][0]}-{figures['think'][1]} s, {', '.join(figures['urls'])}",
        f"  setup     {figures['setup_seconds']} s; played {figures['seconds']} s",
        f"  moves     {figures['moves']} ({figures['moves_per_second']}/s); "
        f"commands {figures['commands']} ({figures['commands_per_second']}/s); "
        f"games finished {figures['games_finished']}",
        f"  latency   command → every seat has the update: p50 {lat['p50']} ms, "
        f"p90 {lat['p90']} ms, p99 {lat['p99']} ms, max {lat['max']} ms ({lat['count']} commands)",
        f"  errors    {errors}"
        + (f" ({kinds})" if kinds else "")
        + f"; rate-limited {figures['rate_limited']}",
        f"  events    lost {figures['lost']}, duplicated {figures['duplicated']} "
        f"({figures['frames']} frames)",
    ]
    return "\n".join(lines)
