"""The two simple levels: ``random`` and ``greedy`` (its heaviest playable tile)."""

from __future__ import annotations

import random

from doublesix.bots.base import register
from doublesix.rules.moves import Move
from doublesix.rules.view import SeatView


class RandomBot:
    """Any legal move, uniformly."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Move:
        return self.rng.choice(view.legal_moves)


class GreedyBot:
    """Plays its heaviest playable tile (R3), at a random end where it fits both."""

    name = "greedy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Move:
        heaviest = max(m.tile.index for m in view.legal_moves)  # indices follow R3's weight
        return self.rng.choice([m for m in view.legal_moves if m.tile.index == heaviest])


register("random")(RandomBot)
register("greedy")(GreedyBot)
