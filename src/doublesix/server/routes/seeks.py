"""Quick pairing (``server/seeks.py``): ``/api/seeks`` — seek a game, withdraw, read the
pool."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from doublesix.server.deps import GuestDep, MaybeGuest
from doublesix.server.routes.challenges import LobbyDep
from doublesix.server.seeks import SeekIn

router = APIRouter(prefix="/api")


@router.get("/seeks")
async def seeks(room: LobbyDep, who: MaybeGuest) -> dict[str, Any]:
    """``{"seek": Seek | null, "pool": Pool}``: the reader's seek, and how many seek each
    kind."""
    mine = None if who is None else await room.seeking.mine(who.id)
    return {"seek": mine, "pool": await room.seeking.counts()}


@router.post("/seeks", status_code=201)
async def seek(body: SeekIn, room: LobbyDep, who: GuestDep) -> dict[str, Any]:
    """``{"seek": Seek, "table": null}`` while it waits; ``{"seek": null, "table": id}``
    when the pool made a table at once."""
    table = await room.seeking.seek(body, who)
    mine = None if table is not None else await room.seeking.mine(who.id)
    return {"seek": mine, "table": table}


@router.delete("/seeks")
async def withdraw(room: LobbyDep, who: GuestDep) -> dict[str, Any]:
    await room.seeking.withdraw(who)
    return {"seek": None}
