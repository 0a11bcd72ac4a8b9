"""The lobby's tables: presets and bots to choose from, tables to create, list and join."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from doublesix.server.actor import (
    CommandError,
    DescribeCommand,
    JoinCommand,
    SetBotCommand,
    available_bots,
)
from doublesix.server.deps import GuestDep, MaybeGuest, Server, ServerDep, not_found, table_of
from doublesix.server.lobby import BotIn, JoinIn, TableIn, new_table, presets_json, table_json
from doublesix.server.store import TableRecord

router = APIRouter(prefix="/api")

FINISHED_LISTED = 50
"""Finished tables the lobby lists, the newest first."""
TABLES_AT_ONCE = 5
"""Tables a guest may have created and not finished at once."""
CREATIONS = parse("10/minute")
"""Tables a guest may create per window."""
_creations = MovingWindowRateLimiter(MemoryStorage())


def check_quota(srv: Server, guest_id: str) -> None:
    """Refuse a guest over ``TABLES_AT_ONCE`` unfinished tables or ``CREATIONS`` (429)."""
    unfinished = sum(
        1
        for actor in srv.manager.actors.values()
        if actor.table.creator == guest_id and actor.table.status != "finished"
    )
    if unfinished >= TABLES_AT_ONCE:
        raise CommandError(
            "too_many_tables",
            f"a guest has {TABLES_AT_ONCE} unfinished tables at most; finish one first",
            status=429,
        )
    if not _creations.hit(CREATIONS, "tables", guest_id):
        raise CommandError(
            "too_many_tables",
            f"a guest creates {CREATIONS.amount} tables a minute at most",
            status=429,
        )


@router.get("/presets")
async def presets() -> dict[str, Any]:
    return presets_json()


@router.get("/bots")
async def bots() -> list[str]:
    return available_bots()


@router.get("/tables")
async def tables(srv: ServerDep) -> dict[str, list[dict[str, Any]]]:
    running = await srv.store.tables(["open", "playing"])
    finished = await srv.store.tables(["finished"], limit=FINISHED_LISTED)
    return {
        "open": [table_json(t) for t in running if t.status == "open"],
        "playing": [table_json(t) for t in running if t.status == "playing"],
        "finished": [table_json(t) for t in finished],
    }


@router.post("/tables")
async def create_table(body: TableIn, srv: ServerDep, creator: GuestDep) -> dict[str, Any]:
    settings = srv.settings
    check_quota(srv, creator.id)
    table = new_table(body, creator, settings.clock(), settings.new_seed())
    actor = await srv.manager.create(table)
    described: TableRecord = await actor.submit(DescribeCommand())
    token = described.seats[0].token
    return table_json(described) | {"seat": 0, "token": token}


@router.get("/tables/{table_id}")
async def get_table(table_id: str, request: Request) -> dict[str, Any]:
    return table_json(await table_of(request, table_id))


@router.post("/tables/{table_id}/join")
async def join(table_id: str, body: JoinIn, srv: ServerDep, who: GuestDep) -> dict[str, Any]:
    actor = await srv.manager.get(table_id)
    if actor is None:
        raise not_found(f"no table {table_id!r}")
    seat, token = await actor.submit(JoinCommand(who, body.seat, body.invite))
    return {"seat": seat, "token": token}


@router.post("/tables/{table_id}/seats/{seat}/bot")
async def seat_bot(
    table_id: str,
    seat: int,
    body: BotIn,
    srv: ServerDep,
    who: MaybeGuest,
) -> dict[str, Any]:
    actor = await srv.manager.get(table_id)
    if actor is None:
        raise not_found(f"no table {table_id!r}")
    table = await actor.submit(SetBotCommand(None if who is None else who.id, seat, body.bot))
    return table_json(table)
