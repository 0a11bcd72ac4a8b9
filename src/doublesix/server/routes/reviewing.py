"""The post-game review of a server game (an uploaded record's is in ``records``)."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from doublesix.server.deps import client_address, server
from doublesix.table.views import JSON


async def review(request: Request, key: str, record: dict[str, Any], seat: int) -> JSON:
    found: JSON = await server(request).reviews.review(
        key, record, seat, client=client_address(request)
    )
    return found
