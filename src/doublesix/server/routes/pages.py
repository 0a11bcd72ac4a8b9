"""The client's pages and files, served as they are from ``web/`` (no build step)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from doublesix.server import tournament_sql
from doublesix.server.deps import Server, ServerDep, not_found
from doublesix.server.errors import http_error_answer
from doublesix.server.store import SqlStore

PAGES = {
    "/": "index.html",
    "/replay": "replay.html",
    "/operator": "operator.html",
    "/inbox": "inbox.html",
    "/inbox/{name}": "inbox.html",
    "/rules/{lang}/{preset}": "rules.html",
}
"""Each page's path and its file; a page reads its ids from ``location.pathname``."""

TABLE_PAGES = {"/table/{key}": "table.html", "/game/{key}": "game.html"}
"""The pages of one table: answered with 404 (the page says so itself) for a table that
is nobody's, like ``/player/{name}`` for a name that is nobody's."""

TOURNAMENT_PAGE = "tournament.html"
"""A tournament's page, ``/tournament/{id}``: 404 (the page says so) for no such tournament."""

RULES_LANGUAGES = ("de", "fr", "en", "ru")
"""The languages the rules are written in (``web/rules/{lang}.json``); a reader who reads none
of them gets English."""

FIRST_RULES = "kozel"
"""The preset whose rules ``/rules`` opens, as the bar's link does before a table is chosen."""

FIRST_LEADERBOARD = "/leaderboard/draw"
"""Where ``/leaderboard`` leads: the bar's link."""

MISSING = "missing.html"
"""The page of an address that is no page (answered with 404)."""

NOT_PAGES = ("/api/", "/ws/", "/static/")
"""Where a missing address is answered as the API answers (JSON), not with ``MISSING``."""


def install(app: FastAPI, web: Path) -> None:
    """Serve every page of ``PAGES`` and ``/static/X`` from the folder ``web``."""
    router = APIRouter(include_in_schema=False)
    for path, name in PAGES.items():
        router.add_api_route(path, _page(web / name), methods=["GET"])
    for path, name in TABLE_PAGES.items():
        router.add_api_route(path, keyed_page(web / name, _known_table), methods=["GET"])
    page = keyed_page(web / TOURNAMENT_PAGE, _known_tournament)
    router.add_api_route("/tournament/{key}", page, methods=["GET"])
    router.add_api_route("/rules", _rules, methods=["GET"])
    router.add_api_route("/rules/{lang}", _rules_in, methods=["GET"])
    router.add_api_route("/leaderboard", _leaderboard, methods=["GET"])
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=web, check_dir=False), name="static")
    missing = web / MISSING

    async def no_page(request: Request, e: Exception) -> Response:
        """404 outside the API and the files: a page that says so, in the reader's language
        (a person typed or followed the address), instead of the API's JSON."""
        assert isinstance(e, HTTPException)
        path = request.url.path
        page = request.method in ("GET", "HEAD") and not path.startswith(NOT_PAGES)
        if page and missing.is_file():
            return FileResponse(missing, status_code=404, media_type="text/html")
        return http_error_answer(e)

    app.add_exception_handler(404, no_page)


def keyed_page(
    path: Path, known: Callable[[str, Server], Awaitable[bool]]
) -> Callable[[str, Server], Awaitable[FileResponse]]:
    """The page ``path`` of the thing the path's ``{key}`` names: 200 if ``known``, else 404
    (the page, reading the API, says what is missing)."""

    async def page(key: str, srv: ServerDep) -> FileResponse:
        if not path.is_file():
            raise not_found(f"the page {path.name} is not installed")
        status = 200 if await known(key, srv) else 404
        return FileResponse(path, media_type="text/html", status_code=status)

    return page


async def _known_table(table_id: str, srv: Server) -> bool:
    return table_id in srv.manager.hosts or await srv.store.has_table(table_id)


async def _known_tournament(tournament_id: str, srv: Server) -> bool:
    if not isinstance(srv.store, SqlStore):
        return False
    return await tournament_sql.get(srv.store, tournament_id) is not None


def _page(path: Path) -> Callable[[], Awaitable[FileResponse]]:
    async def page() -> FileResponse:
        if not path.is_file():
            raise not_found(f"the page {path.name} is not installed")
        return FileResponse(path, media_type="text/html")

    return page


async def _rules(request: Request) -> RedirectResponse:
    """``/rules``, typed or guessed: the rules in the reader's language."""
    lang = reader_language(request.headers.get("accept-language", ""))
    return RedirectResponse(f"/rules/{lang}/{FIRST_RULES}")


async def _rules_in(lang: str) -> RedirectResponse:
    if lang not in RULES_LANGUAGES:
        raise HTTPException(404)
    return RedirectResponse(f"/rules/{lang}/{FIRST_RULES}")


async def _leaderboard() -> RedirectResponse:
    return RedirectResponse(FIRST_LEADERBOARD)


def reader_language(accept_language: str) -> str:
    """The reader's most wanted language that the rules are written in (an ``Accept-Language``
    header: ``fr-CH, fr;q=0.9, en;q=0.8``), or English."""
    wanted: list[tuple[float, int, str]] = []
    for i, item in enumerate(accept_language.split(",")):
        tag, _, params = item.strip().partition(";")
        weight = 1.0
        name, _, value = params.strip().partition("=")
        if name.strip() == "q":
            try:
                weight = float(value)
            except ValueError:
                continue
        wanted.append((-weight, i, tag.strip().lower()[:2]))
    for weight, _, lang in sorted(wanted):
        if weight < 0 and lang in RULES_LANGUAGES:
            return lang
    return "en"
