"""``doublesix serve --metrics``: Prometheus metrics on a listener of their own.

A real server on SQLite with its limits per address (``hostile.live.Served``) counts what
a client does there, exactly; two workers on this machine's PostgreSQL and Redis
(``site_helpers``) are summed by the process that supervises them, and a worker killed
drops out of the gauges, not the counters.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from redis.asyncio import Redis
from websockets.sync.client import ClientConnection, connect

from doublesix.cli import main
from doublesix.server import messages
from doublesix.server.channels import Space
from doublesix.server.player_limits import RedisPlayerLimits
from doublesix.server.store import SqlStore
from hostile.live import START, Served, free_port

from .server_helpers import run_async
from .site_helpers import Site

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]

TABLE_ROUTE = "/api/tables/{table_id}"


def scrape(url: str) -> Samples:
    """Every sample at ``url``, parsed as Prometheus parses it: by name and labels."""
    answer = httpx.get(url, timeout=10)
    assert answer.status_code == 200, answer.text
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sample ``name`` with exactly ``labels`` (0 if there is none yet)."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def eventually(url: str, holds: Callable[[Samples], bool], seconds: float = 60.0) -> Samples:
    """Scrape ``url`` until ``holds`` says yes (a gauge counts every second; a request is
    counted once its answer is sent); the samples it said yes to."""
    deadline = time.monotonic() + seconds
    while True:
        samples = scrape(url)
        if holds(samples):
            return samples
        assert time.monotonic() < deadline, "the metrics never showed it"
        time.sleep(0.2)


def requests(samples: Samples, method: str, route: str, status: str) -> float:
    return value(
        samples, "doublesix_http_requests_total", method=method, route=route, status=status
    )


def commands(samples: Samples, command: str, outcome: str) -> float:
    return value(samples, "doublesix_table_commands_total", command=command, outcome=outcome)


class Seat0:
    """The human seat of a table against bots, over its socket: it plays its first legal
    move when it is its turn."""

    def __init__(self, ws: ClientConnection, token: str) -> None:
        self.ws = ws
        ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
        self.frame = self._next()
        assert self.frame["type"] == "snapshot", self.frame

    def _next(self) -> dict[str, Any]:
        while True:
            frame: dict[str, Any] = json.loads(self.ws.recv(timeout=30))
            if frame["type"] != "presence":
                return frame

    def play_when_to_move(self) -> int:
        """Wait for seat 0's turn, play its first legal move and take the update; the version
        the move was made at."""
        while not (self.frame["view"]["status"] == "playing" and self.frame["view"]["turn"] == 0):
            self.frame = self._next()
            assert self.frame["type"] == "update", self.frame
        version: int = self.frame["version"]
        move = self.frame["view"]["legal"][0]
        self.send_play(move, version)
        self.frame = self._next()
        assert self.frame["type"] == "update" and self.frame["version"] == version + 1
        return version

    def send_play(self, move: dict[str, Any], version: int) -> None:
        frame = {"type": "play", "tile": move["tile"], "end": move["end"], "version": version}
        self.ws.send(json.dumps(frame))

    def error(self) -> dict[str, Any]:
        """The next error frame (the bots' moves may come first)."""
        while self.frame["type"] != "error":
            self.frame = self._next()
        return self.frame


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Served, str]]:
    """One ``doublesix serve`` with its limits per address and ``--metrics``; the metrics' URL."""
    address = f"127.0.0.1:{free_port()}"
    with Served(tmp_path, "--metrics", address) as server:
        yield server, f"http://{address}/metrics"


def test_one_process_counts_what_was_done(served: tuple[Served, str]) -> None:
    server, metrics = served
    http = server.client()
    assert http.get("/metrics").status_code == 404  # never on the game's port
    assert http.post("/api/guest", json={"name": "Mira"}).status_code == 200
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * 3
    table = http.post("/api/tables", json={"preset": "kozel", "seats": seats}).json()
    for _ in range(3):
        assert http.get(f"/api/tables/{table['id']}").status_code == 200
    with connect(f"{server.ws}/ws/table/{table['id']}", open_timeout=15) as ws:
        seat = Seat0(ws, table["token"])
        versions = [seat.play_when_to_move() for _ in range(3)]
        seat.send_play({"tile": "0-0", "end": None}, versions[0])  # stale: refused
        assert seat.error()["code"] == "stale"
        samples = eventually(
            metrics,
            lambda s: (
                value(s, "doublesix_sockets", kind="table") == 1
                and value(s, "doublesix_tables", status="playing") == 1
            ),
        )
    assert commands(samples, "Play", "applied") == 3
    assert commands(samples, "Play", "refused") == 1
    assert commands(samples, "Connect", "applied") == 1
    assert commands(samples, "Start", "applied") == 1
    assert value(samples, "doublesix_sockets", kind="lobby") == 0
    assert requests(samples, "POST", "/api/guest", "2xx") == 1
    assert requests(samples, "POST", "/api/tables", "2xx") == 1
    assert requests(samples, "GET", TABLE_ROUTE, "2xx") == 3
    assert value(samples, "doublesix_http_request_seconds_count", route=TABLE_ROUTE) == 3
    routes = {route for _, labels in samples for name, route in labels if name == "route"}
    assert TABLE_ROUTE in routes and not any(table["id"] in route for route in routes)
    assert value(samples, "doublesix_store_commit_group_size_sum") >= 4  # seats, moves...
    assert value(samples, "doublesix_store_commit_seconds_count") >= 1
    assert value(samples, "process_cpu_seconds_total") > 0  # the library's own

    # the bots' moves were each timed, and each came back to the table as a command
    def bots_settled(s: Samples) -> bool:
        bot_moves = commands(s, "BotMove", "applied") + commands(s, "BotMove", "refused")
        timed = value(s, "doublesix_bot_move_seconds_count", level="greedy")
        return timed == bot_moves >= 6 and value(s, "doublesix_sockets", kind="table") == 0

    samples = eventually(metrics, bots_settled)
    assert commands(samples, "Disconnect", "applied") == 1


