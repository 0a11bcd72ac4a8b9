"""Tournaments in the database (``tournaments``, ``tournament_players``,
``tournament_games``), shared by every process of a site.

Every change is one transaction. Pairing (``take``) locks the tournament's row (``FOR
UPDATE`` on PostgreSQL; SQLite writes one at a time), reads again who is free, and marks the
players seated and the games made before any table exists, so two processes pairing at once
never seat a player twice. Scoring a game (``score``) sets its ``ended_at`` in the
transaction that adds its points, and does nothing if it is set: a game counts once,
whichever process (its table's owner at its end, or any at start-up) scores it.

Entrants are kept by player id, never by name (the name shown is the account's), so that an
erasure deletes its rows (``forget``) and nothing else names it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from doublesix.ratings import Outcome, seat_outcomes
from doublesix.rules.ruleset import Ruleset, RulesetError
from doublesix.server import metrics, schema
from doublesix.server.errors import CommandError
from doublesix.server.store import SqlStore
from doublesix.server.tournaments import (
    CURRENT_SHOWN,
    DAY,
    FINISHED_SHOWN,
    FULL,
    GAMES_SHOWN,
    OPEN_AT_ONCE,
    OVER,
    PER_DAY,
    PLAYED_SHOWN,
    STANDINGS_SHOWN,
    Free,
    Score,
    Status,
    Tournament,
    Withdrawn,
    absent,
    ended_by_cancel,
    needs_operator,
    scored,
    standing_key,
)
from doublesix.table.model import JSON, EventKind, SeatKind, Table, TableStatus

T, P, G = schema.tournaments, schema.tournament_players, schema.tournament_games
LIVE = (TableStatus.OPEN.value, TableStatus.PLAYING.value)
ORPHAN_SECONDS = 60.0
"""A game paired whose table was not stored this long after (its process died in between)
ends without a result, and frees its players."""


def _tournament(row: Any) -> Tournament:
    return Tournament(
        id=row.id,
        name=row.name,
        creator=row.creator_id,
        preset=row.preset,
        players=row.players,
        options=dict(row.options),
        timer=row.timer,
        rated=bool(row.rated),
        status=Status(row.status),
        starts_at=row.starts_at,
        ends_at=row.ends_at,
        created_at=row.created_at,
        ended_at=row.ended_at,
    )


def _locked(store: SqlStore, query: sa.Select[Any]) -> sa.Select[Any]:
    return query if store.sqlite else query.with_for_update()


async def add(store: SqlStore, tournament: Tournament) -> None:
    """Store a new tournament, unless its creator has ``OPEN_AT_ONCE`` that have not
    finished (409 ``tournaments_open``) or created ``PER_DAY`` in the last day (429
    ``too_many_tournaments``). The creator's account row is locked meanwhile, so that two
    processes count the same."""
    a = schema.accounts
    creator = tournament.creator
    async with store.writing() as conn:
        await conn.execute(_locked(store, sa.select(a.c.player_id).where(a.c.player_id == creator)))
        mine = T.c.creator_id == creator
        live = [Status.UPCOMING.value, Status.RUNNING.value]
        open_now = await conn.scalar(sa.select(sa.func.count()).where(mine, T.c.status.in_(live)))
        if (open_now or 0) >= OPEN_AT_ONCE:
            raise CommandError(
                "tournaments_open",
                f"at most {OPEN_AT_ONCE} of your tournaments may wait or run at once",
                status=409,
            )
        since = tournament.created_at - DAY
        today = await conn.scalar(sa.select(sa.func.count()).where(mine, T.c.created_at > since))
        if (today or 0) >= PER_DAY:
            metrics.refused("player:tournaments")
            raise CommandError(
                "too_many_tournaments", f"at most {PER_DAY} tournaments a day", status=429
            )
        await conn.execute(
            T.insert().values(
                id=tournament.id,
                name=tournament.name,
                creator_id=creator,
                preset=tournament.preset,
                players=tournament.players,
                options=tournament.options,
                timer=tournament.timer,
                rated=tournament.rated,
                status=tournament.status.value,
                starts_at=tournament.starts_at,
                ends_at=tournament.ends_at,
                created_at=tournament.created_at,
            )
        )


async def get(store: SqlStore, tournament_id: str) -> Tournament | None:
    async with store.engine.connect() as conn:
        row = (await conn.execute(sa.select(T).where(T.c.id == tournament_id))).first()
    return None if row is None else _tournament(row)


def not_found(tournament_id: str) -> CommandError:
    return CommandError("not_found", f"no tournament {tournament_id!r}", field="id", status=404)


def over(tournament: Tournament) -> CommandError:
    return CommandError("tournament_over", f"this tournament is {tournament.status}", status=409)


async def _lock(conn: AsyncConnection, store: SqlStore, tournament_id: str) -> Tournament:
    row = (await conn.execute(_locked(store, sa.select(T).where(T.c.id == tournament_id)))).first()
    if row is None:
        raise not_found(tournament_id)
    return _tournament(row)


async def join(store: SqlStore, tournament_id: str, player_id: str, now: float) -> Tournament:
    """The account joins (or, withdrawn, comes back with its score): refused once the
    tournament is over (or its end passed), or full. Joining again changes nothing."""
    async with store.writing() as conn:
        tournament = await _lock(conn, store, tournament_id)
        if tournament.status in OVER or now >= tournament.ends_at:
            raise over(tournament)
        mine = (P.c.tournament_id == tournament_id, P.c.player_id == player_id)
        row = (await conn.execute(sa.select(P.c.active).where(*mine))).first()
        if row is not None:
            if not row.active:
                await conn.execute(
                    P.update().where(*mine).values(active=True, withdrawn=None, free_since=now)
                )
            return tournament
        count = await conn.scalar(sa.select(sa.func.count()).where(mine[0]))
        if (count or 0) >= FULL:
            raise CommandError(
                "tournament_full", f"this tournament has its {FULL} players", status=409
            )
        await conn.execute(
            P.insert().values(
                tournament_id=tournament_id,
                player_id=player_id,
                joined_at=now,
                active=True,
                withdrawn=None,
                score=0,
                games=0,
                wins=0,
                streak=0,
                free_since=now,
                table_id=None,
                playing=False,
            )
        )
    return tournament


async def withdraw(store: SqlStore, tournament_id: str, player_id: str) -> Tournament:
    """The account is paired no more (its score stays; it may join again): 409
    ``not_joined`` if it never joined, ``tournament_over`` once it is over. Withdrawn
    already, it stays so for the reason it was."""
    async with store.writing() as conn:
        tournament = await _lock(conn, store, tournament_id)
        if tournament.status in OVER:
            raise over(tournament)
        mine = (P.c.tournament_id == tournament_id, P.c.player_id == player_id)
        if (await conn.execute(sa.select(P.c.active).where(*mine))).first() is None:
            raise CommandError("not_joined", "you have not joined this tournament", status=409)
        await conn.execute(
            P.update()
            .where(*mine, P.c.active.is_(True))
            .values(active=False, withdrawn=Withdrawn.SELF.value)
        )
    return tournament


async def cancel(
    store: SqlStore, tournament_id: str, player_id: str, operator: bool, now: float
) -> Tournament:
    """Cancel it at ``now``: its creator before its start, an operator any time before its
    end (``tournaments.needs_operator``; 403 ``not_yours``, 409 ``started``, 409
    ``tournament_over``). Games being played finish and count; nothing more is paired. It
    ended then (``ended_at``). The tournament as it was before."""
    async with store.writing() as conn:
        tournament = await _lock(conn, store, tournament_id)
        if tournament.status in OVER:
            raise over(tournament)
        if not operator and needs_operator(tournament, player_id):
            if tournament.creator != player_id:
                raise CommandError("not_yours", "only its creator cancels a tournament", status=403)
            raise CommandError("started", "a tournament is cancelled before its start", status=409)
        await conn.execute(
            T.update()
            .where(T.c.id == tournament_id)
            .values(status=Status.CANCELLED.value, ended_at=ended_by_cancel(tournament, now))
        )
    return tournament


async def live(store: SqlStore) -> list[Tournament]:
    """The tournaments upcoming or running (few: two an account at most)."""
    query = sa.select(T).where(T.c.status.in_([Status.UPCOMING.value, Status.RUNNING.value]))
    async with store.engine.connect() as conn:
        return [_tournament(r) for r in await conn.execute(query)]


async def advance(
    store: SqlStore, due: Sequence[tuple[str, Status, Status]], now: float
) -> list[str]:
    """Move each ``(id, from, to)`` of ``due`` on if it is still at ``from`` (a conditional
    UPDATE: any process may, once); the ids this call moved. A finished one ended at its
    ``ends_at`` (``ended_at``), whenever a sweep saw it."""
    moved = []
    async with store.writing() as conn:
        for tournament_id, was, to in due:
            values: dict[str, Any] = {"status": to.value}
            if to == Status.FINISHED:
                values["ended_at"] = T.c.ends_at
            done = await conn.execute(
                T.update().where(T.c.id == tournament_id, T.c.status == was.value).values(**values)
            )
            if done.rowcount == 1:
                moved.append(tournament_id)
    return moved


async def free(
    store: SqlStore, running: Collection[str], online: Collection[str]
) -> dict[str, list[str]]:
    """Per running tournament, those of ``online`` who are joined, active and not playing
    one of its games (read without a lock: the cheap first look)."""
    if not running or not online:
        return {}
    query = sa.select(P.c.tournament_id, P.c.player_id).where(
        P.c.tournament_id.in_(list(running)),
        P.c.player_id.in_(list(online)),
        P.c.active.is_(True),
        P.c.playing.is_(False),
    )
    found: dict[str, list[str]] = {}
    async with store.engine.connect() as conn:
        for row in await conn.execute(query):
            found.setdefault(row.tournament_id, []).append(row.player_id)
    return found


async def _free(
    conn: AsyncConnection, tournament: Tournament, candidates: Collection[str]
) -> list[Free]:
    """Those of ``candidates`` free to play now, in standings order: joined, active, their
    account open, and busy nowhere — no game of any tournament being played, no seat at a
    table open or being played (from the database, so that every process agrees)."""
    a, s, t = schema.accounts, schema.seats, schema.tables
    ids = list(candidates)
    rows = (
        await conn.execute(
            sa.select(P, a.c.name)
            .join(a, a.c.player_id == P.c.player_id)
            .where(
                P.c.tournament_id == tournament.id,
                P.c.player_id.in_(ids),
                P.c.active.is_(True),
                P.c.playing.is_(False),
                a.c.closed_at.is_(None),
            )
        )
    ).all()
    playing = set(
        (
            await conn.execute(
                sa.select(P.c.player_id).where(P.c.player_id.in_(ids), P.c.playing.is_(True))
            )
        ).scalars()
    )
    seated = set(
        (
            await conn.execute(
                sa.select(s.c.player_id)
                .join(t, t.c.id == s.c.table_id)
                .where(s.c.player_id.in_(ids), t.c.status.in_(LIVE))
            )
        ).scalars()
    )
    lasts = [r.table_id for r in rows if r.table_id is not None]
    last: dict[str, set[str]] = {}
    for seat in await conn.execute(
        sa.select(s.c.table_id, s.c.player_id).where(
            s.c.table_id.in_(lasts), s.c.kind == SeatKind.HUMAN.value
        )
    ):
        last.setdefault(seat.table_id, set()).add(seat.player_id)
    rows = sorted(rows, key=lambda r: standing_key(_score(r), r.joined_at, r.player_id))
    return [
        Free(
            r.player_id,
            r.name,
            max(r.free_since, tournament.starts_at),
            frozenset(last.get(r.table_id, ())),
        )
        for r in rows
        if r.player_id not in playing | seated
    ]


async def freed(store: SqlStore, tournament: Tournament, candidates: Collection[str]) -> list[Free]:
    """``_free`` without a lock (the cheap first look)."""
    async with store.engine.connect() as conn:
        return await _free(conn, tournament, candidates)


def _score(row: Any) -> Score:
    return Score(row.score, row.games, row.wins, row.streak)


async def take(
    store: SqlStore,
    tournament_id: str,
    candidates: Collection[str],
    make: Callable[[Tournament, list[Free]], list[Table]],
    now: float,
) -> list[Table]:
    """Pair, in one transaction that locks the tournament's row: who of ``candidates`` is
    free now is read again, ``make`` chooses the tables, and their players are marked
    seated and the games stored before the tables are made (``touring``): none of them is
    paired again meanwhile. None once the tournament is not running or its end passed."""
    async with store.writing() as conn:
        tournament = await _lock(conn, store, tournament_id)
        if tournament.status != Status.RUNNING or now >= tournament.ends_at:
            return []
        tables = make(tournament, await _free(conn, tournament, candidates))
        for table in tables:
            await conn.execute(
                G.insert().values(table_id=table.id, tournament_id=tournament_id, started_at=now)
            )
            players = [s.player for s in table.seats if s.kind == SeatKind.HUMAN]
            await conn.execute(
                P.update()
                .where(P.c.tournament_id == tournament_id, P.c.player_id.in_(players))
                .values(playing=True, table_id=table.id)
            )
    return tables


async def score(store: SqlStore, table_id: str, now: float) -> str | None:
    """Score the tournament game of ``table_id`` once its table is finished (or end it
    without a result once closed, or never made): each account seated gets its points
    (``tournaments.scored``) and is free again, and one that was absent from it
    (``tournaments.absent``: it let the clock or a stand-in make every play of its seat) is
    withdrawn for it (``Withdrawn.ABSENT``) until it joins again, so that the others do not
    wait for it game after game. One transaction; nothing if the game ended already. The
    tournament's id if this call ended it."""
    t, s = schema.tables, schema.seats
    async with store.writing() as conn:
        game = (
            await conn.execute(_locked(store, sa.select(G).where(G.c.table_id == table_id)))
        ).first()
        if game is None or game.ended_at is not None:
            return None
        table = (await conn.execute(sa.select(t).where(t.c.id == table_id))).first()
        if table is not None and table.status in LIVE:
            return None
        seats = (
            await conn.execute(sa.select(s).where(s.c.table_id == table_id).order_by(s.c.seat))
        ).all()
        outcomes = _outcomes(table)
        away = await _absent(conn, table_id)
        points: list[int | None] = [None] * len(seats)
        for seat in seats:
            if seat.kind != SeatKind.HUMAN.value or seat.player_id is None:
                continue
            mine = (P.c.tournament_id == game.tournament_id, P.c.player_id == seat.player_id)
            row = (await conn.execute(sa.select(P).where(*mine))).first()
            if row is None:
                continue  # erased meanwhile: it left the standings
            values: dict[str, Any] = {"free_since": now}
            if row.table_id == table_id:
                values["playing"] = False
            if seat.seat in away and row.active:
                values |= {"active": False, "withdrawn": Withdrawn.ABSENT.value}
            if outcomes is not None:
                after, points[seat.seat] = scored(_score(row), outcomes[seat.seat])
                values |= {
                    "score": after.score,
                    "games": after.games,
                    "wins": after.wins,
                    "streak": after.streak,
                }
            await conn.execute(P.update().where(*mine).values(**values))
        await conn.execute(
            G.update()
            .where(G.c.table_id == table_id)
            .values(ended_at=now, points=points if outcomes is not None else None)
        )
    return str(game.tournament_id)


