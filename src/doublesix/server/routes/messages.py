"""Private messages between accounts (``server/messages.py``): ``/api/messages``, and the
unread count of the header's badge."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from doublesix.server import messages
from doublesix.server.deps import MaybeGuest, ServerDep
from doublesix.server.routes.challenges import LobbyDep
from doublesix.server.routes.ratings import sql_store
from doublesix.server.schema import INT_MAX
from doublesix.server.store import Guest

router = APIRouter(prefix="/api")

Name = Annotated[str, Path(max_length=64)]
Before = Annotated[int | None, Query(ge=1, le=INT_MAX)]


def _account(who: Guest | None) -> Guest:
    if who is None or not who.account:
        raise messages.refused(messages.Refusal.NO_ACCOUNT, "log in to read your messages")
    return who


@router.post("/messages", status_code=201)
async def send(
    body: messages.MessageIn, srv: ServerDep, room: LobbyDep, who: MaybeGuest
) -> dict[str, Any]:
    """The message kept, as the thread shows it; its recipient's lobby sockets are told."""
    if who is None:
        raise messages.refused(messages.Refusal.NO_ACCOUNT, "log in to write to players")
    sent = await messages.send(sql_store(srv), who, body, srv.settings.clock(), room.limits)
    room.message_sent(sent)
    return sent.message


@router.get("/messages")
async def conversations(srv: ServerDep, who: MaybeGuest, before: Before = None) -> dict[str, Any]:
    """The account's conversations, the latest first (``messages.conversations``)."""
    return await messages.conversations(sql_store(srv), _account(who).id, before)


@router.get("/messages/{name}")
async def thread(
    name: Name, srv: ServerDep, who: MaybeGuest, before: Before = None
) -> dict[str, Any]:
    """The thread with ``name``, its latest messages; theirs are read from now on."""
    reader = _account(who)
    return await messages.thread(sql_store(srv), reader, name, srv.settings.clock(), before)


@router.get("/messages/{name}/with")
async def correspondent(name: Name, srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    """The thread's ``with``: whether one may write to ``name``; nothing is read."""
    return await messages.correspondent(sql_store(srv), _account(who), name)


@router.get("/account/unread")
async def unread(srv: ServerDep, who: MaybeGuest) -> dict[str, Any]:
    """``{"unread": n}``: the header's badge (messages from muted names not counted)."""
    return {"unread": await messages.unread(sql_store(srv), _account(who).id)}
