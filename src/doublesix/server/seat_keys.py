"""New tokens for an account's seats once its password changes (``commands.Rekey``).

A seat is its token's, and whoever has the account's session can have the token
(``POST /api/tables/{id}/join`` answers a player seated already with its seat and token):
a thief who logged in with a stolen password kept the seats taken with it after the password
changed, though their session had ended. So a new password — its player's
(``POST /api/account/password``) or the operator's reset (``doublesix account password``) —
gives every seat the account holds at a table not over a new token, at the table's owner: the
old one holds the seat no more (its sockets watch from then on, ``state.Unseat``, and a hello
with it is refused with 4401), and the account's player, logged in with the new password,
takes the new one as any seat's (``Join``). The seat stays the account's and its game goes
on. A log-out ends no secret, and changes no token.

On the web the process that changed the password asks each table's owner, awaited, so that
the old tokens are refused once it answers (``rekey``). The command line reaches the site's
processes through the lobby's channel alone: each gives new tokens at the tables it runs
(``rekey_here``).
"""

from __future__ import annotations

import contextlib
import logging

import sqlalchemy as sa

from doublesix.server import schema
from doublesix.server.lobby import new_token
from doublesix.server.manager import TableManager
from doublesix.server.store import SqlStore
from doublesix.table import commands
from doublesix.table.errors import TableError
from doublesix.table.model import SeatKind, TableStatus

log = logging.getLogger(__name__)

NOT_OVER = (TableStatus.OPEN.value, TableStatus.PLAYING.value)
"""The statuses of a table whose seats still play: their tokens are worth replacing."""


async def seated_tables(store: SqlStore, player_id: str) -> list[str]:
    """The tables not over (waiting for players or being played) where ``player_id`` holds a
    seat, as stored."""
    t, s = schema.tables, schema.seats
    query = (
        sa.select(s.c.table_id)
        .join(t, t.c.id == s.c.table_id)
        .where(
            s.c.player_id == player_id, s.c.kind == SeatKind.HUMAN.value, t.c.status.in_(NOT_OVER)
        )
        .order_by(s.c.table_id)
    )
    async with store.engine.connect() as conn:
        return list((await conn.scalars(query)).all())


async def rekey(store: SqlStore, manager: TableManager, player_id: str) -> None:
    """Give every seat ``player_id`` holds at a table not over a new token, at the table's
    owner: this process's host, or the owner's through the relay (a table nobody runs is
    taken over first, as for any request). A table whose owner does not answer keeps its
    seat's token, and is logged."""
    for table_id in await seated_tables(store, player_id):
        try:
            link = await manager.get(table_id)
            if link is not None:
                await link.submit(commands.Rekey(player_id, new_token()))
        except TableError as e:
            log.warning("table %s: a seat's token could not be replaced: %s", table_id, e.message)


async def rekey_here(manager: TableManager, player_id: str) -> None:
    """``rekey`` at the tables this process runs: its part when the command line tells the site
    (``lobby_bus.password_changed``). A table no process runs then is nobody's to tell: its
    seat keeps its token."""
    for host, _ in manager.seats_of(player_id):
        with contextlib.suppress(TableError):  # over meanwhile, or stopping
            await host.submit(commands.Rekey(player_id, new_token()))