async def _absent(conn: AsyncConnection, table_id: str) -> set[int]:
    """The seats of the table absent from its game (``tournaments.absent``), from its log's
    plays."""
    e = schema.events
    plays = await conn.execute(
        sa.select(e.c.seat, e.c.data).where(
            e.c.table_id == table_id, e.c.kind == EventKind.PLAY.value
        )
    )
    return absent((p.seat, p.data.get("stand")) for p in plays if p.seat is not None)


def _outcomes(table: Any) -> list[Outcome] | None:
    """Each seat's outcome of a finished game; None for a table closed (or never made)."""
    if table is None or table.status != TableStatus.FINISHED.value:
        return None
    result = table.result or {}
    if not result.get("finished"):
        return None
    try:
        return seat_outcomes(Ruleset.from_dict(table.ruleset), result)
    except RulesetError:
        return None


async def unsettled(store: SqlStore, now: float) -> list[str]:
    """The games not ended whose table is no longer played (finished, closed), or was never
    made (``ORPHAN_SECONDS``): what a stopped process, or a failed scoring, left. Few rows:
    those of the games being played."""
    t = schema.tables
    query = (
        sa.select(G.c.table_id, G.c.started_at, t.c.status)
        .outerjoin(t, t.c.id == G.c.table_id)
        .where(G.c.ended_at.is_(None))
    )
    async with store.engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [
        r.table_id
        for r in rows
        if (r.status is None and now - r.started_at >= ORPHAN_SECONDS)
        or (r.status is not None and r.status not in LIVE)
    ]


