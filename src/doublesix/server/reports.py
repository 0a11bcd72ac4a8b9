"""Reports to the site's operator: a player tells the operator that an account abused the
chat, cheated or stalled, spammed, or something else, with a few words and the table.

The operator reads the open reports and closes each with a note (``doublesix reports``), and
acts with ``doublesix account silence`` or ``close`` — or does all of it on the web
(``/operator``). A reporter has one open report about an account at a time and makes at most
``PER_DAY`` a day, so a report is worth reading. A report of a private message carries its
words, so that the operator reads what was said without reading anyone's inbox.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

import sqlalchemy as sa
from pydantic import BaseModel, Field

from doublesix.server import messages, metrics, schema
from doublesix.server.account_lists import open_account
from doublesix.server.errors import CommandError
from doublesix.server.store import Guest, SqlStore
from doublesix.table.state import printable

TEXT_MAX = 500
"""Characters a reporter may write."""
PER_DAY = 10
"""Reports one player may make in 24 hours."""
NOTE_MAX = 500
"""Characters of the operator's note on closing a report."""


class Reason(StrEnum):
    ABUSE = "abuse"
    """Abusive chat."""
    CHEATING = "cheating"
    """Cheating or stalling."""
    SPAM = "spam"
    OTHER = "other"


class ReportIn(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    """The account reported."""
    reason: Reason
    text: str = Field(default="", max_length=TEXT_MAX)
    table: str | None = Field(default=None, max_length=32)
    """Where it happened, if at a table."""
    message: int | None = Field(default=None, ge=1, le=schema.INT_MAX)
    """The private message reported, one the account sent to the reporter: the report
    carries its words (``messages.reported``)."""


@dataclass(frozen=True)
class Report:
    id: int
    at: float
    reporter: str
    """The reporter's name, as it was."""
    name: str
    """The reported account's name."""
    reason: Reason
    text: str
    table: str | None
    closed_at: float | None
    note: str | None
    message: str | None
    """The words of the private message reported (``""``: erased since)."""


def _text(text: str, field: str, limit: int) -> str:
    cleaned = text.replace("\r\n", "\n").strip()
    if len(cleaned) > limit:
        raise CommandError("text", f"at most {limit} characters", field=field, status=422)
    if not all(printable(line) for line in cleaned.replace("\t", " ").split("\n")):
        raise CommandError("text", "no control characters", field=field, status=422)
    return cleaned


async def report(store: SqlStore, reporter: Guest, body: ReportIn, now: float) -> int:
    """Keep ``reporter``'s report; its id. Refused (``CommandError``): no such account (404),
    oneself (422), a table that is not (422), a message that is not the account's to the
    reporter (422), a message reported for ``cheating`` (422 ``reason``: a message does not
    cheat), an open report about that account from the same reporter (409), ``PER_DAY`` in
    the last day (429); the text's limits (422)."""
    text = _text(body.text, "text", TEXT_MAX)
    if body.message is not None and body.reason is Reason.CHEATING:
        raise CommandError(
            "reason",
            "a private message is reported for abusive chat, spam or something else",
            field="reason",
            status=422,
        )
    reported, spelled = await open_account(store, body.name)
    if reported == reporter.id:
        raise CommandError("self", "you cannot report yourself", field="name", status=422)
    said = None
    if body.message is not None:
        said = await messages.reported(store, body.message, reporter.id, reported)
    r, t = schema.reports, schema.tables
    async with store.writing() as conn:
        if body.table is not None:
            found = await conn.execute(sa.select(t.c.id).where(t.c.id == body.table))
            if found.first() is None:
                raise CommandError(
                    "not_found", f"no table {body.table!r}", field="table", status=422
                )
        mine = r.c.reporter_id == reporter.id
        already = sa.select(r.c.id).where(mine, r.c.player_id == reported, r.c.closed_at.is_(None))
        if (await conn.execute(already)).first() is not None:
            raise CommandError(
                "reported",
                f"you have reported {spelled} already: the site's operator will look",
                field="name",
                status=409,
            )
        today = sa.select(sa.func.count()).select_from(r).where(mine, r.c.at > now - 86400)
        if (await conn.execute(today)).scalar_one() >= PER_DAY:
            metrics.refused("player:reports")
            raise CommandError("too_many_reports", f"at most {PER_DAY} reports a day", status=429)
        made = await conn.execute(
            r.insert()
            .values(
                at=now,
                reporter_id=reporter.id,
                reporter_name=reporter.name,
                player_id=reported,
                name=spelled,
                reason=body.reason.value,
                text=text,
                table_id=body.table,
                message=said,
            )
            .returning(r.c.id)
        )
        return int(made.scalar_one())


async def reports(store: SqlStore, *, closed: bool = False) -> list[Report]:
    """The open reports, oldest first (``closed``: every report)."""
    r = schema.reports
    query = sa.select(r).order_by(r.c.id)
    if not closed:
        query = query.where(r.c.closed_at.is_(None))
    async with store.engine.connect() as conn:
        return [_report(row) for row in await conn.execute(query)]


async def close(store: SqlStore, report_id: int, note: str | None, now: float) -> Report:
    """The operator closes the open report ``report_id`` with ``note``; it, closed."""
    kept = None if note is None else _text(note, "note", NOTE_MAX)
    r = schema.reports
    async with store.writing() as conn:
        row = (await conn.execute(sa.select(r).where(r.c.id == report_id))).first()
        if row is None or row.closed_at is not None:
            state = "no" if row is None else "no open"
            raise CommandError("not_found", f"{state} report {report_id}", field="id", status=404)
        await conn.execute(r.update().where(r.c.id == report_id).values(closed_at=now, note=kept))
        row = (await conn.execute(sa.select(r).where(r.c.id == report_id))).one()
    return _report(row)


def _report(row: sa.Row[tuple[object, ...]]) -> Report:
    m = row._mapping
    return Report(
        id=m["id"],
        at=m["at"],
        reporter=m["reporter_name"],
        name=m["name"],
        reason=Reason(m["reason"]),
        text=m["text"],
        table=m["table_id"],
        closed_at=m["closed_at"],
        note=m["note"],
        message=m["message"],
    )
