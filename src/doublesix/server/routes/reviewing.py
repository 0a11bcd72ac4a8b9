"""The post-game review, shared by a server game's page and an uploaded record."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from doublesix.server.deps import server
from doublesix.server.errors import CommandError
from doublesix.server.reviews import ReviewsBusy
from doublesix.table.views import JSON


def check_seat(record: dict[str, Any], seat: int) -> None:
    players = int(record["ruleset"]["players"])
    if not 0 <= seat < players:
        raise CommandError(
            "bad_seat", f"no seat {seat} at a table of {players}", field="seat", status=422
        )


async def review(request: Request, key: str, record: dict[str, Any], seat: int) -> JSON:
    try:
        return await server(request).reviews.review(key, record, seat)
    except ReviewsBusy:
        raise CommandError(
            "busy", "too many reviews are waiting; ask again soon", status=503
        ) from None
