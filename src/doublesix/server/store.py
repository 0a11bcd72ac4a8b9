"""Persistence behind one small interface: ``Store``.

``SqlStore`` implements it with SQLAlchemy 2 (async) for SQLite (aiosqlite,
the default: one file in the working folder) and PostgreSQL (asyncpg). The
schema is ``schema.py``; Alembic's migrations in ``migrations/`` create it
and run at start-up (``migrate``).

A table's writer (its host) is the only one to change it. ``commit``
writes a command's numbered log entries together with the table's new
summary in a single transaction and refuses them unless the stored table is
still at the version before them (``StaleVersionError``): an entry is never
applied twice, and a second writer cannot slip in between.

The commits of all tables that wait while a transaction is being written
go together into the next one (group commit): one BEGIN and one COMMIT for
many tables, every row checked as above. SQLite takes one writer at a time
anyway; on PostgreSQL a transaction's round trips, not its rows, are what
a move costs, so there a group is written by one statement on asyncpg
(``pg_commit``: each table's row checked and updated, and the entries of the
tables it updated inserted, whatever the size of the group; a stale table is
refused alone). A group that changes seats is written by one UPDATE ...
FROM unnest and one INSERT in a transaction. If a group fails, it is rolled
back and its commits are written one by one, so one table's failure never
becomes another's. Each ``commit`` returns only once its own transaction is
committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool

from doublesix.ratings import seat_outcomes
from doublesix.rules.ruleset import Ruleset, RulesetError
from doublesix.server import schema
from doublesix.server.metrics import group_committed
from doublesix.server.pg_commit import commit_group
from doublesix.table.model import Entry, EventKind, Seat, SeatKind, Table, TableStatus

DEFAULT_DB = "sqlite+aiosqlite:///doublesix.sqlite3"
"""The default database: ``doublesix.sqlite3`` in the working folder."""

MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass(frozen=True)
class Guest:
    """A player: a guest, or an account (``account``). ``id`` is the player id that
    tables seat; a guest who registers keeps it."""

    id: str
    name: str
    created_at: float
    account: bool = False
    operator: bool = False
    """An account the site's operator made one of the site's operators (its web pages)."""

    def own(self) -> dict[str, object]:
        """What the player's own pages are told of them (never the id: a guest's id is its
        cookie): the name, whether an account, and ``"operator": true`` for an operator."""
        shown: dict[str, object] = {"name": self.name, "account": self.account}
        if self.operator:
            shown["operator"] = True
        return shown


class StaleVersionError(RuntimeError):
    """The stored table is not at the version the writer expected."""


class TooManyUnfinished(RuntimeError):
    """``add_table`` refused a table: its creator has ``most`` unfinished tables already."""

    def __init__(self, most: int) -> None:
        super().__init__(f"{most} unfinished tables already")
        self.most = most


UNFINISHED = (TableStatus.OPEN, TableStatus.PLAYING)
MIGRATION_LOCK = 0x646F75626C65  # "double"
"""The PostgreSQL advisory lock a process holds while it migrates: the processes of a site
that start together migrate one after the other (each finds the schema as the one before
left it), where at once both would create the same tables."""


class Store(Protocol):
    async def migrate(self) -> None:
        """Create or upgrade the schema."""
        ...

    async def close(self) -> None: ...

    async def add_guest(self, guest: Guest) -> None: ...

    async def guest(self, guest_id: str) -> Guest | None: ...

    async def add_table(self, table: Table, *, most_unfinished: int | None = None) -> None:
        """Store a new table (version 0) and its seats (and, with several processes, this
        process's lease on it, in the same transaction: nobody else can take it first).

        ``most_unfinished``: refuse it (``TooManyUnfinished``) if its creator has that many
        unfinished tables already, whichever process runs them, counted in the same
        transaction (the creator's row locked on PostgreSQL): no two creations at once
        slip past the count."""
        ...

    async def commit(self, table: Table, entries: Sequence[Entry], *, seats: bool = False) -> None:
        """Append ``entries`` (numbered up to ``table.version``) and store the table's summary.

        ``seats``: the seats changed too. Raises ``StaleVersionError`` unless the stored
        table is at the version before the first entry.
        """
        ...

    async def table(self, table_id: str) -> Table | None: ...

    async def has_table(self, table_id: str) -> bool:
        """Whether a table ``table_id`` is stored (its page's status asks, not its contents)."""
        ...

    async def tables(self, statuses: Sequence[str], limit: int = 200) -> list[Table]:
        """Tables of these statuses, the most recently changed first."""
        ...

    async def events(self, table_id: str, after: int = 0) -> list[Entry]:
        """The table's log entries numbered above ``after``, in order."""
        ...

    async def entry(self, table_id: str, version: int) -> Entry | None:
        """The table's log entry ``version``, if there is one."""
        ...


def storable(text: str) -> bool:
    """Whether ``text`` may be a stored value: PostgreSQL's text holds no NUL character, so no
    id or name with one is stored, and one is never looked up (SQLite would find none; asyncpg
    raises)."""
    return "\x00" not in text


def database_url(url: str | None) -> str:
    """The SQLAlchemy URL for ``--db``: async drivers filled in, a bare path is a SQLite file."""
    if not url:
        return DEFAULT_DB
    if "://" not in url:
        return f"sqlite+aiosqlite:///{url}"
    scheme, rest = url.split("://", 1)
    if scheme == "sqlite":
        return f"sqlite+aiosqlite://{rest}"
    if scheme in ("postgresql", "postgres"):
        return f"postgresql+asyncpg://{rest}"
    return url


def upgrade_schema(connection: Connection, revision: str = "head") -> None:
    """Run the migrations up to ``revision`` on ``connection``."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


class SqlStore:
    """``Store`` on SQLAlchemy 2: SQLite through aiosqlite, PostgreSQL through asyncpg."""

    def __init__(self, url: str | None = None, *, schema_name: str | None = None) -> None:
        """``schema_name`` (PostgreSQL): keep every table in that schema (tests use one each)."""
        self.url = sa.make_url(database_url(url))
        kwargs: dict[str, Any] = {}
        self.sqlite = self.url.get_backend_name() == "sqlite"
        if self.sqlite:
            kwargs["connect_args"] = {"timeout": 30}
            if self.url.database in (None, "", ":memory:"):
                kwargs["poolclass"] = StaticPool
        elif schema_name is not None:
            kwargs["connect_args"] = {"server_settings": {"search_path": schema_name}}
        self.engine: AsyncEngine = create_async_engine(self.url, **kwargs)
        if self.sqlite:
            sa.event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        # SQLite takes one writer at a time: queue them here rather than in its busy loop.
        self._write_lock = asyncio.Lock() if self.sqlite else None
        self._waiting: list[_Pending] = []
        """Commits waiting for the next group."""
        self._flusher: asyncio.Task[None] | None = None
        self.fence: Fence | None = None
        """With several processes: commit only while this process holds the table's lease."""

    async def ping(self) -> None:
        """Ask the database the simplest question: an error if it does not answer."""
        async with self.engine.connect() as conn:
            await conn.execute(sa.text("SELECT 1"))

    @contextlib.asynccontextmanager
    async def writing(self) -> AsyncIterator[AsyncConnection]:
        """A transaction that writes (on SQLite, one at a time: others wait here, not in
        SQLite's busy loop); the players' modules write through it too."""
        if self._write_lock is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self._write_lock, self.engine.begin() as conn:
            yield conn

    async def migrate(self) -> None:
        async with self.writing() as conn:
            if not self.sqlite:  # several processes start at once (``serve --workers``)
                await conn.execute(sa.select(sa.func.pg_advisory_xact_lock(MIGRATION_LOCK)))
            await conn.run_sync(upgrade_schema)

    async def close(self) -> None:
        if self._flusher is not None:
            with contextlib.suppress(Exception):
                await self._flusher
        await self.engine.dispose()

    # --- guests ------------------------------------------------------------------

    async def add_guest(self, guest: Guest) -> None:
        async with self.writing() as conn:
            await conn.execute(
                schema.guests.insert().values(
                    id=guest.id, name=guest.name, created_at=guest.created_at
                )
            )

    async def guest(self, guest_id: str) -> Guest | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(sa.select(schema.guests).where(schema.guests.c.id == guest_id))
            ).first()
        return None if row is None else Guest(row.id, row.name, row.created_at)

    # --- tables --------------------------------------------------------------------

    async def add_table(self, table: Table, *, most_unfinished: int | None = None) -> None:
        async with self.writing() as conn:
            if most_unfinished is not None and table.creator is not None:
                if not self.sqlite:  # (SQLite writes one transaction at a time: ``writing``)
                    g = schema.guests
                    await conn.execute(
                        sa.select(g.c.id).where(g.c.id == table.creator).with_for_update()
                    )
                unfinished = (await conn.execute(_created(table.creator, UNFINISHED))).scalar_one()
                if unfinished >= most_unfinished:
                    raise TooManyUnfinished(most_unfinished)
            await conn.execute(schema.tables.insert().values(**_table_values(table), id=table.id))
            await _write_seats(conn, table)
            fence = self.fence
            if fence is not None:
                until = fence.clock() + fence.seconds
                await conn.execute(
                    schema.leases.insert().values(table_id=table.id, owner=fence.owner, until=until)
                )

    async def commit(self, table: Table, entries: Sequence[Entry], *, seats: bool = False) -> None:
        if not entries or entries[-1].version != table.version:
            raise ValueError(f"entries up to version {table.version} expected")
        pending = _Pending(table, tuple(entries), seats)
        pending.done = asyncio.get_running_loop().create_future()
        self._waiting.append(pending)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush(), name="store-group-commit")
        await asyncio.shield(pending.done)

    async def _flush(self) -> None:
        """Write the waiting commits in groups until none waits."""
        while self._waiting:
            group, self._waiting = self._waiting, []
            started = time.perf_counter()
            try:
                if self._in_one_statement(group):
                    written = await self._commit_in_one_statement(group)
                else:
                    async with self.writing() as conn:
                        await _write(conn, group, self.fence)
                    written = {one.table.id for one in group}
            except Exception:
                for one in group:  # the group is rolled back: one by one, each its own fate
                    try:
                        async with self.writing() as conn:
                            await _write(conn, [one], self.fence)
                    except Exception as e:
                        _settle(one, e)
                    else:
                        _settle(one, None)
            else:
                for one in group:
                    _settle(one, None if one.table.id in written else _stale(one))
            group_committed(len(group), time.perf_counter() - started)

    def _in_one_statement(self, group: Sequence[_Pending]) -> bool:
        """Whether ``pg_commit`` writes the group: PostgreSQL, each table once, no seats."""
        if self.url.get_backend_name() != "postgresql":
            return False
        once = len({one.table.id for one in group}) == len(group)
        return once and not any(one.seats for one in group)

    async def _commit_in_one_statement(self, group: Sequence[_Pending]) -> set[str]:
        async with self.engine.connect() as conn:
            driver = (await conn.get_raw_connection()).driver_connection
            assert driver is not None  # an open connection has its asyncpg connection
            return await commit_group(
                driver, [(one.table, one.entries) for one in group], self.fence
            )

    async def table(self, table_id: str) -> Table | None:
        if not storable(table_id):
            return None
        found = await self._tables(schema.tables.c.id == table_id, limit=1)
        return found[0] if found else None

    async def has_table(self, table_id: str) -> bool:
        t = schema.tables
        if not storable(table_id):
            return False
        async with self.engine.connect() as conn:
            found = await conn.scalar(sa.select(t.c.id).where(t.c.id == table_id))
        return found is not None

    async def tables(self, statuses: Sequence[str], limit: int = 200) -> list[Table]:
        return await self._tables(schema.tables.c.status.in_(list(statuses)), limit=limit)

    async def _tables(self, where: sa.ColumnElement[bool], limit: int) -> list[Table]:
        t, s, k = schema.tables, schema.seats, schema.tournaments
        named = sa.select(t, k.c.name.label("tournament_name")).outerjoin(
            k, k.c.id == t.c.tournament
        )  # the tournament's name, for the table's public JSON
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(named.where(where).order_by(t.c.updated_at.desc()).limit(limit))
            ).all()
            ids = [row.id for row in rows]
            seat_rows = (
                (
                    await conn.execute(
                        sa.select(s).where(s.c.table_id.in_(ids)).order_by(s.c.table_id, s.c.seat)
                    )
                ).all()
                if ids
                else []
            )
        by_table: dict[str, list[Seat]] = {i: [] for i in ids}
        for r in seat_rows:
            by_table[r.table_id].append(
                Seat(
                    r.seat,
                    SeatKind(r.kind),
                    r.bot,
                    r.player_id,
                    r.name,
                    r.token,
                    r.invite,
                    r.account,
                )
            )
        return [
            Table(
                id=row.id,
                preset=row.preset,
                ruleset=dict(row.ruleset),
                seed=row.seed,
                timer=row.timer,
                hints=row.hints,
                rated=row.rated,
                creator=row.creator,
                seats=by_table[row.id],
                created_at=row.created_at,
                status=TableStatus(row.status),
                version=row.version,
                updated_at=row.updated_at,
                deadline=row.deadline,
                scores=list(row.scores),
                result=row.result,
                tournament=row.tournament,
                tournament_name=row.tournament_name,
            )
            for row in rows
        ]

    async def events(self, table_id: str, after: int = 0) -> list[Entry]:
        e = schema.events
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    sa.select(e)
                    .where(e.c.table_id == table_id, e.c.version > after)
                    .order_by(e.c.version)
                )
            ).all()
        return [_entry(r) for r in rows]

    async def entry(self, table_id: str, version: int) -> Entry | None:
        e = schema.events
        query = sa.select(e).where(e.c.table_id == table_id, e.c.version == version)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return None if row is None else _entry(row)


