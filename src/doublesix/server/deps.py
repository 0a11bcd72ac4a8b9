"""What the routes share: the ``Server`` on ``app.state`` and the request's player.

Routes reach the server's parts through FastAPI dependencies
(``ServerDep``, ``GuestDep``) rather than module globals, so that one
process can hold several apps (the tests do).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request
from redis.asyncio import Redis
from starlette.requests import HTTPConnection

from doublesix.server.accounts import Accounts
from doublesix.server.errors import CommandError
from doublesix.server.hub import Hub
from doublesix.server.manager import TableManager
from doublesix.server.moderation import ChatGate
from doublesix.server.reviews import Reviews
from doublesix.server.settings import Limits, Settings
from doublesix.server.store import Guest, Store
from doublesix.server.thinking import Thinking
from doublesix.server.uploads import Uploads
from doublesix.table.model import JSON, Table

COOKIE = "ds_guest"
"""The cookie that holds a guest's id (HttpOnly)."""
SESSION_COOKIE = "ds_session"
"""The cookie that holds a logged-in account's session secret (HttpOnly)."""


@dataclass
class Server:
    """What the routes share, kept on ``app.state.server``."""

    store: Store
    hub: Hub
    manager: TableManager
    settings: Settings
    limits: Limits
    reviews: Reviews
    thinking: Thinking
    uploads: Uploads
    accounts: Accounts
    chat: ChatGate
    records: OrderedDict[str, JSON] = field(default_factory=OrderedDict)
    """Records of finished games, derived from their logs once and kept (``routes.games``)."""
    sockets: dict[str, dict[str, int]] = field(default_factory=dict)
    """This process's sockets of seated players, per table: each socket's key and seat."""
    redis: Redis | None = None
    """The site's Redis, when this process is one of several (``--redis``)."""


def server(request: HTTPConnection) -> Server:
    found: Server = request.app.state.server
    return found


def client_address(request: Request) -> str:
    """The address the request came from (limits and fair shares are counted by it)."""
    return request.client.host if request.client is not None else ""


def not_found(what: str) -> CommandError:
    return CommandError("not_found", what, status=404)


def account_of(who: Guest | None, doing: str) -> Guest:
    """``who`` if it is an account; else 401 ``no_account`` ("log in to ``doing``")."""
    if who is None or not who.account:
        raise CommandError("no_account", f"log in to {doing}", status=401)
    return who


async def player_of(srv: Server, cookies: Mapping[str, str]) -> Guest | None:
    """Who the cookies say: the account of the session cookie, else the guest of the
    guest cookie, else nobody (an unknown or expired cookie counts as none)."""
    secret = cookies.get(SESSION_COOKIE)
    if secret:
        found = await srv.accounts.player(secret)
        if found is not None:
            return found
    guest_id = cookies.get(COOKIE)
    return None if not guest_id else await srv.store.guest(guest_id)


async def guest(request: Request) -> Guest | None:
    """The request's player (an account or a guest), if any."""
    return await player_of(server(request), request.cookies)


async def need_guest(request: Request) -> Guest:
    found = await guest(request)
    if found is None:
        raise CommandError(
            "no_guest", "choose a name first (POST /api/guest) or log in", status=401
        )
    return found


async def need_operator(request: Request) -> Guest:
    """The request's player, one of the site's operators: 401 without a name, 403 else."""
    found = await need_guest(request)
    if not found.operator:
        raise CommandError("operator", "this is for the site's operators", status=403)
    return found


async def table_of(request: Request, table_id: str) -> Table:
    """The table as its running host has it, else as stored; 404 if there is none."""
    srv = server(request)
    host = srv.manager.hosts.get(table_id)
    table = host.table if host is not None else await srv.store.table(table_id)
    if table is None:
        raise not_found(f"no table {table_id!r}")
    return table


ServerDep = Annotated[Server, Depends(server)]
GuestDep = Annotated[Guest, Depends(need_guest)]
"""The request's player (a guest, or an account: ``Guest.account``); 401 without one."""
MaybeGuest = Annotated[Guest | None, Depends(guest)]
OperatorDep = Annotated[Guest, Depends(need_operator)]
"""One of the site's operators (``doublesix account operator NAME``); 401 or 403 else."""
