"""A finished game: its ``doublesix/1`` record, the readable move list, a seat's review."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from doublesix.rules.record import dumps
from doublesix.rules.text import record_lines
from doublesix.server.actor import CommandError
from doublesix.server.deps import table_of
from doublesix.server.routes.reviewing import review

router = APIRouter(prefix="/api/games")


async def finished_record(request: Request, table_id: str) -> dict[str, Any]:
    """The game's record; 409 while it is being played (it would tell the hands)."""
    table = await table_of(request, table_id)
    if table.status != "finished" or table.record is None:
        raise CommandError(
            "not_finished", "the record is published once the game is over", status=409
        )
    return table.record


@router.get("/{table_id}/record")
async def record(table_id: str, request: Request) -> Response:
    data = await finished_record(request, table_id)
    return Response(
        dumps(data),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="doublesix-{table_id}.json"'},
    )


@router.get("/{table_id}/text")
async def text(table_id: str, request: Request) -> PlainTextResponse:
    data = await finished_record(request, table_id)
    return PlainTextResponse("\n".join(record_lines(data)) + "\n")


@router.get("/{table_id}/review")
async def game_review(table_id: str, seat: int, request: Request) -> JSONResponse:
    data = await finished_record(request, table_id)
    return JSONResponse(await review(request, "game:" + table_id, data, seat))
