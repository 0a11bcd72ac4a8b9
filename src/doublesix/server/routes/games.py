"""A finished game: its ``doublesix/1`` record, the readable move list, a seat's review,
its chat."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from doublesix.rules.record import dumps
from doublesix.rules.text import record_lines
from doublesix.server.deps import MaybeGuest, server, table_of
from doublesix.server.errors import CommandError
from doublesix.server.reviews import GAME
from doublesix.server.routes.reviewing import review
from doublesix.table.frames import chat_shown
from doublesix.table.model import JSON, Table, TableStatus
from doublesix.table.records import record_of

router = APIRouter(prefix="/api/games")


KEPT = 200
"""Records of finished games kept in memory, the newest used first."""


async def _over(request: Request, table_id: str, what: str) -> Table:
    """The table of a game that is over; 409 ``not_finished`` while it is being played."""
    table = await table_of(request, table_id)
    if table.status not in (TableStatus.FINISHED, TableStatus.CLOSED):
        raise CommandError("not_finished", f"{what} is published once the game is over", status=409)
    return table


async def finished_record(request: Request, table_id: str) -> dict[str, Any]:
    """The game's record, derived from the table's log; 409 while the game is being played
    (it would tell the hands)."""
    table = await _over(request, table_id, "the record")
    kept: OrderedDict[str, JSON] = server(request).records
    record = kept.get(table_id)
    if record is None:
        entries = await server(request).store.events(table_id)
        record = record_of(table, entries)
        if record is None:
            raise CommandError("not_started", "the game never started", status=409)
        kept[table_id] = record
        while len(kept) > KEPT:
            kept.popitem(last=False)
    kept.move_to_end(table_id)
    return record


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
    return JSONResponse(await review(request, GAME + table_id, data, seat))


@router.get("/{table_id}/chat")
async def chat(
    table_id: str, request: Request, who: MaybeGuest, removed: bool = False
) -> dict[str, list[JSON]]:
    """Every message of the game's table, both channels (each frame names its own), in order;
    the table's readers saw them live, the game's page shows them once the game is over. An
    operator who asks (``removed``) gets those an operator removed too, as placeholders to
    restore (anyone else's ``removed`` is ignored)."""
    await _over(request, table_id, "the chat")
    entries = await server(request).store.events(table_id)
    operator = who is not None and who.operator
    return {"chat": chat_shown(entries, removed=removed and operator)}
