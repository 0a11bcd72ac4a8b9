"""``doublesix serve``: the web server — lobby, tables, records — at http://127.0.0.1:8000."""

from __future__ import annotations

import argparse
import contextlib
import json
import os

from doublesix.cli.common import CommandError, Subparsers, UsageError, number, seed

DEFAULT_DB = "sqlite+aiosqlite:///doublesix.sqlite3"
MAX_BOT_DELAY = 60.0
"""Seconds a bot may be told to wait before its move at most."""
MAX_GRACE = 24 * 3600.0
"""Seconds a disconnected player may keep the seat at most."""
MAX_OPEN_FOR = 7 * 24 * 3600.0
"""Seconds a table may wait for players at most."""
MAX_REVIEW_MS = 10_000.0
"""The review's search per move at most (a review searches 30 s at most in all)."""
MAX_THINK_WORKERS = 64
CONNECTIONS = 4000
"""Connections and requests in progress at once, from everyone; past it uvicorn answers 503."""


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
        type=number(0, MAX_BOT_DELAY),
        default=0.6,
        metavar="SECONDS",
        help="how long a bot waits before its move (%(default)s)",
    )
    parser.add_argument(
        "--grace",
        type=number(0, MAX_GRACE),
        default=60.0,
        metavar="SECONDS",
        help="how long a disconnected player keeps the seat before a bot plays for it "
        "(%(default)s)",
    )
    parser.add_argument(
        "--open-for",
        type=number(1, MAX_OPEN_FOR),
        default=1800.0,
        metavar="SECONDS",
        help="how long a table waits for its seats to be taken after its last change, "
        "then closes (%(default)s)",
    )
    parser.add_argument(
        "--review-ms",
        type=number(0, MAX_REVIEW_MS, above=True),
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
    parser.add_argument(
        "--origin",
        action="append",
        default=[],
        metavar="URL",
        help="a page origin besides this server's own that may open table sockets, "
        "e.g. https://dominoes.example (repeatable; for a server behind a proxy)",
    )
    parser.add_argument(
        "--no-limits",
        action="store_true",
        help="no limits per client address (for a load test from one address)",
    )
    parser.add_argument(
        "--redis",
        type=redis_url,
        default=None,
        metavar="URL",
        help="Redis (redis://127.0.0.1:6379/0), where several server processes meet: "
        "start the server several times with the same --db and --redis, or use --workers",
    )
    parser.add_argument(
        "--site",
        type=site,
        default=None,
        metavar="NAME",
        help="with --redis: this site's name, for several sites on one Redis database (say "
        "production and staging, each with its own --db): each site's keys and channels are "
        "named in its own space. A short name of ASCII letters, digits, '-' or '_', the same "
        "for every process of the site (default: none, the database is this site's alone)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        choices=range(1, MAX_THINK_WORKERS + 1),
        default=1,
        metavar="N",
        help="server processes on this port (more than 1 needs --redis; default 1)",
    )
    parser.add_argument(
        "--lease",
        type=number(0.5, 600),
        default=5.0,
        metavar="SECONDS",
        help="with --redis: a table whose process died is taken over after this long (%(default)s)",
    )
    parser.add_argument(
        "--seed",
        type=seed,
        default=None,
        metavar="S",
        help="deal the new tables from seeds S, S+1, ... in each server process, the same "
        "games on every run (for tests; default: a new random seed for every table)",
    )
    parser.add_argument(
        "--chat",
        choices=["everyone", "accounts"],
        default="everyone",
        help="who may chat, in the lobby and at the tables: everyone, or only registered "
        "players, where guests abuse it (%(default)s; an account is silenced one by one with "
        "doublesix account silence)",
    )
    parser.add_argument(
        "--metrics",
        type=metrics_address,
        default=None,
        metavar="HOST:PORT",
        help="serve Prometheus metrics at http://HOST:PORT/metrics, a listener of its own "
        "apart from the game's port; with --workers, the sum of the processes (default: "
        "none; e.g. 127.0.0.1:9100)",
    )
    parser.add_argument("--log-level", default="info", help="uvicorn's log level (%(default)s)")
    return parser


def metrics_address(text: str) -> tuple[str, int]:
    """An argparse ``type``: ``HOST:PORT`` (an IPv6 host in brackets, ``[::1]:9100``), else a
    usage error."""
    host, colon, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not (colon and host and port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise argparse.ArgumentTypeError(f"{text!r}: give HOST:PORT, e.g. 127.0.0.1:9100")
    return host, int(port)


def metrics_apart(args: argparse.Namespace) -> None:
    """A usage error for ``--metrics`` on the game's port: a player must never reach them."""
    if args.metrics is not None and args.metrics[1] == args.port:
        raise UsageError(
            f"--metrics {_shown(*args.metrics)}: that is the game's port (--port); the "
            "metrics need a port of their own"
        )


def _shown(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _listen_for_metrics(
    stack: contextlib.ExitStack, address: tuple[str, int], workers: int
) -> None:
    """Serve the metrics until ``stack`` closes (``metrics.listening``), and say where."""
    from doublesix.server.metrics import listening

    host, port = address
    try:
        folder = stack.enter_context(listening(host, port, workers))
    except OSError as e:
        raise CommandError(f"--metrics {_shown(host, port)}: cannot listen there: {e}") from None
    summed = "" if folder is None else f" (the sum of {workers} processes, through {folder})"
    print(f"doublesix: metrics at http://{_shown(host, port)}/metrics{summed}", flush=True)


def site(text: str) -> str:
    """An argparse ``type``: a site's name (``channels.site_name``), else a usage error."""
    from doublesix.server.channels import site_name  # Redis's client loads only for serve

    try:
        return site_name(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def redis_url(text: str) -> str:
    """An argparse ``type``: a Redis URL (``redis://``, ``rediss://`` or ``unix://``), else
    a usage error saying why."""
    from redis.asyncio.connection import parse_url  # Redis's client loads only where used

    try:
        parse_url(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"{text!r}: {e}") from None
    return text


def site_needs_redis(args: argparse.Namespace) -> None:
    """A usage error for ``--site`` without ``--redis``, whose database it names a site in."""
    if args.site is not None and args.redis is None:
        raise UsageError(f"--site {args.site} needs --redis: it names the site in a Redis database")


def _more_files() -> None:
    """Raise this process's open-file limit to its hard limit (sockets are files)."""
    try:
        import resource
    except ImportError:  # not on this system
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, 65536), hard))


def run(args: argparse.Namespace) -> int:
    if args.think_workers is not None and not 1 <= args.think_workers <= MAX_THINK_WORKERS:
        raise UsageError(f"--think-workers {args.think_workers}: give 1 to {MAX_THINK_WORKERS}")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: not a port")
    if args.workers > 1 and args.redis is None:
        raise UsageError(f"--workers {args.workers} needs --redis: the processes meet there")
    site_needs_redis(args)
    metrics_apart(args)
    import uvicorn  # the web stack loads only for this command

    from doublesix.server.app import SERVE_ENV
    from doublesix.server.connections import GuardedH11Protocol, OneAddressH11Protocol
    from doublesix.server.quietlog import log_config
    from doublesix.server.store import database_url

    options = {
        "db": database_url(args.db),
        "settings": {
            "bot_delay": args.bot_delay,
            "grace_seconds": args.grace,
            "open_seconds": args.open_for,
            "review_ms": args.review_ms,
            "think_workers": args.think_workers,
            "redis_url": args.redis,
            "site": args.site,
            "lease_seconds": args.lease,
            "chat_accounts_only": args.chat == "accounts",
        },
        "address_limits": not args.no_limits,
        "origins": args.origin,
        "seed": args.seed,
        "metrics": args.metrics is not None,
    }
    os.environ[SERVE_ENV] = json.dumps(options)
    _more_files()
    where = f"database {args.db}" + (f", Redis {args.redis}" if args.redis else "")
    where += f", site {args.site}" if args.site else ""
    print(f"doublesix: serving http://{args.host}:{args.port}/ ({where})", flush=True)
    with contextlib.ExitStack() as stack:
        if args.metrics is not None:
            _listen_for_metrics(stack, args.metrics, args.workers)
        uvicorn.run(
            "doublesix.server.app:from_environment",
            factory=True,
            host=args.host,
            port=args.port,
            workers=args.workers,
            log_level=args.log_level,
            log_config=log_config(args.log_level),
            # headers within 10 s; 64 connections per address (not with --no-limits)
            http=OneAddressH11Protocol if args.no_limits else GuardedH11Protocol,
            timeout_keep_alive=5,
            limit_concurrency=CONNECTIONS,
            h11_max_incomplete_event_size=16 * 1024,  # a request's line and headers
            ws_max_size=16 * 1024,  # a client frame is 4,096 characters at most
            # no permessage-deflate: compressing each small frame cost more CPU than the bytes
            # it saved on the loopback or a LAN (profile of issue 12's load test: 5% a process)
            ws_per_message_deflate=False,
            ws_ping_interval=20.0,
            ws_ping_timeout=20.0,
            timeout_graceful_shutdown=5,
        )
    return 0