def _entry(row: sa.Row[Any]) -> Entry:
    return Entry(row.version, EventKind(row.kind), row.seat, dict(row.data), row.created_at)


@dataclass
class _Pending:
    """One commit: a table's summary and its new entries, and (SQLite) when it is written."""

    table: Table
    entries: tuple[Entry, ...]
    seats: bool
    done: asyncio.Future[None] | None = None


def _stale(pending: _Pending) -> StaleVersionError:
    before = pending.entries[0].version - 1
    return StaleVersionError(
        f"table {pending.table.id} is not at version {before} any more, or not held here"
    )


def _settle(pending: _Pending, error: Exception | None) -> None:
    if pending.done is None or pending.done.done():
        return
    if error is None:
        pending.done.set_result(None)
    else:
        pending.done.set_exception(error)


@dataclass(frozen=True)
class Fence:
    """Commits of this process must hold the table's lease (``leases.SqlLeases``)."""

    owner: str
    clock: Callable[[], float]
    seconds: float
    """How long a lease lasts (a new table's first one)."""


async def _write(conn: AsyncConnection, group: Sequence[_Pending], fence: Fence | None) -> None:
    """Write the commits of ``group`` in the open transaction; StaleVersionError if one
    table is not at the version before its first entry any more (or, with a ``fence``, its
    lease is not this process's)."""
    one_each = len({one.table.id for one in group}) == len(group)  # a table's row once
    if conn.dialect.name == "postgresql" and len(group) > 1 and one_each:
        await _update_all(conn, group, fence)
    else:
        await _update_each(conn, group, fence)
    await conn.execute(
        schema.events.insert(),
        [
            {
                "table_id": one.table.id,
                "version": entry.version,
                "kind": entry.kind.value,
                "seat": entry.seat,
                "data": entry.data,
                "created_at": entry.at,
            }
            for one in group
            for entry in one.entries
        ],
    )
    for one in group:
        if one.seats:
            await _write_seats(conn, one.table)


