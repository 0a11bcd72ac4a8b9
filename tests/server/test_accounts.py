"""Accounts and sessions (issue 11): names, passwords, cookies, limits, a guest who registers.

Every test with a server runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import logging
import random
import time
from contextlib import ExitStack
from typing import Any

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher

from doublesix.server import schema
from doublesix.server.account_names import (
    AccountError,
    Refusal,
    check_name,
    check_password,
    looks_like_bot,
    name_key,
)
from doublesix.server.accounts import session_key
from doublesix.server.logins import LoginLimits

from .conftest import CHEAP
from .server_helpers import AppFactory, Socket, TestClient, guest, join, play_out

PASSWORD = "correct horse"


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    return accounts_client


def register(client: TestClient, name: str, password: str = PASSWORD) -> dict[str, Any]:
    r = client.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return dict(r.json())


def rows(client: TestClient, table: sa.Table) -> list[Any]:
    """Every row of ``table``, read on the app's own loop (its connections are bound to it)."""
    engine = client.app.state.server.store.engine  # type: ignore[attr-defined]

    async def read() -> list[Any]:
        async with engine.connect() as conn:
            return list((await conn.execute(sa.select(table))).all())

    assert client.portal is not None
    return client.portal.call(read)


def cookie_flags(header: str) -> set[str]:
    return {part.strip().lower() for part in header.split(";")}


def set_cookie(response: Any, name: str) -> str:
    found = [h for h in response.headers.get_list("set-cookie") if h.startswith(f"{name}=")]
    assert len(found) == 1, response.headers
    return str(found[0])


# --- the rules (no server) -------------------------------------------------------------


@pytest.mark.parametrize("name", ["Anna", "ben_2", "Zoe-x", "x9", "A" * 24])
def test_names_accepted(name: str) -> None:
    assert check_name(name) == name


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("A", "2 to 24"),
        ("A" * 25, "2 to 24"),
        ("Anna Lee", "letters A-Z"),
        ("Jürgen", "letters A-Z"),
        ("\u0410nna", "letters A-Z"),  # a Cyrillic А: it would pass for "Anna"
        ("An\x00na", "letters A-Z"),
        ("An\u200bna", "letters A-Z"),
        ("12", "one letter"),
        ("__", "one letter"),
        ("Bot", "bot"),
        ("Bot2", "bot"),
        ("bot_3", "bot"),
        ("B0t-1", "bot"),
        ("8OT", "bot"),
        ("greedy-bot", "bot"),
        ("Robot", "bot"),
        ("expert", "bot"),
        ("Expert_2", "bot"),
        ("expert-2026", "bot"),
        ("P1MC", "bot"),
        ("R4nd0m", "bot"),
        ("medium", "bot"),
        ("omniscient", "bot"),
    ],
)
def test_names_refused(name: str, says: str) -> None:
    with pytest.raises(AccountError) as e:
        check_name(name)
    assert e.value.code == Refusal.NAME and e.value.field == "name"
    assert says in e.value.message


def test_look_alike_names_share_a_key() -> None:
    assert name_key("Anna") == name_key("ANNA") == name_key("anna")
    assert name_key("Paul") == name_key("Pau1") == name_key("PAUL")
    assert name_key("Lisa") == name_key("l1sa") == name_key("LI5A")
    assert name_key("Otto") == name_key("0tto")
    assert name_key("Anna") != name_key("Anne")
    assert looks_like_bot("Bot 2") and looks_like_bot("bot 2 expert")
    assert not looks_like_bot("Anna") and not looks_like_bot("Roberta")


@pytest.mark.parametrize(
    ("password", "says"),
    [
        ("short", "at least 8"),
        ("x" * 257, "at most 256"),
        ("Anna", "at least 8"),
        ("Annabell", "not the name"),
        ("ANNABELL", "not the name"),
    ],
)
def test_weak_passwords(password: str, says: str) -> None:
    with pytest.raises(AccountError) as e:
        check_password(password, "Annabell")
    assert e.value.code == Refusal.WEAK_PASSWORD and says in e.value.message
    assert check_password("x" * 256, "Annabell")


