"""The names an account mutes (``server/mutes.py``, ``/api/account/muted``), on SQLite and on
PostgreSQL: kept with the account for every browser it logs in on, a guest's name as well as
an account's, each once, bounded, and for accounts only."""

from __future__ import annotations

from typing import Any

import pytest

from doublesix.server import mutes, schema

from .server_helpers import BOTH, TestClient, guest
from .test_accounts import register, rows
from .test_follows import log_in


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    return accounts_client


def muted(answer: Any) -> list[str]:
    assert answer.status_code == 200, answer.text
    names: list[str] = answer.json()["muted"]
    return names


@BOTH
def test_an_account_keeps_its_mutes_from_one_login_to_the_next(client: TestClient) -> None:
    register(client, "Anna")
    assert muted(client.get("/api/account/muted")) == []
    assert muted(client.put("/api/account/muted/Troll 1")) == ["Troll 1"]  # a guest's name
    assert muted(client.put("/api/account/muted/Troll 1")) == ["Troll 1"]  # once
    merged = client.post("/api/account/muted", json={"names": ["Boris", "Troll 1", "Zed"]})
    assert muted(merged) == ["Boris", "Troll 1", "Zed"]
    assert muted(client.delete("/api/account/muted/Zed")) == ["Boris", "Troll 1"]
    assert muted(client.delete("/api/account/muted/Zed")) == ["Boris", "Troll 1"]  # gone already

    log_in(client, "Anna")  # another browser: a new session, the same list
    assert muted(client.get("/api/account/muted")) == ["Boris", "Troll 1"]
    client.cookies.clear()
    register(client, "Carla")  # each account its own
    assert muted(client.get("/api/account/muted")) == []
    assert len(rows(client, schema.mutes)) == 2


@BOTH
def test_the_list_is_bounded_and_a_refusal_changes_nothing(
    client: TestClient, monkeypatch: Any
) -> None:
    monkeypatch.setattr(mutes, "AT_MOST", 3)
    register(client, "Anna")
    assert muted(client.post("/api/account/muted", json={"names": ["a", "b"]})) == ["a", "b"]
    refused = client.post("/api/account/muted", json={"names": ["c", "d"]})
    assert refused.status_code == 409 and refused.json()["code"] == "too_many"
    assert muted(client.get("/api/account/muted")) == ["a", "b"]  # not one of the two
    assert muted(client.put("/api/account/muted/c")) == ["a", "b", "c"]
    refused = client.put("/api/account/muted/d")
    assert refused.status_code == 409 and refused.json()["field"] == "name"
    assert muted(client.put("/api/account/muted/a")) == ["a", "b", "c"]  # held: no more room


def test_bad_names_and_guests_are_refused(client: TestClient) -> None:
    guest(client, "Gast")  # a guest mutes in its browser only
    for method, path in [
        ("GET", "/api/account/muted"),
        ("PUT", "/api/account/muted/Boris"),
        ("DELETE", "/api/account/muted/Boris"),
    ]:
        refused = client.request(method, path)
        assert refused.status_code == 401 and refused.json()["code"] == "no_account", path
    refused = client.post("/api/account/muted", json={"names": ["Boris"]})
    assert refused.status_code == 401
    client.cookies.clear()
    register(client, "Anna")
    for body in (
        {"names": [""]},
        {"names": ["x" * 65]},
        {"names": ["n"] * (mutes.AT_MOST + 1)},
        {"names": "Boris"},
        {"names": [1]},
        {},
    ):
        refused = client.post("/api/account/muted", json=body)
        assert refused.status_code == 422, body
        assert refused.json()["field"].split(".")[0] == "names", body  # names.0: which one
    assert client.put("/api/account/muted/" + "x" * 65).status_code == 422
    assert muted(client.get("/api/account/muted")) == []
