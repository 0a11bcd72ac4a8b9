"""Records: a player's finished games as ``doublesix/1`` records (``exports``), and
uploaded records (the /replay page), replayed by the engine and reviewed.

An upload's body is read here (its size is capped while it streams in: ``bodies``);
everything else — parsing, bounds, replay, review — happens in worker processes
(``uploads``, ``reviews``), never on the event loop.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from doublesix.server import exports
from doublesix.server.account_lists import open_account
from doublesix.server.deps import ServerDep, client_address
from doublesix.server.errors import CommandError
from doublesix.server.routes.ratings import game_cursor, sql_store

router = APIRouter(prefix="/api/records")


@router.post("")
async def upload(request: Request, srv: ServerDep) -> Response:
    status, answer = await srv.uploads.replay(await request.body(), client_address(request))
    return Response(answer, status_code=status, media_type="application/json")


@router.post("/review")
async def upload_review(seat: int, request: Request, srv: ServerDep) -> JSONResponse:
    body = await request.body()
    found = await srv.reviews.review_upload(body, seat, client=client_address(request))
    return JSONResponse(found)


@router.get("")
async def download(
    srv: ServerDep,
    player: Annotated[str, Query(max_length=64)],
    most: Annotated[int, Query(alias="max", ge=1, le=exports.MOST)] = exports.MOST,
    before_at: str | None = None,
    before_table: str | None = None,
) -> StreamingResponse:
    """The finished games of the account ``player``, newest first, after the game
    (``before_at``, ``before_table``) if given: one ``doublesix/1`` record a line."""
    cursor = game_cursor(before_at, before_table)
    store = sql_store(srv)
    try:
        pid, name = await open_account(store, player)
    except CommandError as e:  # the field is this route's
        raise CommandError(e.code, e.message, field="player", status=e.status) from None
    tables, more = await exports.games(store, pid, cursor, most)
    headers = {"Content-Disposition": exports.attachment(name)}
    if more:
        headers["Link"] = exports.next_link(name, most, tables[-1])
    return StreamingResponse(
        exports.lines(store, [table for table, _ in tables]),
        media_type="application/x-ndjson",
        headers=headers,
    )
