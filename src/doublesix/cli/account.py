"""``doublesix account``: what a site's operator does for, or about, a player's account.

Each task runs on the site's database (the same ``--db`` as ``serve``); the server may be
running, and every process of a site sees the change at once.

- ``password NAME``: the site sends no e-mail, so a player who forgot the password asks the
  operator, who sets a new one. It is read from standard input — asked twice on a terminal —
  never from the command line, which others on the machine can read. Every session of the
  account ends: a browser logged in with the old password is logged out. With the site's
  ``--redis`` (and ``--site``), the pages open with those sessions are told at once
  (``lobby_bus.sessions_ended``: each process closes their sockets but a seat's, as after a
  log-out), and every seat the account holds at a table not over takes a new token
  (``lobby_bus.password_changed``: each process replaces those of the tables it runs, and
  the old token's sockets watch, ``server/seat_keys.py``); without, the pages learn it at
  their next request or socket, and the seats keep their tokens (it says how many): a seat
  taken with the old password plays on until the player changes the password on the web,
  or this runs with ``--redis``.
- ``silence NAME [--hours H] [--reason TEXT]``: the account's chat messages are refused, in
  the lobby and at every table, for H hours or until lifted; ``unsilence NAME`` lifts it.
- ``close NAME [--reason TEXT] [--redis URL [--site NAME]]``: a ban. The account logs in no
  more and its sessions end; its page and its ranks go, its name stays taken
  (``Accounts``). Its chat and its seats' tokens are refused at once (the servers read them
  at each message and each table socket's hello). With the site's ``--redis`` (and
  ``--site``), as ``serve``'s, it is shut out at once as by a ban on the web: the command
  ends the account's open challenges as if it had left, their players told at once, and
  sends the site's processes the web's message (``lobby_bus.account_closed``): each
  closes the account's sockets and hands its seats at the tables it runs to bots
  (``Lobby.shut_out``); even of an account closed already. Without, it tells no server:
  the sockets the account has open stay open until they close (a ban on the web closes
  them too). ``reopen NAME`` lets it log in again, and reopens an account its player
  closed, if they ask. The operators do both on the web too (``/operator``), but for an
  operator's account: that is this command's.
- ``erase NAME [--redis URL [--site NAME]]``: the player asked the operator (the site sends no
  e-mail) to erase their account and personal data (``server/erasure.py``). The account is
  closed as by ``close``, and erased at once if none of its games is being played; else it
  says how many are, and a server erases it within minutes of their end (a bot finishes its
  seats). ``--redis`` as for ``close``: its sockets are shut out at once, its words leave the
  lobby's chat, and the processes read the games it rewrote again; if no process of the site
  listens on it (another ``--site``), nothing changes, since the command run again could not
  find what it left behind once the name is gone; without, a server without Redis keeps its
  lobby messages in memory until they scroll away or it restarts. Erasing again changes
  nothing; nothing reopens an account whose erasure was asked.
- ``operator NAME [--revoke]``: the account becomes one of the site's operators, who read and
  close the reports, silence and close accounts on the web (``/operator``); ``--revoke``
  undoes it. Only this command makes an operator.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

from doublesix.cli.common import CommandError, Subparsers, UsageError, number
from doublesix.cli.serve import redis_url, site, site_needs_redis
from doublesix.cli.site_db import add_db, on_site

if TYPE_CHECKING:  # the server's stack loads only when a task runs
    from redis.asyncio import Redis

    from doublesix.server import erasure
    from doublesix.server.channels import Space
    from doublesix.server.moderation_log import Act
    from doublesix.server.store import SqlStore

T = TypeVar("T")

WITHOUT_REDIS = (
    "its open sockets, if any, stay until they close, and a server without Redis keeps its "
    "lobby messages until they scroll away; pass --redis to end both now"
)
"""What ``erase`` without ``--redis`` says it could not reach."""
NOBODY_HEARD = (
    "no server process of the site heard it on --redis (check it and --site): its open "
    "sockets, if any, stay until they close"
)
"""What ``close`` says when no process heard it (and ``erase``, if every one went away
between its check and its message)."""
MAX_HOURS = 24 * 365 * 10
"""The longest silence given in hours; longer is until lifted (no ``--hours``)."""


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "account",
        help="an operator's tasks on a player's account: a new password, silence, close, erase",
        description="What a site's operator does for, or about, a player's account, on the "
        "site's database while the server runs.",
    )
    tasks = parser.add_subparsers(dest="task", metavar="TASK", required=True)
    password = tasks.add_parser(
        "password",
        help="set a new password for the account NAME (read from standard input) and end "
        "its sessions",
    )
    add_site(
        password,
        "the site's Redis, as serve's --redis: every server process of the site closes the "
        "sockets of the ended sessions at once, as after a log-out, and gives the account's "
        "seats new tokens (without --redis, the sockets stay open until they close, and the "
        "seats keep their tokens)",
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
    close.add_argument(
        "--reason", default=None, help="why, kept in the operators' log (/operator shows it)"
    )
    erase = tasks.add_parser(
        "erase",
        help="erase the account NAME and its personal data, as its player asked: closed now, "
        "erased once none of its games is being played; its name stays taken",
    )
    for task in (close, erase):
        add_site(
            task,
            "the site's Redis, as serve's --redis: every server process of the site "
            "closes the account's sockets and a bot takes its seats at once; erase also removes "
            "its lobby messages and has the processes read the games it rewrote again, and "
            "changes nothing if no process of the site listens there (without --redis, its chat "
            "and its seats' tokens are refused, but its open sockets stay until they close)",
        )
    reopen = tasks.add_parser("reopen", help="let the closed account NAME log in again")
    operator = tasks.add_parser(
        "operator", help="make the account NAME one of the site's operators (/operator)"
    )
    operator.add_argument("--revoke", action="store_true", help="one no more")
    for task in (password, silence, unsilence, close, erase, reopen, operator):
        task.add_argument("name", metavar="NAME", help="the account's name, in any case")
        add_db(task)
    return parser


def add_site(task: argparse.ArgumentParser, what_redis_does: str) -> None:
    """``--redis URL [--site NAME]``: the site whose server processes ``task`` tells."""
    task.add_argument("--redis", type=redis_url, default=None, metavar="URL", help=what_redis_does)
    task.add_argument(
        "--site",
        type=site,
        default=None,
        metavar="NAME",
        help="with --redis: the site's name, as serve's --site (default: none)",
    )


def run(args: argparse.Namespace) -> int:
    from doublesix.server import moderation
    from doublesix.server.accounts import Accounts
    from doublesix.server.moderation_log import Act

    if args.task == "password":
        replace_password(args)
    elif args.task == "silence":
        if args.reason is not None and len(args.reason) > moderation.REASON_MAX:
            raise UsageError(f"--reason: at most {moderation.REASON_MAX} characters")
        now = time.time()
        until = None if args.hours is None else now + args.hours * 3600
        name = on_site(
            args.db,
            logged(
                Act.SILENCE,
                lambda s: moderation.silence(
                    s, args.name, now=now, until=until, reason=args.reason
                ),
                until=until,
                reason=args.reason,
            ),
        )
        print(
            f"{name} is silenced " + ("until lifted" if until is None else f"for {args.hours:g} h")
        )
    elif args.task == "unsilence":
        name = on_site(args.db, logged(Act.UNSILENCE, lambda s: moderation.lift(s, args.name)))
        print(f"{name} may chat again")
    elif args.task == "close":
        if args.reason is not None and not args.reason.strip():
            raise UsageError("--reason: say why, or leave it out")
        if args.reason is not None and len(args.reason) > moderation.REASON_MAX:
            raise UsageError(f"--reason: at most {moderation.REASON_MAX} characters")
        site_needs_redis(args)
        reason = None if args.reason is None else args.reason.strip()
        closing = logged_if_changed(
            Act.CLOSE,
            lambda s: Accounts(s, clock=time.time).close_by_operator(args.name),
            reason=reason,
        )
        told: int | None = None  # how many server processes heard it, with --redis
        if args.redis is None:
            name, closed = on_site(args.db, closing)
        else:
            name, closed, told = on_site(args.db, shutting_out(args.redis, args.site, closing))
        if closed:
            print(f"{name} is closed: no login, no page, no rank; the name stays taken")
        else:
            print(f"{name} was closed already; nothing changed")
        if told is None:
            print(
                "the servers refuse its chat and its seats' tokens at once, but its open "
                "sockets stay until they close; pass --redis to close them now"
            )
        elif told:
            print(
                "its sockets on the site are closed and a bot takes its seats "
                f"({told} server process(es) heard it)"
            )
        else:
            print(NOBODY_HEARD)
    elif args.task == "erase":
        site_needs_redis(args)
        said = on_site(args.db, lambda s: erasing(s, args.name, args.redis, args.site))
        print("\n".join(said))
    elif args.task == "reopen":
        reopening = logged_if_changed(
            Act.REOPEN, lambda s: Accounts(s, clock=time.time).reopen(args.name)
        )
        name, opened = on_site(args.db, reopening)
        print(f"{name} is open again" if opened else f"{name} was open; nothing changed")
    else:
        on = not args.revoke
        act = Act.APPOINT if on else Act.REVOKE
        name = on_site(
            args.db, logged(act, lambda s: moderation.appoint(s, args.name, operator=on))
        )
        print(f"{name} is {'one of the' if on else 'no longer a'} site's operators")
    return 0


def replace_password(args: argparse.Namespace) -> None:
    """``password NAME [--redis URL [--site NAME]]``: the new password read from standard
    input; with ``--redis``, the ended sessions' pages signed out at once."""
    from doublesix.server.accounts import Accounts
    from doublesix.server.moderation_log import Act

    site_needs_redis(args)
    new = read_password(sys.stdin)
    replacing = logged(
        Act.PASSWORD, lambda s: Accounts(s, clock=time.time).set_password(args.name, new)
    )
    if args.redis is None:
        name, ended, _, seated = on_site(args.db, counting_seats(replacing))
        print(f"the password of {name} is replaced; {len(ended)} session(s) ended")
        if seated:
            print(
                f"its seats at {seated} table(s) not over keep their tokens, and play on: "
                "pass --redis to give them new ones now"
            )
        return
    name, ended, seated, told = on_site(
        args.db, signing_out(args.redis, args.site, counting_seats(replacing))
    )
    print(f"the password of {name} is replaced; {len(ended)} session(s) ended")
    new_tokens = f" and its seats at {seated} table(s) not over take new tokens" if seated else ""
    print(
        f"their pages' sockets are closed{new_tokens} ({told} server process(es) heard it)"
        if told
        else NOBODY_HEARD
    )


