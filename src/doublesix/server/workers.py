"""Worker processes for the server's searches: bots' moves, hints, reviews.

A search holds the interpreter for its whole budget (the ``expert`` thinks
300 ms of one core a move, a review seconds). In the server process, even in
a thread, it would stall the event loop and with it every table and socket;
in worker processes it runs beside them, one search per core.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

T = TypeVar("T")


class Workers:
    """A pool of ``count`` worker processes, started when first needed.

    Workers are spawned, not forked: a fork would copy the server's threads
    and locks mid-flight. A worker that dies (killed, out of memory) fails the
    calls it had; the next call starts a fresh pool.
    """

    def __init__(self, count: int) -> None:
        if count < 1:
            raise ValueError(f"a pool needs at least one worker, not {count}")
        self.count = count
        self._pool: ProcessPoolExecutor | None = None

    async def run(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)`` in a worker; ``function`` and the values must pickle."""
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.count, multiprocessing.get_context("spawn"))
        pool = self._pool
        try:
            return await asyncio.wrap_future(pool.submit(function, *args))
        except BrokenProcessPool:
            if self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
