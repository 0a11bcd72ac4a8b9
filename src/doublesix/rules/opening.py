"""Who opens a round and why (R16–R21), as a value.

The game decides the opener once per round and states it as an
:class:`Opening`: the seat, what decided it, the rule, the tile that decided
it and whether that tile was laid for the seat. The terminal, the record's
text and the browser show this value; none of them works the opener out
again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from doublesix.rules.ruleset import Opener
from doublesix.tiles import DOUBLES, TILES, Tile, bits, lowest, tile

_ONE_ONE = tile(1, 1).index
_ZERO_ZERO = tile(0, 0).bit


class OpeningReason(StrEnum):
    """What decided the opener of a round."""

    HIGHEST_DOUBLE = "highest_double"
    """R16: the highest double dealt; it is laid for its holder."""
    HEAVIEST_TILE = "heaviest_tile"
    """R16 (no double dealt: laid for its holder) or R20 (the holder opens with any tile)."""
    PREVIOUS_WINNER = "previous_winner"
    """R17, R20: the winner of the last round opens with any tile."""
    ONE_ONE = "one_one"
    """R18, round 1: the holder of 1-1; it is laid for them."""
    LAST_PLACER = "last_placer"
    """R18, later rounds: whoever laid the last tile of the last round."""
    LOWEST_DOUBLE = "lowest_double"
    """R19: the lowest double but 0-0; its holder opens with any tile."""
    LOWEST_TILE = "lowest_tile"
    """R19 without such a double: the lowest tile's holder opens with any tile."""
    LEAD_DRAW = "lead_draw"
    """R21, round 1: the highest tile turned up for the lead."""
    LEAD_PASSES = "lead_passes"
    """R21, later rounds: the next seat clockwise from the last opener."""


@dataclass(frozen=True)
class Opening:
    """Who opens a round, why, and whether the opening tile was laid for them."""

    seat: int
    reason: OpeningReason
    rule: str
    """The rule that decided it: R16 … R21."""
    tile: Tile | None
    """The tile that decided it (the double held, the tile turned up …); None if none did."""
    forced: bool
    """``tile`` was laid for the seat (R16, R18); otherwise the seat opens with any tile."""


def decide_by_tiles(opener: Opener, hands: Sequence[int]) -> tuple[int, int, OpeningReason]:
    """R16, R18 (round 1), R19, R20 (round 1): the opener by the tiles dealt.

    Returns the seat, the index of the tile that decided it, and why. Cheap
    enough for random playouts (no objects are made).
    """
    dealt = 0
    for hand in hands:
        dealt |= hand

    def holder(t: int) -> int:
        return next(s for s, hand in enumerate(hands) if hand >> t & 1)

    heaviest = dealt.bit_length() - 1  # tiles are indexed lightest first (R3)
    if opener is Opener.HIGHEST_DOUBLE:
        doubles = dealt & DOUBLES
        if doubles:
            t = doubles.bit_length() - 1
            return holder(t), t, OpeningReason.HIGHEST_DOUBLE
        return holder(heaviest), heaviest, OpeningReason.HEAVIEST_TILE
    if opener is Opener.KOZEL:
        return holder(_ONE_ONE), _ONE_ONE, OpeningReason.ONE_ONE
    if opener is Opener.LOWEST_DOUBLE:
        doubles = dealt & DOUBLES & ~_ZERO_ZERO
        if doubles:
            t = (doubles & -doubles).bit_length() - 1
            return holder(t), t, OpeningReason.LOWEST_DOUBLE
        t = lowest(TILES[i] for i in bits(dealt)).index
        return holder(t), t, OpeningReason.LOWEST_TILE
    if opener is Opener.HIGHEST_TILE:
        return holder(heaviest), heaviest, OpeningReason.HEAVIEST_TILE
    raise ValueError(f"the {opener} opener is not decided by the tiles dealt (R21)")


_RULES = {
    Opener.HIGHEST_DOUBLE: "R16",
    Opener.KOZEL: "R18",
    Opener.LOWEST_DOUBLE: "R19",
    Opener.HIGHEST_TILE: "R20",
}


def opening_by_tiles(opener: Opener, hands: Sequence[int]) -> Opening:
    """The :class:`Opening` of ``decide_by_tiles``; the tile is laid for R16 and R18."""
    seat, t, reason = decide_by_tiles(opener, hands)
    forced = opener in (Opener.HIGHEST_DOUBLE, Opener.KOZEL)
    return Opening(seat, reason, _RULES[opener], TILES[t], forced)
