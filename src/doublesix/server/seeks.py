"""Quick pairing ("Play now"): players ask for a kind of game and wait in a pool; as soon as
enough of them seek the same kind, a table is made with all of them seated.

What a seek is, which seeks make a table, and the table they make; no I/O here. A player has
one seek at a time. Seekers are paired oldest first: the longest waiting seek takes the
others of its kind that came first (unrated) or whose ratings lie nearest its own (rated).
A rated group's ratings may lie ``reach(waited)`` apart, a range that widens with the wait of
its oldest seek, as on lichess's pool: a short wait for a close game, and no player left
waiting for ever because nobody near their rating is online. For the same reason a table of
three or four starts with bots in its empty seats once two seekers have waited a minute for
the rest. Two players of whom one blocks the other never share a table, nor does a seeker
sit with a name muted in their browser (``avoid``: a muted name's challenges are declined
unseen, so its seat at a table made for strangers is not handed out either).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated

from pydantic import BaseModel, Field

from doublesix.server.errors import CommandError
from doublesix.server.lobby import SeatIn, TableIn, new_table, seated_table, seats_drawn
from doublesix.server.store import Guest
from doublesix.table.commands import Player
from doublesix.table.model import JSON, Table

TIMER = 60.0
"""Seconds of a turn at a paired table: strangers keep one another waiting no longer."""
REACH = 200
"""Rating points a rated group may span at once."""
REACH_GROWTH = 20
"""Rating points the span widens by for each second its oldest seek has waited."""
FILL_SECONDS = 60.0
"""A table of three or four that has found at least two seekers but no more within this long
(its oldest seek's wait) is made with bots in the empty seats: few sites have four strangers
waiting for Kozel at once."""
FILL_BOT = "medium"
"""The level of the bots that fill a paired table's empty seats."""
AVOID_MAX = 200
"""Names a seek may avoid (a browser's muted names)."""


class SeekIn(BaseModel):
    preset: str = Field(max_length=32)
    players: int | None = Field(default=None, ge=2, le=4)
    """Seats at the table (default: the preset's)."""
    rated: bool = False
    avoid: list[Annotated[str, Field(max_length=64)]] = Field(
        default_factory=list, max_length=AVOID_MAX
    )
    """Names not to be seated with: those muted in the seeker's browser."""


@dataclass(frozen=True, order=True)
class Kind:
    """What a seek asks for: seekers of one kind play one another."""

    preset: str
    players: int
    rated: bool

    def to_json(self) -> JSON:
        return {"preset": self.preset, "players": self.players, "rated": self.rated}


@dataclass(frozen=True)
class Seek:
    player: str
    """The seeker's id (never shown: a guest's id is its cookie)."""
    name: str
    account: bool
    kind: Kind
    rating: int | None
    """The seeker's rating in the kind's family (rated seeks only)."""
    since: float
    avoid: frozenset[str] = frozenset()
    """Names the seeker is not seated with (``SeekIn.avoid``); never shown to anyone."""

    def public(self, now: float, seated: str | None = None) -> JSON:
        """The protocol's ``Seek``: what its seeker is told of it; ``seated``: the table where
        a socket of theirs holds a seat (the pool pairs them once they are free)."""
        waited = round(max(0.0, now - self.since), 1)
        return self.kind.to_json() | {"since": self.since, "waiting": waited, "seated": seated}


def request(kind: Kind, seekers: int) -> TableIn:
    """The table a group of ``seekers`` of ``kind`` sits at: the preset's rules, a turn's
    clock, the seekers first, bots in the seats left over."""
    seats = [SeatIn(kind="human")] + [SeatIn(kind="invite") for _ in range(seekers - 1)]
    seats += [SeatIn(kind="bot", bot=FILL_BOT) for _ in range(kind.players - seekers)]
    return TableIn(preset=kind.preset, seats=seats, timer=TIMER, rated=kind.rated)


def kind_of(body: SeekIn, seeker: Guest, now: float) -> Kind:
    """The kind ``body`` asks for; CommandError naming the field if no table may be made of
    it (an unknown preset, a player count the preset has not, a rated game for a guest)."""
    if body.rated and not seeker.account:
        raise CommandError(
            "rated", "a rated game is between accounts: register first", field="rated", status=422
        )
    seats = None
    if body.players is not None:
        seats = [SeatIn(kind="human")] + [SeatIn(kind="invite")] * (body.players - 1)
    try:
        table = new_table(TableIn(preset=body.preset, seats=seats), seeker, now, 0)
    except CommandError as e:
        if e.field == "options.players":
            e.field = "players"
        raise
    return Kind(table.preset, len(table.seats), body.rated)


def reach(waited: float) -> float:
    """How far apart the ratings of a rated group may lie when its oldest seek has waited
    ``waited`` seconds."""
    return REACH + REACH_GROWTH * max(0.0, waited)


def match(
    seeks: Iterable[Seek],
    now: float,
    busy: frozenset[str] = frozenset(),
    apart: Collection[tuple[str, str]] = (),
) -> list[list[Seek]]:
    """The groups that make tables now, oldest first; no seek in two. A group is its kind's
    ``players`` seeks, or, once its oldest has waited ``FILL_SECONDS`` for a table of three
    or four, two or more (bots fill the rest). The seeks of ``busy`` players (seated at a
    table, or out of the lobby a moment) wait; the players of a pair in ``apart`` (one
    blocks the other) never share a table, nor a seeker and a name it avoids."""
    by_kind: dict[Kind, list[Seek]] = {}
    for seek in sorted(seeks, key=lambda s: (s.since, s.player)):
        if seek.player not in busy:
            by_kind.setdefault(seek.kind, []).append(seek)
    groups = []
    for kind, waiting in sorted(by_kind.items()):
        while len(waiting) >= 2:
            group = _group(kind, waiting, now, apart)
            if group is None:
                break
            groups.append(group)
            waiting = [s for s in waiting if s not in group]
    return groups


def _group(
    kind: Kind, waiting: Sequence[Seek], now: float, apart: Collection[tuple[str, str]]
) -> list[Seek] | None:
    """The first group of ``waiting`` (oldest first) that may play, formed around the oldest
    seek that has one: its kind's others, nearest rating first where rated."""
    for n, oldest in enumerate(waiting):
        others = list(waiting[n + 1 :])
        if kind.rated:
            others.sort(key=lambda s: (abs(_rating(s) - _rating(oldest)), s.since))
        group = [oldest]
        for seek in others:
            if len(group) == kind.players:
                break
            near = spread([*group, seek]) <= reach(now - oldest.since)
            if near and not any(_apart(seek, g, apart) for g in group):
                group.append(seek)
        if len(group) == kind.players:
            return group
        if kind.players > 2 and len(group) >= 2 and now - oldest.since >= FILL_SECONDS:
            return group
    return None


def _apart(one: Seek, other: Seek, apart: Collection[tuple[str, str]]) -> bool:
    blocked = (one.player, other.player) in apart or (other.player, one.player) in apart
    return blocked or one.name in other.avoid or other.name in one.avoid


def spread(group: Sequence[Seek]) -> int:
    """How far apart the group's ratings lie (0 unrated)."""
    if not group[0].kind.rated:
        return 0
    ratings = [_rating(s) for s in group]
    return max(ratings) - min(ratings)


def _rating(seek: Seek) -> int:
    if seek.rating is None:
        raise ValueError(f"a rated seek without a rating: {seek.player}")
    return seek.rating


def pool(seeks: Iterable[Seek]) -> list[JSON]:
    """The protocol's ``Pool``: how many seek each kind now."""
    counts: dict[Kind, int] = {}
    for seek in seeks:
        counts[seek.kind] = counts.get(seek.kind, 0) + 1
    return [kind.to_json() | {"seeking": n} for kind, n in sorted(counts.items())]


def table_of(group: Sequence[Seek], now: float, seed: int) -> Table:
    """The table of a group: every seeker seated and bots in the seats left over, in an order
    drawn from ``seed`` (``lobby.seats_drawn``)."""
    first = group[0]
    table = seated_table(
        request(first.kind, len(group)),
        Guest(first.player, first.name, now, first.account),
        [Player(s.player, s.name, s.account) for s in group[1:]],
        now,
        seed,
    )
    return seats_drawn(table, seed)
