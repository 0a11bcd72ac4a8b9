"""The ratings in the database: a finished rated game rated once, leaderboards, player pages.

``rate_table`` rates one finished game in ONE transaction: it writes the
game's ``rating_changes`` rows (primary key: table and player) together
with the players' new ``ratings``, and does nothing if the table has
changes already. The host calls it when a rated table's game is finished
(``TableHost``, through ``Shell.finished``), and ``rate_unrated`` at every
start-up for each finished rated table without changes: a process killed
between the game's last commit and its rating loses nothing, and since the
primary key refuses a second set of changes, several processes rating the
same table at once count it once (the loser of the race rolls back and,
retrying, finds the changes there).

A table is rated when it is ``rated``, finished, and every human seat is an
account (a row of ``accounts``); bots play with their fixed ratings
(``ratings.BOT_RATINGS``) and are never written.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson
import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection

from doublesix.ratings import (
    BOT_RATINGS,
    PROVISIONAL_GAMES,
    Family,
    Outcome,
    ShownRating,
    Skill,
    bot_skill,
    family_of,
    rate_game,
    seat_outcomes,
    shown,
)
from doublesix.rules.ruleset import Ruleset, RulesetError
from doublesix.server import schema
from doublesix.server.account_names import name_key
from doublesix.server.store import SqlStore
from doublesix.table.model import JSON, SeatKind, Table, TableStatus

log = logging.getLogger(__name__)

ATTEMPTS = 5
"""Tries of a rating's transaction that met another writer (a race for the same rows)."""
LEADERBOARD_SIZE = 100
RECENT_GAMES = 50
"""Games a player page lists, the newest first."""
HISTORY_POINTS = 500
"""Rating changes a player page draws per variant, the newest."""


async def is_account(store: SqlStore, player_id: str) -> bool:
    a = schema.accounts
    async with store.engine.connect() as conn:
        found = await conn.execute(sa.select(a.c.player_id).where(a.c.player_id == player_id))
        return found.first() is not None


async def account_named(store: SqlStore, name: str) -> str | None:
    """The player id of the account ``name`` (any case, look-alikes folded), None if none."""
    a = schema.accounts
    async with store.engine.connect() as conn:
        found = await conn.execute(sa.select(a.c.player_id).where(a.c.name_key == name_key(name)))
        return found.scalar()


async def find_accounts(store: SqlStore, prefix: str, limit: int) -> list[str]:
    """The names of the accounts that begin with ``prefix`` (any case, look-alikes folded, and
    ``_`` a letter, not a wildcard), in the order of their keys; at most ``limit``."""
    async with store.engine.connect() as conn:
        return list((await conn.execute(finding(prefix, limit))).scalars())


def finding(prefix: str, limit: int) -> sa.Select[Any]:
    """``find_accounts``'s query (a range of ``ix_accounts_name_key_pattern``)."""
    a = schema.accounts
    return (
        sa.select(a.c.name)
        .where(a.c.name_key.startswith(name_key(prefix), autoescape=True), a.c.closed_at.is_(None))
        .order_by(a.c.name_key)
        .limit(limit)
    )


# --- rating a finished game -----------------------------------------------------------


async def rate_table(store: SqlStore, table_id: str, now: float) -> bool:
    """Rate the finished rated table ``table_id`` unless it is rated already or cannot be
    (see the module); True if this call wrote its changes."""
    attempt = 1
    while True:
        try:
            async with store.writing() as conn:
                return await _rate(conn, table_id, now)
        except DBAPIError as e:  # a key taken meanwhile, a deadlock, SQLite busy: again
            if attempt >= ATTEMPTS:
                raise
            attempt += 1
            log.info("table %s: its rating met another writer (%s); again", table_id, e)


async def rate_finished(
    store: SqlStore, table: Table, clock: Callable[[], float], delay: float = 0.0
) -> None:
    """What the host calls once a game's end is stored: rate it if it is rated (after
    ``delay`` seconds: ``Settings.rating_delay``)."""
    if not table.rated:
        return
    if delay > 0:
        await asyncio.sleep(delay)
    await rate_table(store, table.id, clock())


async def rate_unrated(store: SqlStore, now: float) -> int:
    """Rate every finished rated table that has no changes yet; how many were rated."""
    t, c = schema.tables, schema.rating_changes
    query = sa.select(t.c.id).where(
        t.c.status == TableStatus.FINISHED.value,
        t.c.rated.is_(True),
        ~sa.exists().where(c.c.table_id == t.c.id),
    )
    async with store.engine.connect() as conn:
        ids = list((await conn.execute(query)).scalars())
    count = 0
    for table_id in ids:
        try:
            count += await rate_table(store, table_id, now)
        except Exception:
            log.exception("table %s could not be rated", table_id)
    return count


