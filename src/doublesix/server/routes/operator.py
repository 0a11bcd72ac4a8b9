"""The site's operators on the web (``/operator``): the reports players sent, to read and
close, a silence for an account, a ban (the account closed, as ``doublesix account close``
does) and its end, and a chat message removed, from the lobby or a table. Every route is an
operator's only (``OperatorDep``); ``doublesix account operator NAME`` makes one.

A ban is deliberate: it takes a reason, kept in the operators' log (the list of closed
accounts reads it there), and the page asks for the account's name again before it sends
one. An operator closes neither their own account here nor another operator's: only the
command line makes and unmakes operators, so one operator's account, taken over or not,
cannot lock the others out (``doublesix account operator NAME --revoke``, then a ban).
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, Field

from doublesix.server import moderation, moderation_log, reports
from doublesix.server.account_names import AccountError, Refusal
from doublesix.server.accounts import Closed, Closer
from doublesix.server.deps import OperatorDep, Server, ServerDep, not_found
from doublesix.server.errors import CommandError
from doublesix.server.moderation_log import Act
from doublesix.server.routes.challenges import LobbyDep
from doublesix.server.routes.ratings import sql_store
from doublesix.server.schema import INT_MAX
from doublesix.table import commands
from doublesix.table.frames import chat_message
from doublesix.table.model import JSON

router = APIRouter(prefix="/api/operator")

RowId = Annotated[int, Path(ge=1, le=INT_MAX)]
"""A report's id: refused (422) past what its column holds, before any query."""
Version = Annotated[int, Path(ge=1, le=INT_MAX)]
"""An entry of a table's log, as its ``events.version`` column holds it."""


class CloseIn(BaseModel):
    note: str | None = Field(default=None, max_length=reports.NOTE_MAX)