def test_sockets_are_counted_by_kind(served: tuple[Served, str]) -> None:
    server, metrics = served
    with connect(f"{server.ws}/ws/lobby", open_timeout=15) as lobby:
        assert json.loads(lobby.recv(timeout=30))["type"] == "welcome"
        with connect(f"{server.ws}/ws/lobby?only=me", open_timeout=15) as personal:
            assert json.loads(personal.recv(timeout=30))["type"] == "welcome"
            eventually(
                metrics,
                lambda s: (
                    value(s, "doublesix_sockets", kind="lobby") == 1
                    and value(s, "doublesix_sockets", kind="personal") == 1
                    and value(s, "doublesix_sockets", kind="table") == 0
                ),
            )
    eventually(metrics, lambda s: value(s, "doublesix_sockets", kind="lobby") == 0)


def test_a_refusal_by_a_limit_is_counted_by_its_name(served: tuple[Served, str]) -> None:
    server, metrics = served
    http = server.client()
    answers = []
    while not answers or answers[-1] != 429:  # 30 lists of tables in 10 s from one address
        answers.append(http.get("/api/tables").status_code)
        assert len(answers) <= 100, answers
    samples = eventually(metrics, lambda s: requests(s, "GET", "none", "4xx") == 1)
    assert value(samples, "doublesix_limit_refusals_total", limit="address:GET /api/tables") == 1
    assert requests(samples, "GET", "/api/tables", "2xx") == len(answers) - 1
    assert value(samples, "doublesix_http_request_seconds_count", route="none") == 1


def test_a_process_counting_alone_counts_redis_s_errors_and_its_refusals() -> None:
    def counted() -> tuple[float, float]:
        errors = REGISTRY.get_sample_value(
            "doublesix_redis_errors_total", {"where": "player_limits", "kind": "error"}
        )
        refusals = REGISTRY.get_sample_value(
            "doublesix_limit_refusals_total", {"limit": "player:messages"}
        )
        return errors or 0.0, refusals or 0.0

    async def story() -> list[bool]:
        redis = Redis.from_url("redis://127.0.0.1:1/0")  # nothing listens there
        try:
            limits = RedisPlayerLimits(redis, Space.of(redis))
            return [await limits.hit(messages.RATE, "anna") for _ in range(6)]
        finally:
            await redis.aclose()

    errors, refusals = counted()
    assert run_async(story()) == [True] * 5 + [False]
    assert counted() == (errors + 6, refusals + 1)


@pytest.mark.parametrize(
    "option",
    [
        ["--metrics", "9100"],
        ["--metrics", "127.0.0.1"],
        ["--metrics", ":9100"],
        ["--metrics", "127.0.0.1:0"],
        ["--metrics", "127.0.0.1:70000"],
        ["--metrics", "127.0.0.1:x"],
        ["--metrics", "127.0.0.1:8000"],  # the game's port
        ["--port", "9100", "--metrics", "[::1]:9100"],
    ],
)
def test_a_bad_metrics_address_is_a_usage_error(
    option: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", *option]) == 2
    assert "--metrics" in capsys.readouterr().err


def test_a_metrics_port_taken_is_said_before_serving(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        address = f"127.0.0.1:{taken.getsockname()[1]}"
        done = subprocess.run(
            [sys.executable, "-c", START, "serve", "--port", str(free_port()),
             "--db", str(tmp_path / "games.sqlite3"), "--metrics", address],
            capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
    assert done.returncode == 1
    assert f"--metrics {address}: cannot listen there" in done.stderr


async def migrate(db: str) -> None:
    """Make the site's schema before its workers start: each worker migrates as it starts,
    and two migrating an empty database at once race (Alembic's version table is made
    twice, one worker fails, and uvicorn stops the server)."""
    store = SqlStore(db)
    try:
        await store.migrate()
    finally:
        await store.close()


def test_two_workers_are_summed_by_their_parent(site: Site) -> None:
    run_async(migrate(site.db))
    address = f"127.0.0.1:{free_port()}"
    metrics = f"http://{address}/metrics"
    process = site.start("--workers", "2", "--metrics", address)
    said = re.search(r"through (\S+)\)", process.log.read_text())
    assert said is not None, process.log.read_text()
    folder = Path(said.group(1))
    assert folder.is_dir()
    seen: set[str] = set()
    asked = 0
    while len(seen) < 2:  # a new connection each time: the kernel deals them to both workers
        answer = httpx.get(f"{process.url}/api/health", timeout=10)
        assert answer.status_code == 200, answer.text
        seen.add(answer.json()["process"])
        asked += 1
        assert asked <= 500, "one worker answered every request"
    samples = eventually(metrics, lambda s: requests(s, "GET", "/api/health", "2xx") == asked)
    assert "process_cpu_seconds_total" not in {name for name, _ in samples}  # not summed
    assert value(samples, "doublesix_tables", status="open") == 0

    # a worker killed drops out of the gauges at the next scrape; its counts stay
    worker = int(next(folder.glob("gauge_livesum_*.db")).stem.rsplit("_", 1)[1])
    os.kill(worker, signal.SIGKILL)
    gone = folder / f"gauge_livesum_{worker}.db"
    eventually(metrics, lambda s: not gone.exists())
    assert requests(scrape(metrics), "GET", "/api/health", "2xx") == asked

    site.stop()
    assert not folder.exists()
