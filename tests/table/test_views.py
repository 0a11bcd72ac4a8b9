"""Every viewer's encoded view and frames: the shared part built once, each viewer's own apart."""

from __future__ import annotations

import orjson
import pytest

from doublesix.rules.ruleset import PRESETS
from doublesix.table import commands
from doublesix.table.commands import Player
from doublesix.table.config import TableConfig
from doublesix.table.frames import encode, entry_frame, event_frames
from doublesix.table.model import Seat, SeatKind, TableStatus
from doublesix.table.state import TableState
from doublesix.table.views import event_json, view_of

from .test_state import table

ROUNDS = 3
"""Rounds played of each game (enough for draws, passes, round ends and Continue)."""


def check_views(state: TableState) -> None:
    """Each viewer's encoded view is ``encode(view)``, and its events are the engine's view
    of them for that viewer (its own drawn tiles only; a spectator's none)."""
    encoded = state.encoded_views()
    assert set(encoded.own) == set(state.viewers())
    for viewer in state.viewers():
        view = state.view(viewer)
        assert encoded.text(viewer) == encode(view)
        assert orjson.loads(encoded.text(viewer)) == view
        for entry in state.recent:  # each entry's frame in parts is the frame in one piece
            whole = entry_frame(entry, viewer, encoded.text(viewer))
            assert event_frames(entry, encoded).get(viewer) == whole
        if state.game is not None:
            seen = view_of(state.game, viewer)
            assert view["events"] == [event_json(e, viewer is None) for e in seen.events]
            if viewer is None:
                assert view["hand"] == [] and view["legal"] == []
            else:
                assert view["hand"] == [str(t) for t in seen.hand]


@pytest.mark.parametrize(
    ("name", "players"), [(name, n) for name, p in PRESETS.items() for n in p.players]
)
def test_every_viewer_gets_its_own_view_in_one_encoding(name: str, players: int) -> None:
    seats = [Seat(0, SeatKind.HUMAN, None, "p0", "P0", "token-0")]
    seats += [Seat(n, SeatKind.OPEN) for n in range(1, players)]
    state = TableState(table(*seats, name=name, seed=11), TableConfig(), ("greedy",), 0.0)
    check_views(state)  # waiting for players: no game yet
    for n in range(1, players):
        state.apply(commands.Join(Player(f"p{n}", f"P{n}"), f"token-{n}"), 1.0)
        check_views(state)
    game = state.game
    assert game is not None and state.table.status == TableStatus.PLAYING
    while not game.finished and len(game.rounds) <= ROUNDS:
        turn = game.turn
        if turn is None:
            for seat in range(players):
                state.apply(commands.Continue(seat), 2.0)
        else:
            move = game.legal_moves()[0]
            state.apply(commands.Play(turn, move, state.table.version, None), 2.0)
        check_views(state)
