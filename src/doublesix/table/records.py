"""A table's ``doublesix/1`` record, derived from its log (never stored beside it)."""

from __future__ import annotations

from collections.abc import Iterable

from doublesix.rules.game import Game
from doublesix.rules.record import game_record
from doublesix.table.config import TableConfig
from doublesix.table.model import JSON, Entry, Table
from doublesix.table.state import TableState


def game_of(table: Table, entries: Iterable[Entry]) -> Game | None:
    """The table's game as its log leaves it (None if it never started)."""
    return TableState.rebuild(table, entries, TableConfig(), (), table.created_at).game


def record_of(table: Table, entries: Iterable[Entry]) -> JSON | None:
    """The game's record with the seats' names, or None if the game never started."""
    game = game_of(table, entries)
    if game is None:
        return None
    return game_record(game, [s.name or f"seat {s.number}" for s in table.seats])
