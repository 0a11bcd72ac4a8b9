"""What a seat is sent: the protocol's ``View`` and events, built from ``seat_view``.

``view_json`` is the one function that turns a game into what a seat (or a
spectator, ``seat=None``) may see: the part every viewer shares
(``shared_json``), built once per event for all of them, then the viewer's
own (``own_json``: its hand, legal moves, drawn tiles, the opening as it may
see it); ``update_events`` takes the new events from the same seat's view.
A spectator's view is seat 0's view with the hand, the legal moves and every
drawn tile taken out, so a spectator sees no tile of any hand until the
round is over (R25).
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
from doublesix.table.frames import engine_events
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

    ``away``: the seats whose players are disconnected (``TableState.away``).
    ``seen``: ``view_of(game, seat)`` if the caller has it already. It is
    ``shared_json`` (the same for every viewer) followed by ``own_json``.
    """
    view = seen if seen is not None or game is None else view_of(game, seat)
    shared = shared_json(table, game, view, ready, deadline, away)
    return shared | own_json(game, seat, view, None if game is None else round_events(game))


def shared_json(
    table: TableInfo,
    game: Game | None,
    seen: SeatView | None,
    ready: Collection[int] = (),
    deadline: float | None = None,
    away: Sequence[JSON] = (),
) -> JSON:
    """The part of the ``View`` that is the same for every viewer (``OWN_KEYS`` left out):
    built, and encoded, once per event for all seats. ``seen``: any seat's view of ``game``
    (None before the game); it gives only what every seat may see."""
    ruleset = table.ruleset
    base: JSON = {
        "table": table.id,
        "players": list(table.players),
        "status": status_of(game),
        "ruleset": ruleset.to_dict(),
        "sides": sides_of(ruleset),
        "hints": table.hints,
        "away": list(away),
    }
    if game is None or seen is None:
        return base | {
            "round": 0,
            "opener": None,
            "hand_counts": [0] * ruleset.players,
            "line": [],
            "ends": None,
            "boneyard": 0,
            "turn": None,
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
            "lead_draws": [],
        }
    view = seen
    turn = view.turn
    timer = None if deadline is None else {"seat": turn, "deadline": deadline}
    return base | {
        "round": view.round_number,
        "opener": view.opener,
        "hand_counts": list(view.hand_counts),
        "line": [list(pair) for pair in view.line],
        "ends": None if view.ends is None else list(view.ends),
        "boneyard": view.boneyard_count,
        "turn": turn,
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
        "lead_draws": [{"seat": s, "tile": str(t)} for s, t in view.lead_draws],
    }


OWN_KEYS = ("seat", "hand", "legal", "events", "opening", "straightenings")
"""The keys of a ``View`` that differ from one viewer to another (``own_json``)."""


def round_events(game: Game) -> list[JSON]:
    """The current round's events with every drawn tile: ``own_json`` hides what each
    viewer may not see (built once per event for all viewers)."""
    return [event_json(e) for e in game.round.events]


def own_json(
    game: Game | None, seat: int | None, seen: SeatView | None, events: Sequence[JSON] | None
) -> JSON:
    """The ``OWN_KEYS`` of the ``View`` for ``seat`` (None: a spectator): ``seen`` is
    ``view_of(game, seat)``, ``events`` the round's ``round_events``, of which the viewer
    sees its own drawn tiles only (a spectator none)."""
    if game is None or seen is None or events is None:
        return {"seat": seat, "hand": [], "legal": [], "events": [], "opening": None,
                "straightenings": []}  # fmt: skip
    view = seen
    spectator = seat is None
    return {
        "seat": seat,
        "hand": [] if spectator else _tiles(view.hand),
        "legal": (
            []
            if spectator
            else [
                {"tile": str(m.tile), "end": None if m.end is None else m.end.value, "turns": t}
                for m, t in zip(view.legal_moves, view.may_turn, strict=True)
            ]
        ),
        "events": engine_events(events, seat),
        "opening": opening_json(
            seen_opening(view.opening, None, view.round_result is not None)
            if spectator
            else view.opening
        ),
        "straightenings": [{"at": str(at), "turn": turn.value} for at, turn in view.straightenings],
    }


def update_events(
    game: Game, seat: int | None, start: int, seen: SeatView | None = None
) -> list[JSON]:
    """The current round's public events from index ``start`` on, as ``seat`` sees them
    (``seen``: ``view_of(game, seat)`` if the caller has it already)."""
    view = seen if seen is not None else view_of(game, seat)
    return [event_json(e, seat is None) for e in view.events[start:]]
