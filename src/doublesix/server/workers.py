"""Worker processes for the server's heavy work: bots' searches, hints, reviews, uploads.

A search holds the interpreter for its whole budget (the ``expert`` thinks
300 ms of one core a move, a review seconds). In the server process, even in
a thread, it would stall the event loop and with it every table and socket;
in worker processes it runs beside them.

``Workers`` is a small pool with its own queue rather than a
``ProcessPoolExecutor``, because the server needs what that one cannot do:

- fairness: jobs wait in one queue per *key* (a table, an address), and the
  free workers serve the keys in turn, so that one table or client asking a
  lot waits behind its own jobs, not in front of everyone's; keys marked
  ``urgent=False`` (a table nobody watches) are served only when no urgent
  job waits;
- bounds: at most ``waiting`` jobs queued, at most ``per_key`` pending per
  key (``Busy`` beyond), and a ``timeout`` per job after which its worker
  is killed and replaced (``WorkTimeout``);
- cancellation: a job whose caller stopped waiting (its task was cancelled)
  before a worker took it never starts;
- no orphans: ``close`` kills the workers at once (a shutdown never waits for
  a review), and each worker exits by itself when its server process dies,
  even by SIGKILL (``orphans.end_with_parent``).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import pickle
import signal
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar, cast

from doublesix.server.orphans import end_with_parent

T = TypeVar("T")


class Busy(Exception):
    """The queue is full, or the key has ``per_key`` jobs pending already: not queued."""

    def __init__(self, per_key: bool) -> None:
        super().__init__("this client's share of the queue is taken" if per_key else "queue full")
        self.per_key = per_key


class WorkTimeout(TimeoutError):
    """The job ran past its timeout; its worker was killed."""


def _portable(error: BaseException) -> BaseException:
    """``error`` if it survives pickling both ways, else a RuntimeError that tells it."""
    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")


def _worker_main(conn: Connection, nice: int) -> None:
    """A worker: run each ``(function, args)`` it receives and send back the outcome."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    end_with_parent()  # SIGTERM ends it (its default action)
    if nice:
        os.nice(nice)
    while True:
        try:
            function, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            outcome: tuple[bool, Any] = (True, function(*args))
        except Exception as e:
            outcome = (False, _portable(e))
        try:
            conn.send(outcome)
        except (OSError, pickle.PicklingError):
            return


class _Worker:
    def __init__(self, nice: int) -> None:
        context = multiprocessing.get_context("spawn")  # a fork would copy the server's threads
        self.conn, child = context.Pipe()
        self.process: BaseProcess = context.Process(
            target=_worker_main, args=(child, nice), daemon=True, name="doublesix-worker"
        )
        self.process.start()
        child.close()

    def call(self, function: Callable[..., Any], args: tuple[Any, ...]) -> tuple[bool, Any]:
        """Run ``function(*args)`` in the process (blocking: called in a thread)."""
        try:
            self.conn.send((function, args))
            result: tuple[bool, Any] = self.conn.recv()
            return result
        except (EOFError, OSError) as e:
            raise BrokenProcessPool(f"the worker process died: {e or type(e).__name__}") from None

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.conn.close()

    def reap(self) -> None:
        """Collect a killed process (it exits at once: a short wait)."""
        with contextlib.suppress(Exception):
            self.process.join(1.0)


@dataclass(eq=False)
class _Job:
    function: Callable[..., Any]
    args: tuple[Any, ...]
    key: Hashable
    timeout: float | None
    future: asyncio.Future[Any] = field(repr=False)