# --- what is shown ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    player: str
    name: str
    joined_at: float
    active: bool
    score: Score
    table: str | None
    """The table of its game being played now."""
    withdrawn: Withdrawn | None
    """Why it is not active (None while it is)."""

    def key(self) -> tuple[Any, ...]:
        return standing_key(self.score, self.joined_at, self.player)


async def _entrants(conn: AsyncConnection, tournament_id: str) -> list[Entrant]:
    """Its entrants in standings order."""
    a = schema.accounts
    rows = await conn.execute(
        sa.select(P, a.c.name)
        .join(a, a.c.player_id == P.c.player_id)
        .where(P.c.tournament_id == tournament_id)
    )
    found = [
        Entrant(
            r.player_id,
            r.name,
            r.joined_at,
            bool(r.active),
            _score(r),
            r.table_id if r.playing else None,
            None if r.withdrawn is None else Withdrawn(r.withdrawn),
        )
        for r in rows
    ]
    return sorted(found, key=Entrant.key)


async def _summary(
    conn: AsyncConnection, tournament: Tournament, now: float
) -> tuple[JSON, list[Entrant]]:
    a = schema.accounts
    entrants = await _entrants(conn, tournament.id)
    playing = await conn.scalar(
        sa.select(sa.func.count()).where(G.c.tournament_id == tournament.id, G.c.ended_at.is_(None))
    )
    creator = None
    if tournament.creator is not None:
        creator = await conn.scalar(sa.select(a.c.name).where(a.c.player_id == tournament.creator))
    leader = entrants[0].name if entrants and entrants[0].score.games > 0 else None
    return {
        "id": tournament.id,
        "name": tournament.name,
        "creator": creator,
        "preset": tournament.preset,
        "players": tournament.players,
        "options": tournament.options,
        "timer": tournament.timer,
        "rated": tournament.rated,
        "status": tournament.status.value,
        "starts_at": tournament.starts_at,
        "ends_at": tournament.ends_at,
        "ended_at": tournament.ended_at,
        "entrants": len(entrants),
        "playing": playing or 0,
        "leader": leader,
        "now": now,
    }, entrants


