"""Erasing an account: a player's right to have their personal data erased (GDPR, art. 17).

Its player asks for it (``POST /api/account/erase``, with the password), or the site's
operator does for them (``doublesix account erase``; the site sends no e-mail). The account
is closed at once, as by ``Accounts.close`` (its sessions end, its sockets are shut out and
a bot takes its seats: ``Lobby.shut_out``), and the request is kept
(``accounts.erase_requested_at``, ``ask``). The erasure itself (``erase``) waits until none
of the account's tables is open or being played: such a table holds its seats' names in
memory and writes them back. It is done by a sweep (``sweep``): at once when it can, at every
server start, every ``SWEEP_SECONDS``, and when one of its games ends.

Erasing an account, in one transaction that locks its row:

- its seats, and their entries in the tables' logs, take a pseudonym (``erased-3f9a1c``,
  ``account_names.pseudonym``), one for all its games, and a player id that is nobody's:
  the others' games stay whole, replay, and show the pseudonym; the account's row keeps
  neither, so nothing in the database ties those games to what the row keeps;
- its chat messages at tables, from its seats or as a spectator, become the placeholder an
  operator's removal shows (``{"removed": true}``); the lobby forgets its messages
  (``Lobby.forget_chat_of``);
- its ratings and rating changes (its finished rated games are rated first, so that the
  others' ratings count them), follows, blocks and mutes (its own, and those of its name),
  sessions, seek, guest row and places in tournaments' standings go; the tournaments it
  created show no creator, and the pseudonym for its name in their names; its challenges
  (its close ended the open ones: ``Lobby.shut_out``), the reports by it (their words go)
  and about it, and the operators' log's entries by or about it show the pseudonym, and
  their words show it for its name;
- its row stays, closed and erased, with no password (none matches), a pseudonym of its
  own for a name, and ``name_key``: the folded key of its name, the one thing kept, which
  keeps the name taken so that nobody registers it or plays as a guest under it and passes
  for the player who left.

Other players' own words that name the account (a chat message "gg Anna") are theirs and
stay; an operator removes such a message if asked.

Erasing is idempotent and safe with several processes: an account is erased once (its row
locked, ``erased_at`` set in the same transaction), and a second sweep finds nothing to do
unless a seat of its id appeared since (a rematch it had agreed to before it left), which
the next sweep renames as well.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from doublesix.server import messages, schema, tournament_sql
from doublesix.server.account_names import pseudonym
from doublesix.server.challenges import gone
from doublesix.server.lobby_sql import challenge_of, row_of
from doublesix.server.moderation_log import Act
from doublesix.server.rating_store import rate_table
from doublesix.server.store import SqlStore
from doublesix.table.model import JSON, EventKind, SeatKind, TableStatus

log = logging.getLogger(__name__)

SWEEP_SECONDS = 60.0
"""How often a server looks for the erasures that may be done now."""
REMOVED: JSON = {"removed": True}
"""What is left of an erased player's chat message at a table: the placeholder an
operator's removal shows (``table.frames.chat_message``)."""
NO_PASSWORD = "!erased"
"""An erased account's password hash: no Argon2 hash, so that no password matches it."""
LIVE = (TableStatus.OPEN.value, TableStatus.PLAYING.value)
"""A table of one of these is still played: its host writes its seats' names back."""
SAID = (EventKind.SEAT.value, EventKind.CHAT.value)
"""The log entries that name a player: a seat taken, a chat message."""


class Progress(StrEnum):
    """How far an account's erasure is."""

    DONE = "done"
    """Erased now."""
    PENDING = "pending"
    """Asked; it waits for its tables to end."""
    NOTHING = "nothing"
    """Not asked, or erased already with nothing left to erase: nothing changed."""


@dataclass(frozen=True)
class Erasing:
    progress: Progress
    tables: list[str] = field(default_factory=list)
    """Pending: its tables still open or being played; done: the tables whose seats or log
    were rewritten (a process that holds one in memory reads it again)."""
    name: str | None = None
    """Done: the name it had, for what is not in the database (the lobby's chat)."""


async def ask(conn: AsyncConnection, player_id: str, now: float) -> bool:
    """Keep the erasure request of the account ``player_id`` (in the transaction that closes
    it: ``Accounts``), and end its seek; whether it was not asked before."""
    a, k = schema.accounts, schema.seeks
    asked = await conn.execute(
        a.update()
        .where(a.c.player_id == player_id, a.c.erase_requested_at.is_(None))
        .values(erase_requested_at=now, updated_at=now)
    )
    await conn.execute(k.delete().where(k.c.player_id == player_id))
    return asked.rowcount == 1


