"""What a site's operator does about chat: silence an account, for a while or until lifted
(``doublesix account silence``), and keep the chat for accounts (``serve --chat accounts``).

A guest is a name and a cookie, made again in a second; an account is not. So an account is
silenced one by one, and where guests abuse the chat the operator keeps it for accounts. A
closed account (``Accounts``: a ban) says nothing more either, from the sockets the command
line's ban without ``--redis`` leaves open (one on the web, or with ``--redis``, closes
them: ``Lobby.shut_out``).
The check is made where a chat frame comes in — the table's socket and the lobby's — before
it reaches a table or the lobby, so the tables stay pure: one read by the primary key a
message (chat is rate-limited).
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import sqlalchemy as sa

from doublesix.server import schema
from doublesix.server.account_names import AccountError, Refusal, name_key
from doublesix.server.store import SqlStore
from doublesix.table.errors import Refusal as TableRefusal
from doublesix.table.errors import TableError
from doublesix.table.model import JSON

REASON_MAX = 200
"""Characters of the reason an operator gives (kept with the silence, for the operator)."""


class ChatGate:
    """Whether a player may say something now, in the lobby or at a table."""

    def __init__(self, store: SqlStore, clock: Callable[[], float], accounts_only: bool) -> None:
        self.store = store
        self.clock = clock
        self.accounts_only = accounts_only
        """Guests may not chat (``serve --chat accounts``)."""

    async def check(self, player_id: str | None) -> None:
        """Refuse (``TableError``, code ``chat``) a message from a silenced account (field
        ``silenced``), from a closed one whose sockets are still open (field ``closed``: the
        command line's ban takes effect at once), and where the chat is for accounts, from a
        guest (field ``account``)."""
        a = schema.accounts
        row = None
        if player_id is not None:
            query = sa.select(a.c.silenced_at, a.c.silenced_until, a.c.closed_at).where(
                a.c.player_id == player_id
            )
            async with self.store.engine.connect() as conn:
                row = (await conn.execute(query)).first()
        if row is None:
            if self.accounts_only:
                raise TableError(
                    TableRefusal.CHAT,
                    "chat on this site is for registered players: register or log in",
                    field="account",
                )
            return
        if row.closed_at is not None:
            raise TableError(TableRefusal.CHAT, "this account is closed", field="closed")
        if silenced(row.silenced_at, row.silenced_until, self.clock()):
            raise TableError(
                TableRefusal.CHAT, "the site's operator has stopped your chat", field="silenced"
            )


def silenced(at: float | None, until: float | None, now: float) -> bool:
    return at is not None and (until is None or now < until)


async def silence(
    store: SqlStore, name: str, *, now: float, until: float | None, reason: str | None
) -> str:
    """Stop the chat of the account ``name`` (any case) from ``now`` until ``until`` (None:
    until lifted); its name as registered."""
    if reason is not None and len(reason) > REASON_MAX:
        raise ValueError(f"a reason is at most {REASON_MAX} characters")
    return await _set(store, name, silenced_at=now, silenced_until=until, silence_reason=reason)


async def lift(store: SqlStore, name: str) -> str:
    """Let the account ``name`` chat again; its name as registered."""
    return await _set(store, name, silenced_at=None, silenced_until=None, silence_reason=None)


SILENCES_SHOWN = 200
"""Silenced accounts the operators' page lists at most, the latest first."""


async def silences(
    store: SqlStore, now: float, names: Collection[str] | None = None
) -> dict[str, JSON]:
    """The accounts silenced at ``now`` — those of ``names`` (as registered), or the latest
    ``SILENCES_SHOWN`` — each one's ``{"since", "until", "reason"}`` (``until`` None: until
    lifted), the latest first."""
    a = schema.accounts
    query = (
        sa.select(a.c.name, a.c.silenced_at, a.c.silenced_until, a.c.silence_reason)
        .where(a.c.silenced_at.is_not(None))
        .where(sa.or_(a.c.silenced_until.is_(None), a.c.silenced_until > now))
        .order_by(a.c.silenced_at.desc())
        .limit(SILENCES_SHOWN)
    )
    if names is not None:
        query = query.where(a.c.name.in_(list(names)))
    async with store.engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return {
        row.name: {"since": row.silenced_at, "until": row.silenced_until}
        | {"reason": row.silence_reason}
        for row in rows
    }


async def appoint(store: SqlStore, name: str, *, operator: bool) -> str:
    """Make the account ``name`` one of the site's operators (``/operator``), or one no more;
    its name as registered. Only the command line appoints: no web page makes an operator."""
    return await _set(store, name, operator=operator)


async def _set(store: SqlStore, name: str, **values: float | str | bool | None) -> str:
    a = schema.accounts
    async with store.writing() as conn:
        found = await conn.execute(
            a.update().where(a.c.name_key == name_key(name)).values(**values).returning(a.c.name)
        )
        row = found.first()
    if row is None:
        raise AccountError(Refusal.NO_ACCOUNT, f"no account is named {name!r}", "name")
    return str(row.name)
