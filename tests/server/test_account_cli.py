"""``doublesix account password NAME``: the operator's reset of a forgotten password, on the
site's database (SQLite while the server runs, and PostgreSQL): the new password logs in,
the old one does not, and every session of the account has ended."""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from doublesix.cli import main
from doublesix.server.accounts import Accounts
from doublesix.server.store import SqlStore

from .server_helpers import AppFactory, run_async

OLD, NEW = "old dominoes", "new dominoes"


def reset(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    db: str,
    name: str,
    typed: str,
) -> tuple[int, str, str]:
    """Run the command with ``typed`` on its standard input: exit code, stdout, stderr."""
    monkeypatch.setattr("sys.stdin", io.StringIO(typed + "\n"))
    code = main(["account", "password", name, "--db", db])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_forgotten_password_is_replaced_while_the_site_runs(
    make_app: AppFactory,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = f"sqlite:///{tmp_path / 'doublesix.sqlite3'}"  # the database make_app's site uses
    with TestClient(make_app()) as client:
        assert (
            client.post("/api/accounts", json={"name": "Anna", "password": OLD}).status_code == 201
        )
        assert client.get("/api/me").json()["player"]["name"] == "Anna"

        code, out, _ = reset(monkeypatch, capsys, db, "ANNA", NEW)
        assert code == 0 and out == "the password of Anna is replaced; 1 session(s) ended\n"
        assert client.get("/api/me").json() == {"player": None}  # logged out
        refused = client.post("/api/session", json={"name": "Anna", "password": OLD})
        assert refused.status_code == 401, refused.text
        assert (
            client.post("/api/session", json={"name": "Anna", "password": NEW}).status_code == 200
        )

        for name, typed, said in [
            ("nobody", NEW, "name: no account is named 'nobody'; nothing changed"),
            ("Anna", "short", "password: a password has at least 8 characters; nothing changed"),
            ("Anna", "", "password: a password has at least 8 characters; nothing changed"),
        ]:
            code, out, err = reset(monkeypatch, capsys, db, name, typed)
            assert (code, out) == (1, ""), err
            assert err == f"doublesix account: error: {said}\n"
        assert (
            client.post("/api/session", json={"name": "Anna", "password": NEW}).status_code == 200
        )

    code, _, err = reset(
        monkeypatch, capsys, f"sqlite:///{tmp_path / 'other.sqlite3'}", "Anna", NEW
    )
    assert code == 1 and "no doublesix site's accounts there" in err


def test_the_reset_on_postgresql(
    database: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    async def register() -> None:
        store = SqlStore(database)
        await store.migrate()
        await Accounts(store, clock=time.time).register("Boris", OLD, None)
        await store.close()

    async def logs_in(password: str) -> bool:
        store = SqlStore(database)
        try:
            await Accounts(store, clock=time.time).login("boris", password, "127.0.0.1")
        except Exception:
            return False
        finally:
            await store.close()
        return True

    run_async(register())
    code, out, _ = reset(monkeypatch, capsys, database, "boris", NEW)
    assert code == 0 and out == "the password of Boris is replaced; 1 session(s) ended\n"
    assert run_async(logs_in(NEW)) and not run_async(logs_in(OLD))
