"""A table's clocks as pure functions of its state and ``now``.

Four clocks run at a table: the turn timer of the human seat to move (or,
after a round, everyone's time to press Continue), each away seat's grace
period, the time an unfilled table waits for players, and the time a game
waits for any of its players to come back. None of them ticks by itself:
the shell wakes the table at ``wake_at`` and applies ``Tick``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from doublesix.table.model import SeatKind, TableStatus

if TYPE_CHECKING:
    from doublesix.table.state import TableState


def turn_seat(state: TableState) -> int | None:
    game = state.game
    if game is None or game.finished or state.table.status != TableStatus.PLAYING:
        return None
    return game.turn


def clock_seat(state: TableState) -> int | None:
    """The human seat to move, when the table has a timer."""
    seat = turn_seat(state)
    table = state.table
    if table.timer is None or seat is None or table.seats[seat].kind != SeatKind.HUMAN:
        return None
    return seat


def waiting_to_continue(state: TableState) -> list[int]:
    """The human seats that have not pressed Continue at a round's end (R25)."""
    game = state.game
    if game is None or game.finished or game.turn is not None:
        return []
    if state.table.status != TableStatus.PLAYING:
        return []
    return [s for s in state.table.humans if s not in state.ready]


def clock_runs(state: TableState) -> bool:
    """Whether a turn clock runs: the human seat to move's, or everyone's for Continue."""
    if state.table.timer is None:
        return False
    return clock_seat(state) is not None or bool(waiting_to_continue(state))


def deadline(state: TableState, now: float, restart: bool) -> float | None:
    """When the running turn clock runs out; ``restart``: a new turn or round began now."""
    table = state.table
    if table.timer is None or not clock_runs(state):
        return None
    duration = table.timer if clock_seat(state) is not None else state.config.continue_seconds
    if restart or table.deadline is None:
        return now + duration
    return table.deadline


def grace_ends(state: TableState) -> float | None:
    """When the next away seat's grace period ends (None: none is running)."""
    if state.table.status != TableStatus.PLAYING:
        return None
    ends = [t for s, t in state.gone.items() if s not in state.stand_in]
    return min(ends) + state.config.grace_seconds if ends else None


def abandoned_at(state: TableState) -> float | None:
    """When a game that every human player has left closes (None: someone is here)."""
    table = state.table
    if table.status != TableStatus.PLAYING or set(table.humans) - set(state.gone):
        return None
    if not state.gone:
        return None
    return max(state.gone.values()) + state.config.abandon_seconds


def expires_at(state: TableState) -> float | None:
    """When a table still waiting for players closes."""
    table = state.table
    if table.status != TableStatus.OPEN:
        return None
    return table.updated_at + state.config.open_seconds


def turn_runs_out(state: TableState) -> float | None:
    """When the turn clock runs out, unless a move is being made for its seat already."""
    table = state.table
    if table.deadline is None or not clock_runs(state) or state.late == table.version:
        return None
    return table.deadline


def wake_at(state: TableState) -> float | None:
    """The earliest moment a clock runs out."""
    times = [
        t
        for t in (turn_runs_out(state), grace_ends(state), abandoned_at(state), expires_at(state))
        if t is not None
    ]
    return min(times) if times else None
