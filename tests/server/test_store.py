"""The store: migrations make the schema, one writer per table, a creator's tables counted,
database URLs."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy.dialects.postgresql import asyncpg

from doublesix.rules.ruleset import preset
from doublesix.server import tournament_sql
from doublesix.server.rating_store import finding
from doublesix.server.schema import leases, metadata
from doublesix.server.store import (
    Fence,
    Guest,
    SqlStore,
    StaleVersionError,
    TooManyUnfinished,
    database_url,
    upgrade_schema,
)
from doublesix.table.model import Entry, EventKind, Seat, SeatKind, Table, TableStatus

from .server_helpers import POSTGRES, run_async


def _store(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> SqlStore:
    if backend == "postgres":
        return SqlStore(POSTGRES, schema_name=request.getfixturevalue("pg_schema"))
    return SqlStore(f"sqlite:///{tmp_path / 'x.sqlite3'}")


def _table() -> Table:
    return Table(
        id="t1",
        preset="block",
        ruleset={"preset": "block"},
        seed=2**61,
        timer=None,
        hints=False,
        rated=False,
        creator="g",
        seats=[
            Seat(0, SeatKind.HUMAN, None, "g", "Anna", "tok", account=True),
            Seat(1, SeatKind.INVITE, invite="code"),
        ],
        created_at=1.0,
        updated_at=1.0,
        scores=[0, 0],
    )


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_migrations_make_the_schema(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    store = _store(backend, tmp_path, request)

    async def check() -> list[Any]:
        await store.migrate()
        await store.migrate()  # a second start changes nothing
        async with store.engine.connect() as conn:
            diff: list[Any] = await conn.run_sync(
                lambda c: compare_metadata(MigrationContext.configure(c), metadata)
            )
        await store.close()
        return diff

    assert run_async(check()) == []


def test_find_a_player_reads_a_range_of_names_under_any_collation(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """On PostgreSQL whose collation is not C (ICU's en-US here; most servers' default is
    such a one), "Find a player" reads a range of the pattern index, not every name."""
    shown = icu_plan(_store("postgres", tmp_path, request), finding("ann", 20))
    assert "ix_accounts_name_key_pattern" in shown and "~>=~" in shown, shown


def icu_plan(store: SqlStore, query: sa.ClauseElement) -> str:
    """PostgreSQL's plan of ``query`` on a new database whose account names are compared by
    ICU's en-US collation, not C (as most servers' default), with its tables of no rows read
    by their indexes wherever they can be."""
    sql = query.compile(dialect=asyncpg.dialect(), compile_kwargs={"literal_binds": True})

    async def plan() -> str:
        await store.migrate()
        try:
            async with store.writing() as conn:
                await conn.execute(
                    sa.text(
                        "ALTER TABLE accounts ALTER COLUMN name_key"
                        ' TYPE varchar(24) COLLATE "en-US-x-icu"'
                    )
                )
            async with store.engine.connect() as conn:
                await conn.execute(sa.text("SET enable_seqscan = off"))
                rows = await conn.execute(sa.text(f"EXPLAIN {sql}"))
                return "\n".join(str(row[0]) for row in rows)
        finally:
            await store.close()

    return run_async(plan())


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_migration_0010_marks_the_seats_and_challenges_of_accounts(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Seats and challenges stored before 0010 learn which players have an account (the
    inserts name only the columns 0009 had)."""
    store = _store(backend, tmp_path, request)
    t = metadata.tables
    table = _table()
    players = ("acc", "g")

    async def check() -> tuple[list[Any], list[Any]]:
        async with store.engine.begin() as conn:
            await conn.run_sync(upgrade_schema, "0009")
            await conn.execute(
                t["accounts"].insert(),
                {"player_id": "acc", "name": "Anna", "name_key": "anna", "password": "x"}
                | {"created_at": 1.0, "updated_at": 1.0},
            )
            await conn.execute(
                t["tables"].insert(),
                {"id": table.id, "preset": table.preset, "ruleset": table.ruleset}
                | {"seed": table.seed, "status": "open", "hints": False, "version": 0}
                | {"scores": [0, 0], "created_at": 1.0, "updated_at": 1.0},
            )
            for n, player in enumerate(players):
                await conn.execute(
                    t["seats"].insert(),
                    {"table_id": table.id, "seat": n, "kind": "human", "player_id": player},
                )
                await conn.execute(
                    t["challenges"].insert(),
                    {"id": f"c-{player}", "player_id": player, "name": player, "invited": []}
                    | {"settings": {}, "status": "open", "created_at": 1.0, "expires_at": 61.0},
                )
        await store.migrate()
        loaded = await store.table(table.id)
        assert loaded is not None
        c = t["challenges"].c
        async with store.engine.connect() as conn:
            marked = (await conn.execute(sa.select(c.id, c.account).order_by(c.id))).all()
        await store.close()
        return [(s.player, s.account) for s in loaded.seats], [tuple(r) for r in marked]

    seats, marked = run_async(check())
    assert seats == [("acc", True), ("g", False)]
    assert marked == [("c-acc", True), ("c-g", False)]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_migration_0015_keeps_the_outcome_of_each_seat_of_a_finished_game(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Seats of games finished before 0015 get their outcomes from the stored ruleset and
    result: a Kozel pair's partners share theirs, nobody winning is a draw, and a game
    not finished, or whose result does not read, keeps none."""
    store = _store(backend, tmp_path, request)
    t = metadata.tables
    kozel = preset("kozel", 4).to_dict()
    block = preset("block", 2).to_dict()
    games = {  # id: ruleset, status, result
        "k": (kozel, "finished", {"finished": True, "winners": [1], "losers": [0]}),
        "d": (block, "finished", {"finished": True, "winners": [], "losers": []}),
        "b": (block, "finished", {"finished": True, "winners": [0], "losers": [1]}),
        "open": (block, "playing", None),
        "odd": (block, "finished", {"finished": True, "winners": "none"}),
    }

    async def check() -> dict[tuple[str, int], str | None]:
        async with store.engine.begin() as conn:
            await conn.run_sync(upgrade_schema, "0014")
            for table_id, (ruleset, status, result) in games.items():
                await conn.execute(
                    t["tables"].insert(),
                    {"id": table_id, "preset": ruleset["preset"], "ruleset": ruleset}
                    | {"seed": 1, "status": status, "hints": False, "version": 9}
                    | {"scores": [0, 0], "result": result, "created_at": 1.0, "updated_at": 1.0},
                )
                await conn.execute(
                    t["seats"].insert(),
                    [
                        {"table_id": table_id, "seat": n, "kind": "human", "player_id": f"p{n}"}
                        for n in range(ruleset["players"])
                    ],
                )
        await store.migrate()
        s = t["seats"].c
        async with store.engine.connect() as conn:
            rows = await conn.execute(sa.select(s.table_id, s.seat, s.outcome))
            outcomes = {(row.table_id, row.seat): row.outcome for row in rows}
        await store.close()
        return outcomes

    outcomes = run_async(check())
    assert [outcomes["k", n] for n in range(4)] == ["loss", "win", "loss", "win"]
    assert [outcomes["d", n] for n in range(2)] == ["draw", "draw"]
    assert [outcomes["b", n] for n in range(2)] == ["win", "loss"]
    assert [outcomes["open", n] for n in range(2)] == [None, None]
    assert [outcomes["odd", n] for n in range(2)] == [None, None]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_migration_0021_dates_the_end_of_the_tournaments_over(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Tournaments over before 0021 learn when they ended: a finished one at its end; a
    cancelled one when the operators' log says it was cancelled, else at the latest moment
    its rows show before its cancel (its creation, an entrant's join, a game's start), never
    after its end; one not over, never. The list of those over then shows the latest ended
    first."""
    store = _store(backend, tmp_path, request)
    t = metadata.tables
    made = {"name": "Cup", "creator_id": None, "preset": "draw", "players": 2}
    made |= {"options": {"target": "round"}, "timer": 60.0, "rated": False}
    tournaments = {  # id: status, created_at, ends_at
        "fin": ("finished", 100.0, 500.0),
        "op": ("cancelled", 100.0, 900.0),  # by an operator, logged at 300
        "late": ("cancelled", 100.0, 1000.0),  # logged at 5000: after its end
        "joined": ("cancelled", 100.0, 2000.0),  # its creator's: last joined at 250
        "played": ("cancelled", 100.0, 3000.0),  # a game started at 280, joined at 120
        "made": ("cancelled", 150.0, 4000.0),  # nobody joined
        "run": ("running", 100.0, 600.0),
        "up": ("upcoming", 100.0, 5000.0),
    }
    joins = [("joined", "p1", 200.0), ("joined", "p2", 250.0), ("played", "p1", 120.0)]
    log = [  # at, action, detail
        (300.0, "tournament", {"tournament": "op", "title": "Cup"}),
        (5000.0, "tournament", {"tournament": "late", "title": "Cup"}),
        (700.0, "silence", {"reason": "joined"}),  # another act: not about a tournament
    ]

    async def check() -> tuple[dict[str, float | None], list[str]]:
        async with store.engine.begin() as conn:
            await conn.run_sync(upgrade_schema, "0020")
            for tid, (status, created, ends) in tournaments.items():
                await conn.execute(
                    t["tournaments"].insert(),
                    made
                    | {"id": tid, "status": status, "starts_at": created}
                    | {"ends_at": ends, "created_at": created},
                )
            for tid, player, joined in joins:
                await conn.execute(
                    t["tournament_players"].insert(),
                    {"tournament_id": tid, "player_id": player, "joined_at": joined}
                    | {"active": True, "score": 0, "games": 0, "wins": 0, "streak": 0}
                    | {"free_since": joined, "table_id": None, "playing": False},
                )
            await conn.execute(
                t["tournament_games"].insert(),
                {"table_id": "g1", "tournament_id": "played", "started_at": 280.0},
            )
            for at, action, detail in log:
                await conn.execute(
                    t["moderation_log"].insert(),
                    {"at": at, "operator": "Olga", "action": action, "name": "Anna"}
                    | {"detail": detail},
                )
        await store.migrate()
        c = t["tournaments"].c
        async with store.engine.connect() as conn:
            ended = {r.id: r.ended_at for r in await conn.execute(sa.select(c.id, c.ended_at))}
        shown = await tournament_sql.listing(store, 6000.0)
        await store.close()
        return ended, [x["id"] for x in shown["finished"]]

    ended, finished = run_async(check())
    assert ended == {
        "fin": 500.0,
        "op": 300.0,
        "late": 1000.0,
        "joined": 250.0,
        "played": 280.0,
        "made": 150.0,
        "run": None,
        "up": None,
    }
    assert finished == ["late", "fin", "op", "played", "joined", "made"]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_the_seats_of_a_finished_table_are_stored_with_their_outcomes(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    store = _store(backend, tmp_path, request)
    s = metadata.tables["seats"].c

    async def outcomes() -> list[str | None]:
        async with store.engine.connect() as conn:
            rows = await conn.execute(sa.select(s.outcome).order_by(s.seat))
            return list(rows.scalars())

    async def check() -> None:
        await store.migrate()
        table = _table()
        table.ruleset = preset("block", 2).to_dict()
        await store.add_table(table)
        playing = table.copy()
        playing.version, playing.status = 1, TableStatus.PLAYING
        playing.seats[1] = Seat(1, SeatKind.BOT, "greedy", None, "Bot 1")
        await store.commit(playing, [Entry(1, EventKind.SEAT, 1, {}, 2.0)], seats=True)
        assert await outcomes() == [None, None]  # not before the end
        finished = playing.copy()
        finished.version, finished.status = 2, TableStatus.FINISHED
        finished.result = {"finished": True, "winners": [1], "losers": [0]}
        await store.commit(finished, [Entry(2, EventKind.PLAY, 1, {}, 3.0)], seats=True)
        assert await outcomes() == ["loss", "win"]
        await store.close()

    run_async(check())


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_one_writer_per_table(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    store = _store(backend, tmp_path, request)

    async def check() -> None:
        await store.migrate()
        table = _table()
        await store.add_table(table)
        first = table.copy()
        first.version = 1
        first.seats[1] = Seat(1, SeatKind.BOT, "greedy", None, "Bot 1")
        await store.commit(first, [Entry(1, EventKind.SEAT, 1, {"kind": "bot"}, 2.0)], seats=True)
        rival = table.copy()
        rival.version = 2
        rival_entries = [Entry(v, EventKind.CHAT, None, {}, 2.0) for v in (1, 2)]
        with pytest.raises(StaleVersionError):  # a second writer at the same version
            await store.commit(rival, rival_entries)
        loaded = await store.table("t1")
        assert loaded is not None
        assert loaded.version == 1 and loaded.seed == 2**61
        assert loaded.seats[1].kind == SeatKind.BOT and loaded.seats[0].token == "tok"
        assert [s.account for s in loaded.seats] == [True, False]
        assert [e.version for e in await store.events("t1")] == [1]
        assert await store.events("t1", after=1) == []
        assert [t.id for t in await store.tables([TableStatus.OPEN])] == ["t1"]
        assert await store.table("nope") is None
        await store.close()

    run_async(check())


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_creator_s_unfinished_tables_are_counted_as_a_table_is_stored(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """``add_table(most_unfinished=...)`` (a guest's 5, ``routes/tables.py``): the creator's
    open and playing tables count, their finished and closed ones and others' do not; the
    refused table is not stored; the count is read from the index on (creator, status)."""
    store = _store(backend, tmp_path, request)
    made = {  # id: creator, status
        "o1": ("g", TableStatus.OPEN),
        "o2": ("g", TableStatus.OPEN),
        "p": ("g", TableStatus.PLAYING),
        "f": ("g", TableStatus.FINISHED),
        "c": ("g", TableStatus.CLOSED),
        "h": ("h", TableStatus.PLAYING),
    }

    def by(creator: str, tid: str, status: TableStatus = TableStatus.OPEN) -> Table:
        seat = Seat(0, SeatKind.HUMAN, None, creator, "Anna", f"tok-{tid}")
        return dataclasses.replace(_table(), id=tid, creator=creator, status=status, seats=[seat])

    async def check() -> tuple[list[str], str]:
        await store.migrate()
        for creator in ("g", "h"):
            await store.add_guest(Guest(creator, creator.upper(), 1.0))
        for tid, (creator, status) in made.items():
            await store.add_table(by(creator, tid, status))
        refused = []
        for creator, tid, most in [("g", "g3", 3), ("g", "g4", 4), ("h", "h2", 1), ("h", "h3", 2)]:
            try:
                await store.add_table(by(creator, tid), most_unfinished=most)
            except TooManyUnfinished as e:
                assert e.most == most
                refused.append(tid)
        assert not await store.has_table("g3") and not await store.has_table("h2")
        plan = await plan_of(
            store, store.add_table(by("g", "g5"), most_unfinished=9), only="count("
        )
        await store.close()
        return refused, plan

    refused, plan = run_async(check())
    assert refused == ["g3", "h2"]
    assert "ix_tables_creator_status" in plan, plan


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_tables_stored_at_once_keep_their_creator_s_most_unfinished(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Twelve tables of one creator stored at once, at most 5 unfinished: exactly 5 are
    kept, however the transactions interleave (PostgreSQL: the creator's row is locked)."""
    store = _store(backend, tmp_path, request)

    async def one(tid: str) -> bool:
        seat = Seat(0, SeatKind.HUMAN, None, "g", "Anna", f"tok-{tid}")
        table = dataclasses.replace(_table(), id=tid, creator="g", seats=[seat])
        try:
            await store.add_table(table, most_unfinished=5)
        except TooManyUnfinished:
            return False
        return True

    async def check() -> tuple[list[bool], int]:
        await store.migrate()
        await store.add_guest(Guest("g", "Anna", 1.0))
        kept = await asyncio.gather(*(one(f"t{i}") for i in range(12)))
        stored = len(await store.tables([TableStatus.OPEN]))
        await store.close()
        return kept, stored

    kept, stored = run_async(check())
    assert kept.count(True) == 5 and stored == 5


async def plan_of(store: SqlStore, asking: Awaitable[object], only: str = "") -> str:
    """The database's plan of the query that ``asking`` sends (the one with ``only`` in its
    text, if it sends more; PostgreSQL told to read an index wherever it can: the test's
    few rows would be read one by one)."""
    sent: list[tuple[str, Any]] = []

    def heard(*args: Any) -> None:  # connection, cursor, statement, parameters, …
        sent.append((args[2], args[3]))

    sa.event.listen(store.engine.sync_engine, "before_cursor_execute", heard)
    try:
        await asking
    finally:
        sa.event.remove(store.engine.sync_engine, "before_cursor_execute", heard)
    [(statement, parameters)] = [(text, p) for text, p in sent if only in text]
    async with store.engine.connect() as conn:
        if not store.sqlite:
            await conn.exec_driver_sql("SET enable_seqscan = off")
        explain = "EXPLAIN QUERY PLAN " if store.sqlite else "EXPLAIN "
        rows = await conn.exec_driver_sql(explain + statement, parameters)
        return "\n".join(str(row[-1]) for row in rows)


def test_database_urls() -> None:
    assert database_url(None) == "sqlite+aiosqlite:///doublesix.sqlite3"
    assert database_url("games.db") == "sqlite+aiosqlite:///games.db"
    assert database_url("sqlite:////tmp/x.db") == "sqlite+aiosqlite:////tmp/x.db"
    assert database_url("postgresql://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert database_url("postgres://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert database_url("postgresql+asyncpg://u@h/db") == "postgresql+asyncpg://u@h/db"


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_group_commit_checks_every_table(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Commits waiting together go in one transaction (on PostgreSQL one statement for all the
    tables): each is written with its summary, and a stale one is refused alone."""
    store = _store(backend, tmp_path, request)

    async def check() -> None:
        await store.migrate()
        tables = []
        for n in range(4):
            table = _table()
            table.id = f"t{n}"
            table.seats = [
                Seat(0, SeatKind.HUMAN, None, "g", "Anna", f"tok{n}"),
                Seat(1, SeatKind.INVITE, invite=f"code{n}"),
            ]
            await store.add_table(table)
            tables.append(table)
        commits = []
        for n, table in enumerate(tables):
            new = table.copy()
            new.version = 1 if n != 2 else 2  # t2 claims entries 2..2: not at version 1
            new.scores = [n, 10 * n]
            new.deadline = None if n % 2 else 100.0 + n
            new.result = {"winners": [n % 2]} if n == 3 else None
            new.status = TableStatus.PLAYING
            new.updated_at = 5.0 + n
            entries = [Entry(new.version, EventKind.CHAT, None, {"n": n}, 3.0)]
            commits.append(store.commit(new, entries))
        outcomes = await asyncio.gather(*commits, return_exceptions=True)
        assert [type(o).__name__ for o in outcomes] == [
            "NoneType",
            "NoneType",
            "StaleVersionError",
            "NoneType",
        ]
        for n in (0, 1, 3):
            loaded = await store.table(f"t{n}")
            assert loaded is not None
            assert loaded.version == 1 and loaded.scores == [n, 10 * n]
            assert loaded.deadline == (None if n % 2 else 100.0 + n)
            assert loaded.result == ({"winners": [1]} if n == 3 else None)
            assert loaded.status == TableStatus.PLAYING and loaded.updated_at == 5.0 + n
            assert [(e.version, e.data) for e in await store.events(f"t{n}")] == [(1, {"n": n})]
        stale = await store.table("t2")
        assert stale is not None and stale.version == 0 and stale.scores == [0, 0]
        assert await store.events("t2") == []
        await store.close()

    run_async(check())


def test_a_group_commit_is_fenced_per_table(request: pytest.FixtureRequest) -> None:
    """With a fence, the one statement of a group writes only the tables whose lease is this
    process's: a table another process holds now is refused, the others are written."""
    store = SqlStore(POSTGRES, schema_name=request.getfixturevalue("pg_schema"))
    store.fence = Fence("me", lambda: 10.0, 5.0)

    async def check() -> None:
        await store.migrate()
        tables = []
        for n in range(3):
            table = _table()
            table.id = f"f{n}"
            table.seats = [Seat(0, SeatKind.HUMAN, None, "g", "Anna", f"ftok{n}")]
            await store.add_table(table)  # with this process's lease
            tables.append(table)
        async with store.writing() as conn:
            await conn.execute(leases.update().where(leases.c.table_id == "f1").values(owner="b"))
        commits = []
        for table in tables:
            new = table.copy()
            new.version = 1
            commits.append(store.commit(new, [Entry(1, EventKind.CHAT, None, {}, 3.0)]))
        outcomes = await asyncio.gather(*commits, return_exceptions=True)
        assert [type(o).__name__ for o in outcomes] == ["NoneType", "StaleVersionError", "NoneType"]
        versions = [(await store.table(f"f{n}")) for n in range(3)]
        assert [t.version if t else None for t in versions] == [1, 0, 1]
        await store.close()

    run_async(check())


def test_processes_that_start_together_migrate_one_after_the_other(pg_schema: str) -> None:
    """Four stores (as ``serve --workers 4``'s processes) migrate an empty PostgreSQL schema at
    once: each waits for the one before (``MIGRATION_LOCK``), none fails, and the schema is
    whole."""
    stores = [SqlStore(POSTGRES, schema_name=pg_schema) for _ in range(4)]

    async def check() -> list[Any]:
        try:
            await asyncio.gather(*(store.migrate() for store in stores))
            async with stores[0].engine.connect() as conn:
                diff: list[Any] = await conn.run_sync(
                    lambda c: compare_metadata(MigrationContext.configure(c), metadata)
                )
                return diff
        finally:
            for store in stores:
                await store.close()

    assert run_async(check()) == []
