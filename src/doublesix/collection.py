"""Full garbage collections on a clock instead of on CPython's count.

CPython collects every object ("generation 2") once the objects that outlived the
young collections since the last full one reach a quarter of all long-lived objects.
A busy server keeps many objects for a second or two (views, frames, moves waiting
their turn), so that count fills every few seconds, and each full collection stops
the process for a time that grows with everything alive: 30 to 280 ms a process,
longer as the run went on, at 2,000 clients on two processes (``benchmarks/gc.log``);
every move in flight waits it out. Almost none of it is garbage: what a table keeps
dies by reference counting, and each full collection found tens of objects in
cycles. So a long-running process leaves the young collections to CPython and
collects everything on a timer (``FullCollections``): one pause every few minutes
instead of every few seconds.
"""

from __future__ import annotations

import gc
import threading

EVERY_SECONDS = 300.0
"""A full collection this often (while ``FullCollections`` runs)."""

NEVER = 2**31 - 1
"""A third threshold that CPython's count never reaches."""


class FullCollections:
    """Full collections every ``seconds`` on a daemon thread, none of CPython's own.

    ``start`` sets the third threshold out of reach (the young collections keep
    theirs) and ``stop`` gives it back. Python code runs one thread at a time, so
    a collection on this thread stops the others as one on theirs would.
    """

    def __init__(self, seconds: float = EVERY_SECONDS) -> None:
        if seconds <= 0:
            raise ValueError("seconds must be above 0")
        self.seconds = seconds
        self.collections = 0
        """Full collections run by the timer so far."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._threshold: tuple[int, int, int] | None = None

    def start(self) -> FullCollections:
        if self._thread is not None:
            raise RuntimeError("already started")
        self._threshold = gc.get_threshold()
        young, middle, _ = self._threshold
        gc.set_threshold(young, middle, NEVER)
        self._thread = threading.Thread(target=self._run, name="full-collections", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the timer and give CPython its own full collections back."""
        if self._thread is None:
            return
        self._stop.set()
        self._thread.join()
        self._thread = None
        if self._threshold is not None:
            gc.set_threshold(*self._threshold)

    def _run(self) -> None:
        while not self._stop.wait(self.seconds):
            gc.collect()
            self.collections += 1

    def __enter__(self) -> FullCollections:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
