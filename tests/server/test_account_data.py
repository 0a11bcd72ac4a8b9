"""A player downloads what the site keeps about their account (``GET /api/account/data``,
``server/account_data.py``), on SQLite and PostgreSQL: each of its own items is there, and
nothing of another account's private data — no password hash, no session, not their lists
or reports — nor the reports about it and the operators' notes."""

from __future__ import annotations

import json
from contextlib import ExitStack
from typing import Any

import pytest

from doublesix.server import schema

from .server_helpers import BOTH, TestClient
from .test_accounts import PASSWORD, rows
from .test_erasure import a_finished_game, player_id
from .test_lobby_socket import Cookies, Lobby, as_player
from .test_operator import appoint_on
from .test_shut_out import logged_in

ROUTE = "/api/account/data"


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    return accounts_client


def ok(answer: Any) -> Any:
    assert answer.status_code in (200, 201), answer.text
    return answer


def download(client: TestClient, cookies: Cookies) -> tuple[dict[str, Any], str]:
    """The account's document, and its text as downloaded."""
    answer = ok(as_player(client, cookies).get(ROUTE))
    name = answer.json()["account"]["name"]
    assert answer.headers["content-disposition"] == (
        f'attachment; filename="doublesix-{name}-data.json"'
    )
    assert answer.headers["cache-control"] == "no-store"
    return answer.json(), answer.text


def items(document: dict[str, Any], part: str) -> list[Any]:
    assert document[part]["more"] is False
    return list(document[part]["items"])


@BOTH
def test_a_player_downloads_their_data_and_no_one_else_s(client: TestClient) -> None:
    anna, boris = logged_in(client, "Anna"), logged_in(client, "Boris")
    cleo = logged_in(client, "Cleo")
    logged_in(client, "Erik")
    appoint_on(client, "Cleo")
    table_id = a_finished_game(client, anna, boris)  # rated, and both say hello at the table
    with ExitStack() as stack:
        for cookies, text in ((anna, "Anna in the lobby"), (boris, "Boris's lobby secret")):
            lobby = Lobby(client, stack, cookies)
            lobby.ws.send_json({"type": "chat", "text": text})
            lobby.next("chat")
    for me, other, text in ((anna, "Boris", "from Anna to Boris"), (boris, "Anna", "gg Anna")):
        ok(as_player(client, me).post("/api/messages", json={"to": other, "text": text}))
    ok(as_player(client, boris).post("/api/messages", json={"to": "Cleo", "text": "psst Cleo"}))
    as_player(client, anna)
    ok(client.put("/api/account/following/Boris"))
    ok(client.put("/api/account/blocked/Cleo"))
    ok(client.put("/api/account/muted/Dora"))
    report = {"name": "Boris", "reason": "abuse", "text": "Anna's report words"}
    ok(client.post("/api/reports", json=report | {"table": table_id}))
    as_player(client, boris)
    ok(client.put("/api/account/following/Cleo"))
    ok(client.put("/api/account/following/Anna"))
    ok(client.put("/api/account/blocked/Erik"))
    ok(client.put("/api/account/muted/Fritz"))
    ok(
        client.post(
            "/api/reports", json={"name": "Anna", "reason": "spam", "text": "Boris reports"}
        )
    )
    as_player(client, cleo)  # an operator silences Anna, and closes the report about her
    silenced = {"name": "Anna", "hours": 24, "reason": "shouting"}
    ok(client.post("/api/operator/silence", json=silenced))
    [about] = [r.id for r in rows(client, schema.reports) if r.name == "Anna"]
    ok(client.post(f"/api/operator/reports/{about}/close", json={"note": "kept for operators"}))

    document, text = download(client, anna)
    assert document["format"] == "doublesix-account-data/1"
    account = document["account"]
    assert (account["name"], account["operator"]) == ("Anna", False)
    assert account["silenced"]["reason"] == "shouting" and account["silenced"]["until"]
    [session] = items(document, "sessions")
    assert set(session) == {"created_at", "expires_at"}
    [rating] = items(document, "ratings")
    [change] = items(document, "rating_changes")
    assert change["table"] == table_id and change["outcome"] in ("win", "loss", "draw")
    assert change["rating_after"] == rating["rating"]
    [game] = items(document, "games")
    assert (game["table"], game["seat"], game["preset"]) == (table_id, 0, "draw")
    assert game["outcome"] == change["outcome"]
    assert game["record"] == f"/api/games/{table_id}/record"
    assert document["games"]["records"] == "GET /api/records?player=Anna"
    [said] = items(document, "table_chat")
    assert (said["table"], said["text"]) == (table_id, "hello from the one who leaves")
    assert [m["text"] for m in items(document, "lobby_chat")] == ["Anna in the lobby"]
    messages = items(document, "private_messages")
    assert [(m["from"], m["to"], m["text"]) for m in messages] == [
        ("Boris", "Anna", "gg Anna"),
        ("Anna", "Boris", "from Anna to Boris"),
    ]
    assert [f["name"] for f in items(document, "following")] == ["Boris"]
    assert document["followers"]["count"] == 1 and "Boris" not in str(document["followers"])
    assert [b["name"] for b in items(document, "blocking")] == ["Cleo"]
    assert [m["name"] for m in items(document, "muting")] == ["Dora"]
    [made] = items(document, "reports_made")
    assert (made["about"], made["text"], made["status"]) == ("Boris", report["text"], "open")
    [logged] = items(document, "operator_log")
    assert logged["act"] == "silence" and logged["detail"]["reason"] == "shouting"
    assert "Cleo" not in json.dumps(logged)  # the operator is not named

    secrets = [
        player_id(client, "Anna"),
        player_id(client, "Boris"),
        anna["ds_session"],
        boris["ds_session"],
        *(s.id for s in rows(client, schema.sessions)),
        *(a.password for a in rows(client, schema.accounts)),
        *(s.token for s in rows(client, schema.seats) if s.token),
    ]
    others = [
        "Boris's lobby secret",
        "psst Cleo",
        "Fritz",
        "Erik",
        "Boris reports",
        "kept for operators",
    ]
    for secret in secrets + others:
        assert secret not in text, secret


def test_guests_and_nobody_are_refused(client: TestClient) -> None:
    client.cookies.clear()
    for cookies in ({}, dict(ok(client.post("/api/guest", json={"name": "Gina"})).cookies)):
        answer = as_player(client, cookies).get(ROUTE)
        assert (answer.status_code, answer.json()["code"]) == (401, "no_account")


@BOTH
def test_an_erased_account_has_nothing_to_download(client: TestClient) -> None:
    anna = logged_in(client, "Anna")
    assert download(client, anna)[0]["account"]["name"] == "Anna"
    erased = as_player(client, anna).post("/api/account/erase", json={"password": PASSWORD})
    assert erased.json()["erasure"] == "done"
    answer = as_player(client, anna).get(ROUTE)  # its old cookie: the session is gone
    assert (answer.status_code, answer.json()["code"]) == (401, "no_account")
    login = client.post("/api/session", json={"name": "Anna", "password": PASSWORD})
    assert login.status_code == 401
