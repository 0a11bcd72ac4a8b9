"""Tournaments ("arena", as lichess's): what one is, how its games score, its standings, and
which of its free players sit down together next; no I/O here (``tournament_sql`` stores
them, ``touring`` runs them).

An account creates a tournament of one game (a preset, its player count, its target, a turn
timer, rated or not) that starts at ``starts_at`` and ends at ``ends_at``. Accounts join it
before or while it runs; while it runs, its free players are seated again and again, each
with others near them in the standings (``groups``). Each finished game scores for each
account seated: a win 2, a draw 1, a loss 0, and after two wins in a row each further win 4
until a game that is not a win (``scored``: lichess's "fire", which keeps players playing
for more than a draw). The standings order by score, wins, fewer games, then who joined
first (``standing_key``).
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, Field

from doublesix.ratings import Outcome
from doublesix.rules.ruleset import NAMES, PRESETS
from doublesix.server.errors import CommandError
from doublesix.server.lobby import (
    MAX_TIMER,
    MIN_TIMER,
    SeatIn,
    TableIn,
    new_table,
    seated_table,
    seats_drawn,
)
from doublesix.server.seeks import FILL_BOT, FILL_SECONDS
from doublesix.server.store import Guest
from doublesix.table.commands import Player
from doublesix.table.model import JSON, Table
from doublesix.table.state import printable

NAME_MAX = 40
"""Characters of a tournament's name at most (after trimming)."""
STARTS_IN_MAX = 1440
"""Minutes ahead a tournament may start at most (a day)."""
MINUTES = (5, 240)
"""How long a tournament lasts, in minutes: at least, at most."""
TIMER = 60.0
"""A turn's seconds at a tournament's tables unless the creator chooses."""
FULL = 500
"""Players a tournament takes at most."""
OPEN_AT_ONCE = 2
"""Tournaments an account may have created that have not finished (upcoming or running)."""
PER_DAY = 10
"""Tournaments an account may create in 24 hours."""
DAY = 86_400.0
WIN, DRAW, LOSS, FIRE_WIN = 2, 1, 0, 4
"""Points of a game: a win, a draw, a loss; a win on fire (``ON_FIRE`` wins in a row before)."""
ON_FIRE = 2
"""Wins in a row after which a win is worth ``FIRE_WIN``."""
STANDINGS_SHOWN = 100
GAMES_SHOWN = 30
FINISHED_SHOWN = 20
"""Finished or cancelled tournaments the list shows, the latest first."""
CURRENT_SHOWN = 50
"""Upcoming and running tournaments the list shows, the soonest first."""
PLAYED_SHOWN = 20
"""Tournaments a player's page shows, the latest joined first."""
NEAR = 8
"""A group is chosen among the first player's ``NEAR`` nearest in the standings: enough to
avoid a repeat or a block, few enough that the choice is cheap."""


class Status(StrEnum):
    UPCOMING = "upcoming"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


OVER = (Status.FINISHED, Status.CANCELLED)


class Withdrawn(StrEnum):
    """Why an entrant is paired no more (until it joins again)."""

    SELF = "self"
    """It withdrew."""
    ABSENT = "absent"
    """It made none of its plays of its last game itself (``absent``)."""
    CLOSED = "closed"
    """Its account was closed (by its player, or banned)."""


class TournamentIn(BaseModel):
    """``POST /api/tournaments``: bounds are checked in ``settings_of`` so that each
    refusal has its code and field."""

    name: str | None = Field(default=None, max_length=200)
    preset: str = Field(max_length=32)
    players: int | None = None
    options: dict[str, Any] = Field(default_factory=dict, max_length=8)
    timer: float = TIMER
    rated: bool = False
    starts_in: int
    """Minutes from now: 0 to ``STARTS_IN_MAX``."""
    minutes: int
    """How long it lasts: ``MINUTES``."""


@dataclass(frozen=True)
class Tournament:
    id: str
    name: str
    creator: str | None
    """The creating account's player id (None once that account is erased)."""
    preset: str
    players: int
    options: JSON
    """The ruleset's options the table changes from the preset's (``{"target": ...}``)."""
    timer: float
    rated: bool
    status: Status
    starts_at: float
    ends_at: float
    created_at: float
    ended_at: float | None = None
    """When it ended (None before): ``ends_at`` once finished, the moment it was cancelled
    (``ended_by_cancel``) once cancelled."""


