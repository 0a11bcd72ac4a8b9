"""The lobby's own SQL: the ``challenges`` table.

Every change of a challenge is one writing transaction that reads the row
again (``FOR UPDATE`` on PostgreSQL; SQLite writes one at a time), so two
processes answering at once never both make its table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from doublesix.server import schema
from doublesix.server.challenges import Challenge, Invited, Status, gone
from doublesix.server.store import SqlStore

T = schema.challenges
R = TypeVar("R")


def row_of(challenge: Challenge) -> dict[str, object]:
    return {
        "id": challenge.id,
        "player_id": challenge.player,
        "name": challenge.name,
        "account": challenge.account,
        "invited": [i.to_json() for i in challenge.invited],
        "settings": challenge.settings,
        "status": challenge.status.value,
        "table_id": challenge.table,
        "created_at": challenge.created_at,
        "expires_at": challenge.expires_at,
    }


def challenge_of(row: sa.Row[tuple[object, ...]]) -> Challenge:
    m = row._mapping
    return Challenge(
        id=m["id"],
        player=m["player_id"],
        name=m["name"],
        account=m["account"],
        invited=[Invited.from_json(i) for i in m["invited"]],
        settings=dict(m["settings"]),
        created_at=m["created_at"],
        expires_at=m["expires_at"],
        status=Status(m["status"]),
        table=m["table_id"],
    )


class Book:
    """The challenges, as stored."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store

    async def add(self, challenge: Challenge) -> None:
        async with self.store.writing() as conn:
            await conn.execute(T.insert().values(row_of(challenge)))

    async def get(self, challenge_id: str) -> Challenge | None:
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(T.select().where(T.c.id == challenge_id))).first()
        return None if row is None else challenge_of(row)

    async def open(self) -> list[Challenge]:
        """Every challenge waiting for answers (few: each lasts a minute)."""
        async with self.store.engine.connect() as conn:
            rows = await conn.execute(T.select().where(T.c.status == Status.OPEN.value))
            return [challenge_of(r) for r in rows]

    async def change(
        self, challenge_id: str, how: Callable[[Challenge], R]
    ) -> tuple[Challenge, R] | None:
        """Apply ``how`` to the stored challenge and store what it made of it, in one
        transaction; ``how`` raising changes nothing. None if there is no such challenge."""
        async with self.store.writing() as conn:
            challenge = await self._locked(conn, challenge_id)
            if challenge is None:
                return None
            before = row_of(challenge)
            outcome = how(challenge)
            after = row_of(challenge)
            if after != before:
                await conn.execute(T.update().where(T.c.id == challenge_id).values(after))
            return challenge, outcome

    async def end(
        self, ids: Sequence[str], status: Status, due: Callable[[Challenge], bool]
    ) -> list[Challenge]:
        """End with ``status`` those of ``ids`` that are still open and ``due`` (both read
        again inside the transaction): the ones it ended."""
        changed = []
        async with self.store.writing() as conn:
            for challenge_id in ids:
                challenge = await self._locked(conn, challenge_id)
                if challenge is None or challenge.status != Status.OPEN:
                    continue
                if not due(challenge):
                    continue
                challenge.status = status
                await conn.execute(
                    T.update().where(T.c.id == challenge_id).values(status=status.value)
                )
                changed.append(challenge)
        return changed

    async def left(self, player_id: str) -> list[Challenge]:
        """``player_id`` left the site, or its account was closed: its open challenges end,
        those it made cancelled, those it was sent left (``challenges.gone``); the ones that
        ended, to be told."""
        ended = []
        for waiting in await self.open():
            if waiting.involves(player_id):
                changed = await self.change(waiting.id, lambda c: gone(c, player_id))
                if changed is not None and changed[1]:
                    ended.append(changed[0])
        return ended

    async def _locked(self, conn: AsyncConnection, challenge_id: str) -> Challenge | None:
        query = T.select().where(T.c.id == challenge_id)
        if not self.store.sqlite:
            query = query.with_for_update()
        row = (await conn.execute(query)).first()
        return None if row is None else challenge_of(row)
