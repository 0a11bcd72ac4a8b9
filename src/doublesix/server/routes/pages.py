"""The client's pages and files, served as they are from ``web/`` (no build step)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from doublesix.server.deps import not_found

PAGES = {
    "/": "index.html",
    "/table/{table_id}": "table.html",
    "/game/{table_id}": "game.html",
    "/replay": "replay.html",
    "/rules/{lang}/{preset}": "rules.html",
}
"""Each page's path and its file; a page reads its ids from ``location.pathname``."""


def install(app: FastAPI, web: Path) -> None:
    """Serve every page of ``PAGES`` and ``/static/X`` from the folder ``web``."""
    router = APIRouter(include_in_schema=False)
    for path, name in PAGES.items():
        router.add_api_route(path, _page(web / name), methods=["GET"])
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=web, check_dir=False), name="static")


def _page(path: Path) -> Callable[[], Awaitable[FileResponse]]:
    async def page() -> FileResponse:
        if not path.is_file():
            raise not_found(f"the page {path.name} is not installed")
        return FileResponse(path, media_type="text/html")

    return page
