"""A table's ``doublesix/1`` record, derived from its log (never stored beside it)."""

from __future__ import annotations

from collections.abc import Iterable

from doublesix.names import bot_name
from doublesix.rules.game import Game
from doublesix.rules.record import game_record
from doublesix.table.config import TableConfig
from doublesix.table.model import JSON, Entry, Seat, SeatKind, Table
from doublesix.table.state import TableState


def game_of(table: Table, entries: Iterable[Entry]) -> Game | None:
    """The table's game as its log leaves it (None if it never started)."""
    return TableState.rebuild(table, entries, TableConfig(), (), table.created_at).game


def record_of(table: Table, entries: Iterable[Entry]) -> JSON | None:
    """The game's record with the seats' names and the bots' levels apart (``Bot 2`` and
    ``expert``, as the command line writes them), or None if the game never started."""
    game = game_of(table, entries)
    if game is None:
        return None
    bots = [s.bot if s.kind == SeatKind.BOT else None for s in table.seats]
    return game_record(game, [_name(s) for s in table.seats], bots)


def _name(seat: Seat) -> str:
    if seat.kind == SeatKind.BOT:
        return bot_name(seat.number)  # as the CLI names it, whatever an old table stored
    return seat.name or f"seat {seat.number}"
