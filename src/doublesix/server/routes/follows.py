"""Whom the logged-in account follows (``server/follows.py``): read, follow, unfollow."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path

from doublesix.server import follows
from doublesix.server.deps import MaybeGuest, ServerDep
from doublesix.server.errors import CommandError
from doublesix.server.routes.ratings import sql_store
from doublesix.server.store import Guest

router = APIRouter(prefix="/api/account")

Name = Annotated[str, Path(max_length=64)]


def _account(who: Guest | None) -> Guest:
    if who is None or not who.account:
        raise CommandError("no_account", "log in to follow players", status=401)
    return who


@router.get("/following")
async def following(srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    """``{"following": [{"name", "since"}]}``, by name."""
    me = _account(who)
    return {"following": await follows.following(sql_store(srv), me.id)}


@router.put("/following/{name}")
async def follow(name: Name, srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    me = _account(who)
    store = sql_store(srv)
    spelled = await follows.follow(store, me.id, name, srv.settings.clock())
    return {"name": spelled, "following": await follows.following(store, me.id)}


@router.delete("/following/{name}")
async def unfollow(name: Name, srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    me = _account(who)
    store = sql_store(srv)
    spelled = await follows.unfollow(store, me.id, name)
    return {"name": spelled, "following": await follows.following(store, me.id)}