def logged(
    act: Act, task: Callable[[SqlStore], Awaitable[T]], **detail: Any
) -> Callable[[SqlStore], Awaitable[T]]:
    """``task``, then an entry of the operators' log (the command line's: no operator's name)
    for the account it names (its answer, or the answer's first item)."""
    from doublesix.server import moderation_log

    async def run(store: SqlStore) -> T:
        done = await task(store)
        name = done[0] if isinstance(done, tuple) else done
        await moderation_log.write(store, time.time(), None, act, str(name), **detail)
        return done

    return run


def logged_if_changed(
    act: Act, task: Callable[[SqlStore], Awaitable[tuple[str, bool]]], **detail: Any
) -> Callable[[SqlStore], Awaitable[tuple[str, bool]]]:
    """``logged``, for a task that answers its account's name and whether it changed
    anything: no entry when it did not (a closed account closed again)."""
    from doublesix.server import moderation_log

    async def run(store: SqlStore) -> tuple[str, bool]:
        name, changed = await task(store)
        if changed:
            await moderation_log.write(store, time.time(), None, act, name, **detail)
        return name, changed

    return run


def shutting_out(
    url: str, site: str | None, closing: Callable[[SqlStore], Awaitable[tuple[str, bool]]]
) -> Callable[[SqlStore], Awaitable[tuple[str, bool, int]]]:
    """``closing``, then the account shut out of every server process of the site ``site``
    on the Redis ``url`` (``Lobby.shut_out``'s message); it answers how many processes
    heard it too. Redis is reached first: if it is not, nothing changes."""
    from redis.exceptions import RedisError

    from doublesix.server.accounts import Accounts
    from doublesix.server.channels import Space

    async def run(store: SqlStore) -> tuple[str, bool, int]:
        async with reached(url) as client:
            name, closed = await closing(store)
            account = await Accounts(store, clock=time.time).by_name(name)
            assert account is not None  # just found by that name; accounts are never deleted
            try:
                told = await shut_out(store, client, Space.of(client, site), account.id)
            except RedisError as e:
                raise CommandError(
                    f"--redis {url}: {e}; {name} is closed, but its sockets stay open "
                    "until they close: run this again to close them"
                ) from None
        return name, closed, told

    return run


