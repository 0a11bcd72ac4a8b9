"""``doublesix games``: every finished game of the site, as ``doublesix/1`` records.

One record a line (JSON lines), the game that ended first first, each as the game's page
offers it for download: what ``doublesix.rules.record.loads`` and ``replay`` read, and what
a study of how people play reads by the thousand. ``--since`` and ``--until`` (UTC dates or
times, ISO 8601) bound when the games ended; ``--preset`` and ``--rated`` choose among them.

Like ``account`` and ``reports``, it runs on the site's database (``--db``, as ``serve``'s),
the server running or not; it reads and never writes.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import orjson

from doublesix.cli.common import Subparsers, UsageError
from doublesix.cli.site_db import add_db, on_site
from doublesix.rules.ruleset import PRESETS

if TYPE_CHECKING:
    from doublesix.server.store import SqlStore


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "games",
        help="every finished game of the site, as doublesix/1 records (JSON lines)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--out", default="-", metavar="FILE", help="write them to FILE (default: stdout)"
    )
    parser.add_argument("--since", metavar="WHEN", help="games that ended then or later (UTC)")
    parser.add_argument("--until", metavar="WHEN", help="games that ended before then (UTC)")
    parser.add_argument("--preset", choices=sorted(PRESETS), help="only the games of a preset")
    parser.add_argument("--rated", action="store_true", help="only the rated games")
    add_db(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    since, until = when(args.since, "--since"), when(args.until, "--until")
    if since is not None and until is not None and until <= since:
        raise UsageError("--until: after --since")

    async def dump(store: SqlStore) -> int:
        from doublesix.server.exports import every_record

        count = 0
        with _opened(args.out) as out:
            games = every_record(
                store, since=since, until=until, preset=args.preset, rated=args.rated
            )
            async for record in games:
                out.write(orjson.dumps(record).decode() + "\n")
                count += 1
        return count

    count = on_site(args.db, dump)
    print(f"{count} game(s)", file=sys.stderr)
    return 0


def when(text: str | None, option: str) -> float | None:
    """``text`` (an ISO 8601 date or time, UTC unless it says otherwise) in Unix seconds."""
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(f"{option}: {text!r} is not a date or a time (2026-12-01)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


@contextlib.contextmanager
def _opened(path: str) -> Iterator[TextIO]:
    if path == "-":
        yield sys.stdout
        return
    with Path(path).open("w", encoding="utf-8") as out:
        yield out
