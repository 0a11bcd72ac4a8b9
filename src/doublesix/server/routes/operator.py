"""The site's operators on the web (``/operator``): the reports players sent, to read and
close, a silence for an account, and a chat message removed, from the lobby or a table.
Every route is an operator's only (``OperatorDep``); ``doublesix account operator NAME``
makes one, and closing an account stays a command's (``doublesix account close``): a ban is
not a click.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from doublesix.server import moderation, moderation_log, reports
from doublesix.server.account_names import AccountError
from doublesix.server.deps import OperatorDep, Server, ServerDep, not_found
from doublesix.server.errors import CommandError
from doublesix.server.moderation_log import Act
from doublesix.server.routes.challenges import LobbyDep
from doublesix.server.routes.ratings import sql_store
from doublesix.table import commands
from doublesix.table.model import JSON

router = APIRouter(prefix="/api/operator")


class CloseIn(BaseModel):
    note: str | None = Field(default=None, max_length=reports.NOTE_MAX)


class SilenceIn(BaseModel):
    name: str = Field(min_length=1, max_length=64)
    hours: Literal[1, 24, 168] | None = None
    """An hour, a day or a week; None: until lifted (the command line gives any length)."""
    reason: str | None = Field(default=None, max_length=moderation.REASON_MAX)


class NameIn(BaseModel):
    name: str = Field(min_length=1, max_length=64)


def report_json(report: reports.Report, silenced: JSON | None = None) -> dict[str, Any]:
    shown = dataclasses.asdict(report) | {"reason": report.reason.value}
    return shown | {"silenced": silenced}


@router.get("/reports")
async def listed(srv: ServerDep, who: OperatorDep, closed: bool = False) -> dict[str, Any]:
    """``{"reports": [Report]}``: the open ones, oldest first (``closed``: every one), each
    with the reported account's silence now (``{"since", "until"}``, or null)."""
    store = sql_store(srv)
    found = await reports.reports(store, closed=closed)
    now = srv.settings.clock()
    silent = await moderation.silences(store, now, {r.name for r in found})
    return {"reports": [report_json(r, silent.get(r.name)) for r in found]}


@router.post("/reports/{report_id}/close")
async def close(report_id: int, body: CloseIn, srv: ServerDep, who: OperatorDep) -> dict[str, Any]:
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
    before: Annotated[int | None, Query(ge=1)] = None,
) -> dict[str, Any]:
    """``{"log": [Logged], "more"}``: what the site's operators did, the latest first
    (``moderation_log.SHOWN`` at most): before the entry ``before``, by or about ``name``,
    if given; ``more``: whether there are older ones."""
    found, more = await moderation_log.latest(sql_store(srv), before=before, name=name)
    return {"log": [e.to_json() for e in found], "more": more}


def _no_account(e: AccountError) -> CommandError:
    """The one refusal of ``moderation``: no account of that name."""
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
async def unchat(table_id: str, version: int, srv: ServerDep, who: OperatorDep) -> dict[str, Any]:
    """``{"removed": version}``: the table's chat message is gone from every page at the table
    and from its game's page (404 ``no_message`` unless it is one of the table's last
    ``TableConfig.chat_kept`` messages, those its pages show)."""
    link = await srv.manager.get(table_id)
    if link is None:
        raise not_found(f"no table {table_id!r}")
    said = await link.submit(commands.Unchat(version))
    await _removed(srv, who.name, said, table=table_id)
    return {"removed": version}
