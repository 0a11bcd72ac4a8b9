"""Fixtures of the server tests: an app on SQLite or PostgreSQL, guests, socket players.

PostgreSQL is the one at ``DOUBLESIX_TEST_POSTGRES`` (default: the local
server, database ``test``); each test gets a schema of its own, dropped after.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi import FastAPI

from doublesix.server import create_app
from doublesix.server.settings import Limits, Settings
from doublesix.server.store import SqlStore

from .server_helpers import (
    POSTGRES,
    AppFactory,
    Clock,
    Command,
    TestClient,
    command_on,
    run_async,
)
from .site_helpers import (  # noqa: F401 (test_site's)
    Site,
    database,
    names,
    postgres_sql,
    require_services,
    site,
)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failed test that ran server processes (``site``) reports their logs' last lines:
    what went wrong where, once the processes and their folder are gone."""
    report = yield
    running = getattr(item, "funcargs", {}).get("site")
    if report.failed and isinstance(running, Site):
        for process in running.processes:
            lines = process.log.read_text(errors="replace").splitlines()[-200:]
            report.sections.append((f"server log {process.log.name}", "\n".join(lines)))
    return report


@pytest.fixture
def pg_schema() -> Iterator[str]:
    require_services()
    name = f"ds_test_{secrets.token_hex(6)}"
    run_async(postgres_sql(f"CREATE SCHEMA {name}"))
    try:
        yield name
    finally:
        run_async(postgres_sql(f"DROP SCHEMA {name} CASCADE"))


@pytest.fixture(params=["sqlite"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def make_app(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> AppFactory:
    """A factory of apps on one database: every app it makes shares the same tables."""
    schema = request.getfixturevalue("pg_schema") if backend == "postgres" else None
    db = f"sqlite+aiosqlite:///{tmp_path / 'doublesix.sqlite3'}"

    seeds = random.Random(request.node.nodeid)  # the same deals on every run of a test

    def make(**settings: Any) -> FastAPI:
        limits = settings.pop("limits", Limits(frames_per_second=10_000, burst=10_000))
        settings.setdefault("new_seed", lambda: seeds.randrange(2**62))
        store = SqlStore(POSTGRES, schema_name=schema) if schema else SqlStore(db)
        return create_app(
            store=store,
            settings=Settings(bot_delay=settings.pop("bot_delay", 0.0), **settings),
            limits=limits,
            web_dir=tmp_path / "web",
        )

    return make


@pytest.fixture
def client(make_app: AppFactory) -> Iterator[TestClient]:
    with TestClient(make_app()) as c:
        yield c


CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""Argon2 fast enough for tests (the server's default takes a good part of a second here)."""


@pytest.fixture
def accounts_client(make_app: AppFactory) -> Iterator[TestClient]:
    """An app whose passwords hash fast (``CHEAP``): for tests that register and log in."""
    with TestClient(make_app(password_hasher=CHEAP)) as c:
        yield c


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def lobby(make_app: AppFactory, clock: Clock) -> Iterator[TestClient]:
    """A site whose clock the test moves, and whose lobby notices a player gone, and sweeps
    its challenges and seeks, within a fraction of a second."""
    app = make_app(clock=clock)
    with TestClient(app) as c:
        app.state.lobby.leave_seconds = 0.2
        app.state.lobby.sweep_seconds = 0.05
        yield c


@pytest.fixture
def account(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Command:
    """The command on the database of ``make_app``'s site."""
    return command_on(f"sqlite:///{tmp_path / 'doublesix.sqlite3'}", monkeypatch, capsys)