_UPDATE_ALL = """
UPDATE tables AS t
SET status = n.status, version = n.version, deadline = n.deadline,
    scores = n.scores::json, result = n.result::json, updated_at = n.updated_at
FROM unnest($1::varchar[], $2::int[], $3::varchar[], $4::int[], $5::float8[], $6::text[],
            $7::text[], $8::float8[])
    AS n(id, before, status, version, deadline, scores, result, updated_at)
WHERE t.id = n.id AND t.version = n.before
"""
_FENCED = """
    AND EXISTS (SELECT 1 FROM leases AS l
                WHERE l.table_id = t.id AND l.owner = $9 AND l.until >= $10)
"""


async def _update_all(
    conn: AsyncConnection, group: Sequence[_Pending], fence: Fence | None
) -> None:
    """The ``tables`` rows of the whole group in one statement (PostgreSQL: UPDATE ... FROM
    unnest of one array per column, one round trip and one prepared statement however many
    tables), each checked as in ``_update_each``."""
    tables = [one.table for one in group]
    params: list[Any] = [
        [t.id for t in tables],
        [one.entries[0].version - 1 for one in group],
        [t.status.value for t in tables],
        [t.version for t in tables],
        [t.deadline for t in tables],
        [json.dumps(t.scores) for t in tables],
        [None if t.result is None else json.dumps(t.result) for t in tables],
        [t.updated_at for t in tables],
    ]
    sql = _UPDATE_ALL
    if fence is not None:
        sql += _FENCED
        params += [fence.owner, fence.clock()]
    done = await conn.exec_driver_sql(sql + "RETURNING t.id", tuple(params))
    written = {row[0] for row in done}
    for one in group:
        if one.table.id not in written:
            raise _stale(one)


