"""What a player's page costs the server as the player's finished games grow.

    python benchmarks/player_page.py [--games 100,1000,5000] [--runs 7] [--db URL]

``GET /api/players/{name}`` (``rating_store.player_json``) counts the player's wins,
losses and draws and charts each variant's latest rating changes. This stores an account
with N finished two-player Draw games (rated, each with its rating change, each seat with
its outcome as the server keeps it) in a fresh database — a SQLite file by default, or
``--db`` (a PostgreSQL URL: its tables are made there, in a schema of their own, and
dropped after) — and times, ``--runs`` times for each N, the whole page and its counts two
ways in turn: from the outcomes kept with the seats (``rating_store.outcome_counts``, as
the server counts since migration 0015) and by reading every finished game's ruleset and
result (as it counted before, each stored ruleset read once). It prints the median and the
slowest wall-clock ms of each, and the ratio of the counts' medians.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Literal

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from doublesix.ratings import Outcome, seat_outcomes
from doublesix.rules.ruleset import preset
from doublesix.server import rating_store, schema
from doublesix.server.account_names import name_key
from doublesix.server.rating_store import outcome_counts, player_json
from doublesix.server.store import SqlStore
from doublesix.table.model import SeatKind, TableStatus

PLAYER = "bench-anna"
RULESET = preset("draw", 2).to_dict()


async def fill(store: SqlStore, games: int) -> None:
    """The account Anna, with ``games`` finished Draw games against Ben, won and lost in
    turn, each rated."""
    async with store.writing() as conn:
        await conn.execute(
            schema.accounts.insert().values(
                player_id=PLAYER,
                name="Anna",
                name_key=name_key("Anna"),
                password="$argon2id$not-a-real-hash",
                created_at=1.0,
                updated_at=1.0,
            )
        )
        await conn.execute(
            schema.ratings.insert().values(
                player_id=PLAYER,
                variant="draw",
                mu=1500.0,
                sigma=100.0,
                games=games,
                wins=games // 2,
                losses=games - games // 2,
                draws=0,
                updated_at=1.0,
            )
        )
        tables, seats, changes = [], [], []
        for n in range(games):
            table_id = f"t{n}"
            won = n % 2 == 0
            result = {
                "finished": True,
                "winners": [0] if won else [1],
                "losers": [1] if won else [0],
                "scores": [100, 40] if won else [40, 100],
                "dry_win": False,
            }
            tables.append(
                {
                    "id": table_id,
                    "preset": "draw",
                    "ruleset": RULESET,
                    "seed": n,
                    "status": "finished",
                    "timer": None,
                    "hints": False,
                    "rated": True,
                    "creator": PLAYER,
                    "version": 40,
                    "deadline": None,
                    "scores": result["scores"],
                    "result": result,
                    "created_at": float(n),
                    "updated_at": float(n) + 0.5,
                }
            )
            for seat, (player, name) in enumerate(((PLAYER, "Anna"), ("ben", "Ben"))):
                seats.append(
                    {
                        "table_id": table_id,
                        "seat": seat,
                        "kind": "human",
                        "bot": None,
                        "player_id": player,
                        "name": name,
                        "token": None,
                        "invite": None,
                        "account": True,
                        "outcome": "win" if won == (seat == 0) else "loss",
                    }
                )
            changes.append(
                {
                    "table_id": table_id,
                    "player_id": PLAYER,
                    "variant": "draw",
                    "outcome": "win" if won else "loss",
                    "mu_before": 1500.0,
                    "sigma_before": 100.0,
                    "mu": 1510.0 if won else 1490.0,
                    "sigma": 99.0,
                    "at": float(n) + 0.5,
                }
            )
        await conn.execute(schema.tables.insert(), tables)
        await conn.execute(schema.seats.insert(), seats)
        await conn.execute(schema.rating_changes.insert(), changes)


async def _read_every_game(conn: AsyncConnection) -> dict[Outcome, int]:
    """The counts as the page made them before 0015: every finished game's ruleset and
    result read, and the seat's outcome worked out."""
    t, s = schema.tables, schema.seats
    played = await conn.execute(
        sa.select(t.c.ruleset, t.c.result, s.c.seat)
        .select_from(s.join(t, t.c.id == s.c.table_id))
        .where(
            s.c.player_id == PLAYER,
            s.c.kind == SeatKind.HUMAN.value,
            t.c.status == TableStatus.FINISHED.value,
        )
    )
    counts = {o: 0 for o in Outcome}
    for row in played:
        rules = rating_store.stored_rules(row.ruleset)
        assert rules is not None and row.result["finished"]
        counts[seat_outcomes(rules, row.result)[row.seat]] += 1
    return counts


Way = Literal["page", "stored", "read"]
WAYS: tuple[Way, ...] = ("page", "stored", "read")


async def _once(store: SqlStore, way: Way) -> float:
    """The wall-clock ms of one reading of the page, or of its counts one way."""
    started = time.perf_counter()
    if way == "page":
        page = await player_json(store, "Anna")
        assert page is not None
    else:
        async with store.engine.connect() as conn:
            if way == "stored":
                await outcome_counts(conn, PLAYER)
            else:
                await _read_every_game(conn)
    return (time.perf_counter() - started) * 1000


async def measure(url: str | None, games: int, runs: int) -> dict[Way, list[float]]:
    """The wall-clock ms of each of ``runs`` readings each way, the ways in turn (their
    order rotated each run), on a fresh database."""
    pg_schema = None
    with tempfile.TemporaryDirectory() as folder:
        if url is None:
            store = SqlStore(f"sqlite:///{Path(folder) / 'page.sqlite3'}")
        else:
            pg_schema = f"bench_{uuid.uuid4().hex[:12]}"
            admin = SqlStore(url)
            async with admin.writing() as conn:
                await conn.execute(sa.text(f"CREATE SCHEMA {pg_schema}"))
            await admin.close()
            store = SqlStore(url, schema_name=pg_schema)
        try:
            await store.migrate()
            await fill(store, games)
            async with store.engine.connect() as conn:  # warm, and the two ways agree
                stored, read = await outcome_counts(conn, PLAYER), await _read_every_game(conn)
            assert stored == read and sum(stored.values()) == games, (stored, read)
            taken: dict[Way, list[float]] = {way: [] for way in WAYS}
            for run in range(runs):
                for way in WAYS[run % 3 :] + WAYS[: run % 3]:
                    taken[way].append(await _once(store, way))
            return taken
        finally:
            await store.close()
            if pg_schema is not None:
                admin = SqlStore(url)
                async with admin.writing() as conn:
                    await conn.execute(sa.text(f"DROP SCHEMA {pg_schema} CASCADE"))
                await admin.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="100,1000,5000")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--db", default=None, help="a PostgreSQL URL (default: SQLite)")
    args = parser.parse_args()
    print(f"database: {'SQLite' if args.db is None else 'PostgreSQL'}, {args.runs} runs each")
    print("| finished games | what | median ms | slowest ms |")
    print("|---:|---|---:|---:|")
    label = {
        "page": "the whole page",
        "stored": "its counts, from the seats' outcomes",
        "read": "its counts, every game read (before)",
    }
    for games in (int(n) for n in args.games.split(",")):
        taken = asyncio.run(measure(args.db, games, args.runs))
        medians = {way: statistics.median(ms) for way, ms in taken.items()}
        for way in WAYS:
            print(f"| {games:,} | {label[way]} | {medians[way]:.1f} | {max(taken[way]):.1f} |")
        ratio = medians["read"] / medians["stored"]
        print(f"| {games:,} | counts: read / stored | {ratio:.1f}x | |")


if __name__ == "__main__":
    main()
