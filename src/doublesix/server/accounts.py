"""Accounts and their sessions: Argon2 hashing and the SQL of ``accounts`` and ``sessions``.

A password is hashed with Argon2 (``argon2.PasswordHasher``) in a worker
thread, a few at a time (each takes tens of megabytes and a core for a
while); a hash made with other parameters than today's is replaced at the
next login. A password is never stored, logged or kept anywhere else.

A session is a random secret in the browser's cookie; the database keeps
only its SHA-256 (``sessions.id``), so a copy of the database logs nobody
in. A guest who registers becomes the account: the account's player id is
the guest's, which the guest's seats hold, and the guest's row goes.

An account is closed by its player (with its password) or by one of the site's
operators (a ban: ``doublesix account close`` or ``/operator``): its sessions end and it
logs in no more, its follows and blocks go both ways, it withdraws from its tournaments
(``tournament_sql.withdraw_everywhere``), its page and its ranks go; its name
stays taken, so that no one else plays under it, and its games stay in the records of the
others who played them. A closed account's seat takes no socket (``is_closed``); closed on
the web (or by the command line with ``--redis``), its open sockets close at once and a bot
takes its seats (``Lobby.shut_out``).
Only an operator reopens one.

An account whose player asks for its erasure (``erase``; the operator: ``erase_by_operator``)
is closed so, and its erasure is asked (``erasure.ask``): then its personal data goes, once
its games being played have ended (``server/erasure.py``). Nothing reopens it, nor gives it a
password again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Callable, Collection
from dataclasses import dataclass
from enum import StrEnum

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from doublesix.server import erasure, schema, tournament_sql
from doublesix.server.account_names import (
    PASSWORD_MAX,
    AccountError,
    Refusal,
    check_name,
    check_password,
    name_key,
    wrong_login,
)
from doublesix.server.logins import LoginLimits, Logins
from doublesix.server.store import Guest, SqlStore

log = logging.getLogger(__name__)

SESSION_DAYS = 30
"""How long a session lasts after its login."""
FORGET_EVERY_SECONDS = 6 * 3600.0
"""How often the server deletes the expired sessions (besides each login's own)."""
HASHING_AT_ONCE = 2
"""Passwords hashed or checked at the same time (the others wait)."""
CLOSED_SHOWN = 200
"""Closed accounts the operators' page lists at most, the latest closed first."""


def session_key(secret: str) -> str:
    """What the database keeps of a session's secret: its SHA-256, in hex."""
    return hashlib.sha256(secret.encode()).hexdigest()


class Closer(StrEnum):
    """Who closed an account (``accounts.closed_by``)."""

    PLAYER = "player"
    OPERATOR = "operator"


@dataclass(frozen=True)
class Closed:
    """A closed account: its name as registered, when and by whom it was closed."""

    name: str
    at: float
    by: Closer


@dataclass(frozen=True)
class Login:
    """A new session: the player, and the secret for the browser's cookie."""

    player: Guest
    secret: str


class Accounts:
    """The accounts and sessions of the store's database."""

    def __init__(
        self,
        store: SqlStore,
        *,
        clock: Callable[[], float],
        hasher: PasswordHasher | None = None,
        logins: Logins | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.hasher = hasher or PasswordHasher()
        self.logins = logins or Logins(LoginLimits())
        self._hashing = asyncio.Semaphore(HASHING_AT_ONCE)
        self._decoy: str | None = None
        """A hash to check an unknown name's password against: the answer takes as long."""

    # --- passwords -----------------------------------------------------------------

    async def _hash(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, hashed: str, password: str) -> bool:
        def verify() -> bool:
            try:
                return self.hasher.verify(hashed, password)
            except (VerificationError, InvalidHashError):  # a mismatch is one
                return False

        async with self._hashing:
            return await asyncio.to_thread(verify)

    async def _check(self, player_id: str | None, hashed: str | None, password: str) -> bool:
        """Whether ``password`` is the account's; an unknown account (``hashed`` None)
        costs a check as well. A hash of old parameters is replaced."""
        if hashed is None or player_id is None:
            if self._decoy is None:
                self._decoy = await self._hash(secrets.token_hex(16))
            await self._verify(self._decoy, password)
            return False
        if not await self._verify(hashed, password):
            return False
        if self.hasher.check_needs_rehash(hashed):
            new = await self._hash(password)
            a = schema.accounts
            async with self.store.writing() as conn:
                await conn.execute(
                    a.update()
                    .where(a.c.player_id == player_id, a.c.password == hashed)
                    .values(password=new, updated_at=self.clock())
                )
        return True

    # --- accounts ------------------------------------------------------------------

    async def name_taken(self, name: str) -> bool:
        """Whether an account holds ``name`` or a name people would take for it."""
        return await self.by_name(name) is not None

    async def by_name(self, name: str) -> Guest | None:
        """The account of ``name`` (or of a name people would take for it)."""
        a = schema.accounts
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(sa.select(a).where(a.c.name_key == name_key(name)))).first()
        if row is None:
            return None
        return Guest(row.player_id, row.name, row.created_at, True, row.operator)

    async def names(self, player_ids: Collection[str]) -> dict[str, str]:
        """The account name of each of ``player_ids`` that is an account's (guests and bots
        are left out)."""
        if not player_ids:
            return {}
        a = schema.accounts
        async with self.store.engine.connect() as conn:
            found = await conn.execute(
                sa.select(a.c.player_id, a.c.name).where(a.c.player_id.in_(list(player_ids)))
            )
        return {row.player_id: row.name for row in found}

    async def register(self, name: str, password: str, guest: Guest | None) -> Login:
        """A new account, logged in. ``guest``: the guest who registers, whose id the
        account takes (and with it the guest's games); the guest's row is deleted."""
        if guest is not None and guest.account:
            raise AccountError(Refusal.LOGGED_IN, "log out before registering another account")
        check_name(name)
        check_password(password, name)
        hashed = await self._hash(password)
        now = self.clock()
        player_id = guest.id if guest is not None else secrets.token_urlsafe(24)
        a = schema.accounts
        try:
            async with self.store.writing() as conn:
                await conn.execute(
                    a.insert().values(
                        player_id=player_id,
                        name=name,
                        name_key=name_key(name),
                        password=hashed,
                        created_at=now,
                        updated_at=now,
                    )
                )
                if guest is not None:
                    g = schema.guests
                    await conn.execute(g.delete().where(g.c.id == guest.id))
                login = await _new_session(conn, Guest(player_id, name, now, True), now)
        except IntegrityError:
            raise AccountError(Refusal.NAME_TAKEN, "that name is taken", "name") from None
        return login

    async def login(self, name: str, password: str, address: str) -> Login:
        """A new session of the account ``name``. An unknown name and a wrong password get
        the same refusal (``wrong_login``); ``rate_limited`` past the failed logins allowed
        for the name or the client ``address``."""
        await self.logins.check(name, address)
        try:
            return await self._login(name, password)
        except AccountError:
            await self.logins.failed(name, address)
            raise

    async def _login(self, name: str, password: str) -> Login:
        a = schema.accounts
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(sa.select(a).where(a.c.name_key == name_key(name)))).first()
        if row is None or len(password) > PASSWORD_MAX:
            await self._check(None, None, password)
            raise wrong_login()
        if not await self._check(row.player_id, row.password, password):
            raise wrong_login()
        if row.closed_at is not None:
            raise AccountError(Refusal.CLOSED, "this account is closed", "name")
        now = self.clock()
        async with self.store.writing() as conn:
            s = schema.sessions
            await conn.execute(
                s.delete().where(s.c.player_id == row.player_id, s.c.expires_at <= now)
            )
            player = Guest(row.player_id, row.name, row.created_at, True, row.operator)
            return await _new_session(conn, player, now)

    async def change_password(
        self, player: Guest, old: str, new: str, *, keep: str | None, address: str
    ) -> list[str]:
        """Replace the password of ``player``'s account and end its other sessions
        (every one but the session of the secret ``keep``): their keys. A wrong ``old``
        counts as a failed login."""
        await self._confirm(player, old, "old", address)
        check_password(new, player.name, "new")
        return await self._replace(player.id, await self._hash(new), keep)

    async def set_password(self, name: str, new: str) -> tuple[str, list[str]]:
        """The operator's reset, for a player who forgot the password (there is no e-mail):
        replace the password of the account ``name`` (any case) without the old one and end
        every session of it. The account's name as registered, and the ended sessions' keys."""
        player_id, spelled, _ = await self._named(name)
        check_password(new, spelled)
        return spelled, await self._replace(player_id, await self._hash(new))

    async def close(self, player: Guest, password: str, *, address: str) -> None:
        """The player closes their own account (see the module), with its password; a wrong
        one counts as a failed login."""
        await self._confirm(player, password, "password", address)
        await self._close(player.id, Closer.PLAYER)

    async def erase(self, player: Guest, password: str, *, address: str) -> None:
        """The player asks for the erasure of their own account (see the module), with its
        password; a wrong one counts as a failed login. An operator's account is erased from
        the command line only (``erase_by_operator``): the site's operators decide whether the
        acts in their log lose the name of who did them."""
        await self._confirm(player, password, "password", address)
        if player.operator:
            raise AccountError(
                Refusal.OPERATOR,
                "an operator's account is erased from the command line: doublesix account erase",
            )
        await self._close(player.id, Closer.PLAYER, erase=True)

    async def erase_by_operator(self, name: str) -> tuple[str, str, bool]:
        """The operator asks for the erasure of the account ``name`` (any case), for its
        player: its player id, its name as registered (an erased one's: its pseudonym), and
        whether this asked it (asking again, or once it is erased, changes nothing)."""
        player_id, spelled, _ = await self._named(name, erased_too=True)
        return player_id, spelled, await self._close(player_id, Closer.OPERATOR, erase=True)

    async def _confirm(self, player: Guest, password: str, field: str, address: str) -> None:
        """Refuse unless ``password`` (the request's ``field``) is the account's: a logged-in
        player's own word before a change; a wrong one counts as a failed login."""
        await self.logins.check(player.name, address)
        a = schema.accounts
        async with self.store.engine.connect() as conn:
            hashed = await conn.scalar(sa.select(a.c.password).where(a.c.player_id == player.id))
        if hashed is None:
            raise AccountError(Refusal.NO_ACCOUNT, "log in first")
        if not await self._check(player.id, hashed, password):
            await self.logins.failed(player.name, address)
            raise AccountError(Refusal.WRONG_PASSWORD, "that is not your password", field)

    async def _named(self, name: str, *, erased_too: bool = False) -> tuple[str, str, float | None]:
        """The player id, name as registered and ``closed_at`` of the account ``name``. One
        whose erasure was asked is refused (``erased``: nothing brings it back), unless
        ``erased_too``."""
        a = schema.accounts
        async with self.store.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(
                        a.c.player_id,
                        a.c.name,
                        a.c.closed_at,
                        a.c.erase_requested_at,
                        a.c.erased_at,
                    ).where(a.c.name_key == name_key(name))
                )
            ).first()
        if row is None:
            raise AccountError(Refusal.NO_ACCOUNT, f"no account is named {name!r}", "name")
        if row.erase_requested_at is not None and not erased_too:
            raise AccountError(
                Refusal.ERASED, f"the account {name!r} is erased, or its erasure asked", "name"
            )
        return row.player_id, row.name, row.closed_at

    async def is_closed(self, player_id: str) -> bool:
        """Whether ``player_id`` is a closed account's (a guest's or a bot's is no account's:
        not closed). One read by the primary key: a table socket asks it as it connects."""
        a = schema.accounts
        async with self.store.engine.connect() as conn:
            closed = await conn.scalar(sa.select(a.c.closed_at).where(a.c.player_id == player_id))
        return closed is not None

    async def close_by_operator(self, name: str) -> tuple[str, bool]:
        """The operator closes the account ``name`` (any case): a ban. Its name as
        registered, and whether this closed it: closing a closed account changes nothing."""
        player_id, spelled, _ = await self._named(name)
        return spelled, await self._close(player_id, Closer.OPERATOR)

    async def reopen(self, name: str) -> tuple[str, bool]:
        """The operator reopens the closed account ``name``: it logs in again (the follows
        it had are gone). Its name as registered, and whether it was closed: reopening an
        open account changes nothing."""
        player_id, spelled, _ = await self._named(name)
        a = schema.accounts
        async with self.store.writing() as conn:
            opened = await conn.execute(
                a.update()
                .where(a.c.player_id == player_id, a.c.closed_at.is_not(None))
                .values(closed_at=None, closed_by=None, updated_at=self.clock())
            )
        return spelled, opened.rowcount == 1

    async def closed(
        self,
        *,
        by: Closer | None = None,
        names: Collection[str] | None = None,
        limit: int = CLOSED_SHOWN,
    ) -> list[Closed]:
        """The closed accounts, the latest closed first: only those ``by`` closed, and of
        ``names`` (as registered), if given; at most ``limit``."""
        a = schema.accounts
        query = (
            sa.select(a.c.name, a.c.closed_at, a.c.closed_by)
            .where(a.c.closed_at.is_not(None))
            .order_by(a.c.closed_at.desc())
            .limit(limit)
        )
        if by is not None:
            query = query.where(a.c.closed_by == by.value)
        if names is not None:
            query = query.where(a.c.name.in_(list(names)))
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [Closed(row.name, row.closed_at, Closer(row.closed_by)) for row in rows]

    async def _close(self, player_id: str, by: Closer, *, erase: bool = False) -> bool:
        """Close the open account ``player_id`` (see the module) and, if ``erase``, ask its
        erasure; whether that changed it (a closed one stays as it was: who closed it, when).
        """
        a, s, f, b = schema.accounts, schema.sessions, schema.follows, schema.blocks
        now = self.clock()
        async with self.store.writing() as conn:
            closing = await conn.execute(
                a.update()
                .where(a.c.player_id == player_id, a.c.closed_at.is_(None))
                .values(closed_at=now, closed_by=by.value, updated_at=now)
            )
            asked = erase and await erasure.ask(conn, player_id, now)
            if closing.rowcount != 1 and not asked:
                return False
            await conn.execute(s.delete().where(s.c.player_id == player_id))
            await conn.execute(
                f.delete().where(sa.or_(f.c.follower_id == player_id, f.c.followed_id == player_id))
            )
            await conn.execute(
                b.delete().where(sa.or_(b.c.player_id == player_id, b.c.blocked_id == player_id))
            )
            await tournament_sql.withdraw_everywhere(conn, player_id)
        return True

    async def _replace(self, player_id: str, hashed: str, keep: str | None = None) -> list[str]:
        """Store the account's new password hash and end its sessions (all but the session of
        the secret ``keep``): the keys of those that ended."""
        a, s = schema.accounts, schema.sessions
        ending = s.c.player_id == player_id
        if keep is not None:
            ending = sa.and_(ending, s.c.id != session_key(keep))
        async with self.store.writing() as conn:
            await conn.execute(
                a.update()
                .where(a.c.player_id == player_id)
                .values(password=hashed, updated_at=self.clock())
            )
            ended = list((await conn.scalars(sa.select(s.c.id).where(ending))).all())
            await conn.execute(s.delete().where(ending))
        return ended

    # --- sessions ------------------------------------------------------------------

    async def player(self, secret: str) -> Guest | None:
        """The account whose unexpired session has the secret ``secret``."""
        a, s = schema.accounts, schema.sessions
        async with self.store.engine.connect() as conn:
            row = (
                await conn.execute(
                    sa.select(a.c.player_id, a.c.name, a.c.created_at, a.c.operator)
                    .join(s, s.c.player_id == a.c.player_id)
                    .where(s.c.id == session_key(secret), s.c.expires_at > self.clock())
                )
            ).first()
        if row is None:
            return None
        return Guest(row.player_id, row.name, row.created_at, True, row.operator)

    async def logout(self, secret: str) -> list[str]:
        """End the session of ``secret`` (its row goes): its key, or none if it had ended
        already."""
        s, key = schema.sessions, session_key(secret)
        async with self.store.writing() as conn:
            ended = await conn.execute(s.delete().where(s.c.id == key))
        return [key] if ended.rowcount else []

    async def forget_expired(self) -> int:
        """Delete every expired session (a login deletes its own account's too); how many."""
        s = schema.sessions
        async with self.store.writing() as conn:
            gone = await conn.execute(s.delete().where(s.c.expires_at <= self.clock()))
        return gone.rowcount

    async def forget_expired_every(self, seconds: float) -> None:
        """``forget_expired`` now and then every ``seconds``, until cancelled."""
        while True:
            try:
                await self.forget_expired()
            except Exception:
                log.warning("accounts: expired sessions could not be deleted", exc_info=True)
            await asyncio.sleep(seconds)


async def _new_session(conn: AsyncConnection, player: Guest, now: float) -> Login:
    secret = secrets.token_urlsafe(32)
    expires = now + SESSION_DAYS * 24 * 3600
    await conn.execute(
        schema.sessions.insert().values(
            id=session_key(secret), player_id=player.id, created_at=now, expires_at=expires
        )
    )
    return Login(player, secret)