@contextlib.asynccontextmanager
async def reached(url: str) -> AsyncIterator[Redis]:
    """The site's Redis at ``url``, once it answers (else a ``CommandError``: nothing has
    changed yet); closed on the way out."""
    from redis.asyncio import Redis
    from redis.exceptions import RedisError

    client = Redis.from_url(url)
    try:
        try:
            await client.ping()
        except RedisError as e:
            raise CommandError(f"--redis {url}: {e}; nothing changed") from None
        yield client
    finally:
        await client.aclose()


def counting_seats(
    replacing: Callable[[SqlStore], Awaitable[tuple[str, list[str]]]],
) -> Callable[[SqlStore], Awaitable[tuple[str, list[str], str, int]]]:
    """``replacing``, then the account's player id and how many tables not over it holds a
    seat at (``seat_keys.seated_tables``)."""
    from doublesix.server.accounts import Accounts
    from doublesix.server.seat_keys import seated_tables

    async def run(store: SqlStore) -> tuple[str, list[str], str, int]:
        name, ended = await replacing(store)
        account = await Accounts(store, clock=time.time).by_name(name)
        assert account is not None  # just found by that name; accounts are never deleted
        return name, ended, account.id, len(await seated_tables(store, account.id))

    return run


def signing_out(
    url: str,
    site: str | None,
    replacing: Callable[[SqlStore], Awaitable[tuple[str, list[str], str, int]]],
) -> Callable[[SqlStore], Awaitable[tuple[str, list[str], int, int]]]:
    """``replacing`` (``counting_seats``'), then the sessions it ended signed out and the
    account's seats given new tokens on every server process of the site ``site`` on the
    Redis ``url`` (``Lobby.new_password``'s messages); it answers the account's name, the
    ended sessions, how many tables it is seated at and how many processes heard it. Redis
    is reached first: if it is not, nothing changes."""
    from redis.exceptions import RedisError

    from doublesix.server.channels import Space
    from doublesix.server.lobby_bus import password_changed, sessions_ended, tell_site

    async def run(store: SqlStore) -> tuple[str, list[str], int, int]:
        async with reached(url) as client:
            name, ended, player_id, seated = await replacing(store)
            space = Space.of(client, site)
            try:
                told = await tell_site(client, space, sessions_ended(ended))
                await tell_site(client, space, password_changed(player_id))
            except RedisError as e:
                raise CommandError(
                    f"--redis {url}: {e}; the password of {name} is replaced, but the pages "
                    "of its ended sessions stay open until they close, and its seats keep "
                    "their tokens"
                ) from None
        return name, ended, seated, told

    return run


