"""The operators' log: what each of the site's operators did, and when.

A site with several operators needs to know who silenced or closed an account and why, who
closed a report with which note, whose chat message was removed and what it said, and which
of it was done from the command line. Every such act, on the web (``routes/operator.py``) or
with ``doublesix account``, adds one entry; the operators' page shows the latest, a page at
a time, and those by or about the names that begin with a few letters (``latest``); the
closed accounts' list reads why each was closed in its entry (``last_of``). An entry is
written after its act, in a transaction of its own: an act whose entry could not be written
stands (it is logged as an error), never the other way round.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import sqlalchemy as sa

from doublesix.server import schema
from doublesix.server.account_names import name_key
from doublesix.server.store import SqlStore
from doublesix.table.model import JSON

log = logging.getLogger(__name__)

SHOWN = 100
"""Entries the operators' page shows at a time, the latest first."""


class Act(StrEnum):
    SILENCE = "silence"
    UNSILENCE = "unsilence"
    CLOSE_REPORT = "close_report"
    UNCHAT = "unchat"
    """A chat message removed: ``detail`` has its ``table`` (none: the lobby's) and words."""
    RESTORE = "restore"
    """A table's chat message an operator removed, restored: ``detail`` has its ``table`` and
    its version (``chat``); its words are in the entry of its removal."""
    CLOSE = "close"
    """An account closed: a ban."""
    REOPEN = "reopen"
    ERASE = "erase"
    """An account's erasure asked for its player (``server/erasure.py``): once done, the
    entry names its pseudonym."""
    APPOINT = "appoint"
    REVOKE = "revoke"
    PASSWORD = "password"
    TOURNAMENT = "tournament"
    """A tournament cancelled by an operator where only an operator may: a running one, or
    another's (``tournaments.needs_operator``; an operator's cancel of their own before its
    start is its creator's, not logged). ``name`` is its creator's; ``detail`` has its id
    (``tournament``) and name (``title``)."""


@dataclass(frozen=True)
class Logged:
    id: int
    at: float
    operator: str | None
    """The operator's account name; None: the command line."""
    act: Act
    name: str | None
    """The account (or, for a message, the sender's name) it was about."""
    detail: JSON

    def to_json(self) -> JSON:
        return {
            "id": self.id,
            "at": self.at,
            "operator": self.operator,
            "act": self.act.value,
            "name": self.name,
            "detail": self.detail,
        }


async def write(
    store: SqlStore, at: float, operator: str | None, act: Act, name: str | None, **detail: Any
) -> None:
    """Add an entry; a failure is logged, not raised (the act is done already)."""
    values = {"at": at, "operator": operator, "action": act.value, "name": name}
    try:
        async with store.writing() as conn:
            await conn.execute(schema.moderation_log.insert().values(**values, detail=detail))
    except Exception:
        log.exception("the operators' log could not keep %s by %s", act.value, operator)


async def latest(
    store: SqlStore,
    limit: int | None = None,
    *,
    before: int | None = None,
    name: str | None = None,
) -> tuple[list[Logged], bool]:
    """The latest ``limit`` entries (``SHOWN`` unless given), the latest first, and whether
    there are older ones: those before the entry ``before`` if given, and only those by or
    about a name that begins with ``name`` if given (``naming``)."""
    m = schema.moderation_log
    limit = SHOWN if limit is None else limit
    query = sa.select(m).order_by(m.c.id.desc()).limit(limit + 1)
    if before is not None:
        query = query.where(m.c.id < before)
    if name is not None:
        query = query.where(naming(name))
    async with store.engine.connect() as conn:
        rows = (await conn.execute(query)).all()
    return [_logged(row) for row in rows[:limit]], len(rows) > limit


def naming(prefix: str) -> sa.ColumnElement[bool]:
    """Entries by or about a name that begins with ``prefix``: an account's as names are
    compared (``name_key``: any case, look-alikes folded; a range of
    ``ix_accounts_name_key_pattern``, as "Find a player" reads it), another name (a guest's)
    in any case (ASCII letters only, on SQLite). ``%`` and ``_`` are letters, not wildcards.
    The log itself is read by its key, the latest first, as far as a page needs."""
    a, m = schema.accounts, schema.moderation_log
    accounts = sa.select(a.c.name).where(a.c.name_key.startswith(name_key(prefix), autoescape=True))
    return sa.or_(
        m.c.name.in_(accounts),
        m.c.operator.in_(accounts),
        sa.func.lower(m.c.name).startswith(prefix.lower(), autoescape=True),
    )


async def last_of(store: SqlStore, act: Act, names: Collection[str]) -> dict[str, Logged]:
    """The latest entry of ``act`` about each of ``names`` that has one (the operators'
    page reads why an account was closed in its ``close`` entry)."""
    if not names:
        return {}
    m = schema.moderation_log
    latest = (
        sa.select(sa.func.max(m.c.id))
        .where(m.c.action == act.value, m.c.name.in_(list(names)))
        .group_by(m.c.name)
    )
    async with store.engine.connect() as conn:
        rows = (await conn.execute(sa.select(m).where(m.c.id.in_(latest)))).all()
    return {entry.name: entry for entry in map(_logged, rows) if entry.name is not None}


def _logged(row: sa.Row[Any]) -> Logged:
    return Logged(row.id, row.at, row.operator, Act(row.action), row.name, dict(row.detail))
