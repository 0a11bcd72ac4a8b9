"""Refusals as HTTP answers: ``{"error": "...", "field": ...}`` with a 4xx status.

The table core refuses with ``TableError`` and knows no HTTP; the status
each of its refusals gets is chosen here. ``CommandError`` is a refusal of
the HTTP edge itself (no such table, no name yet, a bad upload).
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException

from doublesix.rules.record import RecordError
from doublesix.server.bodies import BodyTooLarge
from doublesix.table.errors import Refusal, TableError
from doublesix.table.model import JSON

STATUS = {
    Refusal.INVITE: 403,
    Refusal.FORBIDDEN: 403,
    Refusal.BAD_TOKEN: 403,
    Refusal.NO_TABLE: 404,
    Refusal.NO_MESSAGE: 404,
    Refusal.NOT_REMOVED: 409,
    Refusal.ERASED: 409,
    Refusal.STARTED: 409,
    Refusal.TAKEN: 409,
    Refusal.FULL: 409,
    Refusal.CLOSED: 409,
    Refusal.STALE: 409,
    Refusal.FINISHED: 409,
    Refusal.NOT_STARTED: 409,
    Refusal.SEAT: 422,
    Refusal.BOT: 422,
    Refusal.CHAT: 422,
    Refusal.TOURNAMENT: 409,
    Refusal.RATE_LIMITED: 429,
    Refusal.SERVER: 503,
}
"""The HTTP status of each refusal of the table (400 for the others)."""
NUL_IN_TEXT = "22021"
"""PostgreSQL's SQLSTATE for text it cannot hold (``character_not_in_repertoire``): a NUL
character (U+0000) a client sent, in the path, the query or the body, that reached a query
(a lookup, mostly: SQLite would find nothing). The statement's transaction is rolled back."""


class CommandError(Exception):
    """A refused request: ``code`` names the refusal, ``status`` is its HTTP status."""

    def __init__(
        self, code: str, message: str, *, field: str | None = None, status: int = 400
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.status = status

    def body(self) -> JSON:
        out: JSON = {"error": self.message, "code": self.code}
        if self.field is not None:
            out["field"] = self.field
        return out


class ErrorResponse(JSONResponse):
    """An error body as Starlette writes JSON, or, where it quotes the client's own text that
    UTF-8 cannot carry (half a surrogate pair, sent as a JSON escape, say in an option's
    name), with that text as the same escape: an error never fails to be sent."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, allow_nan=False, separators=(",", ":")).encode()


def table_body(error: TableError) -> JSON:
    out: JSON = {"error": error.message, "code": error.code.value}
    if error.field is not None:
        out["field"] = error.field
    if error.rule is not None:
        out["rule"] = error.rule
    return out


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

    @app.exception_handler(TableError)
    async def table_error(_: Request, e: TableError) -> JSONResponse:
        return ErrorResponse(table_body(e), status_code=STATUS.get(e.code, 400))

    @app.exception_handler(CommandError)
    async def command_error(_: Request, e: CommandError) -> JSONResponse:
        return ErrorResponse(e.body(), status_code=e.status)

    @app.exception_handler(Refused)
    async def refused(_: Request, e: Refused) -> JSONResponse:
        return ErrorResponse(e.body, status_code=e.status)

    @app.exception_handler(RecordError)
    async def bad_record(_: Request, e: RecordError) -> JSONResponse:
        return ErrorResponse(record_error_body(e), status_code=422)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, e: RequestValidationError) -> JSONResponse:
        first = e.errors()[0] if e.errors() else {}
        where = [str(p) for p in first.get("loc", ()) if p != "body"]
        field = ".".join(where) or None
        message = str(first.get("msg", "invalid request"))
        return ErrorResponse(
            {"error": f"{field}: {message}" if field else message, "field": field},
            status_code=422,
        )

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, e: HTTPException) -> JSONResponse:
        return http_error_answer(e)

    @app.exception_handler(DBAPIError)
    async def unstorable(request: Request, e: DBAPIError) -> JSONResponse:
        if getattr(e.orig, "sqlstate", None) != NUL_IN_TEXT:
            raise e  # the database failed: a server error, as before
        return ErrorResponse(
            {"error": "no NUL character (U+0000) here", "code": "nul", "field": nul_field(request)},
            status_code=422,
        )


def nul_field(request: Request) -> str:
    """Where the request has a NUL character: ``path``, ``query.NAME``, or else ``body``."""
    if "\x00" in request.scope["path"]:
        return "path"
    for name, value in request.query_params.multi_items():
        if "\x00" in name + value:
            return f"query.{name}"
    return "body"


def http_error_answer(e: HTTPException) -> JSONResponse:
    """Starlette's own refusals (no route, a body too large or too slow) as error bodies."""
    body: dict[str, Any] = {"error": str(e.detail)}
    if isinstance(e.__cause__, RecursionError):
        body["error"] = "the JSON is nested too deeply"
    if isinstance(e, BodyTooLarge):
        body["limit"] = e.limit
    # after a body refused mid-way, the rest of it is not read: the connection closes
    close = {"connection": "close"} if e.status_code in (408, 413) else None
    return ErrorResponse(body, status_code=e.status_code, headers=close)