async def _update_each(
    conn: AsyncConnection, group: Sequence[_Pending], fence: Fence | None
) -> None:
    t, lease = schema.tables, schema.leases
    for one in group:
        table, before = one.table, one.entries[0].version - 1
        where = [t.c.id == table.id, t.c.version == before]
        if fence is not None:
            where.append(
                sa.exists().where(
                    lease.c.table_id == t.c.id,
                    lease.c.owner == fence.owner,
                    lease.c.until >= fence.clock(),
                )
            )
        done = await conn.execute(t.update().where(*where).values(**_state_values(table)))
        if done.rowcount != 1:
            raise _stale(one)


def _state_values(table: Table) -> dict[str, Any]:
    """What a commit changes in the ``tables`` row (the rest is fixed when it is added)."""
    return {
        "status": table.status.value,
        "version": table.version,
        "deadline": table.deadline,
        "scores": table.scores,
        "result": table.result,
        "updated_at": table.updated_at,
    }


def _created(creator: str, statuses: Sequence[str]) -> sa.Select[int]:
    """How many tables of these statuses ``creator`` created (``ix_tables_creator_status``
    alone answers it)."""
    t = schema.tables
    return (
        sa.select(sa.func.count())
        .select_from(t)
        .where(t.c.creator == creator, t.c.status.in_(list(statuses)))
    )


