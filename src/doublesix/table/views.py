"""What a seat is sent: the protocol's ``View`` and events, built from ``seat_view``.

``view_json`` is the one function that turns a game into what a seat (or a
spectator, ``seat=None``) may see; ``update_events`` takes the new events
from the same seat's view. A spectator's view is seat 0's view with the hand,
the legal moves and every drawn tile taken out, so a spectator sees no tile
of any hand until the round is over (R25).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from doublesix.rules.game import Game
from doublesix.rules.moves import Draw, Pass, Play, Straighten
from doublesix.rules.record import game_result_record, round_result_record
from doublesix.rules.ruleset import Ruleset
from doublesix.rules.scoring import GameResult
from doublesix.rules.shapes import opening_json, play_json, redeal_json, straighten_json
from doublesix.rules.view import HiddenDraw, PublicEvent, SeatView, seat_view, seen_opening
from doublesix.tiles import Tile

JSON = dict[str, Any]


@dataclass(frozen=True)
class TableInfo:
    """The table's side of a view: who sits where, and its settings."""

    id: str
    ruleset: Ruleset
    players: tuple[str | None, ...]
    hints: bool
    timer: float | None


def event_json(event: PublicEvent, spectator: bool = False) -> JSON:
    """One public event as the protocol writes it; a spectator sees no drawn tile."""
    if isinstance(event, Play):
        return play_json(event)
    if isinstance(event, Draw):
        return {"seat": event.seat, "draw": None if spectator else str(event.tile)}
    if isinstance(event, HiddenDraw):
        return {"seat": event.seat, "draw": None}
    if isinstance(event, Pass):
        return {"seat": event.seat, "pass": True}
    assert isinstance(event, Straighten)
    return straighten_json(event)


def _tiles(tiles: Sequence[Tile]) -> list[str]:
    return [str(t) for t in tiles]


def sides_of(ruleset: Ruleset) -> list[list[int]]:
    return [list(ruleset.seats_of(side)) for side in range(ruleset.sides)]


def status_of(game: Game | None) -> str:
    if game is None:
        return "waiting"
    if game.finished:
        return "finished"
    return "round_over" if game.turn is None else "playing"


def view_of(game: Game, seat: int | None) -> SeatView:
    """The engine's view for ``seat``; a spectator starts from seat 0's (see the module)."""
    return seat_view(game, 0 if seat is None else seat)


def view_json(
    table: TableInfo,
    game: Game | None,
    seat: int | None,
    ready: Collection[int] = (),
    deadline: float | None = None,
    away: Sequence[JSON] = (),
    seen: SeatView | None = None,
) -> JSON:
    """The protocol's ``View`` of ``table`` for ``seat`` (None: a spectator).

    ``away``: the seats whose players are disconnected (``TableActor.away``).
    ``seen``: ``view_of(game, seat)`` if the caller has it already.
    """
    ruleset = table.ruleset
    base: JSON = {
        "table": table.id,
        "seat": seat,
        "players": list(table.players),
        "status": status_of(game),
        "ruleset": ruleset.to_dict(),
        "sides": sides_of(ruleset),
        "hints": table.hints,
        "away": list(away),
    }
    if game is None:
        return base | {
            "round": 0,
            "opener": None,
            "hand": [],
            "hand_counts": [0] * ruleset.players,
            "line": [],
            "ends": None,
            "boneyard": 0,
            "turn": None,
            "legal": [],
            "events": [],
            "scores": [0] * ruleset.sides,
            "eggs": 0,
            "results": [],
            "round_result": None,
            "revealed": None,
            "game_result": game_result_record(GameResult(False, (), (), (0,) * ruleset.sides)),
            "continue": [],
            "timer": None,
            "redeals": [],
            "redeal_reasons": [],
            "opening": None,
            "straightenings": [],
            "lead_draws": [],
        }
    view = seen if seen is not None else view_of(game, seat)
    spectator = seat is None
    turn = view.turn
    timer = None if deadline is None else {"seat": turn, "deadline": deadline}
    return base | {
        "round": view.round_number,
        "opener": view.opener,
        "hand": [] if spectator else _tiles(view.hand),
        "hand_counts": list(view.hand_counts),
        "line": [list(pair) for pair in view.line],
        "ends": None if view.ends is None else list(view.ends),
        "boneyard": view.boneyard_count,
        "turn": turn,
        "legal": (
            []
            if spectator
            else [
                {"tile": str(m.tile), "end": None if m.end is None else m.end.value, "turns": t}
                for m, t in zip(view.legal_moves, view.may_turn, strict=True)
            ]
        ),
        "events": [event_json(e, spectator) for e in view.events],
        "scores": list(view.scores),
        "eggs": view.eggs,
        "results": [round_result_record(r) for r in view.past_results],
        "round_result": None
        if view.round_result is None
        else round_result_record(view.round_result),
        "revealed": (
            None if view.revealed_hands is None else [_tiles(h) for h in view.revealed_hands]
        ),
        "game_result": game_result_record(view.game_result),
        "continue": sorted(ready) if status_of(game) == "round_over" else [],
        "timer": timer,
        "redeals": [str(reason) for reason in view.redeals],
        "redeal_reasons": [redeal_json(reason) for reason in view.redeals],
        "opening": opening_json(
            seen_opening(view.opening, None, view.round_result is not None)
            if spectator
            else view.opening
        ),
        "straightenings": [{"at": str(at), "turn": turn.value} for at, turn in view.straightenings],
        "lead_draws": [{"seat": s, "tile": str(t)} for s, t in view.lead_draws],
    }


def update_events(
    game: Game, seat: int | None, start: int, seen: SeatView | None = None
) -> list[JSON]:
    """The current round's public events from index ``start`` on, as ``seat`` sees them
    (``seen``: ``view_of(game, seat)`` if the caller has it already)."""
    view = seen if seen is not None else view_of(game, seat)
    return [event_json(e, seat is None) for e in view.events[start:]]
