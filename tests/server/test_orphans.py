"""No orphans: every process ``doublesix serve --workers N`` started ends soon after its
parent is killed with SIGKILL (``orphans.end_with_parent``): uvicorn's server processes
(they stop gracefully, as on SIGTERM) and theirs. (A single server's worker processes:
``tests/hostile/test_workers.py``.) Real processes, really killed; a wait with a generous
deadline."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from doublesix.server.metrics import start_ticks
from hostile.live import alive, children_of, long_record

from .server_helpers import run_async
from .site_helpers import Process, Site, require_services
from .test_metrics import migrate

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")

SERVING = re.compile(r"Started server process \[(\d+)\]")
"""What uvicorn logs as a server process starts (``Finished …`` once stopped gracefully)."""
DEADLINE = 30.0
"""Seconds the orphans have to end (they end in a fraction of one, or a few when loaded)."""


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    """Server processes on a SQLite database in ``tmp_path`` and this test worker's Redis
    database (``site_helpers.REDIS``); the conftest reports their logs if the test fails."""
    require_services()
    db = f"sqlite+aiosqlite:///{tmp_path / 'games.sqlite3'}"
    run_async(migrate(db))  # before the workers start: two migrating at once race
    with Site(db, tmp_path) as running:
        yield running


def family(pid: int) -> dict[int, int]:
    """Every process ``pid`` started, and theirs (read before it dies: its orphans are
    given to another parent), each with its start time, which tells it from a later
    process given the same pid."""
    found: dict[int, int] = {}
    parents = [pid]
    while parents:
        for child in children_of(parents.pop()):
            ticks = start_ticks(child)
            if ticks is not None:
                found[child] = ticks
                parents.append(child)
    return found


def running(processes: dict[int, int]) -> list[int]:
    """Those of ``processes`` still running (a zombie has ended, reaped or not)."""
    return [pid for pid, ticks in processes.items() if start_ticks(pid) == ticks and alive(pid)]


@contextlib.contextmanager
def stopped_after(processes: dict[int, int]) -> Iterator[None]:
    """Kill whichever of ``processes`` still run after the block (a failed test's orphans)."""
    try:
        yield
    finally:
        for pid in running(processes):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


def wait_gone(processes: dict[int, int]) -> None:
    deadline = time.monotonic() + DEADLINE
    while running(processes):
        assert time.monotonic() < deadline, f"still running: {running(processes)}"
        time.sleep(0.1)


def health(process: Process) -> None:
    answer = httpx.get(f"{process.url}/api/health", timeout=10)
    assert answer.status_code == 200, answer.text


def test_the_workers_of_a_parent_killed_stop(site: Site) -> None:
    process = site.start("--workers", "2", "--log-level", "info")
    health(process)
    with httpx.Client(base_url=process.url, timeout=60) as http:  # their own worker processes
        assert http.post("/api/records", content=long_record(50)).status_code == 200
        http.post("/api/records/review", params={"seat": 0}, content=long_record(50))
    workers = children_of(process.proc.pid)
    spawned = family(process.proc.pid)
    assert len(workers) >= 2  # uvicorn's two (and multiprocessing's resource tracker)
    assert len(spawned) >= len(workers) + 2  # and theirs: an upload's and a review's
    serving = {int(pid) for pid in SERVING.findall(process.log.read_text())} & set(workers)
    assert len(serving) >= 2
    with stopped_after(spawned):
        process.kill()
        wait_gone(spawned)
    with pytest.raises(httpx.TransportError):  # nobody serves on the port any more
        httpx.get(f"{process.url}/api/health", timeout=5)
    log = process.log.read_text()
    for pid in serving:  # each stopped gracefully, as on SIGTERM: the lifespan's way out
        assert f"Finished server process [{pid}]" in log, log