async def due(store: SqlStore, among: Collection[str] | None = None) -> list[str]:
    """The accounts to erase: asked and not erased yet, or erased with a seat of their id
    since (a rematch); ``among``: of those accounts only (read by key: a game's end asks)."""
    a, s = schema.accounts, schema.seats
    seated = sa.exists().where(s.c.player_id == a.c.player_id)
    query = sa.select(a.c.player_id).where(
        a.c.erase_requested_at.is_not(None), sa.or_(a.c.erased_at.is_(None), seated)
    )
    if among is not None:
        query = query.where(a.c.player_id.in_(list(among)))
    async with store.engine.connect() as conn:
        return list((await conn.execute(query)).scalars())


async def erase(store: SqlStore, player_id: str, now: float) -> Erasing:
    """Erase the account ``player_id`` if it was asked and none of its tables is still
    played (see the module)."""
    await _rate_first(store, player_id, now)
    async with store.writing() as conn:
        return await _erase(conn, player_id, now)


async def sweep(store: SqlStore, now: float) -> list[Erasing]:
    """Every erasure that may be done now (``due``), each in its own transaction; an error
    is logged and the others go on."""
    done = []
    for player_id in await due(store):
        try:
            done.append(await erase(store, player_id, now))
        except Exception:
            log.exception("erasure: an account could not be erased; the next sweep tries again")
    return done


class Site(Protocol):
    """Who keeps what the database does not: the site's processes (``Lobby``)."""

    async def forget_chat_of(self, name: str) -> None:
        """The lobby's chat forgets the messages from ``name``."""
        ...

    async def erased(self, tables: list[str]) -> None:
        """A process that holds one of ``tables`` in memory reads it again."""
        ...


async def tell(site: Site, erasing: Erasing) -> None:
    """An erasure done, to the site's processes: its words leave the lobby's chat, and the
    tables it rewrote are read again where they are held."""
    if erasing.progress != Progress.DONE:
        return
    await site.erased(erasing.tables)
    if erasing.name is not None:
        await site.forget_chat_of(erasing.name)


async def erase_seated(store: SqlStore, site: Site, seated: Collection[str], now: float) -> None:
    """Erase those of the players ``seated`` (a game's that just ended) whose erasure waits:
    their rows read by key, not every account's, at each game's end."""
    if not seated:
        return
    for player_id in await due(store, set(seated)):
        await tell(site, await erase(store, player_id, now))


async def sweep_every(
    store: SqlStore, site: Site, clock: Callable[[], float], seconds: float
) -> None:
    """``sweep`` now and then every ``seconds``, until cancelled; the ``site`` is told of
    each erasure done."""
    while True:
        try:
            for erasing in await sweep(store, clock()):
                await tell(site, erasing)
        except Exception:
            log.warning("erasure: the sweep failed", exc_info=True)
        await asyncio.sleep(seconds)


# --- one account ------------------------------------------------------------------------


@dataclass
class _Table:
    """A table that names the account: its status, the seats it holds (number and name), and
    its log's entries that may name it."""

    status: str
    seats: dict[int, str | None]
    said: list[Any]


async def _rate_first(store: SqlStore, player_id: str, now: float) -> None:
    """Rate its finished rated games that are not rated yet: once its seats are nobody's,
    the others' ratings could not count them."""
    t, s, c = schema.tables, schema.seats, schema.rating_changes
    query = (
        sa.select(t.c.id)
        .join(s, s.c.table_id == t.c.id)
        .where(
            s.c.player_id == player_id,
            t.c.rated.is_(True),
            t.c.status == TableStatus.FINISHED.value,
            ~sa.exists().where(c.c.table_id == t.c.id),
        )
    )
    async with store.engine.connect() as conn:
        unrated = list((await conn.execute(query)).scalars())
    for table_id in unrated:
        try:
            await rate_table(store, table_id, now)
        except Exception:
            log.exception("erasure: table %s could not be rated first", table_id)


async def _erase(conn: AsyncConnection, player_id: str, now: float) -> Erasing:
    a = schema.accounts
    row = (
        await conn.execute(sa.select(a).where(a.c.player_id == player_id).with_for_update())
    ).first()
    if row is None or row.erase_requested_at is None:
        return Erasing(Progress.NOTHING)
    name = row.name if row.erased_at is None else None
    live = await _tables(conn, player_id, name, live=True)
    if live:
        return Erasing(Progress.PENDING, sorted(live))
    tables = await _tables(conn, player_id, name, live=False)
    if name is None and not tables:
        return Erasing(Progress.NOTHING)
    alias, nobody = pseudonym(), secrets.token_urlsafe(24)
    for table_id, table in tables.items():
        await _rewrite(conn, table_id, table, alias)
    s, t = schema.seats, schema.tables
    await conn.execute(
        s.update()
        .where(s.c.player_id == player_id)
        .values(name=alias, player_id=nobody, account=False)
    )
    await conn.execute(t.update().where(t.c.creator == player_id).values(creator=nobody))
    if name is not None:
        await _forget(conn, player_id, name, alias, nobody)
        await conn.execute(
            a.update()
            .where(a.c.player_id == player_id)
            .values(
                name=pseudonym(),
                password=NO_PASSWORD,
                silenced_at=None,
                silenced_until=None,
                silence_reason=None,
                operator=False,
                erased_at=now,
                updated_at=now,
            )
        )
    return Erasing(Progress.DONE, sorted(tables), name)


