"""``doublesix serve --metrics``: Prometheus metrics on a listener of their own.

A real server on SQLite with its limits per address (``hostile.live.Served``) counts what
a client does there, exactly, and answers ``/metrics`` only; two workers on this machine's
PostgreSQL and Redis (``site_helpers``) are summed by the process that supervises them,
with the ``process_…`` metrics of each process, a worker killed drops out of the gauges,
not the counters, and a parent killed leaves its folder to the next. The refusals that are
not the limits per address are counted in this process, through the app (``TestClient``).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families
from redis.asyncio import Redis
from websockets.sync.client import ClientConnection, connect

from doublesix.cli import main
from doublesix.server import messages, reports, tournament_sql
from doublesix.server.account_names import AccountError
from doublesix.server.channels import Space
from doublesix.server.logins import LoginLimits, Logins
from doublesix.server.metrics import FOLDER_PREFIX, remove_orphans, start_ticks
from doublesix.server.player_limits import RedisPlayerLimits
from doublesix.server.routes.tables import TABLES_AT_ONCE
from doublesix.server.settings import Limits
from doublesix.server.store import SqlStore
from doublesix.server.uploads import busy
from doublesix.server.workers import Busy
from hostile.live import START, Served, free_port

from .server_helpers import AppFactory, TestClient, human_table, run_async
from .server_helpers import Socket as TableSocket
from .site_helpers import Process, Site
from .test_lobby_socket import Lobby, challenge, name
from .test_shut_out import logged_in
from .test_tournaments_server import DRAW

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


def test_the_listener_answers_metrics_only(served: tuple[Served, str]) -> None:
    _, metrics_url = served
    listener = metrics_url.removesuffix("/metrics")
    assert "doublesix_table_commands" in httpx.get(f"{metrics_url}?a=1", timeout=10).text
    for path in ("/", "/metric", "/metrics/", "/metrics/x", "/favicon.ico", "/api/tables"):
        answer = httpx.get(f"{listener}{path}", timeout=10)
        assert answer.status_code == 404, path
        assert "doublesix_" not in answer.text and "process_" not in answer.text, path
    assert httpx.post(metrics_url, timeout=10).status_code == 405


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


def refusals(limit: str) -> float:
    """The refusals by ``limit`` counted in this process so far."""
    counted = REGISTRY.get_sample_value("doublesix_limit_refusals_total", {"limit": limit})
    return counted or 0.0


def counted_refusals(limits: Iterable[str], story: Callable[[], None]) -> dict[str, float]:
    """The refusals by each of ``limits`` that ``story`` counted."""
    before = {limit: refusals(limit) for limit in limits}
    story()
    return {limit: refusals(limit) - counted for limit, counted in before.items()}


def test_the_daily_limits_kept_in_the_database_are_counted(
    accounts_client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = accounts_client
    for module in (messages, reports, tournament_sql):  # none a day: the first is refused
        monkeypatch.setattr(module, "NEW_PER_DAY" if module is messages else "PER_DAY", 0)
    logged_in(client, "Ben")
    logged_in(client, "Anna")
    answers: dict[str, int] = {}

    def story() -> None:
        new = client.post("/api/messages", json={"to": "Ben", "text": "hi"})
        answers["player:new-conversations"] = new.status_code
        report = client.post("/api/reports", json={"name": "Ben", "reason": "abuse"})
        answers["player:reports"] = report.status_code
        tournament = client.post("/api/tournaments", json=DRAW | {"starts_in": 5})
        answers["player:tournaments"] = tournament.status_code
        for _ in range(TABLES_AT_ONCE):
            assert client.post("/api/tables", json={"preset": "draw"}).status_code == 200
        table = client.post("/api/tables", json={"preset": "draw"})
        answers["player:unfinished-tables"] = table.status_code

    limits = (
        "player:new-conversations",
        "player:reports",
        "player:tournaments",
        "player:unfinished-tables",
    )
    assert counted_refusals(limits, story) == dict.fromkeys(limits, 1)
    assert answers == dict.fromkeys(limits, 429)


def test_challenges_waiting_at_once_are_counted(lobby: TestClient) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    with ExitStack() as stack:
        Lobby(lobby, stack, anna), Lobby(lobby, stack, ben)

        def story() -> None:
            for _ in range(3):  # 3 may wait at once
                assert challenge(lobby, anna, to=["Ben"]).status_code == 201
            refused = challenge(lobby, anna, to=["Ben"])
            assert refused.json()["code"] == "too_many_challenges", refused.text

        limits = ("player:open-challenges", "player:challenges")
        assert counted_refusals(limits, story) == {
            "player:open-challenges": 1,
            "player:challenges": 0,  # the limit a minute: not reached
        }


def test_failed_logins_are_counted_by_the_limit_that_refused() -> None:
    logins = Logins(LoginLimits("1/minute", "2/minute", "3/minute"))

    async def attempt(login: str, address: str) -> str | None:
        """The field of the refusal (None: the address), else ``"checked"``."""
        try:
            await logins.check(login, address)
        except AccountError as e:
            return e.field
        await logins.failed(login, address)
        return "checked"

    async def attempts() -> list[str | None]:
        tries = [("anna", "10.0.0.1")] * 2 + [("anna", "10.0.0.2"), ("anna", "10.0.0.4")]
        tries += [("ben", "10.0.0.3"), ("cleo", "10.0.0.3"), ("dora", "10.0.0.3")]
        tries += [("emil", "10.0.0.3")]
        return [await attempt(login, address) for login, address in tries]

    seen: list[str | None] = []
    limits = ("name-address:failed-logins", "name:failed-logins", "address:failed-logins")
    assert counted_refusals(limits, lambda: seen.extend(run_async(attempts()))) == {
        "name-address:failed-logins": 1,  # anna from 10.0.0.1, the second time
        "name:failed-logins": 1,  # anna from a third address: 2 failed already
        "address:failed-logins": 1,  # 10.0.0.3, the fourth name
    }
    assert seen == ["checked", "name", "checked", "name", "checked", "checked", "checked", None]


def test_a_full_upload_or_review_queue_is_counted() -> None:
    limits = ("address:uploads", "queue:uploads", "address:reviews", "queue:reviews")

    def story() -> None:
        answers = [
            busy(Busy(per_key=True), "uploads", 2).status,
            busy(Busy(per_key=False), "uploads", 2).status,
            busy(Busy(per_key=False), "reviews", 2).status,
        ]
        assert answers == [429, 503, 503]

    assert counted_refusals(limits, story) == {
        "address:uploads": 1,
        "queue:uploads": 1,
        "address:reviews": 0,
        "queue:reviews": 1,
    }


def test_too_many_frames_are_counted_on_table_and_lobby_sockets(make_app: AppFactory) -> None:
    slow = Limits(frames_per_second=0.01, burst=3)  # 3 frames, then one each 100 s
    with TestClient(make_app(limits=slow)) as client, ExitStack() as stack:
        table_id, tokens = human_table(client, "block", 2)
        seat = TableSocket(client, stack, table_id, tokens[0])

        def at_the_table() -> None:
            for code in ("illegal", "illegal", "illegal", "rate_limited"):
                seat.send({"type": "continue"})
                assert seat.error()["code"] == code

        assert counted_refusals(["socket:frames"], at_the_table) == {"socket:frames": 1}
        anna = Lobby(client, stack, name(client, "Anna"))

        def in_the_lobby() -> None:
            for n in range(3):
                anna.ws.send_json({"type": "chat", "text": f"m{n}"})
                assert anna.next("chat")["text"] == f"m{n}"
            anna.ws.send_json({"type": "chat", "text": "one too many"})
            assert anna.next("error")["code"] == "rate_limited"

        limits = ("socket:frames", "player:lobby-chat")
        assert counted_refusals(limits, in_the_lobby) == {
            "socket:frames": 1,
            "player:lobby-chat": 0,  # 5 lines in 10 s: not reached
        }


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


def folder_of(process: Process) -> Path:
    """The multiprocess folder ``serve --workers N --metrics`` said it made."""
    said = re.search(r"through (\S+)\)", process.log.read_text())
    assert said is not None, process.log.read_text()
    return Path(said.group(1))


def writers(folder: Path, kind: str = "*") -> set[int]:
    """The processes that wrote values of ``kind`` in ``folder`` (``<kind>_<pid>.db``)."""
    return {int(file.stem.rsplit("_", 1)[1]) for file in folder.glob(f"{kind}_*.db")}


def parent_of(pid: int) -> int:
    """The parent of process ``pid`` (the field after its state in ``/proc/<pid>/stat``)."""
    return int(Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[1])


def children(pid: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):  # gone meanwhile
            if parent_of(int(stat.parent.name)) == pid:
                found.add(int(stat.parent.name))
    return found


def processes(samples: Samples, name: str) -> dict[int, str]:
    """The pid and role of each process with a sample ``name``."""
    labelled = (dict(labels) for sample, labels in samples if sample == name)
    return {int(labels["pid"]): labels["role"] for labels in labelled}


def test_two_workers_are_summed_by_their_parent(site: Site) -> None:
    run_async(migrate(site.db))
    address = f"127.0.0.1:{free_port()}"
    metrics = f"http://{address}/metrics"
    process = site.start("--workers", "2", "--metrics", address)
    folder = folder_of(process)
    assert folder.is_dir()
    assert folder.name.startswith(f"{FOLDER_PREFIX}{process.proc.pid}-")
    seen: set[str] = set()
    asked = 0
    while len(seen) < 2:  # a new connection each time: the kernel deals them to both workers
        answer = httpx.get(f"{process.url}/api/health", timeout=10)
        assert answer.status_code == 200, answer.text
        seen.add(answer.json()["process"])
        asked += 1
        assert asked <= 500, "one worker answered every request"
    samples = eventually(metrics, lambda s: requests(s, "GET", "/api/health", "2xx") == asked)
    assert value(samples, "doublesix_tables", status="open") == 0

    # only the parent's children write there: not an upload's worker process, nor a bot's
    upload = httpx.post(f"{process.url}/api/records", content=b"{}", timeout=30)
    assert upload.status_code == 422, upload.text  # answered by the upload's worker process
    workers = writers(folder, "gauge_livesum")
    assert len(workers) == 2
    assert {parent_of(pid) for pid in writers(folder)} == {process.proc.pid}

    # the process_ metrics of the parent and of each worker, apart
    roles = {process.proc.pid: "parent"} | dict.fromkeys(workers, "worker")
    samples = scrape(metrics)
    for each in ("process_cpu_seconds_total", "process_resident_memory_bytes", "process_open_fds"):
        assert processes(samples, each) == roles, each
    for pid, role in roles.items():
        labels = {"pid": str(pid), "role": role}
        assert value(samples, "process_resident_memory_bytes", **labels) > 0
        assert value(samples, "process_open_fds", **labels) > 0

    # a worker killed drops out of the gauges at the next scrape; its counts stay
    worker = min(workers)
    os.kill(worker, signal.SIGKILL)
    gone = folder / f"gauge_livesum_{worker}.db"
    eventually(metrics, lambda s: not gone.exists())
    samples = scrape(metrics)
    assert requests(samples, "GET", "/api/health", "2xx") == asked
    assert worker not in processes(samples, "process_cpu_seconds_total")

    site.stop()
    assert not folder.exists()


def test_a_parent_killed_leaves_its_folder_to_the_next_one(site: Site) -> None:
    run_async(migrate(site.db))
    first = site.start("--workers", "2", "--metrics", f"127.0.0.1:{free_port()}")
    folder = folder_of(first)
    family = children(first.proc.pid)
    first.kill()
    for pid in family:  # uvicorn's workers outlive a parent killed while they shut down
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while any(Path(f"/proc/{pid}").exists() for pid in family):
        assert time.monotonic() < deadline, "the workers are still there"
        time.sleep(0.1)
    assert folder.is_dir()  # nobody removed it

    second = site.start("--workers", "2", "--metrics", f"127.0.0.1:{free_port()}")
    assert not folder.exists()
    assert folder_of(second).is_dir()


def test_only_the_folders_no_running_process_uses_are_removed(tmp_path: Path) -> None:
    exited = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        ticks = start_ticks(exited.pid)
    finally:
        exited.kill()
        exited.wait()
    me, mine = os.getpid(), start_ticks(os.getpid())
    assert ticks is not None and mine is not None and start_ticks(exited.pid) is None
    folders = {
        "its parent exited": f"{FOLDER_PREFIX}{exited.pid}-{ticks}-a",
        "its pid used again": f"{FOLDER_PREFIX}{me}-{mine + 1}-b",
        "its parent running": f"{FOLDER_PREFIX}{me}-{mine}-c",
        "a worker running": f"{FOLDER_PREFIX}{exited.pid}-{ticks}-d",
        "another program's": f"other-metrics-{exited.pid}-{ticks}-e",
    }
    for folder in folders.values():
        (tmp_path / folder).mkdir()
    (tmp_path / folders["its parent exited"] / f"counter_{exited.pid}.db").touch()
    (tmp_path / folders["a worker running"] / f"gauge_livesum_{me}.db").touch()
    (tmp_path / f"{FOLDER_PREFIX}{exited.pid}-{ticks}-f").touch()  # a file: not ours
    remove_orphans(tmp_path)
    kept = {what for what, folder in folders.items() if (tmp_path / folder).exists()}
    assert kept == {"its parent running", "a worker running", "another program's"}
    assert (tmp_path / f"{FOLDER_PREFIX}{exited.pid}-{ticks}-f").is_file()