def _retrieve(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


class Workers:
    """``count`` worker processes, started when first needed, fed from per-key queues."""

    def __init__(
        self,
        count: int,
        *,
        nice: int = 0,
        waiting: int | None = None,
        per_key: int | None = None,
    ) -> None:
        if count < 1:
            raise ValueError(f"a pool needs at least one worker, not {count}")
        self.count = count
        self.nice = nice
        self.waiting = waiting
        self.per_key = per_key
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._started = 0
        self._queues: dict[bool, OrderedDict[Hashable, deque[_Job]]] = {
            True: OrderedDict(),
            False: OrderedDict(),
        }
        self._queued = 0
        self._pending: dict[Hashable, int] = {}
        self._running: set[asyncio.Task[None]] = set()
        self._threads = ThreadPoolExecutor(count, thread_name_prefix="workers")
        self._closed = False

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker (not counting those cancelled meanwhile)."""
        return self._queued

    async def run(
        self,
        function: Callable[..., T],
        *args: object,
        key: Hashable = None,
        urgent: bool = True,
        timeout: float | None = None,
    ) -> T:
        """``function(*args)`` in a worker; ``function`` and the values must pickle.

        Raises ``Busy`` (not queued), ``WorkTimeout``, ``BrokenProcessPool`` (the
        worker died during the call) or what ``function`` raised. Cancelling the
        call takes the job out of the queue if no worker has taken it yet.
        """
        return await self.submit(function, *args, key=key, urgent=urgent, timeout=timeout)

    def submit(
        self,
        function: Callable[..., T],
        *args: object,
        key: Hashable = None,
        urgent: bool = True,
        timeout: float | None = None,
    ) -> asyncio.Future[T]:
        """Queue ``function(*args)`` (``Busy`` at once if it cannot be); its future result.

        ``key``: whose job it is (the keys are served in turn); ``urgent=False``:
        only when no urgent job waits; ``timeout``: seconds of running at most.
        Cancelling the future before a worker took the job means it never starts.
        """
        if self._closed:
            raise BrokenProcessPool("the workers are closed")
        if self.waiting is not None and self._queued >= self.waiting:
            raise Busy(per_key=False)
        if self.per_key is not None and self._pending.get(key, 0) >= self.per_key:
            raise Busy(per_key=True)
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        job = _Job(function, args, key, timeout, future)
        self._queues[urgent].setdefault(key, deque()).append(job)
        self._queued += 1
        self._pending[key] = self._pending.get(key, 0) + 1
        future.add_done_callback(lambda _: self._done(job))
        self._dispatch()
        return future

    def _done(self, job: _Job) -> None:
        left = self._pending.get(job.key, 0) - 1
        if left > 0:
            self._pending[job.key] = left
        else:
            self._pending.pop(job.key, None)
        if job.future.cancelled():
            self._unqueue(job)

    def _unqueue(self, job: _Job) -> None:
        """Take a cancelled job out of its queue, if it is still there."""
        for queues in self._queues.values():
            jobs = queues.get(job.key)
            if jobs is not None and job in jobs:
                jobs.remove(job)
                self._queued -= 1
                if not jobs:
                    del queues[job.key]
                return

    def _next(self) -> _Job | None:
        """The next job: urgent keys first, each key in turn (round-robin)."""
        for urgent in (True, False):
            queues = self._queues[urgent]
            while queues:
                key, jobs = next(iter(queues.items()))
                job = jobs.popleft()
                self._queued -= 1
                if jobs:
                    queues.move_to_end(key)
                else:
                    del queues[key]
                if not job.future.done():
                    return job
        return None

    def _worker(self) -> _Worker | None:
        if self._idle:
            return self._idle.pop()
        if self._started < self.count:
            self._started += 1
            return _Worker(self.nice)
        return None

    def _dispatch(self) -> None:
        while not self._closed and self._queued:
            worker = self._worker()
            if worker is None:
                return
            job = self._next()
            if job is None:
                self._idle.append(worker)
                return
            self._busy.add(worker)
            task = asyncio.get_running_loop().create_task(self._execute(worker, job))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    async def _execute(self, worker: _Worker, job: _Job) -> None:
        loop = asyncio.get_running_loop()
        call = loop.run_in_executor(self._threads, worker.call, job.function, job.args)
        call.add_done_callback(_retrieve)  # a call cut short by ``close`` fails unseen
        healthy = False
        try:
            ok, value = await asyncio.wait_for(asyncio.shield(call), job.timeout)
            healthy = True
            if not job.future.done():
                if ok:
                    job.future.set_result(value)
                else:
                    job.future.set_exception(cast(BaseException, value))
        except TimeoutError:
            if not job.future.done():
                job.future.set_exception(WorkTimeout(f"the work ran past {job.timeout} s"))
        except BrokenProcessPool as e:
            if not job.future.done():
                job.future.set_exception(e)
        finally:
            if not job.future.done():  # cut short by ``close``
                job.future.cancel()
            self._busy.discard(worker)
            if healthy and not self._closed:
                self._idle.append(worker)
            else:
                worker.kill()
                self._started -= 1
                await loop.run_in_executor(None, worker.reap)
            if not self._closed:
                self._dispatch()

    def close(self) -> None:
        """Kill the workers now and fail whatever waits (no work is waited for)."""
        self._closed = True
        workers = [*self._idle, *self._busy]
        self._idle.clear()
        for queues in self._queues.values():
            for jobs in queues.values():
                for job in jobs:
                    if not job.future.done():
                        job.future.cancel()
            queues.clear()
        self._queued = 0
        for worker in workers:
            worker.kill()
        for task in self._running:
            task.cancel()
        self._threads.shutdown(wait=False, cancel_futures=True)

    def pids(self) -> list[int]:
        """The worker processes' ids (for tests and the log)."""
        return [w.process.pid for w in (*self._idle, *self._busy) if w.process.pid is not None]