# --- register, log in, log out ---------------------------------------------------------


def test_register_logs_in_with_a_safe_cookie(client: TestClient) -> None:
    client.cookies.clear()
    assert client.get("/api/me").json() == {"player": None}
    r = client.post("/api/accounts", json={"name": "Anna", "password": PASSWORD})
    assert r.status_code == 201, r.text
    assert r.json() == {"player": {"name": "Anna", "account": True}}
    flags = cookie_flags(set_cookie(r, "ds_session"))
    assert {"httponly", "samesite=lax", "path=/"} <= flags
    assert "secure" not in flags  # over http a Secure cookie would never come back
    assert client.get("/api/me").json() == {"player": {"name": "Anna", "account": True}}
    # only the secret's SHA-256 is stored
    secret = client.cookies["ds_session"]
    assert [row.id for row in rows(client, schema.sessions)] == [session_key(secret)]
    assert secret not in str(rows(client, schema.sessions))


def test_the_cookie_is_secure_over_https(make_app: AppFactory) -> None:
    with TestClient(make_app(password_hasher=CHEAP), base_url="https://testserver") as c:
        r = c.post("/api/accounts", json={"name": "Anna", "password": PASSWORD})
        assert r.status_code == 201
        assert {"secure", "httponly", "samesite=lax"} <= cookie_flags(set_cookie(r, "ds_session"))
        r = c.post("/api/session", json={"name": "anna", "password": PASSWORD})
        assert "secure" in cookie_flags(set_cookie(r, "ds_session"))


@pytest.mark.parametrize(
    ("body", "status", "code", "field"),
    [
        ({"name": "A", "password": PASSWORD}, 422, "name", "name"),
        ({"name": "Anna Lee", "password": PASSWORD}, 422, "name", "name"),
        ({"name": "B0t-1", "password": PASSWORD}, 422, "name", "name"),
        ({"name": "Ben", "password": "1234567"}, 422, "weak_password", "password"),
        ({"name": "Ben", "password": "p" * 300}, 422, "weak_password", "password"),
        ({"name": "Ben", "password": "p" * 5000}, 422, None, "password"),
        ({"name": "B" * 5000, "password": PASSWORD}, 422, None, "name"),
        ({"name": "Ben"}, 422, None, "password"),
        ({"name": "anna", "password": PASSWORD}, 409, "name_taken", "name"),
        ({"name": "ANNA", "password": PASSWORD}, 409, "name_taken", "name"),
    ],
)
def test_register_refuses(
    client: TestClient, body: dict[str, Any], status: int, code: str | None, field: str
) -> None:
    register(client, "Anna")
    client.cookies.clear()
    before = rows(client, schema.accounts)
    r = client.post("/api/accounts", json=body)
    assert r.status_code == status, r.text
    assert r.json()["field"] == field and r.json()["error"]
    if code is not None:
        assert r.json()["code"] == code
    assert rows(client, schema.accounts) == before  # nothing changed
    assert "ds_session" not in client.cookies


