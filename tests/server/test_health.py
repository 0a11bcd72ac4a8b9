"""``GET /api/health``: 200 while this process's database (and, with ``--redis``, Redis)
answer; 503 naming the part that does not, so a load balancer stops sending players there."""

from __future__ import annotations

from typing import Any

import pytest
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import create_async_engine
from starlette.testclient import TestClient

from .server_helpers import AppFactory
from .site_helpers import REDIS, require_services

NOBODY = "127.0.0.1:1"
"""An address where nothing listens: a connection there is refused at once."""


def test_a_lone_process_on_sqlite_is_healthy(client: TestClient) -> None:
    answer = client.get("/api/health")
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "ok" and body["checks"] == {"database": "ok", "redis": "off"}
    assert body["process"] and body["tables"] == 0


def _health(client: TestClient, status: int) -> dict[str, Any]:
    answer = client.get("/api/health")
    assert answer.status_code == status, answer.text
    checks: dict[str, Any] = answer.json()["checks"]
    assert answer.json()["status"] == ("ok" if status == 200 else "failing")
    return checks


@pytest.mark.parametrize("backend", ["postgres"], indirect=True)
def test_a_database_or_a_redis_that_does_not_answer_fails_the_check(make_app: AppFactory) -> None:
    require_services()
    with TestClient(make_app(redis_url=REDIS)) as client:
        srv = client.app.state.server  # type: ignore[attr-defined]
        assert _health(client, 200) == {"database": "ok", "redis": "ok"}

        engine, srv.store.engine = (
            srv.store.engine,
            create_async_engine(f"postgresql+asyncpg://postgres@{NOBODY}/test"),
        )
        try:
            checks = _health(client, 503)
        finally:
            gone, srv.store.engine = srv.store.engine, engine
            client.portal.call(gone.dispose)  # type: ignore[union-attr]
        assert checks["database"].startswith("failing: ") and checks["redis"] == "ok"

        redis, srv.redis = srv.redis, Redis.from_url(f"redis://{NOBODY}/0")
        try:
            checks = _health(client, 503)
        finally:
            gone_redis, srv.redis = srv.redis, redis
            client.portal.call(gone_redis.aclose)  # type: ignore[union-attr]
        assert checks == {"database": "ok", "redis": "failing: ConnectionError"}
        assert _health(client, 200) == {"database": "ok", "redis": "ok"}
