"""Issue 13, item 3: the worker pool behind bots, hints, reviews and uploads — fair
shares, bounded queues, abandoned work that never starts, time limits, no orphans."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import httpx
import pytest

from doublesix.server.workers import Busy, Workers, WorkTimeout

from .live import Served, alive, long_record


def nap(seconds: float, name: str) -> str:
    time.sleep(seconds)
    return name


def mark(path: str) -> None:
    Path(path).write_text("ran")


def test_keys_are_served_in_turn_and_unwatched_ones_last() -> None:
    async def scenario() -> list[str]:
        workers = Workers(1)
        done: list[str] = []

        async def job(name: str, key: str, urgent: bool = True) -> None:
            done.append(await workers.run(nap, 0.01, name, key=key, urgent=urgent))

        try:
            blocker = asyncio.ensure_future(workers.run(nap, 0.5, "blocker", key="x"))
            await asyncio.sleep(0.2)  # the worker has taken it; the others queue behind
            jobs = [job("quiet", "q", urgent=False)]
            jobs += [job(f"a{i}", "a") for i in range(3)] + [job("b", "b"), job("c", "c")]
            await asyncio.gather(blocker, *jobs)
            return done
        finally:
            workers.close()

    assert asyncio.run(scenario()) == ["a0", "b", "c", "a1", "a2", "quiet"]


def test_abandoned_work_never_starts(tmp_path: Path) -> None:
    marker = tmp_path / "ran"

    async def scenario() -> None:
        workers = Workers(1)
        try:
            blocker = asyncio.ensure_future(workers.run(nap, 0.4, "blocker"))
            await asyncio.sleep(0.1)
            abandoned = asyncio.ensure_future(workers.run(mark, str(marker)))
            await asyncio.sleep(0.05)
            abandoned.cancel()  # its asker left while it waited
            await asyncio.sleep(0.01)
            assert workers.queued == 0
            await blocker
            assert await workers.run(nap, 0, "after") == "after"
        finally:
            workers.close()

    asyncio.run(scenario())
    assert not marker.exists()


def test_queues_are_bounded_per_key_and_in_all() -> None:
    async def scenario() -> None:
        workers = Workers(1, waiting=2, per_key=2)
        try:
            running = workers.submit(nap, 0.3, "r", key="a")
            await asyncio.sleep(0.1)
            queued = workers.submit(nap, 0, "q", key="a")
            with pytest.raises(Busy) as mine:
                workers.submit(nap, 0, "over", key="a")
            assert mine.value.per_key
            other = workers.submit(nap, 0, "b", key="b")
            with pytest.raises(Busy) as full:
                workers.submit(nap, 0, "c", key="c")
            assert not full.value.per_key
            assert await asyncio.gather(running, queued, other) == ["r", "q", "b"]
        finally:
            workers.close()

    asyncio.run(scenario())


def test_a_job_past_its_time_is_stopped_and_its_worker_replaced() -> None:
    async def scenario() -> None:
        workers = Workers(1)
        try:
            await workers.run(nap, 0, "start")
            (pid,) = workers.pids()
            with pytest.raises(WorkTimeout):
                await workers.run(nap, 30, "long", timeout=0.2)
            assert _gone([pid], 5)
            assert await workers.run(os.getpid) != pid
        finally:
            workers.close()

    asyncio.run(scenario())


def test_closing_kills_busy_workers_at_once() -> None:
    async def scenario() -> None:
        workers = Workers(2)
        long = [asyncio.ensure_future(workers.run(nap, 60, "long")) for _ in range(2)]
        await asyncio.sleep(0.5)
        pids = workers.pids()
        assert len(pids) == 2
        workers.close()
        deadline = time.monotonic() + 5
        while any(alive(p) for p in pids) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not any(alive(p) for p in pids)
        for job in long:
            with pytest.raises((BrokenProcessPool, asyncio.CancelledError)):
                await job

    asyncio.run(scenario())


def _gone(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not any(alive(p) for p in pids)


def test_workers_exit_when_their_server_is_killed(tmp_path: Path) -> None:
    served = Served(tmp_path)
    with served.client() as http:
        assert http.post("/api/records", content=long_record(50)).status_code == 200
        http.post("/api/records/review", params={"seat": 0}, content=long_record(50))
    workers = served.children()
    assert len(workers) >= 2  # the uploads' and the reviews' workers
    served.proc.send_signal(signal.SIGKILL)
    served.proc.wait()
    assert _gone(workers, 10), [p for p in workers if alive(p)]


def test_shutdown_does_not_wait_for_a_review(tmp_path: Path) -> None:
    served = Served(tmp_path, "--review-ms", "2000")
    record = long_record(100)

    def review() -> None:
        with served.client() as http, contextlib.suppress(httpx.HTTPError):
            http.post("/api/records/review", params={"seat": 0}, content=record)

    asker = threading.Thread(target=review)
    asker.start()
    time.sleep(2)  # the review is being searched (seconds of work)
    workers = served.children()
    served.proc.terminate()
    served.proc.wait(timeout=20)  # before: the shutdown waited for the review, minutes
    asker.join()
    assert _gone(workers, 10)
