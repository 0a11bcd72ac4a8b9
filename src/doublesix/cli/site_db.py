"""What the operator's commands (``account``, ``reports``) share: a task on the site's
database, its refusals as the command's errors."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from doublesix.cli.common import CommandError
from doublesix.cli.serve import DEFAULT_DB

if TYPE_CHECKING:
    from doublesix.server.store import SqlStore

T = TypeVar("T")


def add_db(parser: argparse.ArgumentParser) -> None:
    """The ``--db`` option of a task on the site's database."""
    parser.add_argument(
        "--db",
        default=DEFAULT_DB,
        metavar="URL",
        help="the site's database, as serve's --db (default: doublesix.sqlite3 here)",
    )


def on_site(db: str, task: Callable[[SqlStore], Awaitable[T]]) -> T:
    """``task`` on the site's database ``db``; its refusals as the command's errors."""
    return asyncio.run(_run_on(db, task))


async def _run_on(db: str, task: Callable[[SqlStore], Awaitable[T]]) -> T:
    import sqlalchemy as sa  # the server's stack loads only for this command

    from doublesix.server.account_names import AccountError
    from doublesix.server.errors import CommandError as Refused
    from doublesix.server.store import SqlStore, database_url

    url = sa.make_url(database_url(db))
    if url.get_backend_name() == "sqlite" and not Path(url.database or "").is_file():
        # connecting would make an empty file there: a mistyped path leaves nothing behind
        raise CommandError(f"--db {db}: no such file; give the database serve --db uses")
    store = SqlStore(url.render_as_string(hide_password=False))
    try:
        return await task(store)
    except (AccountError, Refused) as e:
        raise CommandError(f"{e.field}: {e.message}; nothing changed") from None
    except sa.exc.SQLAlchemyError as e:
        raise CommandError(
            f"--db {db}: no doublesix site's accounts there ({type(e).__name__}); "
            "give the database serve --db uses"
        ) from None
    finally:
        await store.close()
