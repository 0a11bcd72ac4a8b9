"""The web app: ``create_app`` wires the store, the tables, the routes and the pages.

Its lifespan opens the store, applies the migrations, resumes every table
that is open or being played, and on the way out stops the tables and
closes the store. The routes live in ``routes/`` (one ``APIRouter`` per
area), the table socket in ``ws.py``, each table's shell in ``host.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import json
import logging
import os
import secrets
import socket
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from fastapi import FastAPI
from redis.asyncio import Redis

from doublesix.collection import FullCollections
from doublesix.server import erasure, errors
from doublesix.server.accounts import FORGET_EVERY_SECONDS, Accounts
from doublesix.server.addresses import AddressGuard, AddressLimits
from doublesix.server.bodies import BodyLimit
from doublesix.server.channels import Space
from doublesix.server.deps import Server
from doublesix.server.headers import BrowserGuard
from doublesix.server.hub import Hub, LocalHub, RedisHub
from doublesix.server.leases import Leases, LocalLeases, SqlLeases
from doublesix.server.lobby import available_bots, rematch_of
from doublesix.server.lobby_room import Lobby, open_lobby
from doublesix.server.lobby_socket import lobby_socket
from doublesix.server.logins import Logins, site_counts
from doublesix.server.manager import TableManager
from doublesix.server.metrics import REFRESH_SECONDS, HttpMetrics, refresh_every
from doublesix.server.moderation import ChatGate
from doublesix.server.orphans import end_with_parent
from doublesix.server.rating_store import rate_finished, rate_unrated
from doublesix.server.relay import Relay
from doublesix.server.requests import Shell
from doublesix.server.reviews import Reviews
from doublesix.server.routes import (
    account_lists,
    challenges,
    games,
    health,
    messages,
    operator,
    pages,
    players,
    ratings,
    records,
    reports,
    seeks,
    tables,
    tournaments,
)
from doublesix.server.routes import accounts as account_routes
from doublesix.server.settings import Limits, Settings
from doublesix.server.store import Fence, SqlStore, Store
from doublesix.server.thinking import Thinking
from doublesix.server.uploads import Uploads
from doublesix.server.ws import table_socket
from doublesix.table.model import JSON, Table

log = logging.getLogger(__name__)

WEB = Path(__file__).resolve().parent.parent / "web"
"""The browser client's files (``src/doublesix/web``)."""
SERVE_ENV = "DOUBLESIX_SERVE"
"""How ``doublesix serve`` hands its options to each of its server processes (JSON)."""


