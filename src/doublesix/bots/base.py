"""The bot interface and the registry of named levels."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from doublesix.rules.moves import Move
from doublesix.rules.view import SeatView


class Bot(Protocol):
    name: str

    def choose(self, view: SeatView) -> Move:
        """A legal move for the seat of ``view``, which is to move."""
        ...


BotFactory = Callable[[random.Random], Bot]
BOTS: dict[str, BotFactory] = {}
"""Every named bot, each made from a random source seeded by its user (``make_bot``)."""
MEASUREMENT_BOTS: set[str] = set()
"""Bots for measurement only (they see what a seat may not): never offered at a table."""


def register(name: str, *, table: bool = True) -> Callable[[BotFactory], BotFactory]:
    """Name a bot; ``table=False`` keeps it out of ``table_bots()`` (measurement only)."""

    def add(factory: BotFactory) -> BotFactory:
        BOTS[name] = factory
        if not table:
            MEASUREMENT_BOTS.add(name)
        return factory

    return add


LEVELS = ("random", "greedy", "medium", "pimc", "expert")
"""The table's levels, weakest first."""


def table_bots() -> list[str]:
    """The levels a table may offer, weakest first (then any other honest bot by name)."""
    names = [name for name in BOTS if name not in MEASUREMENT_BOTS]
    rank = {name: i for i, name in enumerate(LEVELS)}
    return sorted(names, key=lambda name: (rank.get(name, len(LEVELS)), name))


def make_bot(name: str, seed: int = 0) -> Bot:
    """The bot of level ``name``; the same seed makes the same choices."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"no bot {name!r}; choose from {', '.join(BOTS)}") from None
    return factory(random.Random(seed))
