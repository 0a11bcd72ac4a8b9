"""Moves and the events of a round, as small immutable values.

A round's state works on tile indices; these values are what users see.
Every possible move and event is made once here and shared, so the engine
hands them out without building new objects on its hot path.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from doublesix.tiles import TILES, InvalidTileError, Tile


class End(StrEnum):
    """R4: the two open ends of the line, named as the first tile was laid."""

    LEFT = "left"
    RIGHT = "right"


class Turn(StrEnum):
    """R39: where a tile of a hand-laid line goes from the end it extends, seen in the
    direction that end runs (None: straight on); also a straightening's quarter turn."""

    LEFT = "left"
    RIGHT = "right"

    @property
    def quarter(self) -> int:
        """+1 for a quarter turn left, -1 for one right."""
        return 1 if self is Turn.LEFT else -1


ENDS = (End.LEFT, End.RIGHT)
LEFT, RIGHT, OPEN = 0, 1, 2
"""End codes of the engine: left, right, and the round's first tile (no end)."""
_END_CODES: dict[object, int] = {End.LEFT: LEFT, End.RIGHT: RIGHT, None: OPEN}


class InvalidMoveError(ValueError):
    """A text that does not describe a move."""


class IllegalMoveError(ValueError):
    """A move that the rules do not allow here; ``rule`` names the rule."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule


class Move(NamedTuple):
    """Play ``tile`` at ``end``; ``end`` is None for the round's first tile."""

    tile: Tile
    end: End | None = None

    def __str__(self) -> str:
        return str(self.tile) if self.end is None else f"{self.tile} {self.end}"

    @classmethod
    def parse(cls, text: str) -> Move:
        """``"2-5"`` or ``"2-5 left"`` / ``"2-5 right"``."""
        parts = text.split()
        if not 1 <= len(parts) <= 2:
            raise InvalidMoveError(f"not a move: {text!r} (write 'a-b' or 'a-b left|right')")
        try:
            t = Tile.parse(parts[0])
        except InvalidTileError as e:
            raise InvalidMoveError(str(e)) from None
        if len(parts) == 1:
            return MOVES[t.index][OPEN]
        try:
            end = End(parts[1].lower())
        except ValueError:
            raise InvalidMoveError(f"not an end: {parts[1]!r} (left or right)") from None
        return MOVES[t.index][ENDS.index(end)]

    @property
    def end_code(self) -> int:
        try:
            return _END_CODES[self.end]
        except (KeyError, TypeError):  # TypeError: not even hashable
            raise InvalidMoveError(f"not an end: {self.end!r} (left or right)") from None


class Play(NamedTuple):
    seat: int
    tile: Tile
    end: End | None
    turn: Turn | None = None
    """R39, a hand-laid line: the tile turns left or right (None: straight on)."""


class Draw(NamedTuple):
    """A tile drawn from the boneyard (R9); only its owner may see ``tile``."""

    seat: int
    tile: Tile


class Pass(NamedTuple):
    """The seat cannot play and cannot draw (R9, R10)."""

    seat: int


class Straighten(NamedTuple):
    """R39: the seat rotated the tail of the line beyond ``at`` a quarter ``turn``.

    Not a move: the same seat lays a tile afterwards.
    """

    seat: int
    at: Tile
    turn: Turn


Event = Play | Draw | Pass | Straighten

MOVES: tuple[tuple[Move, Move, Move], ...] = tuple(
    (Move(t, End.LEFT), Move(t, End.RIGHT), Move(t, None)) for t in TILES
)
PLAYS: tuple[tuple[tuple[Play, Play, Play], ...], ...] = tuple(
    tuple((Play(s, t, End.LEFT), Play(s, t, End.RIGHT), Play(s, t, None)) for t in TILES)
    for s in range(4)
)
DRAWS: tuple[tuple[Draw, ...], ...] = tuple(tuple(Draw(s, t) for t in TILES) for s in range(4))
PASSES: tuple[Pass, ...] = tuple(Pass(s) for s in range(4))
