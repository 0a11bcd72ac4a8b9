"""The bots' C core (``bots/c/``); ``doublesix.bots.native`` imports it where it was built."""

from collections.abc import Sequence

ScorerRow = tuple[int, bool, bool, bool, bool, bool, int, int, int, int, Sequence[int], float]

class Tree:
    def __init__(
        self,
        n: int,
        me: int,
        side_of: Sequence[int],
        left: int,
        right: int,
        stop: int,
        draw_one: bool,
        c_puct: float,
        prior: Sequence[float],
        two: bool,
        scorers: Sequence[ScorerRow],
    ) -> None: ...
    def deal(
        self,
        hands: Sequence[int],
        bone: Sequence[int],
        moves: Sequence[tuple[int, int]],
        heavy: int,
    ) -> None: ...
    def root(self) -> dict[int, tuple[int, int, float]]: ...
    def work(self) -> tuple[int, int, int]: ...

def tables(
    suit: Sequence[int],
    other: Sequence[Sequence[int]],
    value: Sequence[int],
    doubles: int,
    low: Sequence[int],
    high: Sequence[int],
) -> None: ...

class Seen:
    def __init__(
        self,
        players: int,
        decisions: Sequence[tuple[int, int, int, int, int]],
        drawn_by: Sequence[Sequence[tuple[int, int]]],
        base: Sequence[float],
        w_kept: float,
        w_open: float,
        noise: float,
        public: Sequence[tuple[int, int, int, int]] | None = None,
        net: tuple[Sequence[float], Sequence[float], Sequence[float]] | None = None,
        styles: tuple[Sequence[tuple[float, float, float]], float] | None = None,
    ) -> None: ...
    def log_likelihood(self, hands: Sequence[int], groups: Sequence[Sequence[int]]) -> float: ...
