"""R39: the hand-laid line — which turns and straightenings its limits allow.

The round keeps the logical line (R4, R5); how the line is drawn is the
players' choice and lives only in events: a play's ``turn`` and
``Straighten``. From the round's line (``Round.line``: tile, end code, pip)
and its events, these functions say whether a turn or a straightening stays
within R39's limits: None when it does, else why not. Room on the table is
the client's to judge.
"""

from __future__ import annotations

from collections.abc import Sequence

from doublesix.rules.moves import Event, Play, Straighten, Turn
from doublesix.rules.ruleset import Line, Ruleset
from doublesix.tiles import TILES, Tile

Laid = Sequence[tuple[int, int, int]]
"""``Round.line``: the tiles in the order laid, as (tile index, end code, pip outward)."""

AUTO = "this table lays the line itself (line: auto)"


def arm(line: Laid, end: int) -> list[int]:
    """The tiles from the round's first tile out to ``end``, in the order laid."""
    return [line[0][0], *(t for t, e, _ in line[1:] if e == end)]


def turn_refusal(ruleset: Ruleset, line: Laid, tile: Tile, end: int) -> str | None:
    """Why ``tile`` laid at ``end`` may not turn, or None: not the first tile, not a
    double, not right after a double."""
    if ruleset.line is not Line.MANUAL:
        return AUTO
    if not line:
        return f"{tile} opens the line: the first tile has no turn"
    if tile.is_double:
        return f"{tile} is a double: it lies crosswise, straight on"
    behind = TILES[arm(line, end)[-1]]
    if behind.is_double:
        return f"{tile} follows the double {behind}: it goes straight on"
    return None


def straighten_refusal(
    ruleset: Ruleset, line: Laid, events: Sequence[Event], at: Tile, turn: Turn
) -> str | None:
    """Why the tail beyond ``at`` may not turn a quarter ``turn``, or None."""
    if ruleset.line is not Line.MANUAL:
        return AUTO
    placed = next((i for i, (t, _, _) in enumerate(line) if t == at.index), None)
    if placed is None:
        return f"{at} is not on the line"
    if placed == 0:
        return f"the line cannot turn across its first tile {at}"
    if at.is_double:
        return f"the line cannot turn right behind the double {at}"
    tiles = arm(line, line[placed][1])
    beyond = tiles.index(at.index) + 1
    if beyond == len(tiles):
        return f"nothing lies beyond {at} to turn"
    tail = TILES[tiles[beyond]]
    if tail.is_double:
        return f"the tail beyond {at} starts with the double {tail}, which never turns"
    if abs(joint(events, at, tail) + turn.quarter) > 1:
        return f"turning {turn} at {at} would fold the line back"
    return None


def joint(events: Sequence[Event], at: Tile, tail: Tile) -> int:
    """How the line bends between ``at`` and the tile laid next to it, ``tail``: the
    tail's own turn plus every straightening at ``at`` (+1 a quarter left, -1 right)."""
    laid = [e.turn for e in events if isinstance(e, Play) and e.tile == tail]
    turned = [e.turn for e in events if isinstance(e, Straighten) and e.at == at]
    return sum(t.quarter for t in (*laid, *turned) if t is not None)


def straightenings(
    ruleset: Ruleset, line: Laid, events: Sequence[Event]
) -> list[tuple[Tile, Turn]]:
    """Every (tile, turn) a straightening may use now."""
    if ruleset.line is not Line.MANUAL:
        return []
    return [
        (TILES[t], turn)
        for t, _, _ in line[1:]
        for turn in Turn
        if straighten_refusal(ruleset, line, events, TILES[t], turn) is None
    ]
