"""The worker processes of the server's searches (bots' moves, hints, reviews)."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures.process import BrokenProcessPool

import pytest

from doublesix.bots import make_bot
from doublesix.rules.game import Game
from doublesix.rules.ruleset import preset
from doublesix.rules.view import seat_view
from doublesix.server.thinking import Thinking
from doublesix.server.workers import Workers

from .server_helpers import run_async


def test_workers_run_in_other_processes_and_survive_a_dead_one() -> None:
    async def scenario() -> None:
        workers = Workers(1)
        try:
            pid = await workers.run(os.getpid)
            assert pid != os.getpid()
            with pytest.raises(BrokenProcessPool):
                await workers.run(os._exit, 1)  # the worker dies mid-call
            assert await workers.run(os.getpid) not in (pid, os.getpid())  # a new one
        finally:
            workers.close()

    run_async(scenario())


def test_a_pool_needs_a_worker() -> None:
    with pytest.raises(ValueError):
        Workers(0)


@pytest.mark.parametrize("level", ["greedy", "medium", "pimc", "expert"])
def test_a_decision_depends_on_the_seed_and_view_only(level: str) -> None:
    """In a worker or a thread, a decision is the bot's own: made from its seed, on the view."""
    game = Game(preset("kozel"), 7)
    while len(game.legal_moves()) < 2:
        game.play(game.legal_moves()[0])
    seat = game.turn
    assert seat is not None
    view = seat_view(game, seat)

    async def scenario() -> list[object]:
        thinking = Thinking(2)
        try:
            return list(await asyncio.gather(*(thinking.choose(level, 11, view) for _ in range(3))))
        finally:
            thinking.close()

    moves = run_async(scenario())
    assert moves == [make_bot(level, 11).choose(view)] * 3
