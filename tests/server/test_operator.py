"""The site's operators on the web (``routes/operator.py``): only accounts the command line
made operators (``doublesix account operator NAME``) read and close the reports and silence
an account; anyone else is refused, and what is refused changes nothing."""

from __future__ import annotations

import pytest

from doublesix.server import schema

from .server_helpers import Command, TestClient, guest
from .test_accounts import register, rows


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    return accounts_client


def as_account(client: TestClient, name: str) -> None:
    client.cookies.clear()
    r = client.post("/api/session", json={"name": name, "password": "a long enough password"})
    assert r.status_code == 200, r.text


def test_an_operator_reads_closes_and_silences(client: TestClient, account: Command) -> None:
    for name in ("Ben", "Olga"):
        client.cookies.clear()
        register(client, name, "a long enough password")
    client.cookies.clear()
    guest(client, "Anna")
    r = client.post("/api/reports", json={"name": "Ben", "reason": "abuse", "text": "rude"})
    assert r.status_code == 201, r.text
    assert client.get("/api/operator/reports").status_code == 403  # a guest
    client.cookies.clear()
    assert client.get("/api/operator/reports").json()["code"] == "no_guest"  # nobody: 401
    as_account(client, "Olga")
    refused = client.get("/api/operator/reports")
    assert (refused.status_code, refused.json()["code"]) == (403, "operator")
    assert client.get("/api/me").json() == {"player": {"name": "Olga", "account": True}}

    assert account("operator", "olga") == (0, "Olga is one of the site's operators\n", "")
    me = client.get("/api/me").json()["player"]  # her session sees it at once
    assert me == {"name": "Olga", "account": True, "operator": True}
    [shown] = client.get("/api/operator/reports").json()["reports"]
    assert shown | {"at": 0} == {
        "id": shown["id"],
        "at": 0,
        "reporter": "Anna",
        "name": "Ben",
        "reason": "abuse",
        "text": "rude",
        "table": None,
        "closed_at": None,
        "note": None,
        "silenced": None,
    }

    for body, status, field in [
        ({"name": "Ben", "hours": 5}, 422, "hours"),
        ({"name": "nobody", "hours": 24}, 404, "name"),
        ({"name": "Ben", "reason": "x" * 201}, 422, "reason"),
        ({"name": ""}, 422, "name"),
    ]:
        r = client.post("/api/operator/silence", json=body)
        assert r.status_code == status, (body, r.text)
        assert field in str(r.json()), r.json()
    assert all(row.silenced_at is None for row in rows(client, schema.accounts))
    r = client.post("/api/operator/silence", json={"name": "ben", "hours": 24})
    assert r.status_code == 200, r.text
    assert r.json()["name"] == "Ben"
    [ben] = [row for row in rows(client, schema.accounts) if row.name == "Ben"]
    assert ben.silenced_until == r.json()["until"] and ben.silenced_until > ben.silenced_at
    [shown] = client.get("/api/operator/reports").json()["reports"]
    assert shown["silenced"] == {"since": ben.silenced_at, "until": ben.silenced_until}
    assert client.post("/api/operator/unsilence", json={"name": "nobody"}).status_code == 404
    assert client.post("/api/operator/unsilence", json={"name": "BEN"}).json() == {"name": "Ben"}
    assert client.get("/api/operator/reports").json()["reports"][0]["silenced"] is None
    r = client.post("/api/operator/silence", json={"name": "Ben", "reason": "report 1"})
    assert r.json() == {"name": "Ben", "until": None}  # until lifted
    [shown] = client.get("/api/operator/reports").json()["reports"]
    assert shown["silenced"]["until"] is None

    path = f"/api/operator/reports/{shown['id']}/close"
    assert client.post(path, json={"note": "x" * 501}).status_code == 422
    closed = client.post(path, json={"note": "silenced a day"})
    assert closed.status_code == 200, closed.text
    assert closed.json()["report"]["note"] == "silenced a day"
    assert client.post(path, json={}).status_code == 404  # closed already
    assert client.post("/api/operator/reports/999/close", json={}).status_code == 404
    assert client.get("/api/operator/reports").json()["reports"] == []
    [again] = client.get("/api/operator/reports?closed=true").json()["reports"]
    assert again["closed_at"] is not None and again["note"] == "silenced a day"

    assert account("operator", "Olga", "--revoke") == (
        0,
        "Olga is no longer a site's operators\n",
        "",
    )
    assert client.get("/api/operator/reports").status_code == 403
    code, out, err = account("operator", "nobody")
    assert (code, out) == (1, "") and "no account is named 'nobody'" in err
