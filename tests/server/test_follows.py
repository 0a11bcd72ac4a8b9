"""Whom an account follows (``server/account_lists.py``, ``/api/account/following``), on SQLite and
on PostgreSQL: by name in any case, once each, never oneself, at most ``FOLLOWS.at_most``, accounts
only, and what it refuses leaves the list as it was."""

from __future__ import annotations

from typing import Any

import pytest

from doublesix.server import schema
from doublesix.server.account_lists import FOLLOWS

from .server_helpers import BOTH, TestClient, guest
from .test_accounts import PASSWORD, register, rows


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    return accounts_client


def log_in(client: TestClient, name: str) -> None:
    client.cookies.clear()
    r = client.post("/api/session", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text


def names(answer: Any) -> list[str]:
    assert answer.status_code == 200, answer.text
    return [f["name"] for f in answer.json()["following"]]


@BOTH
def test_an_account_follows_and_unfollows_by_name(client: TestClient) -> None:
    for name in ("Boris", "carla", "Anna"):
        client.cookies.clear()
        register(client, name)
    assert names(client.get("/api/account/following")) == []

    followed = client.put("/api/account/following/BORIS")  # any case finds the account
    assert followed.json()["name"] == "Boris"
    assert names(followed) == ["Boris"]
    assert names(client.put("/api/account/following/Carla")) == ["Boris", "carla"]
    assert names(client.put("/api/account/following/boris")) == ["Boris", "carla"]  # once
    since = client.get("/api/account/following").json()["following"][0]["since"]
    assert isinstance(since, float) and since > 0
    assert len(rows(client, schema.follows)) == 2

    log_in(client, "Boris")  # each account has its own list
    assert names(client.get("/api/account/following")) == []
    log_in(client, "Anna")
    assert names(client.delete("/api/account/following/boris")) == ["carla"]
    assert names(client.delete("/api/account/following/Boris")) == ["carla"]  # not followed


@BOTH
def test_what_following_refuses(client: TestClient) -> None:
    register(client, "Anna")
    client.put("/api/account/following/Anna")
    for method, path, status, code in [
        ("PUT", "/api/account/following/Anna", 422, "self"),
        ("PUT", "/api/account/following/nobody", 404, "not_found"),
        ("DELETE", "/api/account/following/nobody", 404, "not_found"),
        ("PUT", "/api/account/following/" + "x" * 65, 422, None),
    ]:
        refused = client.request(method, path)
        assert refused.status_code == status, (path, refused.text)
        if code is not None:
            assert refused.json()["code"] == code and refused.json()["field"] == "name"
    assert rows(client, schema.follows) == []

    client.cookies.clear()
    guest(client, "Gina")  # a guest is a cookie: it follows nobody
    for method in ("GET", "PUT", "DELETE"):
        path = "/api/account/following" + ("" if method == "GET" else "/Anna")
        refused = client.request(method, path)
        assert refused.status_code == 401 and refused.json()["code"] == "no_account", method


@BOTH
def test_an_account_follows_at_most_so_many(client: TestClient, monkeypatch: Any) -> None:
    monkeypatch.setattr(FOLLOWS, "at_most", 2)
    for name in ("Boris", "Carla", "Dora", "Anna"):
        client.cookies.clear()
        register(client, name)
    client.put("/api/account/following/Boris")
    client.put("/api/account/following/Carla")
    refused = client.put("/api/account/following/Dora")
    assert refused.status_code == 409 and refused.json()["code"] == "too_many"
    assert names(client.put("/api/account/following/Boris")) == ["Boris", "Carla"]  # held
    client.delete("/api/account/following/Boris")
    assert names(client.put("/api/account/following/Dora")) == ["Carla", "Dora"]
    assert len(rows(client, schema.follows)) == 2
