"""``GET /api/health``: whether this process can serve, for a load balancer and an operator.

A process that answers HTTP may still serve nobody: every command is refused while its
database does not answer, and with ``--redis`` nothing crosses to the other processes while
Redis does not. So the check asks both, each within ``CHECK_SECONDS``, and answers 503 when
one fails, naming which.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from doublesix.server.deps import ServerDep
from doublesix.server.metrics import redis_failed
from doublesix.server.store import SqlStore

router = APIRouter(prefix="/api")

CHECK_SECONDS = 2.0
"""How long each part may take to answer: a balancer's own timeout is a few seconds."""

OK, OFF, TIMEOUT = "ok", "off", "timeout"


@router.get("/health")
async def health(srv: ServerDep) -> JSONResponse:
    store = srv.store
    checks = {
        "database": await _answer(store.ping()) if isinstance(store, SqlStore) else OFF,
        "redis": OFF if srv.redis is None else await _answer(srv.redis.ping()),
    }
    if checks["redis"] not in (OK, OFF):
        redis_failed("health", timeout=checks["redis"] == TIMEOUT)
    ok = all(state in (OK, OFF) for state in checks.values())
    body: dict[str, Any] = {
        "status": "ok" if ok else "failing",
        "process": srv.manager.process,
        "tables": len(srv.manager.hosts),
        "checks": checks,
    }
    return JSONResponse(body, status_code=200 if ok else 503)


async def _answer(question: Awaitable[object]) -> str:
    """``ok``, ``timeout``, or ``failing: <the error's type>`` (its text may hold an address)."""
    try:
        await asyncio.wait_for(question, CHECK_SECONDS)
    except TimeoutError:
        return TIMEOUT
    except Exception as error:  # any failure is the answer, never the health check's own
        return f"failing: {type(error).__name__}"
    return OK
