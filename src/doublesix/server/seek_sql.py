"""The pool's SQL: the ``seeks`` table, shared by every process of a site.

Pairing is one writing transaction that reads the seeks (``FOR UPDATE`` on PostgreSQL;
SQLite writes one at a time), chooses the groups and deletes their seeks: two processes
pairing at once never seat one seeker twice.
"""

from __future__ import annotations

from collections.abc import Callable

import sqlalchemy as sa

from doublesix.server import schema
from doublesix.server.seeks import Kind, Seek
from doublesix.server.store import SqlStore

T = schema.seeks


def _row(seek: Seek) -> dict[str, object]:
    return {
        "player_id": seek.player,
        "name": seek.name,
        "account": seek.account,
        "preset": seek.kind.preset,
        "players": seek.kind.players,
        "rated": seek.kind.rated,
        "rating": seek.rating,
        "since": seek.since,
        "avoid": sorted(seek.avoid),
    }


def _seek(row: sa.Row[tuple[object, ...]]) -> Seek:
    m = row._mapping
    return Seek(
        player=m["player_id"],
        name=m["name"],
        account=bool(m["account"]),
        kind=Kind(m["preset"], m["players"], bool(m["rated"])),
        rating=m["rating"],
        since=m["since"],
        avoid=frozenset(m["avoid"] or ()),
    )


class Pool:
    """The seeks, as stored."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store

    async def put(self, seek: Seek) -> None:
        """Store ``seek`` in place of its player's earlier one, if any."""
        async with self.store.writing() as conn:
            await conn.execute(T.delete().where(T.c.player_id == seek.player))
            await conn.execute(T.insert().values(_row(seek)))

    async def remove(self, player_id: str) -> Seek | None:
        """Withdraw ``player_id``'s seek: the one it was, None if there was none."""
        async with self.store.writing() as conn:
            row = (
                await conn.execute(T.delete().where(T.c.player_id == player_id).returning(*T.c))
            ).first()
        return None if row is None else _seek(row)

    async def get(self, player_id: str) -> Seek | None:
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(T.select().where(T.c.player_id == player_id))).first()
        return None if row is None else _seek(row)

    async def seeks(self) -> list[Seek]:
        """Every seek (few: one a player online)."""
        async with self.store.engine.connect() as conn:
            return [_seek(r) for r in await conn.execute(T.select())]

    async def take(self, choose: Callable[[list[Seek]], list[list[Seek]]]) -> list[list[Seek]]:
        """The groups ``choose`` makes of the stored seeks, their seeks deleted, in one
        transaction."""
        query = T.select()
        if not self.store.sqlite:
            query = query.with_for_update()
        async with self.store.writing() as conn:
            groups = choose([_seek(r) for r in await conn.execute(query)])
            taken = [s.player for group in groups for s in group]
            if taken:
                await conn.execute(T.delete().where(T.c.player_id.in_(taken)))
        return groups
