"""The names an account mutes: their chat is hidden from it, on every browser it logs in on.

A guest mutes in its browser only (the web client keeps the list in localStorage). An
account's list is kept here, so that a name muted on the phone stays muted on the laptop:
the client reads it as a page opens, and the first time an account logs in on a browser it
adds the names that browser had muted before (``merge``). Muting is about the words a name
writes, a guest's as much as an account's, so the list holds names as chat shows them, not
player ids; it is bounded (``AT_MOST``), as Play now's list of names to avoid, which it fills.
"""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from doublesix.server import schema
from doublesix.server.errors import CommandError
from doublesix.server.seeks import AVOID_MAX
from doublesix.server.store import SqlStore

AT_MOST = AVOID_MAX
"""Names an account may mute: all of them ride along with a Play now seek (``avoid``)."""


async def muted(store: SqlStore, owner: str) -> list[str]:
    """The names ``owner`` mutes, sorted."""
    m = schema.mutes
    query = sa.select(m.c.name).where(m.c.player_id == owner).order_by(m.c.name)
    async with store.engine.connect() as conn:
        return list((await conn.execute(query)).scalars())


async def merge(store: SqlStore, owner: str, names: Iterable[str], now: float) -> list[str]:
    """Mute each of ``names`` for ``owner`` (those muted already stay as they are); the
    names muted now. Refused whole (409 ``too_many``) if the list would hold more than
    ``AT_MOST``."""
    m = schema.mutes
    wanted = set(names)
    try:
        async with store.writing() as conn:
            held = set(
                (await conn.execute(sa.select(m.c.name).where(m.c.player_id == owner))).scalars()
            )
            new = sorted(wanted - held)
            if len(held) + len(new) > AT_MOST:
                raise CommandError(
                    "too_many",
                    f"name: you mute {len(held)} names; at most {AT_MOST} may be muted",
                    field="name",
                    status=409,
                )
            if new:
                await conn.execute(
                    m.insert(), [{"player_id": owner, "name": n, "created_at": now} for n in new]
                )
    except IntegrityError:  # the same names at the same moment, from another tab
        pass
    return await muted(store, owner)


async def unmute(store: SqlStore, owner: str, name: str) -> list[str]:
    """Read ``name``'s chat again (if it was muted); the names muted now."""
    m = schema.mutes
    async with store.writing() as conn:
        await conn.execute(m.delete().where(m.c.player_id == owner, m.c.name == name))
    return await muted(store, owner)
