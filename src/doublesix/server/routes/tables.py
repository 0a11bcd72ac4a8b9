"""The lobby's tables: presets and bots to choose from, tables to create, list and join."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from limits import RateLimitItemPerMinute

from doublesix.server.deps import GuestDep, MaybeGuest, ServerDep, not_found, table_of
from doublesix.server.errors import CommandError
from doublesix.server.host import TableHost
from doublesix.server.lobby import (
    BotIn,
    JoinIn,
    TableIn,
    available_bots,
    new_table,
    new_token,
    presets_json,
    table_json,
)
from doublesix.server.manager import TableManager
from doublesix.server.metrics import refused
from doublesix.server.player_limits import PlayerLimits
from doublesix.server.remote import TableLink
from doublesix.server.requests import Describe
from doublesix.server.routes.challenges import LobbyDep
from doublesix.server.routes.ratings import check_rated_seat, table_rated
from doublesix.server.store import TooManyUnfinished
from doublesix.table import commands
from doublesix.table.model import Table, TableStatus

router = APIRouter(prefix="/api")

FINISHED_LISTED = 50
"""Finished tables the lobby lists, the newest first."""
TABLES_AT_ONCE = 5
"""Tables a guest may have created and not finished at once (the site's count: the
database's, whichever process runs each table, counted as the table is stored)."""
CREATIONS = RateLimitItemPerMinute(10, namespace="tables")
"""Tables a guest may create per window (the site's count: ``player_limits``)."""


async def check_rate(limits: PlayerLimits, guest_id: str) -> None:
    """Refuse a guest's table over ``CREATIONS`` (429)."""
    if not await limits.hit(CREATIONS, guest_id):
        raise CommandError(
            "too_many_tables",
            f"a guest creates {CREATIONS.amount} tables a minute at most",
            status=429,
        )


async def create_within_quota(manager: TableManager, table: Table) -> TableHost:
    """Run ``table``, unless its creator has ``TABLES_AT_ONCE`` unfinished ones (429)."""
    try:
        return await manager.create(table, most_unfinished=TABLES_AT_ONCE)
    except TooManyUnfinished:
        refused("player:unfinished-tables")
        raise CommandError(
            "too_many_tables",
            f"a guest has {TABLES_AT_ONCE} unfinished tables at most; finish one first",
            status=429,
        ) from None


@router.get("/presets")
async def presets() -> dict[str, Any]:
    return presets_json()


@router.get("/bots")
async def bots() -> list[str]:
    return available_bots()


@router.get("/tables")
async def tables(srv: ServerDep, who: MaybeGuest) -> dict[str, list[dict[str, Any]]]:
    running = await srv.store.tables([TableStatus.OPEN, TableStatus.PLAYING])
    finished = await srv.store.tables([TableStatus.FINISHED], limit=FINISHED_LISTED)
    viewer = None if who is None else who.id
    return {
        "open": [table_json(t, viewer) for t in running if t.status == TableStatus.OPEN],
        "playing": [table_json(t, viewer) for t in running if t.status == TableStatus.PLAYING],
        "finished": [table_json(t, viewer) for t in finished],
    }


@router.post("/tables")
async def create_table(
    body: TableIn, srv: ServerDep, room: LobbyDep, creator: GuestDep
) -> dict[str, Any]:
    settings = srv.settings
    if body.rated:
        await check_rated_seat(srv, creator.id)
    await check_rate(room.limits, creator.id)
    table = new_table(body, creator, settings.clock(), settings.new_seed())
    host = await create_within_quota(srv.manager, table)
    described: Table = await host.submit(Describe())
    token = described.seats[0].token
    return table_json(described, creator.id) | {"seat": 0, "token": token}


async def _host(srv: ServerDep, table_id: str) -> TableLink:
    host = await srv.manager.get(table_id)
    if host is None:
        raise not_found(f"no table {table_id!r}")
    return host


@router.get("/tables/{table_id}")
async def get_table(table_id: str, request: Request, who: MaybeGuest) -> dict[str, Any]:
    table = await table_of(request, table_id)
    return table_json(table, None if who is None else who.id)


@router.post("/tables/{table_id}/join")
async def join(table_id: str, body: JoinIn, srv: ServerDep, who: GuestDep) -> dict[str, Any]:
    host = await _host(srv, table_id)
    if await table_rated(srv, table_id):
        await check_rated_seat(srv, who.id)
    seat, token = await host.submit(
        commands.Join(
            commands.Player(who.id, who.name, who.account), new_token(), body.seat, body.invite
        )
    )
    return {"seat": seat, "token": token}


@router.post("/tables/{table_id}/seats/{seat}/bot")
async def seat_bot(
    table_id: str, seat: int, body: BotIn, srv: ServerDep, who: MaybeGuest
) -> dict[str, Any]:
    host = await _host(srv, table_id)
    table = await host.submit(commands.SetBot(None if who is None else who.id, seat, body.bot))
    return table_json(table)
