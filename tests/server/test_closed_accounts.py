"""A closed account (``Accounts.close``, ``POST /api/account/close``, ``doublesix account
close|reopen``), on SQLite and PostgreSQL: its sessions end and it logs in no more, it is no
longer found, ranked, followed or shown, its name stays taken, and the operator reopens it."""

from __future__ import annotations

import io
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from doublesix.cli import main
from doublesix.server import schema
from doublesix.server.account_names import name_key

from .server_helpers import BOTH, TestClient
from .test_accounts import PASSWORD, register, rows
from .test_lobby_socket import Lobby

SOCKETS_STAY = (
    "the servers refuse its chat and its seats' tokens at once, but its open sockets stay "
    "until they close; pass --redis to close them now\n"
)
"""What ``doublesix account close`` says of the account's sockets without ``--redis``."""


@pytest.fixture
def client(accounts_client: TestClient) -> TestClient:
    return accounts_client


def log_in(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    client.cookies.clear()
    return client.post("/api/session", json={"name": name, "password": password})


def rate(client: TestClient, name: str) -> None:
    """A Draw rating for the account ``name``, as a rated game would leave it."""
    player_id = next(a.player_id for a in rows(client, schema.accounts) if a.name == name)

    async def insert() -> None:
        store = client.app.state.server.store  # type: ignore[attr-defined]
        async with store.writing() as conn:
            await conn.execute(
                schema.ratings.insert().values(
                    player_id=player_id, variant="draw", mu=27.0, sigma=5.0, games=3,
                    wins=2, losses=1, draws=0, updated_at=1.0,
                )
            )  # fmt: skip

    assert client.portal is not None
    client.portal.call(insert)


def ranked(client: TestClient) -> list[str]:
    return [s["name"] for s in client.get("/api/leaderboard/draw").json()["players"]]


def found(client: TestClient, prefix: str) -> list[str]:
    return [
        p["name"] for p in client.get("/api/players", params={"prefix": prefix}).json()["players"]
    ]


@BOTH
def test_a_player_closes_their_account(client: TestClient) -> None:
    register(client, "Boris")
    client.cookies.clear()
    register(client, "Anna")
    for name in ("Anna", "Boris"):
        rate(client, name)
    assert client.put("/api/account/following/Boris").status_code == 200
    other_browser = dict(log_in(client, "Anna").cookies)
    log_in(client, "Boris")
    assert client.put("/api/account/following/Anna").status_code == 200
    log_in(client, "Anna")
    assert sorted(ranked(client)) == ["Anna", "Boris"] and found(client, "an") == ["Anna"]

    wrong = client.post("/api/account/close", json={"password": "not my password"})
    assert wrong.status_code == 401 and wrong.json()["field"] == "password"
    assert client.get("/api/me").json()["player"]["name"] == "Anna"  # nothing changed
    closed = client.post("/api/account/close", json={"password": PASSWORD})
    assert closed.status_code == 200 and closed.json() == {"player": None}
    assert 'ds_session=""' in closed.headers["set-cookie"]
    client.cookies.clear()
    for key, value in other_browser.items():
        client.cookies.set(key, value)
    assert client.get("/api/me").json() == {"player": None}  # every session ended

    refused = log_in(client, "anna")
    assert refused.status_code == 403 and refused.json()["code"] == "closed"
    assert log_in(client, "Anna", "not my password").status_code == 401  # says nothing more
    gone = client.get("/api/players/Anna")
    assert gone.status_code == 410 and gone.json()["code"] == "closed"
    assert ranked(client) == ["Boris"] and found(client, "an") == []
    assert rows(client, schema.follows) == []  # whom it followed, and who followed it
    log_in(client, "Boris")
    assert client.put("/api/account/following/Anna").status_code == 404
    client.cookies.clear()
    assert (
        client.post("/api/accounts", json={"name": "ANNA", "password": PASSWORD}).status_code == 409
    )
    assert client.post("/api/guest", json={"name": "Anna"}).status_code == 409  # name kept
    (anna,) = [a for a in rows(client, schema.accounts) if a.name_key == name_key("Anna")]
    assert anna.closed_by == "player" and anna.closed_at is not None

    accounts = client.app.state.server.accounts  # type: ignore[attr-defined]
    assert client.portal is not None
    assert client.portal.call(accounts.reopen, "anna") == ("Anna", True)  # if asked
    assert log_in(client, "Anna").status_code == 200
    assert sorted(ranked(client)) == ["Anna", "Boris"] and found(client, "an") == ["Anna"]


@BOTH
def test_a_guest_closes_nothing(client: TestClient) -> None:
    assert client.post("/api/guest", json={"name": "Gina"}).status_code == 200
    refused = client.post("/api/account/close", json={"password": PASSWORD})
    assert refused.status_code == 401 and refused.json()["code"] == "no_account"


def test_the_operator_closes_and_reopens_an_account(  # on SQLite; reopen on both: above
    client: TestClient,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    register(client, "Anna")
    rate(client, "Anna")
    db = f"sqlite:///{tmp_path / 'doublesix.sqlite3'}"  # make_app's site
    stack = ExitStack()
    lobby = Lobby(client, stack, dict(client.cookies))  # Anna in the lobby when banned

    def account(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        code = main(["account", *args, "--db", db])
        out, err = capsys.readouterr()
        return code, out, err

    assert account("close", "anna") == (
        0,
        "Anna is closed: no login, no page, no rank; the name stays taken\n" + SOCKETS_STAY,
        "",
    )
    assert client.get("/api/me").json() == {"player": None}  # a ban ends the sessions too
    lobby.ws.send_json({"type": "chat", "text": "still here?"})  # her socket is still open
    refused = lobby.next("error")
    assert (refused["code"], refused["field"]) == ("chat", "closed")
    stack.close()
    assert log_in(client, "Anna").json()["code"] == "closed"
    assert ranked(client) == []
    assert account("close", "Anna") == (
        0,
        "Anna was closed already; nothing changed\n" + SOCKETS_STAY,
        "",
    )
    code, out, err = account("reopen", "nobody")
    assert (code, out) == (1, "") and "no account is named 'nobody'" in err
    assert account("reopen", "ANNA") == (0, "Anna is open again\n", "")
    assert log_in(client, "Anna").status_code == 200
    assert ranked(client) == ["Anna"]
