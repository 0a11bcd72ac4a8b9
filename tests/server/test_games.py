"""Whole games through the socket protocol, several clients at one table, and their records."""

from __future__ import annotations

import random
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.testclient import TestClient

from doublesix.rules.record import replay

from .server_helpers import Socket, human_table, play_out


def _whole_game(client: TestClient, preset: str, players: int, seed: int, **options: Any) -> None:
    table_id, tokens = human_table(client, preset, players, **options)
    with ExitStack() as stack:
        sockets = [Socket(client, stack, table_id, t) for t in tokens]
        spectator = Socket(client, stack, table_id, None)
        assert [s.seat for s in sockets] == list(range(players))
        assert spectator.seat is None
        assert {s.version for s in [*sockets, spectator]} == {sockets[0].version}
        play_out(sockets, [spectator], random.Random(seed))
        final = sockets[0].view
    assert final["status"] == "finished"
    assert final["game_result"]["finished"]
    for s in [*sockets, spectator]:
        assert s.view["game_result"] == final["game_result"]
        assert s.view["revealed"] is not None  # every hand face up at the end
    table = client.get(f"/api/tables/{table_id}").json()
    assert table["status"] == "finished"
    assert table["scores"] == final["scores"]

    # the stored record replays to the same result
    record = client.get(f"/api/games/{table_id}/record").json()
    game = replay(record)
    assert game.finished
    assert list(game.result.winners) == final["game_result"]["winners"]
    assert list(game.result.losers) == final["game_result"]["losers"]
    assert list(game.scores) == final["scores"]
    assert len(record["rounds"]) == final["round"]
    assert record["players"] == final["players"]
    # the upload answers the same record
    uploaded = client.post("/api/records", json=record)
    assert uploaded.status_code == 200, uploaded.text
    assert uploaded.json()["result"] == record["result"]
    text = client.get(f"/api/games/{table_id}/text")
    assert text.status_code == 200
    assert len(text.text.splitlines()) >= sum(len(r["events"]) for r in record["rounds"])


def test_draw_two_humans(client: TestClient) -> None:
    _whole_game(client, "draw", 2, seed=1, target=50)


def test_block_three_humans(client: TestClient) -> None:
    _whole_game(client, "block", 3, seed=2, target=50)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_kozel_four_humans_in_pairs(client: TestClient) -> None:
    _whole_game(client, "kozel", 4, seed=3)


def test_round_end_waits_for_every_human(client: TestClient) -> None:
    table_id, tokens = human_table(client, "block", 2, target=500)
    with ExitStack() as stack:
        a, b = (Socket(client, stack, table_id, t) for t in tokens)
        rng = random.Random(4)
        while a.view["status"] == "playing":
            play_out([a, b], [], rng, stop_after=1)
        assert a.view["status"] == "round_over"
        assert a.view["round_result"] is not None
        assert a.view["continue"] == []
        a.send({"type": "continue"})
        assert a.update()["events"] == [{"seat": 0, "continue": True}]
        b.update()
        assert b.view["status"] == "round_over" and b.view["continue"] == [0]
        a.send({"type": "continue"})  # pressed again: nothing changes, nothing is sent
        b.send({"type": "continue"})
        frame = b.update()
        a.update()
        assert frame["events"][:2] == [{"seat": 1, "continue": True}, {"round": 2}]
        assert b.view["round"] == 2 and b.view["status"] == "playing"
        assert len(b.view["results"]) == 1
        assert a.version == b.version