async def summary(store: SqlStore, tournament: Tournament, now: float) -> JSON:
    """The protocol's ``Summary``."""
    async with store.engine.connect() as conn:
        return (await _summary(conn, tournament, now))[0]


async def listing(store: SqlStore, now: float) -> JSON:
    """``{"upcoming", "running", "finished"}``: the summaries of the ``CURRENT_SHOWN``
    tournaments to come and running that start soonest, and of the ``FINISHED_SHOWN``
    finished or cancelled that ended last (``ended_at``: a cancelled one when it was
    cancelled)."""
    over = [s.value for s in OVER]
    async with store.engine.connect() as conn:
        current = (
            await conn.execute(
                sa.select(T)
                .where(T.c.status.not_in(over))
                .order_by(T.c.starts_at, T.c.id)
                .limit(CURRENT_SHOWN)
            )
        ).all()
        ended = (
            await conn.execute(
                sa.select(T)
                .where(T.c.status.in_(over))
                .order_by(T.c.ended_at.desc(), T.c.id)
                .limit(FINISHED_SHOWN)
            )
        ).all()
        shown: JSON = {"upcoming": [], "running": [], "finished": []}
        for row in [*current, *ended]:
            tournament = _tournament(row)
            part = "finished" if tournament.status in OVER else tournament.status.value
            shown[part].append((await _summary(conn, tournament, now))[0])
    return shown