async def _tables(
    conn: AsyncConnection, player_id: str, name: str | None, *, live: bool
) -> dict[str, _Table]:
    """The tables that name the account (``_theirs``): ``live``, those still played only,
    else those that are not. Its seats are found by its id; the entries of tables where it
    no longer sits (it left before the start, or watched) by its id or name in their text,
    then checked one by one."""
    t, s, e = schema.tables, schema.seats, schema.events
    state = t.c.status.in_(LIVE) if live else t.c.status.not_in(LIVE)
    seated = (
        await conn.execute(
            sa.select(s.c.table_id, s.c.seat, s.c.name)
            .join(t, t.c.id == s.c.table_id)
            .where(s.c.player_id == player_id, state)
        )
    ).all()
    mine: dict[str, dict[int, str | None]] = {}
    for seat in seated:
        mine.setdefault(seat.table_id, {})[seat.seat] = seat.name
    text = sa.cast(e.c.data, sa.Text)
    named = text.contains(player_id, autoescape=True)
    if name is not None:
        named = sa.or_(named, text.contains(name, autoescape=True))
    candidates = sa.select(e.c.table_id).where(e.c.kind.in_(SAID), named)
    if live:  # a few tables: look in their logs only
        candidates = candidates.where(e.c.table_id.in_(sa.select(t.c.id).where(state)))
    ids = set(mine) | set((await conn.execute(candidates.distinct())).scalars())
    if not ids:
        return {}
    statuses = dict(
        (await conn.execute(sa.select(t.c.id, t.c.status).where(t.c.id.in_(ids), state))).all()
    )
    entries = (
        await conn.execute(
            sa.select(e.c.table_id, e.c.version, e.c.kind, e.c.seat, e.c.data)
            .where(e.c.table_id.in_(list(statuses)), e.c.kind.in_(SAID))
            .order_by(e.c.table_id, e.c.version)
        )
    ).all()
    found = {
        table_id: _Table(status, mine.get(table_id, {}), [])
        for table_id, status in statuses.items()
    }
    for entry in entries:
        table = found[entry.table_id]
        if _theirs(entry, table.seats, player_id, name):
            table.said.append(entry)
    return {table_id: table for table_id, table in found.items() if table.seats or table.said}


def _theirs(entry: Any, seats: dict[int, str | None], player_id: str, name: str | None) -> bool:
    """Whether the log's ``entry`` (a seat taken, a chat message) is the account's: from a
    seat it holds under the name it sat down with, from its name, or as a spectator by its
    id."""
    data = entry.data
    said = data.get("name") if entry.kind == EventKind.SEAT.value else data.get("from")
    if entry.kind == EventKind.SEAT.value and data.get("kind") != SeatKind.HUMAN.value:
        return False
    if entry.kind == EventKind.CHAT.value and data.get("player") is not None:
        return bool(data["player"] == player_id)
    if said is None:
        return False
    return said == name or (entry.seat in seats and said == seats[entry.seat])


async def _rewrite(conn: AsyncConnection, table_id: str, table: _Table, alias: str) -> None:
    """Its seat entries take the pseudonym, its chat messages the placeholder."""
    e = schema.events
    for entry in table.said:
        seat = entry.kind == EventKind.SEAT.value
        data = dict(entry.data) | {"name": alias} if seat else REMOVED
        await conn.execute(
            e.update()
            .where(e.c.table_id == table_id, e.c.version == entry.version)
            .values(data=data)
        )


async def _forget(
    conn: AsyncConnection, player_id: str, name: str, alias: str, nobody: str
) -> None:
    """What the account's row and lists held, and what others kept about it by its id or name
    (see the module)."""
    for table, *columns in (
        (schema.ratings, "player_id"),
        (schema.rating_changes, "player_id"),
        (schema.sessions, "player_id"),
        (schema.seeks, "player_id"),
        (schema.guests, "id"),
        (schema.follows, "follower_id", "followed_id"),
        (schema.blocks, "player_id", "blocked_id"),
    ):
        await conn.execute(
            table.delete().where(sa.or_(*(table.c[c] == player_id for c in columns)))
        )
    m = schema.mutes
    await conn.execute(m.delete().where(sa.or_(m.c.player_id == player_id, m.c.name == name)))
    await _seeks(conn, name)
    await tournament_sql.forget(conn, player_id, lambda text: _unnamed(text, name, alias))
    await _challenges(conn, player_id, alias, nobody)
    await messages.forget(conn, player_id)
    await _reports(conn, player_id, name, alias, nobody)
    await _moderation_log(conn, name, alias)