def from_environment() -> FastAPI:
    """The app of ``doublesix serve``, in each of its processes (uvicorn's factory)."""
    # a process of ``--workers N`` stops gracefully, as on SIGTERM, when its supervisor
    # dies, even by SIGKILL (uvicorn's signal handlers are set by now); one alone: nothing
    end_with_parent()
    options = json.loads(os.environ[SERVE_ENV])
    chosen = {k: v for k, v in options["settings"].items() if v is not None}
    settings = Settings(**chosen)
    if options.get("seed") is not None:  # ``serve --seed``: the same deals on every run
        settings.new_seed = itertools.count(options["seed"]).__next__
    app = create_app(
        options["db"],
        settings=settings,
        address_limits=AddressLimits() if options["address_limits"] else None,
        origins=options["origins"],
        metrics=options.get("metrics", False),
    )
    gc.freeze()  # what is loaded by now lives as long as the process: collections skip it
    FullCollections().start()  # a full collection every few minutes, not every few seconds
    return app


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
    metrics: bool = False,
) -> FastAPI:
    """The app on database URL ``db`` (default: ``doublesix.sqlite3`` here) or on ``store``.

    ``address_limits``: limits per client address (none without); ``origins``: the
    pages' origins besides the server's own that may open a table socket; ``metrics``:
    count every HTTP request, and this process's tables and sockets every second
    (``serve --metrics``; the other metrics count always).
    """
    settings = settings or Settings(bot_delay=bot_delay)
    limits = limits or Limits()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        the_store = store if store is not None else SqlStore(db)
        await the_store.migrate()
        rate = await _ratings(the_store, settings) if isinstance(the_store, SqlStore) else None
        async with AsyncExitStack() as stack:
            site = await stack.enter_async_context(_site(the_store, settings))
            thinking = Thinking(settings.think_workers)
            stack.callback(thinking.close)

            async def rematch(table: Table) -> str:
                new = rematch_of(table, settings.clock(), settings.new_seed())
                await manager.create(new)
                return new.id

            lobby: Lobby | None = None

            def listed(table: Table) -> None:
                if lobby is not None:  # tables resumed before the lobby opens tell no one
                    lobby.table_changed(table)

            async def finished(table: Table) -> None:
                """Score the game of a tournament, rate the game, then erase its players
                whose erasure waited for it."""
                if lobby is not None:
                    try:
                        await lobby.touring.finished(table)
                    except Exception:  # the lobby's sweep scores it (``Touring.settle``)
                        log.warning("table %s: its tournament game not scored", table.id)
                if rate is not None:
                    await rate(table)
                if lobby is not None and isinstance(the_store, SqlStore):
                    seated = [s.player for s in table.seats if s.account and s.player]
                    await erasure.erase_seated(the_store, lobby, seated, settings.clock())

            shell = Shell(
                store=the_store,
                hub=site.hub,
                thinking=thinking,
                config=settings.table_config(),
                levels=available_bots(),
                clock=settings.clock,
                idle_seconds=settings.idle_seconds,
                rematch=rematch,
                finished=finished if rate is not None else None,
                listed=listed,
            )
            manager = TableManager(shell, site.leases, site.relay, settings.lease_seconds)
            stack.push_async_callback(manager.close)
            reviews = Reviews(settings.review_ms)
            stack.callback(reviews.close)
            records: OrderedDict[str, JSON] = OrderedDict()  # finished games' (routes.games)

            def forget(table_id: str) -> None:
                """What this process derived from a game's log goes: an erasure rewrote it."""
                records.pop(table_id, None)
                reviews.forget_game(table_id)

            lobby = app.state.lobby = await stack.enter_async_context(
                open_lobby(the_store, manager, settings, site.relay, forget)
            )
            scored = await lobby.touring.settle()
            if scored:
                log.info("doublesix: %d ended tournament games scored at start-up", scored)
            uploads = Uploads()
            stack.callback(uploads.close)
            if not isinstance(the_store, SqlStore):
                raise ValueError("accounts need the SQL store")
            accounts = Accounts(
                the_store,
                clock=settings.clock,
                hasher=settings.password_hasher,
                logins=Logins(
                    settings.login_limits,
                    site_counts(site.relay.redis, site.relay.space) if site.relay else None,
                ),
            )
            forgetting = asyncio.create_task(
                accounts.forget_expired_every(FORGET_EVERY_SECONDS), name="forget-sessions"
            )
            stack.push_async_callback(_stop, forgetting)
            erasing = asyncio.create_task(
                erasure.sweep_every(the_store, lobby, settings.clock, erasure.SWEEP_SECONDS),
                name="erasures",
            )
            stack.push_async_callback(_stop, erasing)
            server = Server(
                the_store,
                site.hub,
                manager,
                settings,
                limits,
                reviews,
                thinking,
                uploads,
                accounts,
                ChatGate(the_store, settings.clock, settings.chat_accounts_only),
                records=records,
                redis=site.redis,
            )
            app.state.server = server
            if isinstance(site.hub, RedisHub):
                site.hub.on_owner = lambda table_id, owner: _hold(server, table_id)
            resumed = await manager.resume()
            log.info("doublesix: %d tables resumed (process %s)", resumed, manager.process)
            if metrics:
                counting = asyncio.create_task(
                    refresh_every(REFRESH_SECONDS, manager, lobby),
                    name="metrics",
                )
                stack.push_async_callback(_stop, counting)
            yield
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
    if metrics:
        app.add_middleware(HttpMetrics)  # outermost: it counts the refused too
    for area in (
        players,
        account_routes,
        account_lists,
        tables,
        games,
        records,
        ratings,
        challenges,
        seeks,
        tournaments,
        reports,
        messages,
        operator,
        health,
    ):
        app.include_router(area.router)
    app.add_api_websocket_route("/ws/table/{table_id}", table_socket)
    app.add_api_websocket_route("/ws/lobby", lobby_socket)
    app.include_router(ratings.pages(web_dir or WEB))
    pages.install(app, web_dir or WEB)
    return app


async def _ratings(store: SqlStore, settings: Settings) -> Callable[[Table], Awaitable[None]]:
    """Rate the finished rated games a stopped process left unrated; what rates the next."""
    rated = await rate_unrated(store, settings.clock())
    if rated:
        log.info("doublesix: %d finished games rated at start-up", rated)

    async def finished(table: Table) -> None:
        await rate_finished(store, table, settings.clock, settings.rating_delay)

    return finished


@dataclass
class _Site:
    """How this process meets the others: alone, or through Redis and leases."""

    hub: Hub
    leases: Leases
    relay: Relay | None = None
    redis: Redis | None = None


@asynccontextmanager
async def _site(store: Store, settings: Settings) -> AsyncIterator[_Site]:
    if settings.redis_url is None:
        yield _Site(LocalHub(), LocalLeases())
        return
    if not isinstance(store, SqlStore):
        raise ValueError("several processes need the SQL store (leases live in its database)")
    process = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
    redis = Redis.from_url(settings.redis_url)
    relay = Relay(redis, Space.of(redis, settings.site), process)
    await relay.start()
    store.fence = Fence(process, settings.clock, settings.lease_seconds)
    try:
        leases = SqlLeases(store.engine, process, settings.lease_seconds, settings.clock)
        yield _Site(RedisHub(relay), leases, relay, redis)
    finally:
        await relay.close()
        await redis.aclose()


async def _stop(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


_holding: set[asyncio.Task[None]] = set()


def _hold(server: Server, table_id: str) -> None:
    """A table changed hands: tell its new owner which of its seats have sockets here."""
    sockets = tuple(server.sockets.get(table_id, {}).items())
    task = asyncio.create_task(server.manager.hold(table_id, sockets))
    _holding.add(task)
    task.add_done_callback(_holding.discard)