def _table_values(table: Table) -> dict[str, Any]:
    return _state_values(table) | {
        "preset": table.preset,
        "ruleset": table.ruleset,
        "seed": table.seed,
        "timer": table.timer,
        "hints": table.hints,
        "rated": table.rated,
        "creator": table.creator,
        "created_at": table.created_at,
        "tournament": table.tournament,
    }


async def _write_seats(conn: AsyncConnection, table: Table) -> None:
    s = schema.seats
    outcomes = _outcomes(table)
    await conn.execute(s.delete().where(s.c.table_id == table.id))
    await conn.execute(
        s.insert(),
        [
            {
                "table_id": table.id,
                "seat": seat.number,
                "kind": seat.kind.value,
                "bot": seat.bot,
                "player_id": seat.player,
                "name": seat.name,
                "token": seat.token,
                "invite": seat.invite,
                "account": seat.account,
                "outcome": outcomes.get(seat.number),
            }
            for seat in table.seats
        ],
    )


def _outcomes(table: Table) -> dict[int, str]:
    """Each seat's outcome once the table is finished (none before, nor when its ruleset
    or result does not read). Kept with the seat, a player's page counts their wins,
    losses and draws without reading every game they played."""
    result = table.result or {}
    if table.status != TableStatus.FINISHED or not result.get("finished"):
        return {}
    try:
        ruleset = Ruleset.from_dict(table.ruleset)
    except RulesetError:
        return {}
    return {seat: outcome.value for seat, outcome in enumerate(seat_outcomes(ruleset, result))}


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL: readers do not wait for the writer, and a killed process loses no commit."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
