"""Whom an account follows: the players it wants to find again.

An account keeps a list of the accounts it follows (at most ``AT_MOST``), by player id, so
that a name's case or look-alike letters never matter. The lobby lists the players one
follows first among those online and says when one of them comes; a player's page follows
and unfollows. A guest follows nobody: a guest is a cookie, gone with its browser.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from doublesix.server import schema
from doublesix.server.account_names import name_key
from doublesix.server.errors import CommandError
from doublesix.server.store import SqlStore
from doublesix.table.model import JSON

AT_MOST = 200
"""Accounts one account may follow."""


def _unknown(name: str) -> CommandError:
    return CommandError("not_found", f"no account is named {name!r}", field="name", status=404)


async def _account(store: SqlStore, name: str) -> tuple[str, str]:
    """The player id and name (as its owner spells it) of the open account ``name`` (a closed
    one is followed by no one)."""
    a = schema.accounts
    async with store.engine.connect() as conn:
        row = (
            await conn.execute(
                sa.select(a.c.player_id, a.c.name).where(
                    a.c.name_key == name_key(name), a.c.closed_at.is_(None)
                )
            )
        ).first()
    if row is None:
        raise _unknown(name)
    return row.player_id, row.name


async def following(store: SqlStore, follower: str) -> list[JSON]:
    """``[{"name", "since"}]``: the accounts ``follower`` follows, by name."""
    a, f = schema.accounts, schema.follows
    query = (
        sa.select(a.c.name, f.c.created_at)
        .select_from(f.join(a, a.c.player_id == f.c.followed_id))
        .where(f.c.follower_id == follower)
        .order_by(a.c.name_key)
    )
    async with store.engine.connect() as conn:
        return [{"name": row.name, "since": row.created_at} for row in await conn.execute(query)]


async def follow(store: SqlStore, follower: str, name: str, now: float) -> str:
    """``follower`` follows the account ``name`` (again: nothing changes); its name.

    Refused (``CommandError``): no such account (404), oneself (422), or ``AT_MOST`` followed
    already (409)."""
    followed, spelled = await _account(store, name)
    if followed == follower:
        raise CommandError("self", "you cannot follow yourself", field="name", status=422)
    f = schema.follows
    try:
        async with store.writing() as conn:
            mine = f.c.follower_id == follower
            if (
                await conn.execute(
                    sa.select(f.c.followed_id).where(mine, f.c.followed_id == followed)
                )
            ).first():
                return spelled
            count = (
                await conn.execute(sa.select(sa.func.count()).select_from(f).where(mine))
            ).scalar_one()
            if count >= AT_MOST:
                raise CommandError(
                    "too_many",
                    f"you follow {AT_MOST} players, the most there may be: unfollow one first",
                    field="name",
                    status=409,
                )
            await conn.execute(
                f.insert().values(follower_id=follower, followed_id=followed, created_at=now)
            )
    except IntegrityError:  # the same follow from another request, at the same moment
        pass
    return spelled


async def unfollow(store: SqlStore, follower: str, name: str) -> str:
    """``follower`` no longer follows the account ``name`` (if it did); its name (404 if there
    is no such account)."""
    followed, spelled = await _account(store, name)
    f = schema.follows
    async with store.writing() as conn:
        await conn.execute(
            f.delete().where(f.c.follower_id == follower, f.c.followed_id == followed)
        )
    return spelled
