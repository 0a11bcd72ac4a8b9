"""``doublesix account password NAME``: an operator sets a new password for a player.

The site sends no e-mail, so a player who forgot the password asks the site's operator,
who runs this on the site's database (the same ``--db`` as ``serve``; the server may be
running). The password is read from standard input — asked twice on a terminal — never
from the command line, which others on the machine can read. Every session of the account
ends: a browser logged in with the old password is logged out.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
import time
from typing import TextIO

from doublesix.cli.common import CommandError, Subparsers
from doublesix.cli.serve import DEFAULT_DB


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "account",
        help="an operator's tasks on a player's account",
        description="What a site's operator does for a player: the site sends no e-mail, so a "
        "player who forgot the password asks the operator for a new one.",
    )
    tasks = parser.add_subparsers(dest="task", metavar="TASK", required=True)
    password = tasks.add_parser(
        "password",
        help="set a new password for the account NAME (read from standard input) and end "
        "its sessions",
    )
    password.add_argument("name", metavar="NAME", help="the account's name, in any case")
    password.add_argument(
        "--db",
        default=DEFAULT_DB,
        metavar="URL",
        help="the site's database, as serve's --db (default: doublesix.sqlite3 in this folder)",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    new = read_password(sys.stdin)
    name, ended = asyncio.run(_set_password(args.db, args.name, new))
    print(f"the password of {name} is replaced; {ended} session(s) ended")
    return 0


def read_password(stream: TextIO) -> str:
    """The new password: asked twice on a terminal, else the first line of ``stream``."""
    if not stream.isatty():
        return stream.readline().rstrip("\r\n")
    first = getpass.getpass("new password: ")
    if getpass.getpass("the same again: ") != first:
        raise CommandError("the two passwords differ; nothing changed")
    return first


async def _set_password(db: str, name: str, new: str) -> tuple[str, int]:
    import sqlalchemy as sa  # the server's stack loads only for this command

    from doublesix.server.account_names import AccountError
    from doublesix.server.accounts import Accounts
    from doublesix.server.store import SqlStore, database_url

    store = SqlStore(database_url(db))
    try:
        return await Accounts(store, clock=time.time).set_password(name, new)
    except AccountError as e:
        raise CommandError(f"{e.field}: {e.message}; nothing changed") from None
    except sa.exc.SQLAlchemyError as e:
        raise CommandError(
            f"--db {db}: no doublesix site's accounts there ({type(e).__name__}); "
            "give the database serve --db uses"
        ) from None
    finally:
        await store.close()
