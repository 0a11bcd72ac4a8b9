"""Issue 13, items 3 and 7: a bot's clock tells nothing of its hand, and hints are shared.

The clock test: ``pimc`` replies to positions with one legal move (forced) and with
several (searched), interleaved (``expert`` and the hint wait for their own pads the
same way; ``pimc``'s budget keeps the test short). Timed where the bot computes, the two
are told apart at once (the forced move takes no search); timed as the table sees the
reply, they are drawn from the same distribution (a two-sample Kolmogorov–Smirnov test
at a 0.1% level). No duration is asserted.
"""

from __future__ import annotations

import asyncio
import math
import time
from typing import Any

import pytest

from doublesix.bots import BUDGETS
from doublesix.rules.game import Game
from doublesix.rules.ruleset import preset
from doublesix.rules.view import SeatView, seat_view
from doublesix.server import thinking as thinking_module
from doublesix.server.thinking import Pad, Thinking

LEVEL = "pimc"
SAMPLES = 12
"""Replies of each kind (forced, searched)."""
KS_C = 1.949
"""The two-sample KS test's coefficient at the 0.1% level."""


def ks_distance(a: list[float], b: list[float]) -> float:
    """The largest gap between the two samples' empirical distribution functions."""
    points = sorted(a + b)
    return max(
        abs(sum(x <= p for x in a) / len(a) - sum(x <= p for x in b) / len(b)) for p in points
    )


def ks_critical(n: int, m: int) -> float:
    return KS_C * math.sqrt((n + m) / (n * m))


def views(choices: int, count: int) -> list[SeatView]:
    """``count`` positions of Draw games where the seat to move has ``choices`` moves
    (1: forced), or more than one if ``choices`` is 0."""
    found: list[SeatView] = []
    seed = 0
    while len(found) < count:
        seed += 1
        game = Game(preset("draw", 2), seed)
        while not game.finished and game.round.ending is None:
            legal = game.legal_moves()
            seat = game.turn
            if seat is not None and (len(legal) == choices or (choices == 0 and len(legal) > 2)):
                found.append(seat_view(game, seat))
                break
            game.play(legal[0])
    return found


def test_forced_and_searched_replies_take_the_same_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    forced, searched = views(1, SAMPLES), views(0, SAMPLES)
    computed: list[float] = []
    wait = Pad.wait

    async def spy(self: Pad, took: float, *, learn: bool = True) -> None:
        computed.append(took)  # how long the bot itself took, before the pad
        await wait(self, took, learn=learn)

    monkeypatch.setattr(Pad, "wait", spy)

    async def scenario() -> dict[str, list[float]]:
        thinking = Thinking(1)
        replies: dict[str, list[float]] = {"forced": [], "searched": []}
        inner: dict[str, list[float]] = {"forced": [], "searched": []}
        try:
            for view in searched[:3]:  # a server has searched before: the pad knows its machine
                await thinking.choose(LEVEL, 1, view)
            computed.clear()
            for n in range(SAMPLES):
                for kind, view in (("searched", searched[n]), ("forced", forced[n])):
                    started = time.perf_counter()
                    await thinking.choose(LEVEL, n, view)
                    replies[kind].append(time.perf_counter() - started)
                    inner[kind].append(computed[-1])
        finally:
            thinking.close()
        return {f"{k} reply": v for k, v in replies.items()} | {
            f"{k} bot": v for k, v in inner.items()
        }

    times = asyncio.run(scenario())
    limit = ks_critical(SAMPLES, SAMPLES)
    # the test can tell them apart: without the pad, a forced move takes no time
    assert ks_distance(times["forced bot"], times["searched bot"]) > limit, times
    # with it, the table's clock cannot
    assert ks_distance(times["forced reply"], times["searched reply"]) < limit, times


def test_a_seat_has_one_hint_in_flight(monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty sockets asking a hint for one seat make one search, kept for the position;
    a search stops when every asker has left before a worker took it."""
    (view,) = views(0, 1)
    started: list[Any] = []

    async def scenario() -> None:
        thinking = Thinking(1)
        submit = thinking._workers.submit

        def counted(*args: Any, **kw: Any) -> Any:
            started.append(kw.get("key"))
            return submit(*args, **kw)

        monkeypatch.setattr(thinking._workers, "submit", counted)
        try:
            answers = await asyncio.gather(
                *(thinking.hints(view, table="t", seat=view.seat) for _ in range(20))
            )
            assert len(started) == 1 and started == ["t"]
            assert all(a == answers[0] for a in answers) and answers[0]
            again = await thinking.hints(view, table="t", seat=view.seat)
            assert again == answers[0] and len(started) == 1  # kept for its position
            blocker = asyncio.ensure_future(thinking.hints(view, table="u", seat=view.seat))
            await asyncio.sleep(0.05)
            left = [
                asyncio.ensure_future(thinking.hints(view, table="v", seat=view.seat))
                for _ in range(3)
            ]
            await asyncio.sleep(0.05)
            for asker in left:
                asker.cancel()  # every asker's socket closed
            await asyncio.sleep(0.05)
            assert thinking._workers.queued == 0  # the queued search was dropped
            await blocker
        finally:
            thinking.close()

    asyncio.run(scenario())


def test_the_pad_follows_the_longest_recent_search() -> None:
    pad = Pad(0.3)
    assert pad.seconds() == pytest.approx(0.3 * Pad.MARGIN)

    async def searched(took: float) -> None:
        await pad.wait(took)

    asyncio.run(searched(0.5))
    assert pad.seconds() == pytest.approx(0.5 * Pad.MARGIN)
    assert thinking_module.budget_seconds("expert") == pytest.approx(BUDGETS["expert"] / 1000)
    assert thinking_module.budget_seconds("expert") == pytest.approx(0.03)  # its default
    assert thinking_module.budget_seconds("greedy") == 0
