"""The web app: HTTP lobby API, the table socket, the client's static pages.

``create_app`` builds it; its lifespan opens the store, applies the
migrations, resumes every table that is open or being played, and on the
way out stops the tables and closes the store.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from doublesix.rules.record import RecordError, dumps, game_record, replay
from doublesix.rules.text import record_lines
from doublesix.server.actor import (
    CommandError,
    DescribeCommand,
    JoinCommand,
    SetBotCommand,
    Settings,
    available_bots,
)
from doublesix.server.hub import Hub, LocalHub
from doublesix.server.lobby import (
    BotIn,
    GuestIn,
    JoinIn,
    TableIn,
    clean_name,
    new_table,
    presets_json,
    table_json,
)
from doublesix.server.manager import TableManager
from doublesix.server.reviews import Reviews, ReviewsBusy
from doublesix.server.store import Guest, SqlStore, Store, TableRecord
from doublesix.server.thinking import Thinking
from doublesix.server.views import JSON
from doublesix.server.ws import Limits, table_socket

log = logging.getLogger(__name__)

COOKIE = "ds_guest"
WEB = Path(__file__).resolve().parent.parent / "web"
"""The browser client's files (``src/doublesix/web``)."""
MAX_RECORD = 2_000_000
"""Bytes in an uploaded record."""
FINISHED_LISTED = 50


@dataclass
class Server:
    """What the routes share, kept on ``app.state.server``."""

    store: Store
    hub: Hub
    manager: TableManager
    settings: Settings
    limits: Limits
    reviews: Reviews


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def create_app(
    db: str | None = None,
    *,
    store: Store | None = None,
    bot_delay: float = 0.6,
    settings: Settings | None = None,
    limits: Limits | None = None,
    web_dir: Path | None = None,
) -> FastAPI:
    """The app on database URL ``db`` (default: ``doublesix.sqlite3`` here) or on ``store``."""
    settings = settings or Settings(bot_delay=bot_delay)
    limits = limits or Limits()
    web = web_dir or WEB

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        the_store = store if store is not None else SqlStore(db)
        await the_store.migrate()
        hub = LocalHub()
        thinking = Thinking(settings.think_workers)
        manager = TableManager(the_store, hub, settings, thinking)
        reviews = Reviews(settings.review_ms)
        app.state.server = Server(the_store, hub, manager, settings, limits, reviews)
        resumed = await manager.resume()
        log.info("doublesix: %d tables resumed", resumed)
        try:
            yield
        finally:
            reviews.close()
            await manager.close()
            thinking.close()
            await the_store.close()

    app = FastAPI(
        title="doublesix",
        lifespan=lifespan,
        docs_url=None,  # the docs pages load scripts from a CDN: no page loads from outside
        redoc_url=None,
    )
    _errors(app)
    _api(app)
    app.add_api_websocket_route("/ws/table/{table_id}", table_socket)
    _pages(app, web)
    return app


# --- errors ------------------------------------------------------------------------------


def _errors(app: FastAPI) -> None:
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


def _not_found(what: str) -> CommandError:
    return CommandError("not_found", what, status=404)


async def _guest(request: Request) -> Guest | None:
    guest_id = request.cookies.get(COOKIE)
    return None if not guest_id else await _server(request).store.guest(guest_id)


async def _need_guest(request: Request) -> Guest:
    guest = await _guest(request)
    if guest is None:
        raise CommandError("no_guest", "choose a name first (POST /api/guest)", status=401)
    return guest


async def _table(request: Request, table_id: str) -> TableRecord:
    server = _server(request)
    actor = server.manager.actors.get(table_id)
    table = actor.table if actor is not None else await server.store.table(table_id)
    if table is None:
        raise _not_found(f"no table {table_id!r}")
    return table


# --- the API -------------------------------------------------------------------------------


