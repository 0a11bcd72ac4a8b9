"""Rematch through the server: every human agrees, a new table with the same seats starts,
and each player gets the new seat's token from ``POST /api/tables/{id}/join``."""

from __future__ import annotations

import random
from contextlib import ExitStack
from typing import Any

import pytest
from starlette.testclient import TestClient

from doublesix.server.deps import COOKIE
from doublesix.server.lobby import rematch_of
from doublesix.server.remote import decode, encode
from doublesix.table import commands
from doublesix.table.model import Seat, SeatKind, Table, TableStatus

from .server_helpers import Socket, guest, play_out


def seated(client: TestClient, name: str) -> str:
    """Become guest ``name``; its cookie, to be this guest again later."""
    guest(client, name)
    cookie = client.cookies.get(COOKIE)
    assert cookie
    return str(cookie)


def as_guest(client: TestClient, cookie: str) -> None:
    client.cookies.clear()
    client.cookies.set(COOKIE, cookie)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_play_again_with_the_same_seats_and_options(client: TestClient) -> None:
    anna = seated(client, "Anna")
    seats = [{"kind": "human"}, {"kind": "open"}, {"kind": "bot", "bot": "greedy"}]
    body: dict[str, Any] = {"preset": "block", "options": {"target": 15}, "seats": seats}
    body |= {"timer": 60, "hints": False}
    table = client.post("/api/tables", json=body).json()
    ben = seated(client, "Ben")
    joined = client.post(f"/api/tables/{table['id']}/join", json={}).json()
    tokens = [table["token"], joined["token"]]
    with ExitStack() as stack:
        a, b = (Socket(client, stack, table["id"], t) for t in tokens)
        while a.view["status"] != "finished":  # the bot's moves come by themselves
            if a.view["status"] == "playing" and a.view["turn"] == 2:
                for s in (a, b):
                    s.update()
            else:
                play_out([a, b], [], random.Random(6), stop_after=1)
        for s in (a, b):
            while s.version < a.version:
                s.update()
        a.send({"type": "rematch"})
        for s in (a, b):
            assert s.update()["events"] == [{"seat": 0, "rematch": True}]
            assert s.view["rematch"] == {"agreed": [0], "declined": [], "table": None}
        b.send({"type": "rematch", "agree": False})  # "No thanks": Anna need not wait
        for s in (a, b):
            assert s.update()["events"] == [{"seat": 1, "rematch": False}]
            assert s.view["rematch"] == {"agreed": [0], "declined": [1], "table": None}
        a.send({"type": "rematch"})  # twice changes nothing
        b.send({"type": "rematch"})  # Ben after all
        for s in (a, b):
            assert s.update()["events"] == [{"seat": 1, "rematch": True}]
        opened = a.update()["events"]
        assert b.update()["events"] == opened
        assert len(opened) == 1 and set(opened[0]) == {"rematch"}, opened
        new_id = opened[0]["rematch"]
        assert a.view["rematch"] == {"agreed": [0, 1], "declined": [], "table": new_id}

    new = client.get(f"/api/tables/{new_id}").json()
    old = client.get(f"/api/tables/{table['id']}").json()
    assert new["status"] == "playing" and new_id != table["id"]
    assert new["seats"] == old["seats"]  # the same players, the same bot
    assert (new["ruleset"], new["timer"], new["hints"]) == (old["ruleset"], 60, False)
    new_tokens = []
    for seat, cookie in enumerate((anna, ben)):
        as_guest(client, cookie)
        answer = client.post(f"/api/tables/{new_id}/join", json={}).json()
        assert answer["seat"] == seat and answer["token"] not in tokens
        new_tokens.append(answer["token"])
    with ExitStack() as stack:
        for seat, token in enumerate(new_tokens):
            assert Socket(client, stack, new_id, token).seat == seat
    guest(client, "Carla")  # anyone else watches: every seat is taken
    assert client.post(f"/api/tables/{new_id}/join", json={}).status_code == 409


def test_a_rematch_seats_the_players_again_with_new_tokens_and_no_invitations() -> None:
    seats = [
        Seat(0, SeatKind.HUMAN, None, "a", "Anna", "tok-a"),
        Seat(1, SeatKind.HUMAN, None, "b", "Ben", "tok-b", invite="code", account=True),
        Seat(2, SeatKind.BOT, "greedy", None, "Bot 2"),
    ]
    table = Table("t", "block", {"preset": "block"}, 1, None, False, False, "a", seats, 1.0)
    table.status, table.version, table.scores = TableStatus.FINISHED, 40, [61, 12]
    again = rematch_of(table, 9.0, 2)
    assert (again.status, again.version, again.scores) == (TableStatus.OPEN, 0, [0, 0])
    assert (again.seed, again.created_at) == (2, 9.0)
    assert [(s.player, s.name, s.account) for s in again.seats] == [
        (s.player, s.name, s.account) for s in seats
    ]
    assert [s.invite for s in again.seats] == [None, None, None]  # Ben's code is spent
    assert {s.token for s in again.seats[:2]}.isdisjoint({"tok-a", "tok-b"})
    assert again.seats[2] == seats[2]


def test_a_spectator_has_no_rematch_and_none_before_the_end(client: TestClient) -> None:
    anna = seated(client, "Anna")
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    table = client.post("/api/tables", json={"preset": "block", "seats": seats}).json()
    with ExitStack() as stack:
        a = Socket(client, stack, table["id"], table["token"])
        a.send({"type": "rematch"})
        assert a.error()["code"] == "rematch"
        as_guest(client, anna)
        watcher = Socket(client, stack, table["id"], None)
        watcher.send({"type": "rematch"})
        assert watcher.error()["code"] == "spectator"


def test_a_rematch_answer_crosses_to_a_table_in_another_process() -> None:
    for command in (commands.Rematch(0), commands.Rematch(1, agree=False)):
        assert decode(*encode(command)) == command