def needs_operator(tournament: Tournament, player_id: str) -> bool:
    """Whether ``player_id`` cancelling ``tournament`` needs an operator: any cancel but its
    creator's before its start, which any account may make of its own (an operator's too:
    then it is the creator's act, not an operator's, and the operators' log leaves it out)."""
    return not (tournament.creator == player_id and tournament.status == Status.UPCOMING)


def ended_by_cancel(tournament: Tournament, now: float) -> float:
    """When a tournament cancelled at ``now`` ended: then, or at its end if that came first
    (its status not yet moved on by a sweep)."""
    return min(now, tournament.ends_at)


def _refuse(code: str, message: str, field: str) -> CommandError:
    return CommandError(code, message, field=field, status=422)


def clean_name(name: str | None, preset: str) -> str:
    """The name trimmed, 1 to ``NAME_MAX`` printable characters; the preset's English name
    and "arena" when none is given (``"VOG with boneyard arena"``)."""
    if name is None:
        return f"{NAMES[preset]} arena"
    cleaned = " ".join(name.split())
    if not cleaned:
        raise _refuse("name", "a tournament's name is 1 to 40 characters", "name")
    if not printable(cleaned):
        raise _refuse("name", "no control characters in a tournament's name", "name")
    if len(cleaned) > NAME_MAX:
        raise _refuse("name", f"a tournament's name is at most {NAME_MAX} characters", "name")
    return cleaned


def new_tournament(body: TournamentIn, creator: Guest, now: float) -> Tournament:
    """The tournament ``body`` asks for; CommandError naming the field that is wrong. Its
    table is checked as a new table's (``lobby.new_table``): the preset, the player count,
    the target, the timer."""
    if not MIN_TIMER <= body.timer <= MAX_TIMER:
        raise _refuse("timer", f"a turn is {MIN_TIMER:g} to {MAX_TIMER:g} seconds", "timer")
    if not 0 <= body.starts_in <= STARTS_IN_MAX:
        raise _refuse("starts_in", f"it starts in 0 to {STARTS_IN_MAX} minutes", "starts_in")
    if not MINUTES[0] <= body.minutes <= MINUTES[1]:
        raise _refuse("minutes", f"it lasts {MINUTES[0]} to {MINUTES[1]} minutes", "minutes")
    for option in body.options:
        if option != "target":
            raise _refuse("ruleset", "a tournament chooses its target only", f"options.{option}")
    options = {"target": body.options.get("target", "round")}
    if body.preset not in PRESETS:
        raise _refuse("ruleset", f"{body.preset!r} is not one of {', '.join(PRESETS)}", "preset")
    players = body.players if body.players is not None else PRESETS[body.preset].players[-1]
    if players not in PRESETS[body.preset].players:
        raise _refuse("ruleset", f"{body.preset} is not played by {players}", "players")
    name = clean_name(body.name, body.preset)
    seats = [SeatIn(kind="human")] + [SeatIn(kind="invite")] * (players - 1)
    new_table(
        TableIn(preset=body.preset, options=options, seats=seats, timer=body.timer), creator, now, 0
    )
    starts_at = now + 60 * body.starts_in
    return Tournament(
        id=secrets.token_urlsafe(6).replace("-", "x").replace("_", "y"),
        name=name,
        creator=creator.id,
        preset=body.preset,
        players=players,
        options=options,
        timer=body.timer,
        rated=body.rated,
        status=Status.RUNNING if body.starts_in == 0 else Status.UPCOMING,
        starts_at=starts_at,
        ends_at=starts_at + 60 * body.minutes,
        created_at=now,
    )


# --- scoring and standings ------------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    """An entrant's tally: points, games, wins, and wins in a row now."""

    score: int = 0
    games: int = 0
    wins: int = 0
    streak: int = 0

    @property
    def fire(self) -> bool:
        """Its next win counts ``FIRE_WIN``."""
        return self.streak >= ON_FIRE


def scored(before: Score, outcome: Outcome) -> tuple[Score, int]:
    """The tally after a game of ``outcome``, and the points it scored."""
    if outcome == Outcome.WIN:
        points = FIRE_WIN if before.fire else WIN
        after = Score(before.score + points, before.games + 1, before.wins + 1, before.streak + 1)
        return after, points
    points = DRAW if outcome == Outcome.DRAW else LOSS
    return Score(before.score + points, before.games + 1, before.wins, 0), points