async def shut_out(store: SqlStore, client: Redis, space: Space, player_id: str) -> int:
    """What ``Lobby.shut_out`` does, from the command line: the closed account's open
    challenges end as if it had left, their players told at once (``Book.left``), and every
    server process of the site shuts it out; how many processes heard it."""
    from doublesix.server.lobby_bus import account_closed, challenge_changed, tell_site
    from doublesix.server.lobby_sql import Book

    for challenge in await Book(store).left(player_id):
        await tell_site(client, space, challenge_changed(challenge, time.time()))
    return await tell_site(client, space, account_closed(player_id))


async def erasing(store: SqlStore, name: str, url: str | None, site: str | None) -> list[str]:
    """``erase NAME``: ask the account's erasure, shut it out and forget its lobby messages on
    the site's Redis ``url`` if given, and erase it at once if it can be; what to say, line by
    line.

    Unlike ``close``, nothing changes unless a process of the site listens on ``url`` (a
    wrong ``--site``): once it is erased, its name and the games it played are nobody's, so
    that running this again could find neither its lobby messages nor the games whose
    record a process keeps under its name."""
    from redis.asyncio import Redis
    from redis.exceptions import RedisError

    from doublesix.server import erasure, moderation_log
    from doublesix.server.accounts import Accounts
    from doublesix.server.channels import Space
    from doublesix.server.lobby_bus import listening, tables_erased, tell_site
    from doublesix.server.lobby_chat import RedisHistory, forget
    from doublesix.server.moderation_log import Act

    client = None if url is None else Redis.from_url(url)
    try:
        if client is not None:
            try:
                await client.ping()
                heard = await listening(client, Space.of(client, site))
            except RedisError as e:
                raise CommandError(f"--redis {url}: {e}; nothing changed") from None
            if not heard:
                named = "" if site is None else f" {site!r}"
                raise CommandError(
                    f"no server process of the site{named} listens on --redis {url}: check "
                    "it and --site; nothing changed"
                )
        player_id, spelled, asked = await Accounts(store, clock=time.time).erase_by_operator(name)
        if asked:
            await moderation_log.write(store, time.time(), None, Act.ERASE, spelled)
        said = [WITHOUT_REDIS] if asked else []
        if client is not None:
            space = Space.of(client, site)
            told = await shut_out(store, client, space, player_id)
            for message_id in await forget(RedisHistory(client, space), spelled):
                await tell_site(client, space, {"k": "unchat", "id": message_id})
            said = [
                "its sockets on the site are closed, a bot takes its seats and its lobby "
                f"messages are gone ({told} server process(es) heard it)"
                if told
                else NOBODY_HEARD
            ]
        done = await erasure.erase(store, player_id, time.time())
        if client is not None and done.progress == erasure.Progress.DONE:
            await tell_site(client, Space.of(client, site), tables_erased(done.tables))
    except RedisError as e:
        raise CommandError(f"--redis {url}: {e}; run this again to finish") from None
    finally:
        if client is not None:
            await client.aclose()
    return [_erased(name, asked, done), *said]


def _erased(name: str, asked: bool, done: erasure.Erasing) -> str:
    """What ``erase`` says of the account ``name``: whether this asked its erasure, and how
    far it is."""
    from doublesix.server.erasure import Progress

    if done.progress == Progress.DONE:
        return f"{name} is erased: closed, its personal data gone; its name stays taken"
    if done.progress == Progress.PENDING:
        games = len(done.tables)
        first = f"{name} is closed" if asked else f"{name}'s erasure was asked already"
        return (
            f"{first}; it is erased once its {games} game(s) being played end (a server does "
            "it within minutes of their end)"
        )
    return f"{name} was erased already; nothing changed"


def read_password(stream: TextIO) -> str:
    """The new password: asked twice on a terminal, else the first line of ``stream``."""
    if not stream.isatty():
        return stream.readline().rstrip("\r\n")
    first = getpass.getpass("new password: ")
    if getpass.getpass("the same again: ") != first:
        raise CommandError("the two passwords differ; nothing changed")
    return first
