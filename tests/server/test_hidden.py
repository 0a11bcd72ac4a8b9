"""Issue 5, item 1: no frame shows a seat a tile it may not know, the boneyard, or the seed.

Whole games of every preset at every player count, every seat a socket, a
spectator watching, seats and the spectator dropping out and coming back
(with ``since``: the missing events; without: a snapshot), a hint asked: each
frame any of them got is scanned against what its seat may know at that
version, rebuilt from the stored events with the engine alone (``leaks.py``).
"""

from __future__ import annotations

import random
from contextlib import ExitStack
from typing import Any

import pytest

from doublesix.rules.ruleset import PRESETS, Ruleset
from doublesix.server.store import Store
from doublesix.table.model import Entry, Table

from .leaks import Known, Scan, knowledge, scan_frame, scan_frames
from .server_helpers import Socket, TestClient, join, new_table, play_out

CASES = [(name, n) for name, p in PRESETS.items() for n in p.players]


def stored(client: TestClient, table_id: str) -> tuple[Table, list[Entry]]:
    store: Store = client.app.state.server.store  # type: ignore[attr-defined]
    table = client.portal.call(store.table, table_id)  # type: ignore[union-attr]
    events = client.portal.call(store.events, table_id)  # type: ignore[union-attr]
    assert table is not None
    return table, events


def _table(client: TestClient, preset: str, players: int, hints: bool) -> tuple[str, list[str]]:
    seats = [{"kind": "human"}] + [{"kind": "open"}] * (players - 1)
    table = new_table(client, preset=preset, seats=seats, hints=hints)
    tokens = [table["token"]] + [
        join(client, table["id"], f"Player {n}")["token"] for n in range(1, players)
    ]
    return table["id"], tokens


def _play_scanned(client: TestClient, preset: str, players: int, seed: int) -> Scan:
    rng = random.Random(seed)
    hints = players == 2
    table_id, tokens = _table(client, preset, players, hints)
    http: list[Any] = []
    everyone: list[Socket] = []
    with ExitStack() as stack:
        sockets = [Socket(client, stack, table_id, t) for t in tokens]
        spectator = Socket(client, stack, table_id, None)
        everyone += [*sockets, spectator]
        play_out(sockets, [spectator], rng, stop_after=4)
        if hints:  # the hint ranks the mover's own moves: scanned like the rest
            mover = sockets[sockets[0].view["turn"]]
            mover.send({"type": "hint"})
            assert mover.receive()["type"] == "hint"
        # seat 1 and the spectator drop out; a few moves later they come back with
        # `since` and get the events they missed; seat 0 comes back without it
        gone, watcher = sockets[1], spectator
        gone.close()
        watcher.close()
        others = [s for s in sockets if s is not gone]
        _play_without(sockets, 1, others, rng, moves=3)
        sockets[1] = Socket(client, stack, table_id, tokens[1], since=gone)
        spectator = Socket(client, stack, table_id, None, since=watcher)
        assert sockets[1].resumed and spectator.resumed
        sockets[0].close()
        sockets[0] = Socket(client, stack, table_id, tokens[0])
        everyone += [sockets[0], sockets[1], spectator]
        http.append(client.get(f"/api/tables/{table_id}").json())
        http.append(client.get("/api/tables").json())
        play_out(sockets, [spectator], rng)
        assert sockets[0].view["status"] == "finished"
    table, events = stored(client, table_id)
    known = knowledge(table, events)
    assert max(known) == table.version
    secrets = [str(table.seed), *(s.token for s in table.seats if s.token)]
    scan = Scan()
    for s in everyone:
        own = None if s.seat is None else table.seats[s.seat].token
        scan_frames(
            s.frames,
            s.seat,
            known,
            [x for x in secrets if x != own],
            scan,
            where=f"{preset}/{players} seat {s.seat}",
        )
    for answer in http:  # what anyone may ask over HTTP while the game is on
        scan_frame(answer, None, known[0], secrets, scan, where=f"{preset}/{players} http")
    return scan


def _play_without(
    sockets: list[Socket], missing: int, present: list[Socket], rng: random.Random, moves: int
) -> None:
    """Play ``moves`` commands while seat ``missing`` has no socket (its turn ends it early)."""
    for _ in range(moves):
        view = present[0].view
        if view["status"] != "playing" or view["turn"] == missing:
            return
        mover = sockets[view["turn"]]
        mover.play(rng.choice(mover.view["legal"]))
        for s in present:
            s.update()


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_no_frame_shows_a_hidden_tile(client: TestClient, preset: str, players: int) -> None:
    scan = _play_scanned(client, preset, players, seed=len(preset) * 10 + players)
    assert scan.hits == []
    assert scan.frames > 50 and scan.tiles_seen > 100  # the scan did look at tiles


def test_the_scan_finds_a_leak(client: TestClient) -> None:
    """The scanner is not blind: a hand, a boneyard tile or the seed put in a frame is found."""
    rng = random.Random(3)
    table_id, tokens = _table(client, "draw", 2, hints=False)
    with ExitStack() as stack:
        sockets = [Socket(client, stack, table_id, t) for t in tokens]
        play_out(sockets, [], rng, stop_after=2)
        frame = sockets[0].frames[-1]
        version = sockets[0].version
    table, events = stored(client, table_id)
    known: Known = knowledge(table, events)[version]
    clean = Scan()
    scan_frame(frame, 0, known, [str(table.seed)], clean)
    assert clean.hits == []
    other = sockets[1].view["hand"]
    leaks: list[dict[str, Any]] = [
        frame | {"view": frame["view"] | {"hand": frame["view"]["hand"] + other[:1]}},
        frame | {"note": f"seat 1 holds {other[-1]}"},
        frame | {"debug": table.seed},
        frame | {"view": frame["view"] | {"line": [*frame["view"]["line"], _pair(other[0])]}},
    ]
    hand_mask = sum(1 << _index(t) for t in other)
    if hand_mask >= 128:
        leaks.append(frame | {"mask": hand_mask})
    ruleset = Ruleset.from_dict(table.ruleset)
    assert ruleset.boneyard
    for leak in leaks:
        found = Scan()
        scan_frame(leak, 0, known, [str(table.seed)], found)
        assert found.hits, leak


def _pair(text: str) -> list[int]:
    a, b = text.split("-")
    return [int(a), int(b)]


def _index(text: str) -> int:
    from doublesix.tiles import Tile

    return Tile.parse(text).index
