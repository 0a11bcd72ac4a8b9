"""How refusals become HTTP answers: ``{"error": "...", "field": ...}`` with a 4xx status."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from doublesix.rules.record import RecordError
from doublesix.server.actor import CommandError


def install(app: FastAPI) -> None:
    """Answer every refusal the routes raise with the protocol's error body."""

    @app.exception_handler(CommandError)
    async def command_error(_: Request, e: CommandError) -> JSONResponse:
        return JSONResponse(e.body(), status_code=e.status)

    @app.exception_handler(RecordError)
    async def bad_record(_: Request, e: RecordError) -> JSONResponse:
        where = {"field": e.field, "round": e.round, "event": e.event, "rule": e.rule}
        return JSONResponse({"error": str(e), **where}, status_code=422)

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
        return JSONResponse({"error": str(e.detail)}, status_code=e.status_code)
