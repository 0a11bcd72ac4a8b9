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
"""Named levels, each made from a random source seeded by its user."""


def register(name: str) -> Callable[[BotFactory], BotFactory]:
    def add(factory: BotFactory) -> BotFactory:
        BOTS[name] = factory
        return factory

    return add


def make_bot(name: str, seed: int = 0) -> Bot:
    """The bot of level ``name``; the same seed makes the same choices."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"no bot {name!r}; choose from {', '.join(BOTS)}") from None
    return factory(random.Random(seed))
