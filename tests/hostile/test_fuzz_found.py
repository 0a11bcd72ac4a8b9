"""What a fuzzer found past the other hostile tests: numbers no column holds, and a client's
own lone surrogate quoted back in an error. Each is a clear refusal (422, the field, the limit)
and changes nothing, on SQLite and on PostgreSQL, where ``sa.Integer`` is 32 bits."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher

from doublesix.server import create_app, schema
from doublesix.server.schema import INT_MAX
from doublesix.server.settings import Limits, Settings
from doublesix.server.store import SqlStore
from server.server_helpers import POSTGRES, run_async
from server.site_helpers import postgres_sql, require_services

from .live import TestClient

PASSWORD = "a long enough password"
TOO_LARGE = [INT_MAX + 1, 2**63, 10**30]
"""Past a 32-bit column (PostgreSQL's INTEGER), past SQLite's 64-bit INTEGER, past both."""


@pytest.fixture(params=["sqlite", "postgres"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TestClient]:
    """An app on SQLite, or on a schema of its own in the test PostgreSQL (dropped after)."""
    pg = request.param == "postgres"
    name = f"ds_test_{secrets.token_hex(6)}"
    if pg:
        require_services()
        run_async(postgres_sql(f"CREATE SCHEMA {name}"))
    store = (
        SqlStore(POSTGRES, schema_name=name)
        if pg
        else SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}")
    )
    settings = Settings(
        bot_delay=0.0, password_hasher=PasswordHasher(time_cost=1, memory_cost=1024)
    )
    app = create_app(
        store=store,
        settings=settings,
        limits=Limits(frames_per_second=10_000, burst=10_000),
        web_dir=tmp_path / "web",
    )
    try:
        with TestClient(app, raise_server_exceptions=False) as c:
            yield c
    finally:
        if pg:
            run_async(postgres_sql(f"DROP SCHEMA {name} CASCADE"))


def register(client: TestClient, name: str) -> None:
    client.cookies.clear()
    r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text


def log_in(client: TestClient, name: str) -> None:
    client.cookies.clear()
    r = client.post("/api/session", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text


def count(client: TestClient, table: sa.Table) -> int:
    engine = client.app.state.server.store.engine  # type: ignore[attr-defined]

    async def read() -> int:
        async with engine.connect() as conn:
            return int((await conn.execute(sa.select(sa.func.count()).select_from(table))).scalar())

    assert client.portal is not None
    return client.portal.call(read)


def make_operator(client: TestClient, name: str) -> None:
    engine = client.app.state.server.store.engine  # type: ignore[attr-defined]
    a = schema.accounts

    async def write() -> None:
        async with engine.begin() as conn:
            await conn.execute(a.update().where(a.c.name == name).values(operator=True))

    assert client.portal is not None
    client.portal.call(write)


def refused(r: Any, field: str) -> None:
    """A 422 naming ``field`` and the largest number it takes."""
    assert r.status_code == 422, (r.request.url, r.status_code, r.text)
    body = r.json()
    assert body["field"] == field, body
    assert f"{INT_MAX}" in body["error"], body


def test_numbers_no_column_holds_are_refused_and_change_nothing(client: TestClient) -> None:
    register(client, "Ben")
    register(client, "Olga")
    make_operator(client, "Olga")
    register(client, "Anna")
    assert client.post("/api/messages", json={"to": "Ben", "text": "hello"}).status_code == 201
    table = client.post("/api/tables", json={"preset": "draw"}).json()
    chat = f"/api/operator/tables/{table['id']}/chat"
    for n in TOO_LARGE:
        log_in(client, "Anna")
        refused(client.get(f"/api/messages?before={n}"), "query.before")
        refused(client.get(f"/api/messages/Ben?before={n}"), "query.before")
        report = {"name": "Ben", "reason": "spam", "message": n}
        refused(client.post("/api/reports", json=report), "message")
        log_in(client, "Olga")
        refused(client.get(f"/api/operator/log?before={n}"), "query.before")
        refused(client.post(f"/api/operator/reports/{n}/close", json={}), "path.report_id")
        refused(client.delete(f"{chat}/{n}"), "path.version")
        refused(client.post(f"{chat}/{n}/restore"), "path.version")
    assert count(client, schema.reports) == 0
    after = client.get(f"/api/tables/{table['id']}").json()
    assert (after["status"], after["version"]) == (table["status"], table["version"])
    # the numbers a column holds are still looked for
    assert client.get(f"/api/operator/log?before={INT_MAX}").json() == {"log": [], "more": False}
    assert client.post(f"{chat}/{INT_MAX}/restore").json()["code"] == "no_message"
    log_in(client, "Anna")
    assert client.get(f"/api/messages/Ben?before={INT_MAX}").status_code == 200


def test_a_lone_surrogate_quoted_back_is_an_error_not_a_crash(client: TestClient) -> None:
    """A JSON escape of half a UTF-16 pair is valid JSON; an option of that name is refused
    with its field, quoted back as the same escape."""
    register(client, "Anna")
    for route, body in [
        ("/api/tables", '{"preset": "draw", "options": {"\\ud800": 1}}'),
        (
            "/api/tournaments",
            '{"preset": "draw", "starts_in": 5, "minutes": 30, "options": {"\\udfff": 1}}',
        ),
    ]:
        r = client.post(route, content=body, headers={"content-type": "application/json"})
        assert r.status_code == 422, (route, r.status_code, r.text)
        key = next(iter(json.loads(body)["options"]))
        assert r.json()["field"] == f"options.{key}"
        assert r.json()["code"] == "ruleset"
    assert client.get("/api/tables").json()["open"] == []
    assert client.get("/api/tournaments").status_code == 200


def test_a_nul_character_is_refused_on_every_database(client: TestClient) -> None:
    """PostgreSQL's text holds no NUL (U+0000): a name, an id or a prefix with one, in the
    path, the query or the body, is refused (or found nowhere, as on SQLite), never a crash;
    a refused write leaves nothing behind; a table socket with one in its id finds no table."""
    register(client, "Ben")
    register(client, "Olga")
    make_operator(client, "Olga")
    register(client, "Anna")
    asked: list[tuple[str, str, dict[str, Any] | None]] = [
        ("GET", "/api/players/a%00b", None),
        ("GET", "/api/players/%00/games", None),
        ("GET", "/api/tables/a%00b", None),
        ("GET", "/api/games/%00/record", None),
        ("POST", "/api/challenges/%00/accept", None),
        ("GET", "/api/tournaments/%00", None),
        ("PUT", "/api/account/following/a%00b", None),
        ("GET", "/api/players?prefix=%00", None),
        ("GET", "/api/records?player=a%00b", None),
        ("POST", "/api/messages", {"to": "Ben\x00", "text": "hi"}),
        ("POST", "/api/account/muted", {"names": ["\x00"]}),
        ("POST", "/api/reports", {"name": "Ben", "reason": "spam", "table": "a\x00b"}),
    ]
    for method, url, body in asked:
        r = client.request(method, url, json=body)
        assert r.status_code < 500, (method, url, r.status_code, r.text)
        if r.status_code >= 400:
            assert r.json()["error"] and r.json()["code"], (url, r.text)
    log_in(client, "Olga")
    silence = {"name": "Ben", "hours": 1, "reason": "spam\x00"}
    r = client.post("/api/operator/silence", json=silence)
    assert r.status_code in (200, 422), r.text  # SQLite keeps the NUL, PostgreSQL cannot
    if r.status_code == 422:
        assert r.json() == {
            "error": "no NUL character (U+0000) here",
            "code": "nul",
            "field": "body",
        }
        assert client.get("/api/operator/silenced").json() == {"silenced": []}
    assert count(client, schema.reports) == 0
    with client.websocket_connect("/ws/table/a%00b") as ws:
        ws.send_json({"type": "hello", "token": None, "since": None})
        assert ws.receive_json()["code"] == "no_table"
        assert ws.receive()["code"] == 4404
