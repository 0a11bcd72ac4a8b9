"""The bot interface and the registry of named levels."""

from __future__ import annotations

import math
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
"""Bots for the arena only, never offered at a table: a ceiling that sees what a seat may
not (``omniscient``), a frozen yardstick (``expert-2026``)."""
BUDGETS: dict[str, float] = {}
"""The searching levels' time budget per move by default, in ms of one core (a table's)."""


def register(
    name: str, *, table: bool = True, ms: float | None = None
) -> Callable[[BotFactory], BotFactory]:
    """Name a bot; ``table=False`` keeps it out of ``table_bots()`` (measurement only).

    ``ms`` marks a searching bot (it has ``ms_per_move``) and is its default budget.
    """

    def add(factory: BotFactory) -> BotFactory:
        BOTS[name] = factory
        if not table:
            MEASUREMENT_BOTS.add(name)
        if ms is not None:
            BUDGETS[name] = ms
        return factory

    return add


LEVELS = ("random", "greedy", "medium", "pimc", "expert")
"""The table's levels, weakest first."""


def table_bots() -> list[str]:
    """The levels a table may offer, weakest first (then any other honest bot by name)."""
    names = [name for name in BOTS if name not in MEASUREMENT_BOTS]
    rank = {name: i for i, name in enumerate(LEVELS)}
    return sorted(names, key=lambda name: (rank.get(name, len(LEVELS)), name))


def parse_spec(spec: str) -> tuple[str, float | None]:
    """A bot given as ``level`` or ``level:ms`` (its own budget per move): (level, ms or None)."""
    name, colon, ms_text = spec.strip().partition(":")
    if name not in BOTS:
        raise ValueError(f"no bot {name!r}; choose from {', '.join(BOTS)}")
    if not colon:
        return name, None
    if name not in BUDGETS:
        raise ValueError(
            f"{spec!r}: {name} does not search, so it takes no budget "
            f"(only {', '.join(BUDGETS)} do)"
        )
    try:
        ms = float(ms_text)
    except ValueError:
        raise ValueError(f"{spec!r}: the budget {ms_text!r} is not a number of ms") from None
    if not (ms > 0 and math.isfinite(ms)):
        raise ValueError(f"{spec!r}: the budget must be a positive number of ms")
    return name, ms


def budget_of(spec: str, default: float | None = None) -> float | None:
    """The budget per move the bot ``spec`` plays with: its own, else ``default``, else its
    level's (``BUDGETS``); None for a bot that does not search."""
    name, ms = parse_spec(spec)
    if name not in BUDGETS:
        return None
    if ms is not None:
        return ms
    return default if default is not None else BUDGETS[name]


def make_bot(spec: str, seed: int = 0) -> Bot:
    """The bot ``spec`` (``level`` or ``level:ms``); the same seed makes the same choices.

    A searching level without a budget of its own gets its level's (``BUDGETS``).
    """
    name, _ = parse_spec(spec)
    bot = BOTS[name](random.Random(seed))
    budget = budget_of(spec)
    if budget is not None:
        bot.ms_per_move = budget  # type: ignore[attr-defined]
    return bot
