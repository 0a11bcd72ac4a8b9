"""Two players' finished games together, from one's side: "You and Boris" on a player's page.

Counted from the outcomes the seats keep (migration 0015): the games where both sat, the
viewer's outcome in each, split by whether they played against each other or, a Kozel
pair's partners, on the same side. Rated or not, as the page's own counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from doublesix.ratings import Outcome
from doublesix.server import schema
from doublesix.server.rating_store import stored_rules
from doublesix.server.store import SqlStore
from doublesix.table.model import JSON, SeatKind


@dataclass(frozen=True)
class Record:
    """Games, and how they went for the viewer."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    def counted(self, outcome: Outcome) -> Record:
        return Record(
            self.wins + (outcome is Outcome.WIN),
            self.losses + (outcome is Outcome.LOSS),
            self.draws + (outcome is Outcome.DRAW),
        )

    def to_json(self) -> JSON:
        return {"games": self.games, "wins": self.wins, "losses": self.losses, "draws": self.draws}


@dataclass(frozen=True)
class Together:
    """The viewer's record against the player, and with them as partners."""

    name: str
    against: Record
    partners: Record

    def to_json(self) -> JSON:
        return {
            "name": self.name,
            "against": self.against.to_json(),
            "partners": self.partners.to_json(),
        }


async def together(store: SqlStore, viewer: str, player: str, name: str) -> Together:
    """The finished games of the player ``viewer`` with the account ``player`` (ids; its name
    as written: ``name``), from the viewer's side."""
    mine, theirs, t = schema.seats.alias("mine"), schema.seats.alias("theirs"), schema.tables
    query = (
        sa.select(t.c.ruleset, mine.c.seat, theirs.c.seat.label("their_seat"), mine.c.outcome)
        .select_from(
            mine.join(theirs, theirs.c.table_id == mine.c.table_id).join(
                t, t.c.id == mine.c.table_id
            )
        )
        .where(
            mine.c.player_id == viewer,
            mine.c.outcome.is_not(None),
            mine.c.kind == SeatKind.HUMAN.value,
            theirs.c.player_id == player,
            theirs.c.kind == SeatKind.HUMAN.value,
        )
    )
    async with store.engine.connect() as conn:
        return _counted(name, await conn.execute(query))


def _counted(name: str, shared: Iterable[Any]) -> Together:
    against, partners = Record(), Record()
    for row in shared:
        rules = stored_rules(row.ruleset)
        if rules is None:
            continue
        outcome = Outcome(row.outcome)
        if rules.side_of(row.seat) == rules.side_of(row.their_seat):
            partners = partners.counted(outcome)
        else:
            against = against.counted(outcome)
    return Together(name, against, partners)