async def _rate(conn: AsyncConnection, table_id: str, now: float) -> bool:
    t, s, c, r = schema.tables, schema.seats, schema.rating_changes, schema.ratings
    table = (await conn.execute(sa.select(t).where(t.c.id == table_id).with_for_update())).first()
    if table is None or not table.rated or table.status != TableStatus.FINISHED.value:
        return False
    if (await conn.execute(sa.select(c.c.table_id).where(c.c.table_id == table_id))).first():
        return False  # rated already
    result = table.result or {}
    if not result.get("finished"):
        return False
    try:
        ruleset = Ruleset.from_dict(table.ruleset)
    except RulesetError:
        log.warning("table %s: its ruleset does not read; not rated", table_id)
        return False
    seats = (
        await conn.execute(sa.select(s).where(s.c.table_id == table_id).order_by(s.c.seat))
    ).all()
    humans = {row.seat: row.player_id for row in seats if row.kind == SeatKind.HUMAN.value}
    if len(seats) != ruleset.players or not humans:
        return False
    ids = sorted(set(humans.values()))
    accounts = set(
        (
            await conn.execute(
                sa.select(schema.accounts.c.player_id).where(schema.accounts.c.player_id.in_(ids))
            )
        ).scalars()
    )
    if None in humans.values() or len(ids) != len(humans) or accounts != set(ids):
        log.warning("table %s: a human seat is not a distinct account; not rated", table_id)
        return False
    family = family_of(ruleset)
    rows = {
        row.player_id: row
        for row in (
            await conn.execute(
                sa.select(r)
                .where(r.c.player_id.in_(ids), r.c.variant == family.value)
                .order_by(r.c.player_id)
                .with_for_update()
            )
        ).all()
    }
    before = [
        _skill(rows.get(humans[seat])) if seat in humans else bot_skill(row.bot)
        for seat, row in enumerate(seats)
    ]
    fixed = [seat not in humans for seat in range(ruleset.players)]
    after = rate_game(ruleset, result, before, fixed)
    outcomes = seat_outcomes(ruleset, result)
    # the changes first: if another process rated the table meanwhile, the key refuses them
    await conn.execute(
        c.insert(),
        [
            {
                "table_id": table_id,
                "player_id": player,
                "variant": family.value,
                "outcome": outcomes[seat].value,
                "mu_before": before[seat].mu,
                "sigma_before": before[seat].sigma,
                "mu": after[seat].mu,
                "sigma": after[seat].sigma,
                "at": now,
            }
            for seat, player in sorted(humans.items())
        ],
    )
    for seat, player in sorted(humans.items()):
        outcome = outcomes[seat]
        counts = {
            "wins": int(outcome is Outcome.WIN),
            "losses": int(outcome is Outcome.LOSS),
            "draws": int(outcome is Outcome.DRAW),
        }
        values = {"mu": after[seat].mu, "sigma": after[seat].sigma, "updated_at": now}
        old = rows.get(player)
        if old is None:
            await conn.execute(
                r.insert().values(
                    player_id=player, variant=family.value, games=1, **counts, **values
                )
            )
        else:
            await conn.execute(
                r.update()
                .where(r.c.player_id == player, r.c.variant == family.value)
                .values(
                    games=old.games + 1,
                    wins=old.wins + counts["wins"],
                    losses=old.losses + counts["losses"],
                    draws=old.draws + counts["draws"],
                    **values,
                )
            )
    return True


def _skill(row: Any) -> Skill:
    return Skill() if row is None else Skill(row.mu, row.sigma)


# --- reading ---------------------------------------------------------------------------


