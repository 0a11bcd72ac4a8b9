"""The JSON shapes of the engine's values: plays and straightenings, the opening, a redeal,
a round's breakdown.

The record (``record.py``) and the server's views write them the same way,
so the terminal, the record's text and the browser read one shape and only
display it (docs/record.md, docs/protocol.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from doublesix.rules.breakdown import HandCount, SideScore
from doublesix.rules.deal import Redeal
from doublesix.rules.moves import Play, Straighten
from doublesix.rules.opening import Opening

JSON = dict[str, Any]


def play_json(play: Play) -> JSON:
    """``{"seat", "play", "end"?, "turn"?}``: ``end`` except for the round's first tile,
    ``turn`` only where the tile turns (R39)."""
    data: JSON = {"seat": play.seat, "play": str(play.tile)}
    if play.end is not None:
        data["end"] = play.end.value
    if play.turn is not None:
        data["turn"] = play.turn.value
    return data


def straighten_json(event: Straighten) -> JSON:
    """``{"seat", "straighten": {"at", "turn"}}`` (R39)."""
    return {"seat": event.seat, "straighten": {"at": str(event.at), "turn": event.turn.value}}


def opening_json(opening: Opening) -> JSON:
    """``{"seat", "reason", "rule", "tile", "forced"}`` (R16–R21)."""
    return {
        "seat": opening.seat,
        "reason": opening.reason.value,
        "rule": opening.rule,
        "tile": None if opening.tile is None else str(opening.tile),
        "forced": opening.forced,
    }


def redeal_json(redeal: Redeal) -> JSON:
    """``{"reason", "seat", "kind", "count", "number"}`` (R13); ``reason`` is the sentence
    records have always carried, the other fields say the same as values."""
    return {
        "reason": str(redeal),
        "seat": redeal.seat,
        "kind": redeal.kind.value,
        "count": redeal.count,
        "number": redeal.number,
    }


def hand_count_json(count: HandCount) -> JSON:
    """``{"seat", "value", "counted", "lone"}``: no tiles — the round's hands are in the
    record's deal and events, and in the View's ``revealed`` once the round is over (R25)."""
    return {
        "seat": count.seat,
        "value": count.value,
        "counted": count.counted,
        "lone": None if count.lone is None else count.lone.value,
    }


def side_score_json(row: SideScore) -> JSON:
    return {
        "side": row.side,
        "hands": [hand_count_json(c) for c in row.hands],
        "total": row.total,
        "basis": row.basis.value,
        "base": row.base,
        "eggs": row.eggs,
        "dropped": row.dropped,
        "points": row.points,
        "rule": row.rule,
    }


def breakdown_json(rows: Sequence[SideScore]) -> list[JSON]:
    """A round's breakdown, side 0 first."""
    return [side_score_json(row) for row in rows]
