"""Uploaded records (the /replay page): replayed by the engine, and reviewed.

The body is read here (its size is capped while it streams in: ``bodies``);
everything else — parsing, bounds, replay, review — happens in worker
processes (``uploads``, ``reviews``), never on the event loop.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from doublesix.server.deps import ServerDep, client_address

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