async def detail(store: SqlStore, tournament: Tournament, viewer: str | None, now: float) -> JSON:
    """The protocol's ``Tournament``: the summary, the standings (the first
    ``STANDINGS_SHOWN``), its latest ``GAMES_SHOWN`` games, and the viewer's place."""
    s = schema.seats
    async with store.engine.connect() as conn:
        shown, entrants = await _summary(conn, tournament, now)
        games = (
            await conn.execute(
                sa.select(G)
                .where(G.c.tournament_id == tournament.id)
                .order_by(G.c.started_at.desc(), G.c.table_id)
                .limit(GAMES_SHOWN)
            )
        ).all()
        seats: dict[str, list[Any]] = {}
        for seat in await conn.execute(
            sa.select(s.c.table_id, s.c.seat, s.c.kind, s.c.bot, s.c.name, s.c.outcome)
            .where(s.c.table_id.in_([g.table_id for g in games]))
            .order_by(s.c.table_id, s.c.seat)
        ):
            seats.setdefault(seat.table_id, []).append(seat)
    standings = [
        {
            "rank": rank,
            "name": e.name,
            "score": e.score.score,
            "games": e.score.games,
            "wins": e.score.wins,
            "streak": e.score.streak,
            "fire": e.score.fire,
            "active": e.active,
            "table": e.table,
        }
        for rank, e in enumerate(entrants, 1)
    ]
    me = None
    if viewer is not None:
        mine = [(rank, e) for rank, e in enumerate(entrants, 1) if e.player == viewer]
        if mine:
            rank, e = mine[0]
            me = {
                "joined": True,
                "active": e.active,
                "rank": rank,
                "score": e.score.score,
                "table": e.table,
                "withdrawn": e.withdrawn,
            }
        else:
            me = {
                "joined": False,
                "active": False,
                "rank": None,
                "score": 0,
                "table": None,
                "withdrawn": None,
            }
    return shown | {
        "standings": standings[:STANDINGS_SHOWN],
        "games": [
            {
                "table": g.table_id,
                "players": [seat.name for seat in seats.get(g.table_id, [])],
                "bots": [_level(seat) for seat in seats.get(g.table_id, [])],
                "result": [seat.outcome for seat in seats.get(g.table_id, [])],
                "points": g.points,
                "finished": g.ended_at is not None,
                "started_at": g.started_at,
            }
            for g in games
        ],
        "me": me,
    }


