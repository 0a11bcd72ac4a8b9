"""Whom an account blocks (``server/account_lists.py``, ``/api/account/blocked``), on SQLite
and on PostgreSQL: the list itself (as the follows' list: by name in any case, once each,
never oneself, accounts only), and what a block does — the two are never seated together by
Play now, a challenge between them is refused, and the blocker follows the other no more."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest

from doublesix.server import schema

from .server_helpers import BOTH, TestClient
from .test_accounts import register, rows
from .test_follows import log_in
from .test_lobby_socket import Lobby, as_player, challenge


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    return accounts_client


def blocked(answer: Any) -> list[str]:
    assert answer.status_code == 200, answer.text
    return [b["name"] for b in answer.json()["blocked"]]


def accounts(client: TestClient, *names: str) -> dict[str, dict[str, str]]:
    """Register ``names``: each one's cookies."""
    cookies = {}
    for name in names:
        client.cookies.clear()
        register(client, name)
        cookies[name] = dict(client.cookies)
    return cookies


@BOTH
def test_an_account_blocks_and_unblocks_and_follows_the_blocked_no_more(
    client: TestClient,
) -> None:
    accounts(client, "Boris", "Carla", "Anna")
    client.put("/api/account/following/Boris")
    assert blocked(client.put("/api/account/blocked/BORIS")) == ["Boris"]
    assert blocked(client.put("/api/account/blocked/boris")) == ["Boris"]  # once
    assert client.get("/api/account/following").json()["following"] == []
    assert blocked(client.put("/api/account/blocked/Carla")) == ["Boris", "Carla"]
    for method, path, status, code in [
        ("PUT", "/api/account/blocked/Anna", 422, "self"),
        ("PUT", "/api/account/blocked/nobody", 404, "not_found"),
        ("DELETE", "/api/account/blocked/nobody", 404, "not_found"),
    ]:
        refused = client.request(method, path)
        assert (refused.status_code, refused.json()["code"]) == (status, code), path
    assert len(rows(client, schema.blocks)) == 2
    log_in(client, "Boris")  # each account has its own list
    assert blocked(client.get("/api/account/blocked")) == []
    log_in(client, "Anna")
    assert blocked(client.delete("/api/account/blocked/boris")) == ["Carla"]
    client.cookies.clear()
    assert client.get("/api/account/blocked").status_code == 401


@BOTH
def test_a_challenge_between_a_blocker_and_the_blocked_is_refused(client: TestClient) -> None:
    cookies = accounts(client, "Anna", "Ben", "Cleo")
    with ExitStack() as stack:
        for who in cookies.values():
            Lobby(client, stack, who)
        as_player(client, cookies["Anna"])
        client.put("/api/account/blocked/Ben")
        for who, to, message in [
            ("Ben", ["Cleo", "Anna"], "Anna does not take your challenges"),
            ("Anna", ["Ben"], "you have blocked Ben"),
        ]:
            r = challenge(client, cookies[who], to=to, players=1 + len(to))
            assert r.status_code == 422, r.text
            assert r.json()["code"] == "blocked" and r.json()["error"] == message
            assert r.json()["field"] == f"to.{len(to) - 1}"
        assert rows(client, schema.challenges) == []
        assert challenge(client, cookies["Ben"], to=["Cleo"]).status_code == 201


def test_play_now_never_seats_a_blocker_with_the_blocked(client: TestClient) -> None:
    cookies = accounts(client, "Anna", "Ben", "Cleo")
    with ExitStack() as stack:
        lobbies = {name: Lobby(client, stack, who) for name, who in cookies.items()}
        as_player(client, cookies["Ben"])
        client.put("/api/account/blocked/Anna")
        for name in ("Anna", "Ben"):
            as_player(client, cookies[name])
            seek = client.post("/api/seeks", json={"preset": "draw", "players": 2})
            assert seek.json()["table"] is None, name  # they would be a pair but for the block
        as_player(client, cookies["Cleo"])
        table = client.post("/api/seeks", json={"preset": "draw", "players": 2}).json()["table"]
        seated = client.get(f"/api/tables/{table}").json()["seats"]
        assert sorted(s["name"] for s in seated) == ["Anna", "Cleo"]  # the oldest seeker
        assert client.get("/api/seeks").json()["pool"] == [
            {"preset": "draw", "players": 2, "rated": False, "seeking": 1}
        ]
        assert lobbies["Ben"].welcome["seek"] is None


@BOTH
def test_a_closed_accounts_blocks_go(client: TestClient) -> None:
    accounts(client, "Boris", "Anna")
    client.put("/api/account/blocked/Boris")
    log_in(client, "Boris")
    client.put("/api/account/blocked/Anna")
    assert len(rows(client, schema.blocks)) == 2
    r = client.post("/api/account/close", json={"password": "correct horse"})
    assert r.status_code == 200, r.text
    assert rows(client, schema.blocks) == []
