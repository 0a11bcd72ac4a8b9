"""Private messages between accounts: an inbox, as lichess's (docs/protocol.md, "Private
messages").

An account writes to another; the recipient reads the conversations, latest first, and each
thread, which reading marks as read. What may be sent is decided here, before anything is
kept (``Refusal``): accounts only (a guest is a name and a cookie), never to oneself or to a
closed account, nothing from a silenced sender (silence covers it, as the chat), nothing
between a blocker and the blocked (refused with the words a challenge is refused with, so
that the blocked learns nothing more than a challenge tells), at most ``RATE`` in a moving
window (the site's count with several processes: ``player_limits``) and ``NEW_PER_DAY`` new
conversations a day (counted with the sender's account row locked: ``_keep``). A message
from a name its recipient mutes is kept but never shown to them: its conversation leaves
their list and their unread count, and their threads hide its messages, as mutes hide chat
everywhere.

Each message writes, in its own transaction, a row per side in ``conversations``: the
latest message and the unread count. So an inbox is read a row a conversation, by the index
``(player_id, last_id)``, however many messages it holds: a list of the latest of each
conversation over ``messages`` (PostgreSQL's ``DISTINCT ON``, a window, or SQLite's
``GROUP BY``) reads every message of the player, old ones included, at every read.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from limits import RateLimitItemPerSecond
from pydantic import BaseModel, Field
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from doublesix.server import metrics, schema
from doublesix.server.account_lists import BLOCKS
from doublesix.server.account_names import name_key
from doublesix.server.errors import CommandError
from doublesix.server.moderation import silenced
from doublesix.server.player_limits import PlayerLimits
from doublesix.server.store import Guest, SqlStore
from doublesix.table.model import JSON
from doublesix.table.state import printable

TEXT_MAX = 1000
"""Characters of a message, once trimmed."""
THREAD_PAGE = 50
"""Messages of a thread read at once (the latest; ``before`` for older ones)."""
LIST_PAGE = 50
"""Conversations of an inbox read at once (the latest; ``before`` for older ones)."""
PREVIEW = 80
"""Characters of its latest message a conversation shows in the list."""
RATE = RateLimitItemPerSecond(5, 10, namespace="messages")
"""Messages one account may send per moving window (the site's count, as the lobby chat's)."""
NEW_PER_DAY = 20
"""Conversations one account may start in 24 hours (the site's count: it is stored)."""


class Refusal(StrEnum):
    """Why a message was not sent (nothing was kept)."""

    NO_ACCOUNT = "no_account"
    """A guest or nobody: 401."""
    SELF = "self"
    """To oneself: 422."""
    NOT_FOUND = "not_found"
    """No account has the name: 404."""
    CLOSED = "closed"
    """The account is closed (or erased): 410."""
    BLOCKED = "blocked"
    """One of the two blocks the other: 422."""
    SILENCED = "silenced"
    """The site's operator has stopped the sender's chat: 403."""
    TEXT = "text"
    """Empty, too long, or with control characters but newlines: 422."""
    RATE_LIMITED = "rate_limited"
    """Over ``RATE``: 429."""
    TOO_MANY_CONVERSATIONS = "too_many_conversations"
    """Over ``NEW_PER_DAY`` new conversations: 429."""


STATUS = {
    Refusal.NO_ACCOUNT: 401,
    Refusal.SELF: 422,
    Refusal.NOT_FOUND: 404,
    Refusal.CLOSED: 410,
    Refusal.BLOCKED: 422,
    Refusal.SILENCED: 403,
    Refusal.TEXT: 422,
    Refusal.RATE_LIMITED: 429,
    Refusal.TOO_MANY_CONVERSATIONS: 429,
}


def refused(refusal: Refusal, message: str, field: str | None = None) -> CommandError:
    return CommandError(refusal.value, message, field=field, status=STATUS[refusal])


class MessageIn(BaseModel):
    to: str = Field(min_length=1, max_length=64)
    """The recipient's name, any case."""
    text: str = Field(max_length=2 * TEXT_MAX)
    """Bounded before it is trimmed; ``clean`` checks the rest."""


def clean(text: str) -> str:
    """The message as it is kept: trimmed, newlines as ``\\n``; refused (``text``) if empty,
    over ``TEXT_MAX`` or with a control character but newlines (the chat's rule, a line at a
    time)."""
    cleaned = text.replace("\r\n", "\n").strip()
    if not cleaned:
        raise refused(Refusal.TEXT, "write something (the message is empty)", "text")
    if len(cleaned) > TEXT_MAX:
        raise refused(Refusal.TEXT, f"a message is at most {TEXT_MAX} characters", "text")
    if not all(printable(line) for line in cleaned.split("\n")):
        raise refused(Refusal.TEXT, "no control characters in a message", "text")
    return cleaned


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    closed: bool


@dataclass(frozen=True)
class Sent:
    """A message kept: as both sides' threads show it, and what its recipient is told."""

    message: JSON
    sender: Account
    recipient: Account
    muted: bool
    """The recipient mutes the sender's name: the message is told to none of its pages."""
    unread: int
    """The recipient's unread messages now (``unread``)."""


async def _account(conn: AsyncConnection, name: str) -> Account:
    """The account ``name`` (any case, its look-alikes folded), open or closed."""
    a = schema.accounts
    row = (
        await conn.execute(
            sa.select(a.c.player_id, a.c.name, a.c.closed_at).where(a.c.name_key == name_key(name))
        )
    ).first()
    if row is None:
        raise refused(Refusal.NOT_FOUND, f"no account is named {name!r}", "to")
    return Account(row.player_id, row.name, row.closed_at is not None)


def _muted_by(reader: str) -> sa.Select[Any]:
    """The names ``reader`` mutes."""
    m = schema.mutes
    return sa.select(m.c.name).where(m.c.player_id == reader)


async def send(
    store: SqlStore, sender: Guest, body: MessageIn, now: float, limits: PlayerLimits
) -> Sent:
    """Keep ``sender``'s message to ``body.to``; refused (``Refusal``) with nothing kept."""
    if not sender.account:
        raise refused(Refusal.NO_ACCOUNT, "log in to write to players")
    text = clean(body.text)
    a = schema.accounts
    async with store.engine.connect() as conn:
        recipient = await _account(conn, body.to)
        me = (
            await conn.execute(
                sa.select(a.c.silenced_at, a.c.silenced_until, a.c.closed_at).where(
                    a.c.player_id == sender.id
                )
            )
        ).one()
    if recipient.id == sender.id:
        raise refused(Refusal.SELF, "you cannot write to yourself", "to")
    if recipient.closed:
        raise refused(Refusal.CLOSED, f"{recipient.name}'s account is closed", "to")
    if me.closed_at is not None:
        raise refused(Refusal.NO_ACCOUNT, "this account is closed")
    if silenced(me.silenced_at, me.silenced_until, now):
        raise refused(Refusal.SILENCED, "the site's operator has stopped your chat")
    blocks = await BLOCKS.among(store, [sender.id, recipient.id])
    if (sender.id, recipient.id) in blocks:
        raise refused(Refusal.BLOCKED, f"you have blocked {recipient.name}", "to")
    if (recipient.id, sender.id) in blocks:
        raise refused(Refusal.BLOCKED, f"{recipient.name} does not take your messages", "to")
    if not await limits.hit(RATE, sender.id):
        raise refused(Refusal.RATE_LIMITED, f"at most {RATE.amount} messages in {RATE.multiples} s")
    async with store.writing() as conn:
        return await _keep(conn, Account(sender.id, sender.name, False), recipient, text, now)


async def _keep(
    conn: AsyncConnection, sender: Account, recipient: Account, text: str, now: float
) -> Sent:
    """Keep the message in ``conn``'s transaction, unless it starts a conversation past
    ``NEW_PER_DAY``. The sender's account row is locked first (PostgreSQL; SQLite writes one
    transaction at a time, ``SqlStore.writing``), so the sends of one sender, on any of the
    site's processes, count and add its conversations one after the other."""
    m, c, a = schema.messages, schema.conversations, schema.accounts
    if conn.dialect.name != "sqlite":
        await conn.execute(
            sa.select(a.c.player_id).where(a.c.player_id == sender.id).with_for_update()
        )
    mine = c.c.player_id == sender.id
    known = await conn.execute(sa.select(c.c.started_at).where(mine, c.c.other_id == recipient.id))
    if known.first() is None:
        started = sa.select(sa.func.count()).where(
            mine, c.c.started_by == sender.id, c.c.started_at > now - 86400
        )
        if (await conn.execute(started)).scalar_one() >= NEW_PER_DAY:
            metrics.refused("player:new-conversations")
            raise refused(
                Refusal.TOO_MANY_CONVERSATIONS,
                f"at most {NEW_PER_DAY} new conversations a day",
            )
    made = await conn.execute(
        m.insert()
        .values(sender_id=sender.id, recipient_id=recipient.id, text=text, at=now)
        .returning(m.c.id)
    )
    message_id = int(made.scalar_one())
    insert = sqlite_insert if conn.dialect.name == "sqlite" else pg_insert
    sides = ((sender, recipient, 0), (recipient, sender, 1))
    # Both rows in the order of their owners' ids, whoever sends: two crossing sends (Anna to
    # Ben, Ben to Anna) lock them in one order, so neither waits on the other (a deadlock).
    for owner, other, unread in sorted(sides, key=lambda side: side[0].id):
        row = insert(c).values(
            player_id=owner.id,
            other_id=other.id,
            started_by=sender.id,
            started_at=now,
            last_id=message_id,
            unread=unread,
        )
        await conn.execute(
            row.on_conflict_do_update(
                index_elements=[c.c.player_id, c.c.other_id],
                set_={"last_id": message_id, "unread": c.c.unread + unread},
            )
        )
    muted = await conn.execute(_muted_by(recipient.id).where(schema.mutes.c.name == sender.name))
    message = {"id": message_id, "from": sender.name, "to": recipient.name, "text": text}
    return Sent(
        message | {"at": now},
        sender,
        recipient,
        muted.first() is not None,
        await _unread(conn, recipient.id),
    )


async def _unread(conn: AsyncConnection, reader: str) -> int:
    """The messages ``reader`` has not read, but from names it mutes."""
    c, a = schema.conversations, schema.accounts
    query = (
        sa.select(sa.func.coalesce(sa.func.sum(c.c.unread), 0))
        .select_from(c.join(a, a.c.player_id == c.c.other_id))
        .where(c.c.player_id == reader, c.c.unread > 0, a.c.name.not_in(_muted_by(reader)))
    )
    return int((await conn.execute(query)).scalar_one())


async def unread(store: SqlStore, reader: str) -> int:
    """The messages ``reader`` has not read (the header's badge), but from names it mutes."""
    async with store.engine.connect() as conn:
        return await _unread(conn, reader)


async def conversations(store: SqlStore, reader: str, before: int | None = None) -> JSON:
    """``{"conversations", "more", "unread"}``: ``reader``'s conversations, the latest first
    (``LIST_PAGE``; ``before``: those whose latest message is older than the message
    ``before``), but those with names it mutes. Each is ``{"with", "closed", "last": {"id",
    "mine", "text"}, "at", "unread"}``, the text cut to ``PREVIEW``."""
    c, a, m = schema.conversations, schema.accounts, schema.messages
    query = (
        sa.select(a.c.name, a.c.closed_at, c.c.unread, m.c.id, m.c.sender_id, m.c.text, m.c.at)
        .select_from(c.join(a, a.c.player_id == c.c.other_id).join(m, m.c.id == c.c.last_id))
        .where(c.c.player_id == reader, a.c.name.not_in(_muted_by(reader)))
        .order_by(c.c.last_id.desc())
        .limit(LIST_PAGE + 1)
    )
    if before is not None:
        query = query.where(c.c.last_id < before)
    async with store.engine.connect() as conn:
        rows = (await conn.execute(query)).all()
        count = await _unread(conn, reader)
    return {
        "conversations": [
            {
                "with": row.name,
                "closed": row.closed_at is not None,
                "last": {"id": row.id, "mine": row.sender_id == reader, "text": _preview(row.text)},
                "at": row.at,
                "unread": row.unread,
            }
            for row in rows[:LIST_PAGE]
        ],
        "more": len(rows) > LIST_PAGE,
        "unread": count,
    }


def _preview(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= PREVIEW else line[: PREVIEW - 1] + "…"


async def _other(conn: AsyncConnection, reader: Guest, name: str) -> Account:
    """The account ``name`` that ``reader`` corresponds with: refused for a guest or nobody,
    no such account and ``reader`` itself."""
    if not reader.account:
        raise refused(Refusal.NO_ACCOUNT, "log in to read your messages")
    other = await _account(conn, name)
    if other.id == reader.id:
        raise refused(Refusal.SELF, "you have no conversation with yourself", "to")
    return other


async def _with(store: SqlStore, reader: str, other: Account) -> JSON:
    """``{"name", "closed", "blocked"}``: ``blocked``, one of the two blocks the other, so
    ``send`` would refuse (told as it is)."""
    blocked = bool(await BLOCKS.among(store, [reader, other.id]))
    return {"name": other.name, "closed": other.closed, "blocked": blocked}


async def correspondent(store: SqlStore, reader: Guest, name: str) -> JSON:
    """The thread's ``with`` (``_with``), reading no message: whether ``reader`` may write to
    ``name``, and nothing of theirs is read (the inbox's "New message" asks it)."""
    async with store.engine.connect() as conn:
        other = await _other(conn, reader, name)
    return await _with(store, reader.id, other)


async def thread(store: SqlStore, reader: Guest, name: str, now: float, before: int | None) -> JSON:
    """``{"with": {"name", "closed", "blocked"}, "messages", "more", "unread"}``:
    ``reader``'s latest ``THREAD_PAGE`` messages with the account ``name`` (before the message
    ``before``), the oldest first, each ``{"id", "from", "text", "at"}``; theirs are read from
    now on. If ``reader`` mutes their name, their messages are not shown (nor marked read).

    It writes only when there is something to mark read (their conversation's ``unread``),
    read after the messages: then it marks and reads them again in one transaction, so
    every message it shows is read, and every message it marks read is shown."""
    m, c = schema.messages, schema.conversations
    async with store.engine.connect() as conn:
        other = await _other(conn, reader, name)
        muted = await conn.execute(_muted_by(reader.id).where(schema.mutes.c.name == other.name))
        sides = [(reader.id, other.id)]
        if muted.first() is None:
            sides.append((other.id, reader.id))
        rows = (await conn.execute(_latest(sides, before))).all()
        theirs = sa.select(c.c.unread).where(c.c.player_id == reader.id, c.c.other_id == other.id)
        fresh = len(sides) > 1 and bool((await conn.execute(theirs)).scalar_one_or_none())
        count = 0 if fresh else await _unread(conn, reader.id)  # else counted once marked
    if fresh:
        async with store.writing() as conn:
            await conn.execute(
                m.update()
                .where(m.c.sender_id == other.id, m.c.recipient_id == reader.id)
                .where(m.c.read_at.is_(None))
                .values(read_at=now)
            )
            await conn.execute(
                c.update()
                .where(c.c.player_id == reader.id, c.c.other_id == other.id)
                .values(unread=0)
            )
            rows = (await conn.execute(_latest(sides, before))).all()
            count = await _unread(conn, reader.id)
    names = {reader.id: reader.name, other.id: other.name}
    shown = [
        {"id": r.id, "from": names[r.sender_id], "text": r.text, "at": r.at}
        for r in rows[:THREAD_PAGE]
    ]
    return {
        "with": await _with(store, reader.id, other),
        "messages": shown[::-1],
        "more": len(rows) > THREAD_PAGE,
        "unread": count,
    }


def _latest(sides: list[tuple[str, str]], before: int | None) -> sa.Select[Any]:
    """The latest ``THREAD_PAGE + 1`` messages of the directions ``sides`` (sender,
    recipient), the latest first: each direction reads its own range of ``ix_messages_pair``
    backwards, so no database sorts a whole thread."""
    m = schema.messages
    parts = []
    for sender, recipient in sides:
        part = (
            sa.select(m.c.id, m.c.sender_id, m.c.text, m.c.at)
            .where(m.c.sender_id == sender, m.c.recipient_id == recipient)
            .order_by(m.c.id.desc())
            .limit(THREAD_PAGE + 1)
        )
        if before is not None:
            part = part.where(m.c.id < before)
        parts.append(sa.select(part.subquery()))
    both = sa.union_all(*parts).subquery()
    return sa.select(both).order_by(both.c.id.desc()).limit(THREAD_PAGE + 1)


async def reported(store: SqlStore, message_id: int, reporter: str, reported_id: str) -> str:
    """The words of the message ``message_id``, which ``reported_id`` sent to ``reporter``:
    what a report about it carries. Refused (``not_found``, field ``message``) for any other
    message: nobody reports, and so reads, a message that was not sent to them."""
    m = schema.messages
    query = sa.select(m.c.text).where(
        m.c.id == message_id, m.c.recipient_id == reporter, m.c.sender_id == reported_id
    )
    async with store.engine.connect() as conn:
        text = (await conn.execute(query)).scalar_one_or_none()
    if text is None:
        raise CommandError(
            "not_found", f"no message {message_id} from them to you", field="message", status=422
        )
    return str(text)


async def forget(conn: AsyncConnection, player_id: str) -> None:
    """An erased account's conversations go, both sides' messages (a conversation with nobody
    is none), and the words of a message reported from them: a report by or about it keeps
    that a message was reported (``""``), not what it said (``erasure._forget``, before the
    reports take the pseudonym)."""
    m, c, r = schema.messages, schema.conversations, schema.reports
    await conn.execute(
        m.delete().where(sa.or_(m.c.sender_id == player_id, m.c.recipient_id == player_id))
    )
    await conn.execute(
        c.delete().where(sa.or_(c.c.player_id == player_id, c.c.other_id == player_id))
    )
    await conn.execute(
        r.update()
        .where(r.c.message.is_not(None))
        .where(sa.or_(r.c.reporter_id == player_id, r.c.player_id == player_id))
        .values(message="")
    )