def test_a_look_alike_of_a_taken_name_is_taken(client: TestClient) -> None:
    register(client, "Paul")
    client.cookies.clear()
    r = client.post("/api/accounts", json={"name": "PAU1", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["code"] == "name_taken"


def test_login_and_the_same_answer_for_unknown_names(client: TestClient) -> None:
    register(client, "Anna")
    client.cookies.clear()
    wrong = client.post("/api/session", json={"name": "Anna", "password": "not the one"})
    unknown = client.post("/api/session", json={"name": "Nobody", "password": "not the one"})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert wrong.json()["code"] == "wrong_password"
    assert "ds_session" not in client.cookies
    r = client.post("/api/session", json={"name": "ANNA", "password": PASSWORD})
    assert r.status_code == 200 and r.json() == {"player": {"name": "Anna", "account": True}}
    assert {"httponly", "samesite=lax"} <= cookie_flags(set_cookie(r, "ds_session"))
    assert client.get("/api/me").json()["player"]["name"] == "Anna"


def test_logout_ends_the_session(client: TestClient) -> None:
    register(client, "Anna")
    secret = client.cookies["ds_session"]
    r = client.delete("/api/session")
    assert r.status_code == 200 and r.json() == {"player": None}
    assert 'ds_session=""' in set_cookie(r, "ds_session")  # cleared in the browser
    assert rows(client, schema.sessions) == []
    assert client.get("/api/me").json() == {"player": None}
    client.cookies.set("ds_session", secret)  # the old secret logs nobody in any more
    assert client.get("/api/me").json() == {"player": None}
    assert client.post("/api/tables", json={"preset": "draw"}).status_code == 401


def test_a_bad_session_cookie_is_nobody(client: TestClient) -> None:
    client.cookies.set("ds_session", "made-up")
    assert client.get("/api/me").json() == {"player": None}
    me = guest(client, "Vera")
    client.cookies.set("ds_session", "made-up")
    assert client.get("/api/me").json() == {"player": {"name": me["name"], "account": False}}


def test_sessions_expire(make_app: AppFactory) -> None:
    now = [1_000_000.0]
    with TestClient(make_app(password_hasher=CHEAP, clock=lambda: now[0])) as c:
        register(c, "Anna")
        now[0] += 29 * 24 * 3600
        assert c.get("/api/me").json()["player"] is not None
        now[0] += 2 * 24 * 3600
        assert c.get("/api/me").json() == {"player": None}


def test_expired_sessions_leave_the_database_without_a_login(make_app: AppFactory) -> None:
    """The server deletes expired sessions at its start and every few hours, not only when
    their account logs in again."""
    now = [1_000_000.0]
    with TestClient(make_app(password_hasher=CHEAP, clock=lambda: now[0])) as c:
        register(c, "Anna")
        now[0] += 10 * 24 * 3600
        c.cookies.clear()
        register(c, "Ben")  # Anna's session expires 10 days before Ben's
        ben = c.cookies.get("ds_session")
        assert ben and len(rows(c, schema.sessions)) == 2
    now[0] += 25 * 24 * 3600  # Anna's is 5 days past its end, Ben's has 5 days left
    with TestClient(make_app(password_hasher=CHEAP, clock=lambda: now[0])) as c:
        deadline = time.monotonic() + 30
        while len(rows(c, schema.sessions)) != 1:
            assert time.monotonic() < deadline, "the expired session is still there"
            time.sleep(0.05)
        c.cookies.set("ds_session", ben)
        assert c.get("/api/me").json()["player"]["name"] == "Ben"


def test_register_while_logged_in_is_refused(client: TestClient) -> None:
    register(client, "Anna")
    r = client.post("/api/accounts", json={"name": "Ben", "password": PASSWORD})
    assert r.status_code == 409 and r.json()["code"] == "logged_in"


def test_names_of_player_ids(client: TestClient) -> None:
    vera = guest(client, "Vera")
    client.cookies.clear()
    register(client, "Anna")
    anna_id = rows(client, schema.accounts)[0].player_id
    accounts = client.app.state.server.accounts  # type: ignore[attr-defined]
    assert client.portal is not None
    found = client.portal.call(accounts.names, [anna_id, vera["id"], "nobody"])
    assert found == {anna_id: "Anna"}
    assert client.portal.call(accounts.names, []) == {}


def test_an_account_plays_under_its_player_id(client: TestClient) -> None:
    register(client, "Anna")
    player_id = rows(client, schema.accounts)[0].player_id
    r = client.post("/api/tables", json={"preset": "draw"})
    assert r.status_code == 200, r.text
    table_id = r.json()["id"]
    seats = [s for s in rows(client, schema.seats) if s.table_id == table_id]
    assert [(s.player_id, s.name) for s in seats if s.seat == 0] == [(player_id, "Anna")]
    # the same account in another browser gets its seat and token again
    token = r.json()["token"]
    client.cookies.clear()
    client.post("/api/session", json={"name": "Anna", "password": PASSWORD})
    again = client.post(f"/api/tables/{table_id}/join", json={})
    assert again.status_code == 200 and again.json() == {"seat": 0, "token": token}


def test_the_table_socket_knows_an_account(client: TestClient) -> None:
    r = client.post("/api/guest", json={"name": "Vera"})
    assert r.status_code == 200
    table = client.post("/api/tables", json={"preset": "draw"}).json()
    client.cookies.clear()
    register(client, "Anna")
    with ExitStack() as stack:
        watcher = Socket(client, stack, table["id"], None)
        watcher.send({"type": "chat", "text": "hello from the rail"})
        frame = watcher.receive()
    assert frame["type"] == "chat", frame
    assert (frame["from"], frame["channel"]) == ("Anna", "spectators")


# --- passwords -------------------------------------------------------------------------


def test_change_password_ends_the_other_sessions(client: TestClient, make_app: AppFactory) -> None:
    register(client, "Anna")
    mine = client.cookies["ds_session"]
    client.cookies.clear()
    client.post("/api/session", json={"name": "Anna", "password": PASSWORD})
    other = client.cookies["ds_session"]
    client.cookies.clear()
    client.cookies.set("ds_session", mine)

    wrong = client.post("/api/account/password", json={"old": "nope nope", "new": "a new one!"})
    assert wrong.status_code == 401 and wrong.json()["field"] == "old"
    weak = client.post("/api/account/password", json={"old": PASSWORD, "new": "short"})
    assert weak.status_code == 422 and weak.json()["field"] == "new"
    assert len(rows(client, schema.sessions)) == 2  # refused: nothing changed

    r = client.post("/api/account/password", json={"old": PASSWORD, "new": "a new one!"})
    assert r.status_code == 200, r.text
    assert client.get("/api/me").json()["player"]["name"] == "Anna"  # this session goes on
    assert [row.id for row in rows(client, schema.sessions)] == [session_key(mine)]
    client.cookies.set("ds_session", other)
    assert client.get("/api/me").json() == {"player": None}  # the other one ended
    client.cookies.clear()
    old = client.post("/api/session", json={"name": "Anna", "password": PASSWORD})
    assert old.status_code == 401
    assert client.post("/api/session", json={"name": "Anna", "password": "a new one!"}).is_success


def test_change_password_needs_an_account(client: TestClient) -> None:
    client.cookies.clear()
    body = {"old": PASSWORD, "new": "a new one!"}
    assert client.post("/api/account/password", json=body).status_code == 401
    guest(client, "Vera")
    r = client.post("/api/account/password", json=body)
    assert r.status_code == 401 and r.json()["code"] == "no_account"


def test_a_hash_of_old_parameters_is_replaced_at_login(make_app: AppFactory) -> None:
    stronger = PasswordHasher(time_cost=2, memory_cost=2048, parallelism=1)
    with TestClient(make_app(password_hasher=CHEAP)) as c:
        register(c, "Anna")
        before = rows(c, schema.accounts)[0].password
    assert stronger.check_needs_rehash(before)
    with TestClient(make_app(password_hasher=stronger)) as c:
        c.cookies.clear()
        r = c.post("/api/session", json={"name": "Anna", "password": PASSWORD})
        assert r.status_code == 200
        after = rows(c, schema.accounts)[0].password
        assert after != before and not stronger.check_needs_rehash(after)
        assert stronger.verify(after, PASSWORD)
        c.cookies.clear()
        assert c.post("/api/session", json={"name": "Anna", "password": PASSWORD}).is_success


def test_passwords_are_never_stored_or_logged(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    secrets = ["first Passw0rd", "second Passw0rd", "wrong Passw0rd"]
    register(client, "Anna", secrets[0])
    client.cookies.clear()
    client.post("/api/session", json={"name": "Anna", "password": secrets[2]})
    client.post("/api/session", json={"name": "Anna", "password": secrets[0]})
    client.post("/api/account/password", json={"old": secrets[0], "new": secrets[1]})
    seen = [
        str(tuple(row)) for table in schema.metadata.sorted_tables for row in rows(client, table)
    ]
    assert any("Anna" in row for row in seen)
    for secret in secrets:
        assert not any(secret in row for row in seen), secret
        assert secret not in caplog.text
    assert rows(client, schema.accounts)[0].password.startswith("$argon2id$")


# --- limits ----------------------------------------------------------------------------


def test_failed_logins_are_limited_per_name(make_app: AppFactory) -> None:
    limits = LoginLimits(per_name="3/minute", per_address="100/minute")
    with TestClient(make_app(password_hasher=CHEAP, login_limits=limits)) as c:
        register(c, "Anna")
        register_other = c.post("/api/session", json={"name": "Anna", "password": PASSWORD})
        assert register_other.status_code == 200  # a good login never counts
        c.cookies.clear()
        for _ in range(3):
            bad = c.post("/api/session", json={"name": "anna", "password": "guess guess"})
            assert bad.status_code == 401
        r = c.post("/api/session", json={"name": "Anna", "password": PASSWORD})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert r.json()["field"] == "name" and "3 per minute" in r.json()["error"]
        assert "ds_session" not in c.cookies
        other = c.post("/api/session", json={"name": "Ben", "password": "guess guess"})
        assert other.status_code == 401  # another name is not held up


def test_failed_logins_are_limited_per_address(make_app: AppFactory) -> None:
    limits = LoginLimits(per_name="100/minute", per_address="4/minute")
    with TestClient(make_app(password_hasher=CHEAP, login_limits=limits)) as c:
        register(c, "Anna")
        c.cookies.clear()
        for n in range(4):
            bad = c.post("/api/session", json={"name": f"Name{n}x", "password": "guess guess"})
            assert bad.status_code == 401
        r = c.post("/api/session", json={"name": "Anna", "password": PASSWORD})
        assert r.status_code == 429 and "4 per minute" in r.json()["error"]
        assert "address" in r.json()["error"]


# --- guests ----------------------------------------------------------------------------


def test_a_guest_who_registers_keeps_a_finished_game(client: TestClient) -> None:
    anna = guest(client, "Anna")
    r = client.post(
        "/api/tables",
        json={"preset": "draw", "options": {"target": "round"}, "seats": [{"kind": "human"}] * 2},
    )
    assert r.status_code == 200, r.text
    table_id, token = r.json()["id"], r.json()["token"]
    ben = join(client, table_id, "Ben")
    with ExitStack() as stack:
        sockets = [Socket(client, stack, table_id, t) for t in (token, ben["token"])]
        play_out(sockets, [], random.Random(5))
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "finished"

    client.cookies.clear()
    client.cookies.set("ds_guest", anna["id"])
    r = client.post("/api/accounts", json={"name": "Annabell", "password": PASSWORD})
    assert r.status_code == 201, r.text
    assert 'ds_guest=""' in set_cookie(r, "ds_guest")  # the guest cookie is cleared
    [account] = rows(client, schema.accounts)
    assert account.player_id == anna["id"]  # the account is the guest's player
    seat = next(s for s in rows(client, schema.seats) if s.table_id == table_id and s.seat == 0)
    assert seat.player_id == account.player_id
    assert anna["id"] not in {g.id for g in rows(client, schema.guests)}
    client.cookies.clear()
    client.cookies.set("ds_guest", anna["id"])  # the old guest cookie is nobody now
    assert client.get("/api/me").json() == {"player": None}


def test_a_guest_may_not_take_an_accounts_name(client: TestClient) -> None:
    register(client, "Anna")
    r = client.post("/api/guest", json={"name": "Vera"})
    assert r.status_code == 409 and r.json()["code"] == "logged_in"
    client.cookies.clear()
    for name in ("anna", "ANNA", " Anna "):
        r = client.post("/api/guest", json={"name": name})
        assert r.status_code == 409, name
        assert r.json()["code"] == "name_taken" and r.json()["field"] == "name"
    for name in ("Bot 2", "B0t-1", "expert"):
        r = client.post("/api/guest", json={"name": name})
        assert r.status_code == 422 and r.json()["field"] == "name", name
    assert rows(client, schema.guests) == []
    assert client.post("/api/guest", json={"name": "Anna Lee"}).status_code == 200
