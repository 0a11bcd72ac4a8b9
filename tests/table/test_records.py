"""A table's record, derived from its log: bots named as the command line names them."""

from __future__ import annotations

from doublesix.rules.text import record_lines
from doublesix.table import commands
from doublesix.table.config import TableConfig
from doublesix.table.model import Seat, SeatKind
from doublesix.table.records import record_of
from doublesix.table.state import TableState

from .test_state import LEVELS, anna, table


def test_a_bot_is_named_by_its_seat_and_its_level_is_a_field_apart() -> None:
    state = TableState(
        table(anna(), Seat(1, SeatKind.OPEN), Seat(2, SeatKind.OPEN)),
        TableConfig(),
        LEVELS,
        0.0,
    )
    state.apply(commands.SetBot("a", 1, "greedy"), 1.0)
    state.apply(commands.SetBot("a", 2, "random"), 1.0)
    record = record_of(state.table, state.recent)
    assert record is not None
    assert record["players"] == ["Anna", "Bot 1", "Bot 2"]
    assert record["bots"] == [None, "greedy", "random"]
    text = "\n".join(record_lines(record))
    assert "Bot 1 · greedy" in text and "Bot 2 · random" in text and "greedy bot" not in text
