"""The logged-in account's lists: whom it follows, whom it blocks
(``server/account_lists.py``), whose chat it mutes (``server/mutes.py``); read, add, remove."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from pydantic import BaseModel, Field

from doublesix.server import mutes
from doublesix.server.account_lists import BLOCKS, FOLLOWS
from doublesix.server.deps import MaybeGuest, ServerDep, account_of
from doublesix.server.routes.ratings import sql_store

router = APIRouter(prefix="/api/account")

Name = Annotated[str, Path(max_length=64)]
MutedName = Annotated[str, Field(min_length=1, max_length=64)]


class MutedIn(BaseModel):
    names: list[MutedName] = Field(max_length=mutes.AT_MOST)


@router.get("/following")
async def following(srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    """``{"following": [{"name", "since"}]}``, by name."""
    me = account_of(who, "follow players")
    return {"following": await FOLLOWS.names(sql_store(srv), me.id)}


@router.put("/following/{name}")
async def follow(name: Name, srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    me = account_of(who, "follow players")
    store = sql_store(srv)
    spelled = await FOLLOWS.add(store, me.id, name, srv.settings.clock())
    return {"name": spelled, "following": await FOLLOWS.names(store, me.id)}


@router.delete("/following/{name}")
async def unfollow(name: Name, srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    me = account_of(who, "follow players")
    store = sql_store(srv)
    spelled = await FOLLOWS.remove(store, me.id, name)
    return {"name": spelled, "following": await FOLLOWS.names(store, me.id)}


@router.get("/blocked")
async def blocked(srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    """``{"blocked": [{"name", "since"}]}``, by name."""
    me = account_of(who, "block players")
    return {"blocked": await BLOCKS.names(sql_store(srv), me.id)}


@router.put("/blocked/{name}")
async def block(name: Name, srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    """Block ``name``, and follow it no more."""
    me = account_of(who, "block players")
    store = sql_store(srv)
    spelled = await BLOCKS.add(store, me.id, name, srv.settings.clock())
    await FOLLOWS.remove(store, me.id, name)
    return {"name": spelled, "blocked": await BLOCKS.names(store, me.id)}


@router.delete("/blocked/{name}")
async def unblock(name: Name, srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    me = account_of(who, "block players")
    store = sql_store(srv)
    spelled = await BLOCKS.remove(store, me.id, name)
    return {"name": spelled, "blocked": await BLOCKS.names(store, me.id)}


@router.get("/muted")
async def muted(srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    """``{"muted": [name]}``: the names whose chat the account does not read, sorted."""
    me = account_of(who, "mute players")
    return {"muted": await mutes.muted(sql_store(srv), me.id)}


@router.post("/muted")
async def mute_all(body: MutedIn, srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    """Mute every name of ``names`` too (a browser's own list, the first time the account
    logs in on it); ``{"muted": [name]}``."""
    me = account_of(who, "mute players")
    return {"muted": await mutes.merge(sql_store(srv), me.id, body.names, srv.settings.clock())}


@router.put("/muted/{name}")
async def mute(name: Name, srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    me = account_of(who, "mute players")
    found = await mutes.merge(sql_store(srv), me.id, [name], srv.settings.clock())
    return {"name": name, "muted": found}


@router.delete("/muted/{name}")
async def unmute(name: Name, srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    me = account_of(who, "mute players")
    return {"name": name, "muted": await mutes.unmute(sql_store(srv), me.id, name)}