def _level(seat: Any) -> str | None:
    """A bot's level at a game's seat; None for a player's seat."""
    return str(seat.bot) if seat.kind == SeatKind.BOT.value else None


# --- accounts closed or erased ---------------------------------------


async def withdraw_everywhere(conn: AsyncConnection, player_id: str) -> None:
    """A closed account (its player's close, a ban, an erasure) is paired no more, in the
    transaction that closes it."""
    await conn.execute(
        P.update()
        .where(P.c.player_id == player_id)
        .values(active=False, withdrawn=Withdrawn.CLOSED.value)
    )


async def forget(conn: AsyncConnection, player_id: str, rename: Callable[[str], str]) -> None:
    """An erased account leaves the standings of every tournament; those it created show no
    creator, and their names its pseudonym for its name (``rename``)."""
    await conn.execute(P.delete().where(P.c.player_id == player_id))
    for row in (
        await conn.execute(sa.select(T.c.id, T.c.name).where(T.c.creator_id == player_id))
    ).all():
        await conn.execute(
            T.update().where(T.c.id == row.id).values(creator_id=None, name=rename(row.name))
        )


# --- a player's page --------------------------------------------------------------------------


async def played(store: SqlStore, player_id: str) -> list[JSON]:
    """The latest ``PLAYED_SHOWN`` tournaments the account joined, the latest joined first,
    each with its place in the standings (``standing_key``, as its page orders them): None
    while upcoming, or before any of its games is scored. Two queries, whatever the count:
    its rows, then every entrant of those tournaments."""
    a = schema.accounts
    async with store.engine.connect() as conn:
        mine = (
            await conn.execute(
                sa.select(T, P.c.joined_at.label("mine_joined"))
                .join(P, P.c.tournament_id == T.c.id)
                .where(P.c.player_id == player_id)
                .order_by(P.c.joined_at.desc(), T.c.id)
                .limit(PLAYED_SHOWN)
            )
        ).all()
        ids = [r.id for r in mine]
        everyone = (
            await conn.execute(
                sa.select(P)
                .join(a, a.c.player_id == P.c.player_id)
                .where(P.c.tournament_id.in_(ids))
            )
        ).all()
    entrants: dict[str, list[Any]] = {}
    for row in everyone:
        entrants.setdefault(row.tournament_id, []).append(row)
    shown = []
    for t in mine:
        rows = sorted(
            entrants.get(t.id, []),
            key=lambda r: standing_key(_score(r), r.joined_at, r.player_id),
        )
        ranks = [i for i, r in enumerate(rows, 1) if r.player_id == player_id]
        me = rows[ranks[0] - 1] if ranks else None
        begun = t.status != Status.UPCOMING.value and any(r.games for r in rows)
        shown.append(
            {
                "id": t.id,
                "name": t.name,
                "preset": t.preset,
                "players": t.players,
                "status": t.status,
                "starts_at": t.starts_at,
                "ends_at": t.ends_at,
                "rank": ranks[0] if ranks and begun else None,
                "entrants": len(rows),
                "score": me.score if me else 0,
                "games": me.games if me else 0,
                "wins": me.wins if me else 0,
                "active": bool(me.active) if me else False,
            }
        )
    return shown
