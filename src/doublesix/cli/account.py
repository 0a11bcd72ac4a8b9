"""``doublesix account``: what a site's operator does for, or about, a player's account.

Each task runs on the site's database (the same ``--db`` as ``serve``); the server may be
running, and every process of a site sees the change at once.

- ``password NAME``: the site sends no e-mail, so a player who forgot the password asks the
  operator, who sets a new one. It is read from standard input — asked twice on a terminal —
  never from the command line, which others on the machine can read. Every session of the
  account ends: a browser logged in with the old password is logged out.
- ``silence NAME [--hours H] [--reason TEXT]``: the account's chat messages are refused, in
  the lobby and at every table, for H hours or until lifted; ``unsilence NAME`` lifts it.
- ``close NAME``: a ban. The account logs in no more and its sessions end; its page and its
  ranks go, its name stays taken (``Accounts``). ``reopen NAME`` lets it log in again, and
  reopens an account its player closed, if they ask.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, TypeVar

from doublesix.cli.common import CommandError, Subparsers, UsageError, number
from doublesix.cli.serve import DEFAULT_DB

if TYPE_CHECKING:
    from doublesix.server.store import SqlStore

T = TypeVar("T")

MAX_HOURS = 24 * 365 * 10
"""The longest silence given in hours; longer is until lifted (no ``--hours``)."""


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "account",
        help="an operator's tasks on a player's account: a new password, silence, close",
        description="What a site's operator does for, or about, a player's account, on the "
        "site's database while the server runs.",
    )
    tasks = parser.add_subparsers(dest="task", metavar="TASK", required=True)
    password = tasks.add_parser(
        "password",
        help="set a new password for the account NAME (read from standard input) and end "
        "its sessions",
    )
    silence = tasks.add_parser(
        "silence", help="refuse the chat messages of the account NAME, everywhere on the site"
    )
    silence.add_argument(
        "--hours",
        type=number(0, MAX_HOURS, above=True),
        default=None,
        help="for this long (default: until lifted with unsilence)",
    )
    silence.add_argument("--reason", default=None, help="why, kept for the operators")
    unsilence = tasks.add_parser("unsilence", help="let the account NAME chat again")
    close = tasks.add_parser(
        "close", help="close the account NAME (a ban): no login, no page, no rank; name kept"
    )
    reopen = tasks.add_parser("reopen", help="let the closed account NAME log in again")
    for task in (password, silence, unsilence, close, reopen):
        task.add_argument("name", metavar="NAME", help="the account's name, in any case")
        task.add_argument(
            "--db",
            default=DEFAULT_DB,
            metavar="URL",
            help="the site's database, as serve's --db (default: doublesix.sqlite3 here)",
        )
    return parser


def run(args: argparse.Namespace) -> int:
    from doublesix.server import moderation
    from doublesix.server.accounts import Accounts

    if args.task == "password":
        new = read_password(sys.stdin)
        name, ended = _on(
            args.db, lambda s: Accounts(s, clock=time.time).set_password(args.name, new)
        )
        print(f"the password of {name} is replaced; {ended} session(s) ended")
    elif args.task == "silence":
        if args.reason is not None and len(args.reason) > moderation.REASON_MAX:
            raise UsageError(f"--reason: at most {moderation.REASON_MAX} characters")
        now = time.time()
        until = None if args.hours is None else now + args.hours * 3600
        name = _on(
            args.db,
            lambda s: moderation.silence(s, args.name, now=now, until=until, reason=args.reason),
        )
        print(
            f"{name} is silenced " + ("until lifted" if until is None else f"for {args.hours:g} h")
        )
    elif args.task == "unsilence":
        name = _on(args.db, lambda s: moderation.lift(s, args.name))
        print(f"{name} may chat again")
    elif args.task == "close":
        name = _on(args.db, lambda s: Accounts(s, clock=time.time).close_by_operator(args.name))
        print(f"{name} is closed: no login, no page, no rank; the name stays taken")
    else:
        name = _on(args.db, lambda s: Accounts(s, clock=time.time).reopen(args.name))
        print(f"{name} is open again")
    return 0


def read_password(stream: TextIO) -> str:
    """The new password: asked twice on a terminal, else the first line of ``stream``."""
    if not stream.isatty():
        return stream.readline().rstrip("\r\n")
    first = getpass.getpass("new password: ")
    if getpass.getpass("the same again: ") != first:
        raise CommandError("the two passwords differ; nothing changed")
    return first


def _on(db: str, task: Callable[[SqlStore], Awaitable[T]]) -> T:
    """``task`` on the site's database ``db``; its refusals as the command's errors."""
    return asyncio.run(_run_on(db, task))


async def _run_on(db: str, task: Callable[[SqlStore], Awaitable[T]]) -> T:
    import sqlalchemy as sa  # the server's stack loads only for this command

    from doublesix.server.account_names import AccountError
    from doublesix.server.store import SqlStore, database_url

    url = sa.make_url(database_url(db))
    if url.get_backend_name() == "sqlite" and not Path(url.database or "").is_file():
        # connecting would make an empty file there: a mistyped path leaves nothing behind
        raise CommandError(f"--db {db}: no such file; give the database serve --db uses")
    store = SqlStore(url.render_as_string(hide_password=False))
    try:
        return await task(store)
    except AccountError as e:
        raise CommandError(f"{e.field}: {e.message}; nothing changed") from None
    except sa.exc.SQLAlchemyError as e:
        raise CommandError(
            f"--db {db}: no doublesix site's accounts there ({type(e).__name__}); "
            "give the database serve --db uses"
        ) from None
    finally:
        await store.close()
