"""``doublesix serve``: the web server — lobby, tables, records — at http://127.0.0.1:8000."""

from __future__ import annotations

import argparse

from doublesix.cli.common import Subparsers, UsageError

DEFAULT_DB = "sqlite+aiosqlite:///doublesix.sqlite3"


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "serve",
        help="serve the game in the browser",
        description="Serve the lobby, the tables and the game records over HTTP and "
        "WebSocket. Every table is stored as it is played; a restart resumes them all.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (%(default)s)")
    parser.add_argument("--port", type=int, default=8000, help="port (%(default)s)")
    parser.add_argument(
        "--db",
        default=DEFAULT_DB,
        metavar="URL",
        help="database: a SQLite file (default: doublesix.sqlite3 in this folder) or "
        "postgresql+asyncpg://user@host/db",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="how long a bot waits before its move (%(default)s)",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="how long a disconnected player keeps the seat before a bot plays for it "
        "(%(default)s)",
    )
    parser.add_argument(
        "--review-ms",
        type=float,
        default=100.0,
        metavar="MS",
        help="the expert's search per decision in a post-game review (%(default)s)",
    )
    parser.add_argument(
        "--think-workers",
        type=int,
        default=None,
        metavar="N",
        help="worker processes for the searching bots and hints (default: one per core "
        "but one, at least one)",
    )
    parser.add_argument("--log-level", default="info", help="uvicorn's log level (%(default)s)")
    return parser


def run(args: argparse.Namespace) -> int:
    if args.bot_delay < 0:
        raise UsageError("--bot-delay cannot be negative")
    if args.grace < 0:
        raise UsageError("--grace cannot be negative")
    if args.review_ms <= 0:
        raise UsageError(f"--review-ms {args.review_ms}: give a positive number")
    if args.think_workers is not None and args.think_workers < 1:
        raise UsageError(f"--think-workers {args.think_workers}: give 1 or more")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: not a port")
    import uvicorn  # the web stack loads only for this command

    from doublesix.server import create_app
    from doublesix.server.settings import Settings
    from doublesix.server.store import database_url

    settings = Settings(
        bot_delay=args.bot_delay, grace_seconds=args.grace, review_ms=args.review_ms
    )
    if args.think_workers is not None:
        settings.think_workers = args.think_workers
    app = create_app(database_url(args.db), settings=settings)
    print(f"doublesix: serving http://{args.host}:{args.port}/ (database {args.db})", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=64 * 1024,
    )
    return 0