async def shown_ratings(
    store: SqlStore, player_ids: Iterable[str]
) -> dict[str, dict[Family, ShownRating]]:
    """The rating in every variant of each account among ``player_ids`` (the lobby's "who is
    online"): where an account has no games, the starting rating, provisional; guests are
    left out."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    a, r = schema.accounts, schema.ratings
    query = (
        sa.select(a.c.player_id, r.c.variant, r.c.mu, r.c.sigma, r.c.games)
        .select_from(a.outerjoin(r, r.c.player_id == a.c.player_id))
        .where(a.c.player_id.in_(ids))
    )
    async with store.engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    found: dict[str, dict[Family, ShownRating]] = {}
    for row in rows:
        mine = found.setdefault(row.player_id, {f: shown(Skill(), 0) for f in Family})
        if row.variant is not None:  # None: an account without a rating yet
            mine[Family(row.variant)] = shown(Skill(row.mu, row.sigma), row.games)
    return found


@dataclass(frozen=True)
class Standing:
    rank: int
    name: str
    shown: ShownRating
    wins: int
    losses: int
    draws: int

    def to_json(self) -> JSON:
        return {
            "rank": self.rank,
            "name": self.name,
            **self.shown.to_json(),
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
        }


async def leaderboard(
    store: SqlStore, variant: Family, limit: int = LEADERBOARD_SIZE
) -> list[Standing]:
    """The accounts rated in ``variant``, best first: the known ratings, then the
    provisional ones (a lucky first game does not top the board)."""
    a, r = schema.accounts, schema.ratings
    provisional = sa.case((r.c.games < PROVISIONAL_GAMES, 1), else_=0)
    query = (
        sa.select(a.c.name, r.c.mu, r.c.sigma, r.c.games, r.c.wins, r.c.losses, r.c.draws)
        .select_from(r.join(a, a.c.player_id == r.c.player_id))
        .where(r.c.variant == variant.value, a.c.closed_at.is_(None))
        .order_by(provisional, r.c.mu.desc(), a.c.name_key)
        .limit(limit)
    )
    async with store.engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [
        Standing(
            rank,
            row.name,
            shown(Skill(row.mu, row.sigma), row.games),
            row.wins,
            row.losses,
            row.draws,
        )
        for rank, row in enumerate(rows, 1)
    ]


def bots_json() -> list[JSON]:
    """The bots' fixed ratings, shown apart from the players'."""
    return [{"bot": level, "rating": round(skill.mu)} for level, skill in BOT_RATINGS.items()]


async def player_json(store: SqlStore, name: str) -> JSON | None:
    """The player page's data of the account ``name`` (any case); None if there is none, and
    only ``{"name", "closed": true}`` for a closed one."""
    a, r, c = schema.accounts, schema.ratings, schema.rating_changes
    async with store.engine.connect() as conn:
        account = (await conn.execute(sa.select(a).where(a.c.name_key == name_key(name)))).first()
        if account is None:
            return None
        if account.closed_at is not None:
            return {"name": account.name, "closed": True}
        pid = account.player_id
        ratings = (
            await conn.execute(sa.select(r).where(r.c.player_id == pid).order_by(r.c.variant))
        ).all()
        changes = [  # each variant's latest HISTORY_POINTS, not every game ever rated
            change
            for row in ratings
            for change in await conn.execute(
                sa.select(c)
                .where(c.c.player_id == pid, c.c.variant == row.variant)
                .order_by(c.c.at.desc(), c.c.table_id)
                .limit(HISTORY_POINTS)
            )
        ]
        counts = await outcome_counts(conn, pid)
        games, more = await _games(conn, pid, None, RECENT_GAMES)
    history: dict[str, list[JSON]] = {}
    for step in changes:  # newest first
        history.setdefault(step.variant, []).append(
            {
                "at": step.at,
                "before": round(step.mu_before),
                "rating": round(step.mu),
                "table": step.table_id,
                "outcome": step.outcome,
            }
        )
    return {
        "name": account.name,
        "since": account.created_at,
        "ratings": [
            {
                "variant": row.variant,
                **shown(Skill(row.mu, row.sigma), row.games).to_json(),
                "wins": row.wins,
                "losses": row.losses,
                "draws": row.draws,
            }
            for row in ratings
        ],
        "history": {variant: points[::-1] for variant, points in history.items()},
        "games": games,
        "more_games": more,
        "counts": {
            "games": sum(counts.values()),
            "wins": counts[Outcome.WIN],
            "losses": counts[Outcome.LOSS],
            "draws": counts[Outcome.DRAW],
        },
    }


async def outcome_counts(conn: AsyncConnection, player_id: str) -> dict[Outcome, int]:
    """How many finished games ``player_id`` won, lost and drew: counted from the outcomes
    kept with the seats (``ix_seats_player_outcome``), without reading the games."""
    s = schema.seats
    counts = {o: 0 for o in Outcome}
    query = sa.select(s.c.outcome, sa.func.count()).where(*_finished_by(player_id))
    for outcome, count in await conn.execute(query.group_by(s.c.outcome)):
        counts[Outcome(outcome)] = count
    return counts


def _finished_by(player_id: str) -> tuple[sa.ColumnElement[bool], ...]:
    """The seats of ``player_id`` in finished games: those with an outcome."""
    s = schema.seats
    return (
        s.c.player_id == player_id,
        s.c.outcome.is_not(None),
        s.c.kind == SeatKind.HUMAN.value,
    )


Cursor = tuple[float, str]
"""A game a list of games goes on after: its end (``at``) and its table's id."""


