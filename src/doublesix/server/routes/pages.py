"""The client's pages and files, served as they are from ``web/`` (no build step)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from doublesix.server.deps import not_found
from doublesix.server.errors import http_error_answer

PAGES = {
    "/": "index.html",
    "/table/{table_id}": "table.html",
    "/game/{table_id}": "game.html",
    "/replay": "replay.html",
    "/rules/{lang}/{preset}": "rules.html",
}
"""Each page's path and its file; a page reads its ids from ``location.pathname``."""

MISSING = "missing.html"
"""The page of an address that is no page (answered with 404)."""

NOT_PAGES = ("/api/", "/ws/", "/static/")
"""Where a missing address is answered as the API answers (JSON), not with ``MISSING``."""


def install(app: FastAPI, web: Path) -> None:
    """Serve every page of ``PAGES`` and ``/static/X`` from the folder ``web``."""
    router = APIRouter(include_in_schema=False)
    for path, name in PAGES.items():
        router.add_api_route(path, _page(web / name), methods=["GET"])
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


def _page(path: Path) -> Callable[[], Awaitable[FileResponse]]:
    async def page() -> FileResponse:
        if not path.is_file():
            raise not_found(f"the page {path.name} is not installed")
        return FileResponse(path, media_type="text/html")

    return page
