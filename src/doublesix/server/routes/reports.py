"""Reports to the site's operator (``server/reports.py``): ``POST /api/reports``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from doublesix.server import reports
from doublesix.server.deps import GuestDep, ServerDep
from doublesix.server.routes.ratings import sql_store

router = APIRouter(prefix="/api")


@router.post("/reports", status_code=201)
async def report(body: reports.ReportIn, srv: ServerDep, who: GuestDep) -> dict[str, Any]:
    """``{"id"}`` of the report kept."""
    made = await reports.report(sql_store(srv), who, body, srv.settings.clock())
    return {"id": made}
