"""A seat freed before the start (``Unseat``): the sockets that held it watch from then on,
and a socket of whoever sat down there since keeps it; told before a socket's first frames,
it is decided once they say when the socket held the seat."""

from __future__ import annotations

import functools
import json

from doublesix.server.hub import LocalHub
from doublesix.server.ws import Connection


def frames(conn: Connection) -> list[dict[str, object]]:
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        assert text is not None
        out.append(json.loads(text))
    return out


def test_the_sockets_that_held_the_seat_watch_and_the_new_players_keep_it() -> None:
    hub = LocalHub()
    held, other_tab, newcomer, elsewhere, spectator = (
        Connection(1),
        Connection(1),
        Connection(1),
        Connection(2),
        Connection(None),
    )
    unseated: list[Connection] = []
    for conn, first in ((held, 3), (other_tab, 4), (newcomer, 5), (elsewhere, 3), (spectator, 3)):
        conn.start(first, [])
        conn.on_unseat = functools.partial(unseated.append, conn)
        hub.subscribe("t", conn)

    hub.unseat("t", 1, 5)  # the seat was freed at version 5; the newcomer came at 5
    assert [c.seat for c in (held, other_tab, newcomer, elsewhere, spectator)] == [
        None,
        None,
        1,
        2,
        None,
    ]
    assert frames(held) == frames(other_tab) == [{"type": "unseat", "seat": 1}]
    assert frames(newcomer) == frames(elsewhere) == frames(spectator) == []
    assert sorted(unseated, key=id) == sorted([held, other_tab], key=id)
    hub.unseat("t", 1, 5)  # told twice (another process's relay): nothing more
    assert frames(held) == [] and len(unseated) == 2


def test_told_before_the_first_frames_it_waits_for_them() -> None:
    before, after = Connection(1), Connection(1)
    for conn in (before, after):
        conn.unseat(1, 5)
        assert conn.seat == 1 and frames(conn) == []
    before.start(4, ['{"type":"snapshot"}'])  # it held the seat before it was freed
    after.start(5, ['{"type":"snapshot"}'])  # its player sat down since
    assert before.seat is None and [f["type"] for f in frames(before)] == ["snapshot", "unseat"]
    assert after.seat == 1 and [f["type"] for f in frames(after)] == ["snapshot"]