async def finished(
    conn: AsyncConnection,
    pid: str,
    before: Cursor | None,
    limit: int,
    together_with: str | None = None,
) -> tuple[list[Any], bool]:
    """The finished games of ``pid`` (rows: the table's id, preset, ruleset, rated, result,
    ``updated_at``, and the player's seat and outcome), newest first, after the game
    ``before`` (the last one a page showed) if given, and only those where the player
    ``together_with`` sat too if given; at most ``limit``, and whether there are more."""
    t, s = schema.tables, schema.seats
    query = (
        sa.select(
            t.c.id,
            t.c.preset,
            t.c.ruleset,
            t.c.rated,
            t.c.result,
            t.c.updated_at,
            s.c.seat,
            s.c.outcome,
        )
        .select_from(s.join(t, t.c.id == s.c.table_id))
        .where(*_finished_by(pid))
        .order_by(t.c.updated_at.desc(), t.c.id)
        .limit(limit + 1)
    )
    if together_with is not None:
        other = schema.seats.alias("other")
        query = query.where(
            sa.exists().where(
                other.c.table_id == s.c.table_id,
                other.c.player_id == together_with,
                other.c.kind == SeatKind.HUMAN.value,
            )
        )
    if before is not None:
        at, table = before
        query = query.where(
            sa.or_(t.c.updated_at < at, sa.and_(t.c.updated_at == at, t.c.id > table))
        )
    rows = (await conn.execute(query)).all()
    return list(rows[:limit]), len(rows) > limit


async def _games(
    conn: AsyncConnection,
    pid: str,
    before: Cursor | None,
    limit: int,
    together_with: str | None = None,
) -> tuple[list[JSON], bool]:
    """The finished games of ``pid`` as a player's page lists them (``finished``)."""
    s, c = schema.seats, schema.rating_changes
    rows, more = await finished(conn, pid, before, limit, together_with)
    ids = [row.id for row in rows]
    if not ids:
        return [], more
    seats = await conn.execute(
        sa.select(s.c.table_id, s.c.seat, s.c.name, s.c.bot)
        .where(s.c.table_id.in_(ids))
        .order_by(s.c.table_id, s.c.seat)
    )
    names: dict[str, list[JSON]] = {}
    for seat in seats:
        names.setdefault(seat.table_id, []).append(
            {"seat": seat.seat, "name": seat.name, "bot": seat.bot}
        )
    changes = await conn.execute(
        sa.select(c.c.table_id, c.c.mu, c.c.mu_before).where(
            c.c.player_id == pid, c.c.table_id.in_(ids)
        )
    )
    change_of = {row.table_id: round(row.mu - row.mu_before) for row in changes}
    games: list[JSON] = []
    for row in rows:
        family = _family(row.ruleset)
        games.append(
            {
                "table": row.id,
                "preset": row.preset,
                "variant": None if family is None else family.value,
                "rated": bool(row.rated),
                "seat": row.seat,
                "players": names.get(row.id, []),
                "outcome": row.outcome,
                "scores": (row.result or {}).get("scores", []),
                "at": row.updated_at,
                "rating_change": change_of.get(row.id),
            }
        )
    return games, more


async def player_games(
    store: SqlStore, player: str, before: Cursor | None, together_with: str | None
) -> JSON:
    """``{"games", "more"}``: a page of the finished games of the player ``player`` (an id)
    after the game ``before`` (the last one shown), only those with the player
    ``together_with`` if given."""
    async with store.engine.connect() as conn:
        games, more = await _games(conn, player, before, RECENT_GAMES, together_with)
    return {"games": games, "more": more}


def _family(ruleset: Mapping[str, Any]) -> Family | None:
    """A stored game's family; None if its ruleset does not read."""
    rules = stored_rules(ruleset)
    return None if rules is None else family_of(rules)


def stored_rules(ruleset: Mapping[str, Any]) -> Ruleset | None:
    """A stored game's ruleset; None if it does not read."""
    return _read(orjson.dumps(ruleset, option=orjson.OPT_SORT_KEYS))


@functools.lru_cache(maxsize=512)
def _read(stored: bytes) -> Ruleset | None:
    """A ruleset's JSON (keys sorted), read once for every game played by it: few rulesets
    are played, and a player's page reads one for each game it lists."""
    try:
        return Ruleset.from_dict(orjson.loads(stored))
    except RulesetError:
        return None
