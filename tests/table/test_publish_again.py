"""A table taken over publishes its last entries again: the owner that died may have
stored them and died before it sent them (issue 12, failover). Every socket ends with the
table's last version: it drops what it has, and takes what it missed."""

from __future__ import annotations

import json
from typing import Any, cast

from doublesix.server.host import TableHost
from doublesix.server.hub import LocalHub
from doublesix.server.requests import Shell
from doublesix.server.ws import Connection
from doublesix.table import commands

from .test_state import started


def test_a_table_taken_over_sends_its_last_entries_again_and_no_socket_gets_one_twice() -> None:
    state = started()
    for now in (3.0, 4.0, 5.0):
        game = state.game
        assert game is not None and game.turn is not None
        state.apply(commands.Play(game.turn, game.legal_moves()[0], state.table.version), now)
    last = state.table.version
    hub = LocalHub()
    sockets = {}
    for floor in (last, last - 1, last - 3):  # it has them all; it missed one; three
        conn = Connection(0)
        conn.start(floor, [])
        hub.subscribe(state.table.id, conn)
        sockets[floor] = conn
    spectator = Connection(None)
    spectator.start(last - 2, [])
    hub.subscribe(state.table.id, spectator)
    shell: Any = Shell(
        store=cast(Any, None),
        hub=hub,
        thinking=cast(Any, None),
        config=state.config,
        levels=state.levels,
        clock=lambda: 9.0,
        idle_seconds=60,
        rematch=cast(Any, None),
    )
    TableHost(state, shell).publish_again(8)

    def versions(conn: Connection) -> list[int]:
        frames = []
        while not conn.queue.empty():
            text = conn.queue.get_nowait()
            assert text is not None
            frames.append(json.loads(text))
        assert all(f["type"] == "update" for f in frames)
        return [f["version"] for f in frames]

    assert versions(sockets[last]) == []
    assert versions(sockets[last - 1]) == [last]
    assert versions(sockets[last - 3]) == [last - 2, last - 1, last]
    assert versions(spectator) == [last - 1, last]
    assert all(conn.floor == last for conn in [*sockets.values(), spectator])
