"""What a player's page costs the server as the player's finished games grow.

    python benchmarks/player_page.py [--games 100,1000,5000] [--runs 7] [--db URL]

``GET /api/players/{name}`` (``rating_store.player_json``) counts the player's wins,
losses and draws by reading every finished game they sat at (its ruleset and result), and
charts each variant's latest rating changes. This stores an account with N finished
two-player Draw games (rated, each with its rating change) in a fresh database — a SQLite
file by default, or ``--db`` (a PostgreSQL URL: its tables are made there, in a schema of
their own, and dropped after) — and times ``player_json`` ``--runs`` times for each N, in
turn as the server does (each stored ruleset read once, ``rating_store._rules``) and with
every game's ruleset read afresh (as before it was cached): the median and the slowest
wall-clock ms of each, the ms a game of the median, and the ratio of the medians.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import orjson
import sqlalchemy as sa

from doublesix.rules.ruleset import Ruleset, RulesetError, preset
from doublesix.server import rating_store, schema
from doublesix.server.account_names import name_key
from doublesix.server.rating_store import player_json
from doublesix.server.store import SqlStore

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


def _afresh(stored: bytes) -> Ruleset | None:
    """``rating_store._rules`` without its cache: every game's ruleset read anew."""
    try:
        return Ruleset.from_dict(orjson.loads(stored))
    except RulesetError:
        return None


async def _page(store: SqlStore, cached: bool) -> float:
    """The wall-clock ms of one reading of the page."""
    kept = rating_store._rules
    if not cached:
        rating_store._rules = _afresh  # type: ignore[assignment]
    try:
        started = time.perf_counter()
        page = await player_json(store, "Anna")
        taken = (time.perf_counter() - started) * 1000
    finally:
        rating_store._rules = kept
    assert page is not None
    return taken


async def measure(url: str | None, games: int, runs: int) -> dict[bool, list[float]]:
    """The wall-clock ms of each of ``runs`` readings of the page, cached (True) and not
    (False) in turn, on a fresh database."""
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
            page = await player_json(store, "Anna")  # warm: the connection, the statements
            assert page is not None and page["counts"]["games"] == games
            taken: dict[bool, list[float]] = {True: [], False: []}
            for run in range(runs):
                for cached in (True, False) if run % 2 else (False, True):
                    taken[cached].append(await _page(store, cached))
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
    print("| finished games | rulesets | median ms | slowest ms | ms a game | afresh / cached |")
    print("|---:|---|---:|---:|---:|---:|")
    for games in (int(n) for n in args.games.split(",")):
        taken = asyncio.run(measure(args.db, games, args.runs))
        medians = {cached: statistics.median(ms) for cached, ms in taken.items()}
        for cached in (True, False):
            median = medians[cached]
            ratio = f"{medians[False] / medians[True]:.2f}" if cached else ""
            print(
                f"| {games:,} | {'cached' if cached else 'afresh'} | {median:.1f} "
                f"| {max(taken[cached]):.1f} | {median / games:.3f} | {ratio} |"
            )


if __name__ == "__main__":
    main()
