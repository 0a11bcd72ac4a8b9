"""Tournaments (``server/tournaments.py``, ``touring.py``): ``/api/tournaments`` — create,
list, read, join, withdraw, cancel; ``/api/players/{name}/tournaments``, those a player
joined."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path

from doublesix.server import tournament_sql
from doublesix.server.account_lists import open_account
from doublesix.server.deps import MaybeGuest, ServerDep
from doublesix.server.routes.challenges import LobbyDep
from doublesix.server.routes.ratings import sql_store
from doublesix.server.tournaments import TournamentIn

router = APIRouter(prefix="/api")

Id = Annotated[str, Path(max_length=32)]


@router.post("/tournaments", status_code=201)
async def create(body: TournamentIn, room: LobbyDep, who: MaybeGuest) -> dict[str, Any]:
    """The protocol's ``Tournament``; every lobby hears of it."""
    return await room.touring.create(body, who)


@router.get("/tournaments")
async def listing(room: LobbyDep) -> dict[str, Any]:
    """``{"upcoming", "running", "finished"}``: lists of ``Summary``."""
    return await room.touring.listing()


@router.get("/tournaments/{tournament_id}")
async def detail(tournament_id: Id, room: LobbyDep, who: MaybeGuest) -> dict[str, Any]:
    return await room.touring.detail(tournament_id, who)


@router.post("/tournaments/{tournament_id}/join")
async def join(tournament_id: Id, room: LobbyDep, who: MaybeGuest) -> dict[str, Any]:
    return await room.touring.join(tournament_id, who)


@router.post("/tournaments/{tournament_id}/withdraw")
async def withdraw(tournament_id: Id, room: LobbyDep, who: MaybeGuest) -> dict[str, Any]:
    return await room.touring.withdraw(tournament_id, who)


@router.delete("/tournaments/{tournament_id}")
async def cancel(tournament_id: Id, room: LobbyDep, who: MaybeGuest) -> dict[str, Any]:
    return await room.touring.cancel(tournament_id, who)


@router.get("/players/{name}/tournaments")
async def played(name: str, srv: ServerDep) -> dict[str, Any]:
    """``{"tournaments": [...]}``: the latest 20 the open account ``name`` joined, its place
    and points in each (404 for no such open account, as its games)."""
    player, _ = await open_account(sql_store(srv), name)
    return {"tournaments": await tournament_sql.played(sql_store(srv), player)}
