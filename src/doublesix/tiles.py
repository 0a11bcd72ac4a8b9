"""Tiles of the double-six set (R1–R3) and their bit-set representation.

Every tile has an index 0–27. The indices follow R3's weight order, lightest
first: by value, then by the larger half. So a set of tiles is a 28-bit
integer, the heaviest tile of a set is its highest bit, and ``SUIT[n]``
masks the tiles that show ``n``: ``hand & SUIT[end]`` are the tiles of a
hand that fit an end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

PIPS = range(7)
_INDEX: dict[tuple[int, int], int] = {
    pair: i
    for i, pair in enumerate(
        sorted(((a, b) for a in PIPS for b in PIPS if a <= b), key=lambda p: (p[0] + p[1], p[1]))
    )
}


class InvalidTileError(ValueError):
    """A text that does not name a tile of the double-six set."""


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile; ``Tile(5, 2)`` is the tile ``2-5``. The 28 tiles are in ``TILES``."""

    low: int
    high: int
    index: int = field(default=-1, compare=False, repr=False)
    """The tile's place in ``TILES``: R3's weight order, lightest first."""

    def __post_init__(self) -> None:
        pair = (min(self.low, self.high), max(self.low, self.high))
        if pair not in _INDEX:
            raise InvalidTileError(f"not a tile: {self.low}-{self.high} (R1: halves are 0 to 6)")
        object.__setattr__(self, "low", pair[0])
        object.__setattr__(self, "high", pair[1])
        object.__setattr__(self, "index", _INDEX[pair])

    @property
    def value(self) -> int:
        """R2: the sum of both halves."""
        return self.low + self.high

    @property
    def is_double(self) -> bool:
        return self.low == self.high

    @property
    def bit(self) -> int:
        return 1 << self.index

    def shows(self, pip: int) -> bool:
        return pip in (self.low, self.high)

    def other(self, pip: int) -> int:
        """The half opposite ``pip`` (``pip`` itself for a double)."""
        if pip == self.low:
            return self.high
        if pip == self.high:
            return self.low
        raise ValueError(f"{self} does not show {pip}")

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Tile({self})"

    @classmethod
    def parse(cls, text: str) -> Tile:
        """R1: ``a-b``, ``b-a`` or ``a|b`` with halves 0–6."""
        match = _TILE_TEXT.fullmatch(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise InvalidTileError(f"not a tile: {text!r} (R1: write tiles as 'a-b', 0 to 6)")
        return tile(int(match[1]), int(match[2]))


_TILE_TEXT = re.compile(r"([0-6])\s*[-|]\s*([0-6])")


def _weight(t: Tile) -> tuple[int, int]:
    return (t.value, t.high)


TILES: tuple[Tile, ...] = tuple(Tile(a, b) for a, b in _INDEX)

ALL = (1 << len(TILES)) - 1
"""The whole set as a mask."""

LOW: tuple[int, ...] = tuple(t.low for t in TILES)
HIGH: tuple[int, ...] = tuple(t.high for t in TILES)
VALUE: tuple[int, ...] = tuple(t.value for t in TILES)
SUIT: tuple[int, ...] = tuple(
    sum(1 << i for i, t in enumerate(TILES) if t.shows(pip)) for pip in PIPS
)
"""``SUIT[n]``: the mask of the seven tiles that show ``n``."""
DOUBLES = sum(1 << i for i, t in enumerate(TILES) if t.is_double)
OTHER: tuple[tuple[int, ...], ...] = tuple(
    tuple(t.other(p) if t.shows(p) else -1 for p in PIPS) for t in TILES
)
"""``OTHER[i][n]``: the half of tile ``i`` opposite ``n`` (-1 if it does not show ``n``)."""


def tile(a: int, b: int) -> Tile:
    """The tile with halves ``a`` and ``b``, in either order."""
    index = _INDEX.get((min(a, b), max(a, b)))
    if index is None:
        raise InvalidTileError(f"not a tile: {a}-{b} (R1: halves are 0 to 6)")
    return TILES[index]


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest (lightest tile) first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def tiles_of(mask: int) -> list[Tile]:
    return [TILES[i] for i in bits(mask)]


def mask_of(tiles: Iterable[Tile]) -> int:
    mask = 0
    for t in tiles:
        mask |= 1 << t.index
    return mask


def value_of(mask: int) -> int:
    """R2: the plain value of a set of tiles."""
    return sum(VALUE[i] for i in bits(mask))


def heaviest(tiles: Iterable[Tile]) -> Tile:
    """R3: largest value, ties broken by the larger half."""
    return max(tiles, key=_weight)


def lowest(tiles: Iterable[Tile]) -> Tile:
    """R3: smallest value, ties broken by the smaller half (0-3 is lower than 1-2)."""
    return min(tiles, key=lambda t: (t.value, t.low))
