"""Several ``doublesix serve`` processes on the real PostgreSQL and Redis of this machine.

These tests need both services (127.0.0.1:5432 and 127.0.0.1:6379, or
``DOUBLESIX_TEST_POSTGRES`` / ``DOUBLESIX_TEST_REDIS``). Where one is not
running they are skipped with the reason shown; ``.ci/run`` refuses to run
without them, so CI cannot pass by skipping.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis import Redis
from websockets.sync.client import ClientConnection, connect

from doublesix.server.channels import Space

from .server_helpers import POSTGRES, run_async


def _redis() -> str:
    """This machine's Redis (``DOUBLESIX_TEST_REDIS``), and in it a database of this test
    worker's own: 8 for xdist's ``gw0``, 9 for ``gw1``… A site is a Redis database (its lobby,
    chat history and presence; ``channels.Space``), so test files on two workers never hear
    each other's lobby. Alone, the URL's own database (0 by default)."""
    url = os.environ.get("DOUBLESIX_TEST_REDIS", "redis://127.0.0.1:6379/0")
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # "gw0", "gw1"…
    if worker is None:
        return url
    n = int(worker.removeprefix("gw"))
    if n >= WORKER_DATABASES:
        raise RuntimeError(f"{worker}: Redis has {WORKER_DATABASES} databases for test workers")
    return f"{url.rsplit('/', 1)[0]}/{FIRST_WORKER_DATABASE + n}"


FIRST_WORKER_DATABASE = 8
"""Redis's databases 8 to 15 are the test workers' (``test_channels`` uses 1 to 3)."""
WORKER_DATABASES = 8

REDIS = _redis()
START = "import sys; from doublesix.cli import main; sys.exit(main())"


def _reachable(url: str, default_port: int) -> bool:
    host_port = url.split("@")[-1].split("://")[-1].split("/")[0]
    host, _, port = host_port.partition(":")
    try:
        with socket.create_connection((host, int(port or default_port)), timeout=2):
            return True
    except OSError:
        return False


def require_services() -> None:
    """PostgreSQL and Redis, or a skip that says which is missing (``.ci/run`` checks first
    that both run, so that CI cannot pass by skipping)."""
    if not _reachable(POSTGRES, 5432):
        pytest.skip(f"needs PostgreSQL at {POSTGRES} (not running)")
    if not _reachable(REDIS, 6379):
        pytest.skip(f"needs Redis at {REDIS} (not running)")


async def postgres_sql(sql: str) -> None:
    """Run ``sql`` on the test PostgreSQL (a schema or a database made or dropped)."""
    import asyncpg

    conn = await asyncpg.connect(POSTGRES.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextlib.contextmanager
def new_database() -> Iterator[str]:
    """A PostgreSQL database of its own, dropped after."""
    require_services()
    name = f"ds_site_{secrets.token_hex(6)}"
    run_async(postgres_sql(f"CREATE DATABASE {name}"))
    base = POSTGRES.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        run_async(postgres_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))


@pytest.fixture
def database() -> Iterator[str]:
    """A PostgreSQL database of its own, dropped after the test."""
    with new_database() as url:
        yield url


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Process:
    port: int
    proc: subprocess.Popen[bytes]
    log: Path
    sockets: contextlib.ExitStack
    """The site's open sockets, closed before its processes stop."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def socket(self, path: str, **options: Any) -> ClientConnection:
        """A websocket to ``path`` on this process, open until the site stops (or closed)."""
        return self.sockets.enter_context(connect(f"{self.ws}{path}", open_timeout=15, **options))

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


@dataclass
class Site:
    """Server processes on one database and one Redis."""

    db: str
    folder: Path
    processes: list[Process] = field(default_factory=list)
    sockets: contextlib.ExitStack = field(default_factory=contextlib.ExitStack)

    def start(self, *extra: str) -> Process:
        port = free_port()
        log = self.folder / f"serve-{len(self.processes)}.log"
        out = log.open("ab")
        proc = subprocess.Popen(
            [
                sys.executable, "-c", START, "serve",
                "--port", str(port), "--db", self.db, "--redis", REDIS,
                "--lease", "1.5", "--bot-delay", "0", "--grace", "30",
                "--think-workers", "1", "--log-level", "warning", "--no-limits", *extra,
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        process = Process(port, proc, log, self.sockets)
        self.processes.append(process)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert proc.poll() is None, log.read_text()
            try:
                if httpx.get(f"{process.url}/api/bots", timeout=1).status_code == 200:
                    return process
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError(f"the server did not start:\n{log.read_text()}")

    def __enter__(self) -> Site:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def stop(self) -> None:
        self.sockets.close()  # else each server waits out its graceful shutdown (5 s) for them
        for p in self.processes:
            if p.proc.poll() is None:
                p.proc.terminate()
                try:
                    p.proc.wait(20)
                except subprocess.TimeoutExpired:
                    p.kill()


@pytest.fixture
def site(database: str, tmp_path: Path) -> Iterator[Site]:
    with Site(database, tmp_path) as running:
        yield running


@pytest.fixture
def names() -> Iterator[tuple[str, str]]:
    """Two sites' names of this test's own, the second beginning with the first; their keys
    (the lobby's chat outlives the processes) deleted after it."""
    first = f"t{secrets.token_hex(4)}"
    both = first, f"{first}b"
    yield both
    redis = Redis.from_url(REDIS)
    stale = [key for name in both for key in redis.scan_iter(Space(0, name).key("*"))]
    if stale:
        redis.delete(*stale)
    redis.close()