def _api(app: FastAPI) -> None:
    @app.post("/api/guest")
    async def new_guest(body: GuestIn, request: Request) -> JSONResponse:
        server = _server(request)
        guest = Guest(secrets.token_urlsafe(24), clean_name(body.name), server.settings.clock())
        await server.store.add_guest(guest)
        response = JSONResponse({"id": guest.id, "name": guest.name})
        response.set_cookie(
            COOKIE, guest.id, max_age=365 * 24 * 3600, httponly=True, samesite="lax"
        )
        return response

    @app.get("/api/me")
    async def me(request: Request) -> dict[str, str]:
        guest = await _need_guest(request)
        return {"id": guest.id, "name": guest.name}

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return presets_json()

    @app.get("/api/bots")
    async def bots() -> list[str]:
        return available_bots()

    @app.get("/api/tables")
    async def tables(request: Request) -> dict[str, list[dict[str, Any]]]:
        store = _server(request).store
        running = await store.tables(["open", "playing"])
        finished = await store.tables(["finished"], limit=FINISHED_LISTED)
        return {
            "open": [table_json(t) for t in running if t.status == "open"],
            "playing": [table_json(t) for t in running if t.status == "playing"],
            "finished": [table_json(t) for t in finished],
        }

    @app.post("/api/tables")
    async def create_table(body: TableIn, request: Request) -> dict[str, Any]:
        server = _server(request)
        guest = await _need_guest(request)
        settings = server.settings
        table = new_table(body, guest, settings.clock(), settings.new_seed())
        actor = await server.manager.create(table)
        described: TableRecord = await actor.submit(DescribeCommand())
        token = described.seats[0].token
        return table_json(described) | {"seat": 0, "token": token}

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str, request: Request) -> dict[str, Any]:
        return table_json(await _table(request, table_id))

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinIn, request: Request) -> dict[str, Any]:
        guest = await _need_guest(request)
        actor = await _server(request).manager.get(table_id)
        if actor is None:
            raise _not_found(f"no table {table_id!r}")
        seat, token = await actor.submit(JoinCommand(guest, body.seat, body.invite))
        return {"seat": seat, "token": token}

    @app.post("/api/tables/{table_id}/seats/{seat}/bot")
    async def seat_bot(table_id: str, seat: int, body: BotIn, request: Request) -> dict[str, Any]:
        guest = await _guest(request)
        actor = await _server(request).manager.get(table_id)
        if actor is None:
            raise _not_found(f"no table {table_id!r}")
        table = await actor.submit(
            SetBotCommand(None if guest is None else guest.id, seat, body.bot)
        )
        return table_json(table)

    @app.get("/api/games/{table_id}/record")
    async def record(table_id: str, request: Request) -> Response:
        data = await _finished_record(request, table_id)
        return Response(
            dumps(data),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="doublesix-{table_id}.json"'},
        )

    @app.get("/api/games/{table_id}/text")
    async def text(table_id: str, request: Request) -> PlainTextResponse:
        data = await _finished_record(request, table_id)
        return PlainTextResponse("\n".join(record_lines(data)) + "\n")

    @app.get("/api/games/{table_id}/review")
    async def game_review(table_id: str, seat: int, request: Request) -> JSONResponse:
        data = await _finished_record(request, table_id)
        _check_seat(data, seat)
        return JSONResponse(await _review(request, "game:" + table_id, data, seat))

    @app.post("/api/records")
    async def upload(request: Request) -> JSONResponse:
        return JSONResponse(await _uploaded(request))

    @app.post("/api/records/review")
    async def upload_review(seat: int, request: Request) -> JSONResponse:
        data = await _uploaded(request)
        _check_seat(data, seat)
        key = "record:" + hashlib.sha256(dumps(data).encode()).hexdigest()
        return JSONResponse(await _review(request, key, data, seat))


async def _uploaded(request: Request) -> dict[str, Any]:
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


def _check_seat(record: dict[str, Any], seat: int) -> None:
    players = int(record["ruleset"]["players"])
    if not 0 <= seat < players:
        raise CommandError(
            "bad_seat", f"no seat {seat} at a table of {players}", field="seat", status=422
        )


async def _review(request: Request, key: str, record: dict[str, Any], seat: int) -> JSON:
    try:
        return await _server(request).reviews.review(key, record, seat)
    except ReviewsBusy:
        raise CommandError(
            "busy", "too many reviews are waiting; ask again soon", status=503
        ) from None


async def _finished_record(request: Request, table_id: str) -> dict[str, Any]:
    table = await _table(request, table_id)
    if table.status != "finished" or table.record is None:
        raise CommandError(
            "not_finished", "the record is published once the game is over", status=409
        )
    return table.record


# --- the client's pages ------------------------------------------------------------------


def _pages(app: FastAPI, web: Path) -> None:
    def page(name: str) -> FileResponse:
        path = web / name
        if not path.is_file():
            raise _not_found(f"the page {name} is not installed")
        return FileResponse(path, media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return page("index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    @app.get("/game/{table_id}", include_in_schema=False)
    async def game_page(table_id: str) -> FileResponse:
        return page("game.html")

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> FileResponse:
        return page("replay.html")

    @app.get("/rules/{lang}/{preset}", include_in_schema=False)
    async def rules_page(lang: str, preset: str) -> FileResponse:
        return page("rules.html")

    app.mount("/static", StaticFiles(directory=web, check_dir=False), name="static")
