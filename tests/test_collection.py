"""Full garbage collections on a timer (``doublesix.collection``)."""

from __future__ import annotations

import gc
import threading
import time
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from doublesix.collection import NEVER, FullCollections

DEFAULT_THRESHOLD = (700, 10, 10)
"""CPython's thresholds, which the suite runs with."""


@pytest.fixture
def full_collections() -> Iterator[list[int]]:
    """The threads on which each full collection ran, while the test runs."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info["generation"] == 2:
            seen.append(threading.get_ident())

    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)


def _outlive_the_young_collections(kept: list[list[int]], seen: list[int]) -> None:
    """Keep twice as many new objects as make CPython's own full collection due,
    counting ``seen`` from a fresh full collection.

    With the thresholds (t0, t1, t2), a full collection is due once t2 + 1 middle
    collections (t0 * t1 new objects each) have run and a quarter more objects than
    the last full collection left have outlived them.
    """
    t0, t1, t2 = DEFAULT_THRESHOLD
    gc.collect()
    due = max(len(gc.get_objects()) // 4, (t2 + 1) * t1 * t0)
    seen.clear()
    kept.extend([] for _ in range(2 * due))


def test_no_full_collection_of_cpythons_own_while_the_timer_runs(
    full_collections: list[int],
) -> None:
    before = gc.get_threshold()
    assert before == DEFAULT_THRESHOLD
    kept: list[list[int]] = []
    with FullCollections(seconds=3600) as timer:
        assert gc.get_threshold() == (before[0], before[1], NEVER)
        _outlive_the_young_collections(kept, full_collections)
        assert full_collections == [] and timer.collections == 0
    assert gc.get_threshold() == before
    _outlive_the_young_collections(kept, full_collections)  # the same without the timer
    assert threading.get_ident() in full_collections, "CPython's own full collections are back"


def test_the_timer_collects_everything_on_its_own_thread(full_collections: list[int]) -> None:
    with FullCollections(seconds=0.05) as timer:
        deadline = time.monotonic() + 30
        while timer.collections < 2:
            assert time.monotonic() < deadline, "no full collection on the timer"
            time.sleep(0.01)
    assert len(full_collections) >= 2
    assert threading.get_ident() not in full_collections


def test_a_cycle_left_to_the_timer_is_collected() -> None:
    class Node:
        other: Any = None

    with FullCollections(seconds=0.05) as timer:
        a, b = Node(), Node()
        a.other, b.other = b, a
        gc.collect(1)
        gc.collect(1)  # the cycle is old now: only a full collection can free it
        gone = threading.Event()
        weakref.finalize(a, gone.set)
        del a, b
        assert gone.wait(30), "the timer's full collection freed the cycle"
        assert timer.collections >= 1


def test_a_timer_needs_a_positive_period() -> None:
    with pytest.raises(ValueError, match="above 0"):
        FullCollections(seconds=0)
