"""``doublesix account``, the operator's tasks on the site's database (SQLite while the
server runs, and PostgreSQL): a forgotten password replaced (the new one logs in, the old
one does not, every session has ended), and an account silenced and let speak again."""

from __future__ import annotations

import time
from contextlib import ExitStack
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from doublesix.server.account_names import AccountError
from doublesix.server.accounts import Accounts
from doublesix.server.moderation_log import Act, latest
from doublesix.server.store import SqlStore

from .rating_helpers import store_of
from .server_helpers import AppFactory, Command, command_on, run_async
from .test_lobby_socket import Lobby, name, register

OLD, NEW = "old dominoes", "new dominoes"


def test_a_forgotten_password_is_replaced_while_the_site_runs(
    make_app: AppFactory,
    tmp_path: Path,
    account: Command,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with TestClient(make_app()) as client:
        answer = client.post("/api/accounts", json={"name": "Anna", "password": OLD})
        assert answer.status_code == 201
        assert client.get("/api/me").json()["player"]["name"] == "Anna"

        code, out, _ = account("password", "ANNA", typed=NEW)
        assert code == 0 and out == "the password of Anna is replaced; 1 session(s) ended\n"
        assert client.get("/api/me").json() == {"player": None}  # logged out
        refused = client.post("/api/session", json={"name": "Anna", "password": OLD})
        assert refused.status_code == 401, refused.text
        assert (
            client.post("/api/session", json={"name": "Anna", "password": NEW}).status_code == 200
        )

        for who, typed, said in [
            ("nobody", NEW, "name: no account is named 'nobody'; nothing changed"),
            ("Anna", "short", "password: a password has at least 8 characters; nothing changed"),
            ("Anna", "", "password: a password has at least 8 characters; nothing changed"),
        ]:
            code, out, err = account("password", who, typed=typed)
            assert (code, out) == (1, ""), err
            assert err == f"doublesix account: error: {said}\n"
        assert (
            client.post("/api/session", json={"name": "Anna", "password": NEW}).status_code == 200
        )

    other = command_on(f"sqlite:///{tmp_path / 'other.sqlite3'}", monkeypatch, capsys)
    code, _, err = other("password", "Anna", typed=NEW)
    assert code == 1 and "no such file" in err
    assert not (tmp_path / "other.sqlite3").exists()  # a mistyped path leaves nothing behind
    (tmp_path / "empty.sqlite3").touch()
    empty = command_on(f"sqlite:///{tmp_path / 'empty.sqlite3'}", monkeypatch, capsys)
    code, _, err = empty("password", "Anna", typed=NEW)
    assert code == 1 and "no doublesix site's accounts there" in err


def test_silence_and_unsilence(make_app: AppFactory, account: Command) -> None:
    with TestClient(make_app()) as client, ExitStack() as stack:
        anna = register(client, name(client, "Anna"), "Anna")
        a = Lobby(client, stack, anna)
        said = account("silence", "anna", "--hours", "1.5", "--reason", "spam")
        assert said == (0, "Anna is silenced for 1.5 h\n", "")
        a.ws.send_json({"type": "chat", "text": "hello?"})
        error = a.next("error")
        assert (error["code"], error["field"]) == ("chat", "silenced")
        assert account("unsilence", "Anna") == (0, "Anna may chat again\n", "")
        a.ws.send_json({"type": "chat", "text": "hello"})
        assert a.next("chat")["text"] == "hello"
        assert account("silence", "Anna") == (0, "Anna is silenced until lifted\n", "")

        code, out, err = account("silence", "nobody")
        assert (code, out) == (1, "")
        assert err.endswith("error: name: no account is named 'nobody'; nothing changed\n")
        for bad in (["--hours", "0"], ["--hours", "-2"], ["--reason", "x" * 201]):
            code, out, err = account("silence", "Anna", *bad)
            assert (code, out) == (2, ""), err
            assert bad[0] in err

        # The operators' log has the command line's acts (no operator's name), not its refusals.
        assert client.portal is not None
        logged, more = client.portal.call(latest, store_of(client))
        log = [(e.operator, e.act, e.name, e.detail) for e in logged]
        assert not more
        assert log[:2] == [
            (None, Act.SILENCE, "Anna", {"until": None, "reason": None}),
            (None, Act.UNSILENCE, "Anna", {}),
        ]
        assert log[2][:3] == (None, Act.SILENCE, "Anna") and log[2][3]["reason"] == "spam"
        assert len(log) == 3


def test_the_reset_on_postgresql(
    database: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    async def boris() -> None:
        store = SqlStore(database)
        await store.migrate()
        await Accounts(store, clock=time.time).register("Boris", OLD, None)
        await store.close()

    async def logs_in(password: str) -> bool:
        store = SqlStore(database)
        try:
            await Accounts(store, clock=time.time).login("boris", password, "127.0.0.1")
        except AccountError:
            return False
        finally:
            await store.close()
        return True

    run_async(boris())
    code, out, _ = command_on(database, monkeypatch, capsys)("password", "boris", typed=NEW)
    assert code == 0 and out == "the password of Boris is replaced; 1 session(s) ended\n"
    assert run_async(logs_in(NEW)) and not run_async(logs_in(OLD))