class SilenceIn(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    hours: Literal[1, 24, 168] | None = None
    """An hour, a day or a week; None: until lifted (the command line gives any length)."""
    reason: str | None = Field(default=None, max_length=moderation.REASON_MAX)


class NameIn(BaseModel):
    name: str = Field(min_length=1, max_length=64)


class BanIn(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    reason: str = Field(max_length=moderation.REASON_MAX)
    """Why: required (a ban is deliberate), kept in the operators' log."""


def report_json(
    report: reports.Report, silenced: JSON | None = None, account_closed: float | None = None
) -> dict[str, Any]:
    shown = dataclasses.asdict(report) | {"reason": report.reason.value}
    return shown | {"silenced": silenced, "account_closed": account_closed}


@router.get("/reports")
async def listed(srv: ServerDep, who: OperatorDep, closed: bool = False) -> dict[str, Any]:
    """``{"reports": [Report]}``: the open ones, oldest first (``closed``: every one), each
    with the reported account's silence now (``{"since", "until"}``, or null) and when it
    was closed, if it is (by an operator or by its player)."""
    store = sql_store(srv)
    found = await reports.reports(store, closed=closed)
    now = srv.settings.clock()
    names = {r.name for r in found}
    silent = await moderation.silences(store, now, names)
    shut = {c.name: c.at for c in await srv.accounts.closed(names=names, limit=len(names))}
    return {"reports": [report_json(r, silent.get(r.name), shut.get(r.name)) for r in found]}


@router.post("/reports/{report_id}/close")
async def close(
    report_id: RowId, body: CloseIn, srv: ServerDep, who: OperatorDep
) -> dict[str, Any]:
    """``{"report": Report}``, closed with the operator's note."""
    store, now = sql_store(srv), srv.settings.clock()
    closed = await reports.close(store, report_id, body.note, now)
    await moderation_log.write(
        store, now, who.name, Act.CLOSE_REPORT, closed.name, report=report_id, note=closed.note
    )
    return {"report": report_json(closed)}


@router.post("/silence")
async def silence(body: SilenceIn, srv: ServerDep, who: OperatorDep) -> dict[str, Any]:
    """``{"name", "until"}``: the account's chat is refused until then (null: until lifted)."""
    store, now = sql_store(srv), srv.settings.clock()
    until = None if body.hours is None else now + body.hours * 3600
    try:
        name = await moderation.silence(store, body.name, now=now, until=until, reason=body.reason)
    except AccountError as e:
        raise _no_account(e) from None
    await moderation_log.write(
        store, now, who.name, Act.SILENCE, name, until=until, reason=body.reason
    )
    return {"name": name, "until": until}


@router.get("/silenced")
async def silenced(srv: ServerDep, who: OperatorDep) -> dict[str, Any]:
    """``{"silenced": [{"name", "since", "until", "reason"}]}``: the accounts silenced now,
    the latest first (``moderation.SILENCES_SHOWN`` at most)."""
    found = await moderation.silences(sql_store(srv), srv.settings.clock())
    return {"silenced": [{"name": name} | shown for name, shown in found.items()]}


@router.post("/unsilence")
async def unsilence(body: NameIn, srv: ServerDep, who: OperatorDep) -> dict[str, Any]:
    """``{"name"}``: the account may chat again."""
    store = sql_store(srv)
    try:
        name = await moderation.lift(store, body.name)
    except AccountError as e:
        raise _no_account(e) from None
    await moderation_log.write(store, srv.settings.clock(), who.name, Act.UNSILENCE, name)
    return {"name": name}


@router.get("/log")
async def logged(
    srv: ServerDep,
    who: OperatorDep,
    name: Annotated[str | None, Query(min_length=1, max_length=64)] = None,
    before: Annotated[int | None, Query(ge=1, le=INT_MAX)] = None,
) -> dict[str, Any]:
    """``{"log": [Logged], "more"}``: what the site's operators did, the latest first
    (``moderation_log.SHOWN`` at most): before the entry ``before``, by or about a name that
    begins with ``name``, if given; ``more``: whether there are older ones."""
    found, more = await moderation_log.latest(sql_store(srv), before=before, name=name)
    return {"log": [e.to_json() for e in found], "more": more}


@router.post("/close")
async def ban(body: BanIn, room: LobbyDep, srv: ServerDep, who: OperatorDep) -> dict[str, Any]:
    """``{"name", "already"}``: the account is closed, a ban (``Accounts``: no login, no
    page, no rank, its sessions ended), logged with its reason, and shut out at once: its
    sockets closed on every process, a bot in its seats (``Lobby.shut_out``); ``already``: it
    was closed before, and nothing changed (nor is logged) but that its sockets still open
    (the command line's ban without ``--redis`` leaves them) are closed all the same."""
    reason = _reason(body.reason)
    target = await srv.accounts.by_name(body.name)
    if target is None:
        raise _no_account(AccountError(Refusal.NO_ACCOUNT, f"no account is named {body.name!r}"))
    if target.id == who.id:
        raise CommandError(
            "self", "you cannot close your own account here", field="name", status=422
        )
    if target.operator:
        raise CommandError(
            "operator_account",
            f"{target.name} is one of the site's operators: only the command line closes an "
            "operator's account (doublesix account operator NAME --revoke first)",
            field="name",
            status=409,
        )
    now = srv.settings.clock()
    try:
        name, closed = await srv.accounts.close_by_operator(target.name)
    except AccountError as e:
        raise _no_account(e) from None
    if closed:
        await moderation_log.write(sql_store(srv), now, who.name, Act.CLOSE, name, reason=reason)
    await room.shut_out(target.id)
    return {"name": name, "already": not closed}


def _reason(text: str) -> str:
    """A ban's reason, its spaces around trimmed: refused if there is none left."""
    reason = text.strip()
    if not reason:
        raise CommandError("reason", "say why the account is closed", field="reason", status=422)
    return reason


@router.post("/reopen")
async def reopen(body: NameIn, srv: ServerDep, who: OperatorDep) -> dict[str, Any]:
    """``{"name", "already"}``: the closed account logs in again (closed by an operator or by
    its player, who asked), logged; ``already``: it was open, and nothing changed."""
    try:
        name, opened = await srv.accounts.reopen(body.name)
    except AccountError as e:
        raise _no_account(e) from None
    if opened:
        await moderation_log.write(sql_store(srv), srv.settings.clock(), who.name, Act.REOPEN, name)
    return {"name": name, "already": not opened}


@router.get("/closed")
async def closed(srv: ServerDep, who: OperatorDep) -> dict[str, Any]:
    """``{"closed": [{"name", "at", "operator", "reason"}]}``: the accounts the operators
    closed (bans; not those their players closed), the latest first (``CLOSED_SHOWN`` at
    most), with who closed each and why, as the operators' log says (``operator`` null: the
    command line; ``reason`` null: none given)."""
    found = await srv.accounts.closed(by=Closer.OPERATOR)
    why = await moderation_log.last_of(sql_store(srv), Act.CLOSE, [c.name for c in found])
    return {"closed": [_closed_json(c, why.get(c.name)) for c in found]}


def _closed_json(account: Closed, logged: moderation_log.Logged | None) -> dict[str, Any]:
    return {
        "name": account.name,
        "at": account.at,
        "operator": None if logged is None else logged.operator,
        "reason": None if logged is None else logged.detail.get("reason"),
    }


def _no_account(e: AccountError) -> CommandError:
    """The one refusal of ``moderation`` and of a ban or its end: no account of that name."""
    return CommandError("not_found", e.message, field="name", status=404)


@router.delete("/lobby-chat/{message_id}")
async def unsay(
    message_id: str, room: LobbyDep, srv: ServerDep, who: OperatorDep
) -> dict[str, Any]:
    """``{"removed": id}``: the lobby's message is gone from every lobby (404 if it is not
    kept any more)."""
    said = await room.unsay(message_id)
    await _removed(srv, who.name, said, table=None)
    return {"removed": message_id}


async def _removed(srv: Server, operator: str, said: JSON, table: str | None) -> None:
    """Log a removed chat message, with its words (the operators may need them later)."""
    words = {"text": said["text"]} if "text" in said else {"phrase": said.get("phrase")}
    await moderation_log.write(
        sql_store(srv),
        srv.settings.clock(),
        operator,
        Act.UNCHAT,
        said.get("from"),
        table=table,
        **words,
    )


@router.delete("/tables/{table_id}/chat/{version}")
async def unchat(
    table_id: str, version: Version, srv: ServerDep, who: OperatorDep
) -> dict[str, Any]:
    """``{"removed": version}``: the table's chat message is gone from every page at the table
    and from its game's page, however old, the game over or not (404 ``no_message``, field
    ``chat``, if the table's log has no such message, or an operator removed it already).

    The table takes the removal — its owner, wherever it runs, or this process, which loads a
    finished table again — and the operators' log has the words from the stored log: the
    table keeps those of its last messages only."""
    link = await srv.manager.get(table_id)
    if link is None:
        raise not_found(f"no table {table_id!r}")
    await link.submit(commands.Unchat(version))
    said = await srv.store.entry(table_id, version)
    assert said is not None  # the table took it: a chat entry of its stored log
    await _removed(srv, who.name, chat_message(said), table=table_id)
    return {"removed": version}


@router.post("/tables/{table_id}/chat/{version}/restore")
async def rechat(
    table_id: str, version: Version, srv: ServerDep, who: OperatorDep
) -> dict[str, Any]:
    """``{"restored": version}``: the table's chat message an operator removed is shown again,
    on every page at the table (a ``rechat`` frame) and on its game's page. Refused: a
    message shown (409 ``not_removed``), one whose words an account's erasure took (409
    ``erased``: nothing is left to restore), a version that is no message of the table (404
    ``no_message``), all with field ``chat``; 404 ``not_found`` for no such table. The lobby's
    removals are not undone: the lobby keeps no removed message.

    The table takes it as a removal (``unchat``): its owner, wherever it runs, reads the
    words from the stored log and logs a ``rechat`` entry."""
    link = await srv.manager.get(table_id)
    if link is None:
        raise not_found(f"no table {table_id!r}")
    await link.submit(commands.Rechat(version))
    said = await srv.store.entry(table_id, version)
    assert said is not None  # the table took it: a chat entry of its stored log
    await moderation_log.write(
        sql_store(srv),
        srv.settings.clock(),
        who.name,
        Act.RESTORE,
        said.data.get("from"),
        table=table_id,
        chat=version,
    )
    return {"restored": version}
