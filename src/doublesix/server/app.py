"""The web app: ``create_app`` wires the store, the tables, the routes and the pages.

Its lifespan opens the store, applies the migrations, resumes every table
that is open or being played, and on the way out stops the tables and
closes the store. The routes live in ``routes/`` (one ``APIRouter`` per
area), the table socket in ``ws.py``, each table's shell in ``host.py``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI

from doublesix.server import errors
from doublesix.server.addresses import AddressGuard, AddressLimits
from doublesix.server.bodies import BodyLimit
from doublesix.server.deps import Server
from doublesix.server.headers import BrowserGuard
from doublesix.server.host import Shell
from doublesix.server.hub import LocalHub
from doublesix.server.lobby import available_bots, rematch_of
from doublesix.server.manager import TableManager
from doublesix.server.reviews import Reviews
from doublesix.server.routes import games, pages, players, records, tables
from doublesix.server.settings import Limits, Settings
from doublesix.server.store import SqlStore, Store
from doublesix.server.thinking import Thinking
from doublesix.server.uploads import Uploads
from doublesix.server.ws import table_socket
from doublesix.table.model import Table

log = logging.getLogger(__name__)

WEB = Path(__file__).resolve().parent.parent / "web"
"""The browser client's files (``src/doublesix/web``)."""


def create_app(
    db: str | None = None,
    *,
    store: Store | None = None,
    bot_delay: float = 0.6,
    settings: Settings | None = None,
    limits: Limits | None = None,
    web_dir: Path | None = None,
    address_limits: AddressLimits | None = None,
    origins: Sequence[str] = (),
) -> FastAPI:
    """The app on database URL ``db`` (default: ``doublesix.sqlite3`` here) or on ``store``.

    ``address_limits``: limits per client address (none without); ``origins``: the
    pages' origins besides the server's own that may open a table socket.
    """
    settings = settings or Settings(bot_delay=bot_delay)
    limits = limits or Limits()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        the_store = store if store is not None else SqlStore(db)
        await the_store.migrate()
        hub = LocalHub()
        thinking = Thinking(settings.think_workers)

        async def rematch(table: Table) -> str:
            new = rematch_of(table, settings.clock(), settings.new_seed())
            await manager.create(new)
            return new.id

        shell = Shell(
            store=the_store,
            hub=hub,
            thinking=thinking,
            config=settings.table_config(),
            levels=available_bots(),
            clock=settings.clock,
            idle_seconds=settings.idle_seconds,
            rematch=rematch,
        )
        manager = TableManager(shell)
        reviews = Reviews(settings.review_ms)
        uploads = Uploads()
        app.state.server = Server(
            the_store, hub, manager, settings, limits, reviews, thinking, uploads
        )
        resumed = await manager.resume()
        log.info("doublesix: %d tables resumed", resumed)
        try:
            yield
        finally:
            reviews.close()
            uploads.close()
            await manager.close()
            thinking.close()
            await the_store.close()

    app = FastAPI(
        title="doublesix",
        lifespan=lifespan,
        docs_url=None,  # the docs pages load scripts from a CDN: no page loads from outside
        redoc_url=None,
    )
    errors.install(app)
    app.add_middleware(BodyLimit)  # the last added is the outermost
    if address_limits is not None:
        app.add_middleware(AddressGuard, limits=address_limits)
    app.add_middleware(BrowserGuard, origins=origins)
    for area in (players, tables, games, records):
        app.include_router(area.router)
    app.add_api_websocket_route("/ws/table/{table_id}", table_socket)
    pages.install(app, web_dir or WEB)
    return app
