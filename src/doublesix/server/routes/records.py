"""Uploaded records (the /replay page): replayed by the engine, and reviewed."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from doublesix.rules.record import dumps, game_record, replay
from doublesix.server.errors import CommandError
from doublesix.server.routes.reviewing import check_seat, review

router = APIRouter(prefix="/api/records")

MAX_RECORD = 2_000_000
"""Bytes in an uploaded record."""


async def uploaded(request: Request) -> dict[str, Any]:
    """The record in the request's body, replayed by the engine and written anew."""
    body = await request.body()
    if len(body) > MAX_RECORD:
        raise CommandError("too_large", f"a record is at most {MAX_RECORD} bytes", status=413)
    try:
        data = json.loads(body)
    except ValueError:
        raise CommandError("bad_record", "not JSON", status=422) from None
    if not isinstance(data, dict):
        raise CommandError("bad_record", "a record is a JSON object", status=422)
    game = replay(data)
    players = data.get("players")
    names = (
        [str(p) for p in players]
        if isinstance(players, list) and len(players) == game.ruleset.players
        else [f"seat {s}" for s in range(game.ruleset.players)]
    )
    return game_record(game, names)


@router.post("")
async def upload(request: Request) -> JSONResponse:
    return JSONResponse(await uploaded(request))


@router.post("/review")
async def upload_review(seat: int, request: Request) -> JSONResponse:
    data = await uploaded(request)
    check_seat(data, seat)
    key = "record:" + hashlib.sha256(dumps(data).encode()).hexdigest()
    return JSONResponse(await review(request, key, data, seat))
