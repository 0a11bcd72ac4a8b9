"""What the routes share: the ``Server`` on ``app.state`` and the request's player.

Routes reach the server's parts through FastAPI dependencies
(``ServerDep``, ``GuestDep``) rather than module globals, so that one
process can hold several apps (the tests do).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request

from doublesix.server.errors import CommandError
from doublesix.server.hub import Hub
from doublesix.server.manager import TableManager
from doublesix.server.reviews import Reviews
from doublesix.server.settings import Limits, Settings
from doublesix.server.store import Guest, Store
from doublesix.server.thinking import Thinking
from doublesix.server.uploads import Uploads
from doublesix.table.model import JSON, Table

COOKIE = "ds_guest"
"""The cookie that holds a guest's id (HttpOnly)."""


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
    records: OrderedDict[str, JSON] = field(default_factory=OrderedDict)
    """Records of finished games, derived from their logs once and kept (``routes.games``)."""
    sockets: dict[str, dict[str, int]] = field(default_factory=dict)
    """This process's sockets of seated players, per table: each socket's key and seat."""


def server(request: Request) -> Server:
    found: Server = request.app.state.server
    return found


def client_address(request: Request) -> str:
    """The address the request came from (limits and fair shares are counted by it)."""
    return request.client.host if request.client is not None else ""


def not_found(what: str) -> CommandError:
    return CommandError("not_found", what, status=404)


async def guest(request: Request) -> Guest | None:
    """The guest of the request's cookie, if any."""
    guest_id = request.cookies.get(COOKIE)
    return None if not guest_id else await server(request).store.guest(guest_id)


async def need_guest(request: Request) -> Guest:
    found = await guest(request)
    if found is None:
        raise CommandError("no_guest", "choose a name first (POST /api/guest)", status=401)
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
"""The request's guest; 401 without one."""
MaybeGuest = Annotated[Guest | None, Depends(guest)]
