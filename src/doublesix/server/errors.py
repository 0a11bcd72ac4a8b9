"""How refusals become HTTP answers: ``{"error": "...", "field": ...}`` with a 4xx status."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from doublesix.rules.record import RecordError
from doublesix.server.actor import CommandError
from doublesix.server.bodies import BodyTooLarge


class Refused(Exception):
    """A request refused with a ready answer: ``status`` and its JSON ``body``."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(str(body.get("error")))
        self.status = status
        self.body = body


def record_error_body(e: RecordError) -> dict[str, Any]:
    """The answer to a record that does not replay: where, and which rule."""
    return {"error": str(e), "field": e.field, "round": e.round, "event": e.event, "rule": e.rule}


def install(app: FastAPI) -> None:
    """Answer every refusal the routes raise with the protocol's error body."""

    @app.exception_handler(CommandError)
    async def command_error(_: Request, e: CommandError) -> JSONResponse:
        return JSONResponse(e.body(), status_code=e.status)

    @app.exception_handler(Refused)
    async def refused(_: Request, e: Refused) -> JSONResponse:
        return JSONResponse(e.body, status_code=e.status)

    @app.exception_handler(RecordError)
    async def bad_record(_: Request, e: RecordError) -> JSONResponse:
        return JSONResponse(record_error_body(e), status_code=422)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, e: RequestValidationError) -> JSONResponse:
        first = e.errors()[0] if e.errors() else {}
        where = [str(p) for p in first.get("loc", ()) if p != "body"]
        field = ".".join(where) or None
        message = str(first.get("msg", "invalid request"))
        return JSONResponse(
            {"error": f"{field}: {message}" if field else message, "field": field},
            status_code=422,
        )

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, e: HTTPException) -> JSONResponse:
        body: dict[str, Any] = {"error": str(e.detail)}
        if isinstance(e.__cause__, RecursionError):
            body["error"] = "the JSON is nested too deeply"
        if isinstance(e, BodyTooLarge):
            body["limit"] = e.limit
        # after a body refused mid-way, the rest of it is not read: the connection closes
        close = {"connection": "close"} if e.status_code in (408, 413) else None
        return JSONResponse(body, status_code=e.status_code, headers=close)