async def _seeks(conn: AsyncConnection, name: str) -> None:
    """Its name leaves the others' seeks' names to avoid (a Play now seek carries the names
    its player mutes)."""
    k = schema.seeks
    rows = await conn.execute(
        sa.select(k.c.player_id, k.c.avoid).where(
            sa.cast(k.c.avoid, sa.Text).contains(name, autoescape=True)
        )
    )
    for row in rows.all():
        avoid = [n for n in row.avoid or [] if n != name]
        await conn.execute(
            k.update().where(k.c.player_id == row.player_id).values(avoid=avoid or None)
        )


async def _challenges(conn: AsyncConnection, player_id: str, alias: str, nobody: str) -> None:
    """Its challenges show the pseudonym. Its close ended its open ones, the others told
    (``Lobby.shut_out``); one still open (closed from the command line without ``--redis``)
    ends here as if it had left (``challenges.gone``), unheard: the others' lobbies see it
    expire."""
    c = schema.challenges
    involved = sa.or_(
        c.c.player_id == player_id,
        sa.cast(c.c.invited, sa.Text).contains(player_id, autoescape=True),
    )
    for row in (await conn.execute(sa.select(c).where(involved))).all():
        challenge = challenge_of(row)
        gone(challenge, player_id)
        for invited in challenge.invited:
            if invited.id == player_id:
                invited.id, invited.name = nobody, alias
        if challenge.player == player_id:
            challenge.player, challenge.name = nobody, alias
        await conn.execute(c.update().where(c.c.id == row.id).values(row_of(challenge)))


async def _reports(
    conn: AsyncConnection, player_id: str, name: str, alias: str, nobody: str
) -> None:
    """The reports it made lose their words; those about it, and the words that name it,
    show the pseudonym."""
    r = schema.reports
    involved = sa.or_(
        r.c.reporter_id == player_id,
        r.c.player_id == player_id,
        _mentions(r.c.text, name),
        _mentions(r.c.note, name),
    )
    for row in (await conn.execute(sa.select(r).where(involved))).all():
        values: dict[str, object] = {
            "text": _unnamed(row.text, name, alias),
            "note": None if row.note is None else _unnamed(row.note, name, alias),
        }
        if row.reporter_id == player_id:
            values |= {"reporter_id": nobody, "reporter_name": alias, "text": ""}
        if row.player_id == player_id:
            values |= {"player_id": nobody, "name": alias}
        await conn.execute(r.update().where(r.c.id == row.id).values(**values))


async def _moderation_log(conn: AsyncConnection, name: str, alias: str) -> None:
    """Its entries in the operators' log, by it (an operator) or about it, show the
    pseudonym; the words of its removed messages go."""
    m = schema.moderation_log
    involved = sa.or_(
        m.c.name == name,
        m.c.operator == name,
        _mentions(sa.cast(m.c.detail, sa.Text), name),
    )
    for row in (await conn.execute(sa.select(m).where(involved))).all():
        detail = _unnamed_json(dict(row.detail), name, alias)
        if row.action == Act.UNCHAT.value and row.name == name:
            detail = {k: v for k, v in detail.items() if k not in ("text", "phrase")} | REMOVED
        await conn.execute(
            m.update()
            .where(m.c.id == row.id)
            .values(
                name=alias if row.name == name else row.name,
                operator=alias if row.operator == name else row.operator,
                detail=detail,
            )
        )


def _mentions(column: sa.ColumnElement[Any], name: str) -> sa.ColumnElement[bool]:
    """Whether ``column``'s text holds ``name`` in any case (more than ``_unnamed`` replaces:
    the rows to look at)."""
    return sa.func.lower(column).contains(name.lower(), autoescape=True)


def _unnamed(text: str, name: str, alias: str) -> str:
    """``text`` with ``name``, as a word in any case, replaced by ``alias``."""
    word = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.IGNORECASE)
    return word.sub(alias, text)


def _unnamed_json(value: Any, name: str, alias: str) -> Any:
    """``_unnamed`` in every string of a JSON value."""
    if isinstance(value, str):
        return _unnamed(value, name, alias)
    if isinstance(value, list):
        return [_unnamed_json(v, name, alias) for v in value]
    if isinstance(value, dict):
        return {k: _unnamed_json(v, name, alias) for k, v in value.items()}
    return value