def absent(plays: Iterable[tuple[int, str | None]]) -> set[int]:
    """The seats absent from a game, of its log's plays ``(seat, stand)`` (``stand``: the
    entry's ``data["stand"]``, ``"timeout"`` or ``"away"`` when the server played for a
    human seat; none for its player's own play, or a bot's): those that played and made
    none of their plays themselves. Every play counts, a forced one too (a single legal
    tile: its player lays it, or lets the clock or a stand-in lay it); draws and passes
    are the rules' own, within a play's events, never plays. A seat that laid no tile at
    all (it never could) is not absent."""
    played: set[int] = set()
    themselves: set[int] = set()
    for seat, stand in plays:
        played.add(seat)
        if stand is None:
            themselves.add(seat)
    return played - themselves


def standing_key(score: Score, joined_at: float, player: str) -> tuple[Any, ...]:
    """The standings' order: score, then wins (more first), then games (fewer first), then
    who joined first."""
    return (-score.score, -score.wins, score.games, joined_at, player)


# --- who sits down together -----------------------------------------------------------------


@dataclass(frozen=True)
class Free:
    """A player of a running tournament who may be seated now (joined, active, online with
    a lobby socket, at no table)."""

    player: str
    name: str
    since: float
    """Free since (joined, or last game ended; the start if later)."""
    last: frozenset[str] = frozenset()
    """Who sat at its last game of the tournament, itself included (nobody before one)."""


def groups(
    free: Sequence[Free],
    size: int,
    now: float,
    apart: Collection[tuple[str, str]] = (),
) -> list[list[Free]]:
    """The tables to make now of ``free`` (in standings order, best first), each a group of
    ``size`` neighbours in the standings, no player in two. A group is not one of its
    players' last group when another may be made (not the same opponent twice running),
    nor holds two of whom one blocks the other (``apart``). For 3 or 4 seats, once two or
    more left over have waited ``FILL_SECONDS``, they sit down together and bots fill the
    rest. Nothing when fewer than two are free."""
    left = list(free)
    made: list[list[Free]] = []
    while len(left) >= size:
        group = _around(left[0], left[1:], size, apart)
        if group is None:
            left = left[1:]  # it waits: nobody near it may sit with it now
            continue
        made.append(group)
        left = [f for f in left if f not in group]
    if size > 2:
        waited = [f for f in free if f not in _seated(made) and now - f.since >= FILL_SECONDS]
        while len(waited) >= 2:
            group = _around(waited[0], waited[1:], min(size - 1, len(waited)), apart, fill=True)
            if group is None:
                waited = waited[1:]
                continue
            made.append(group)
            waited = [f for f in waited if f not in group]
    return made


def _seated(made: list[list[Free]]) -> set[Free]:
    return {f for group in made for f in group}


def _around(
    first: Free,
    others: Sequence[Free],
    size: int,
    apart: Collection[tuple[str, str]],
    *,
    fill: bool = False,
) -> list[Free] | None:
    """The group of ``size`` formed around ``first`` with its nearest ``others``: the
    nearest that is nobody's last group, else the nearest allowed; None if none is.
    ``fill``: as many as allowed, down to two (bots take the rest)."""
    near = list(others[:NEAR])
    for count in range(size - 1, 0 if fill else size - 2, -1):
        allowed = [
            [first, *rest]
            for rest in itertools.combinations(near, count)
            if not _blocked([first, *rest], apart)
        ]
        fresh = [g for g in allowed if not _repeat(g)]
        if fresh or allowed:
            return (fresh or allowed)[0]
    return None


def _blocked(group: Sequence[Free], apart: Collection[tuple[str, str]]) -> bool:
    return any((a.player, b.player) in apart for a in group for b in group if a is not b)


def _repeat(group: Sequence[Free]) -> bool:
    """Whether the group is one of its players' last group again."""
    players = frozenset(f.player for f in group)
    return any(f.last and players <= f.last for f in group)


def table_of(tournament: Tournament, group: Sequence[Free], now: float, seed: int) -> Table:
    """The table of a group: every player seated, bots (``FILL_BOT``) in the seats left
    over, in an order drawn from ``seed`` (in Kozel, who partners whom), the tournament's
    ruleset, timer and rating; it starts at once."""
    seats = [SeatIn(kind="human")] + [SeatIn(kind="invite") for _ in group[1:]]
    seats += [SeatIn(kind="bot", bot=FILL_BOT) for _ in range(tournament.players - len(group))]
    body = TableIn(
        preset=tournament.preset,
        options=tournament.options,
        seats=seats,
        timer=tournament.timer,
        rated=tournament.rated,
    )
    first = group[0]
    others = [Player(f.player, f.name, True) for f in group[1:]]
    table = seated_table(body, Guest(first.player, first.name, now, True), others, now, seed)
    table = seats_drawn(table, seed)
    table.tournament = tournament.id
    table.tournament_name = tournament.name
    return table
