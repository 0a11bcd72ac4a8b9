"""The logged-in account's lists (``server/account_lists.py``): whom it follows, whom it
blocks; read, add, remove."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path

from doublesix.server.account_lists import BLOCKS, FOLLOWS
from doublesix.server.deps import MaybeGuest, ServerDep
from doublesix.server.errors import CommandError
from doublesix.server.routes.ratings import sql_store
from doublesix.server.store import Guest

router = APIRouter(prefix="/api/account")

Name = Annotated[str, Path(max_length=64)]


def _account(who: Guest | None, verb: str) -> Guest:
    if who is None or not who.account:
        raise CommandError("no_account", f"log in to {verb} players", status=401)
    return who


@router.get("/following")
async def following(srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    """``{"following": [{"name", "since"}]}``, by name."""
    me = _account(who, "follow")
    return {"following": await FOLLOWS.names(sql_store(srv), me.id)}


@router.put("/following/{name}")
async def follow(name: Name, srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    me = _account(who, "follow")
    store = sql_store(srv)
    spelled = await FOLLOWS.add(store, me.id, name, srv.settings.clock())
    return {"name": spelled, "following": await FOLLOWS.names(store, me.id)}


@router.delete("/following/{name}")
async def unfollow(name: Name, srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    me = _account(who, "follow")
    store = sql_store(srv)
    spelled = await FOLLOWS.remove(store, me.id, name)
    return {"name": spelled, "following": await FOLLOWS.names(store, me.id)}


@router.get("/blocked")
async def blocked(srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    """``{"blocked": [{"name", "since"}]}``, by name."""
    me = _account(who, "block")
    return {"blocked": await BLOCKS.names(sql_store(srv), me.id)}


@router.put("/blocked/{name}")
async def block(name: Name, srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    """Block ``name``, and follow it no more."""
    me = _account(who, "block")
    store = sql_store(srv)
    spelled = await BLOCKS.add(store, me.id, name, srv.settings.clock())
    await FOLLOWS.remove(store, me.id, name)
    return {"name": spelled, "blocked": await BLOCKS.names(store, me.id)}


@router.delete("/blocked/{name}")
async def unblock(name: Name, srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    me = _account(who, "block")
    store = sql_store(srv)
    spelled = await BLOCKS.remove(store, me.id, name)
    return {"name": spelled, "blocked": await BLOCKS.names(store, me.id)}
