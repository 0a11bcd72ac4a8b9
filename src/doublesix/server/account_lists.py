"""Lists an account keeps of other accounts: whom it follows, whom it blocks.

Kept by player id, so that a name's case or look-alike letters never matter, and bounded
(``at_most``). A closed account is on no one's list, and no one can put it on one. A guest
keeps no list: a guest is a cookie, gone with its browser.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from doublesix.server import schema
from doublesix.server.account_names import name_key
from doublesix.server.errors import CommandError
from doublesix.server.store import SqlStore
from doublesix.table.model import JSON


def _unknown(name: str) -> CommandError:
    return CommandError("not_found", f"no account is named {name!r}", field="name", status=404)


async def open_account(store: SqlStore, name: str) -> tuple[str, str]:
    """The player id and name (as its owner spells it) of the open account ``name``."""
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


@dataclass
class AccountList:
    """One kind of list: its table, whose list a row is on (``owner``) and whom it names
    (``other``)."""

    table: sa.Table
    owner: sa.Column[str]
    other: sa.Column[str]
    verb: str
    """What putting an account on the list is called: "follow", "block"."""
    at_most: int

    async def names(self, store: SqlStore, owner: str) -> list[JSON]:
        """``[{"name", "since"}]``: the accounts on ``owner``'s list, by name."""
        a = schema.accounts
        query = (
            sa.select(a.c.name, self.table.c.created_at)
            .select_from(self.table.join(a, a.c.player_id == self.other))
            .where(self.owner == owner)
            .order_by(a.c.name_key)
        )
        async with store.engine.connect() as conn:
            return [{"name": r.name, "since": r.created_at} for r in await conn.execute(query)]

    async def add(self, store: SqlStore, owner: str, name: str, now: float) -> str:
        """Put the account ``name`` on ``owner``'s list (again: nothing changes); its name.

        Refused (``CommandError``): no such account (404), oneself (422), or ``at_most`` on
        the list already (409)."""
        other, spelled = await open_account(store, name)
        if other == owner:
            raise CommandError("self", f"you cannot {self.verb} yourself", field="name", status=422)
        mine = self.owner == owner
        try:
            async with store.writing() as conn:
                if (
                    await conn.execute(sa.select(self.other).where(mine, self.other == other))
                ).first():
                    return spelled
                count = (
                    await conn.execute(
                        sa.select(sa.func.count()).select_from(self.table).where(mine)
                    )
                ).scalar_one()
                if count >= self.at_most:
                    raise CommandError(
                        "too_many",
                        f"you {self.verb} {self.at_most} players, the most there may be",
                        field="name",
                        status=409,
                    )
                await conn.execute(
                    self.table.insert().values(
                        {self.owner.name: owner, self.other.name: other, "created_at": now}
                    )
                )
        except IntegrityError:  # the same request at the same moment
            pass
        return spelled

    async def remove(self, store: SqlStore, owner: str, name: str) -> str:
        """Take the account ``name`` off ``owner``'s list (if it was on it); its name (404 if
        there is no such account)."""
        other, spelled = await open_account(store, name)
        async with store.writing() as conn:
            await conn.execute(self.table.delete().where(self.owner == owner, self.other == other))
        return spelled

    async def among(self, store: SqlStore, players: Iterable[str]) -> set[tuple[str, str]]:
        """``(owner, other)`` for each of ``players`` that has another of them on its list."""
        ids = list(set(players))
        if len(ids) < 2:
            return set()
        query = sa.select(self.owner, self.other).where(self.owner.in_(ids), self.other.in_(ids))
        async with store.engine.connect() as conn:
            return {(row[0], row[1]) for row in await conn.execute(query)}


FOLLOWS = AccountList(
    schema.follows, schema.follows.c.follower_id, schema.follows.c.followed_id, "follow", 200
)
"""Whom an account follows: the players it wants to find again. The lobby lists the players
one follows first among those online and says when one of them comes."""

BLOCKS = AccountList(
    schema.blocks, schema.blocks.c.player_id, schema.blocks.c.blocked_id, "block", 500
)
"""Whom an account blocks: never seated with it by Play now, its challenges refused, its
messages hidden from it, and it follows it no more."""
