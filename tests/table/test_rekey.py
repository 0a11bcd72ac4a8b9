"""A seat's new token (``commands.Rekey``) in the table core: its entry holds no token, the
old token's sockets hold the seat no more, and the same command again, or one for a player who
sits nowhere here, changes nothing."""

from __future__ import annotations

import pytest

from doublesix.table import commands
from doublesix.table.config import TableConfig
from doublesix.table.errors import Refusal, TableError
from doublesix.table.frames import entry_events
from doublesix.table.model import EventKind
from doublesix.table.records import record_of
from doublesix.table.state import Announce, TableState, Unseat

from .test_state import LEVELS, TOKEN, connect, first_move, mover, started

NEW = "the seat's new token"


def test_a_new_token_unseats_the_old_one_s_sockets_and_the_game_goes_on() -> None:
    state = started(timer=30.0)
    state.apply(connect(state, "s0", 0), 2.0)
    state.apply(connect(state, "s1", 1), 2.0)
    deadline = state.table.deadline

    out = state.apply(commands.Rekey("b", NEW), 5.0)
    [entry] = out.entries
    assert (out.answer, entry.kind, entry.seat, entry.data) == (1, EventKind.REKEY, 1, {})
    assert entry_events(entry, None) == [{"seat": 1, "rekey": True}]
    assert out.effects == [Announce(), Unseat(1, entry.version)]
    assert (state.table.seats[1].token, state.table.deadline) == (NEW, deadline)
    assert [(a["seat"], a["since"], a["bot"]) for a in state.away()] == [(1, 5.0, False)]
    with pytest.raises(TableError) as refused:
        state.apply(commands.Connect("s2", 1, None, TOKEN), 6.0)
    assert refused.value.code == Refusal.BAD_TOKEN

    again = state.apply(commands.Rekey("b", NEW), 7.0)  # a forwarded request sent twice
    nobody = state.apply(commands.Rekey("z", "another token"), 7.0)
    assert (again.answer, again.entries, nobody.answer, nobody.entries) == (1, [], None, [])

    state.apply(connect(state, "s3", 1), 8.0)
    assert state.away() == []
    state.apply(commands.Play(mover(state), first_move(state), state.table.version), 9.0)
    log = list(state.recent)
    rebuilt = TableState.rebuild(state.table.copy(), log, TableConfig(), LEVELS, 10.0)
    assert rebuilt.view(0) | {"away": []} == state.view(0) | {"away": []}
    assert record_of(state.table, log) is not None
