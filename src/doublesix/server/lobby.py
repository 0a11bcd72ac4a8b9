"""The lobby: request bodies, building a table's ruleset and seats, the ``Table`` JSON."""

from __future__ import annotations

import dataclasses
import random
import secrets
from collections.abc import Sequence
from dataclasses import replace
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field

from doublesix.bots import table_bots
from doublesix.names import bot_name
from doublesix.rules.ruleset import PRESETS, Ruleset, RulesetError, preset
from doublesix.server.errors import CommandError
from doublesix.server.store import Guest
from doublesix.table.commands import Player
from doublesix.table.model import JSON, Seat, SeatKind, Table, TableStatus

TARGETS = (50, 100, 150)
"""Targets the lobby offers (R30); any positive number may be given."""
MIN_TIMER = 5.0
"""Seconds a turn's clock may be set to at least (less is not a game people can play)."""
MAX_TIMER = 3600.0


class GuestIn(BaseModel):
    name: str = Field(min_length=1, max_length=32)


class SeatIn(BaseModel):
    kind: Literal["human", "bot", "open", "invite"]
    """``open``: anyone may take it (``human`` is the same for any seat but 0);
    ``invite``: only whoever holds its invitation code."""
    bot: str | None = Field(default=None, max_length=32)


class TableIn(BaseModel):
    preset: str = Field(max_length=32)
    options: dict[str, Any] = Field(default_factory=dict, max_length=64)
    seats: list[SeatIn] | None = Field(default=None, max_length=8)
    timer: float | None = Field(default=None, gt=0, le=MAX_TIMER, allow_inf_nan=False)
    """Seconds of a turn: ``MIN_TIMER`` to ``MAX_TIMER`` (the minimum is checked in
    ``new_table``, where a test may lower it)."""
    hints: bool | None = None
    """None: hints on where no other human may sit (every other seat a bot), else off."""
    rated: bool = False


class JoinIn(BaseModel):
    seat: int | None = None
    invite: str | None = Field(default=None, max_length=64)


class BotIn(BaseModel):
    bot: str = Field(max_length=32)


def available_bots() -> list[str]:
    """The bot levels a table may seat, weakest first (never one that sees hidden tiles)."""
    return table_bots()


def clean_name(name: str) -> str:
    cleaned = " ".join("".join(ch for ch in name if ch.isprintable()).split())
    if not cleaned:
        raise CommandError("name", "choose a name", field="name", status=422)
    return cleaned[:32]


def build_ruleset(name: str, options: dict[str, Any], players: int | None) -> Ruleset:
    """The preset ``name`` with ``options`` changed; RulesetError names the option."""
    if name not in PRESETS:
        raise RulesetError("preset", f"{name!r} is not one of {', '.join(PRESETS)}", "RULES.md")
    options = dict(options)
    asked = options.pop("players", None)
    if asked is not None and players is not None and asked != players:
        raise RulesetError("players", f"{asked} players but {players} seats", "R12")
    count = players if players is not None else asked
    if count is not None and (isinstance(count, bool) or not isinstance(count, int)):
        raise RulesetError("players", f"{count!r} is not a whole number", "R12")
    fields = {f.name for f in dataclasses.fields(Ruleset)}
    for option in options:
        if option not in fields or option == "preset":
            raise RulesetError(option, "no such option", "RULES.md")
    base = preset(name, count)
    return Ruleset.from_dict(base.to_dict() | options)


def _table_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def new_token() -> str:
    """A seat's secret (hex: nothing in it reads as a tile, "5-0", in a frame)."""
    return secrets.token_hex(16)


def _invite_code() -> str:
    return secrets.token_hex(6)


def new_table(body: TableIn, creator: Guest, now: float, seed: int) -> Table:
    """A table as ``body`` asks, the creator at seat 0; CommandError says what is wrong."""
    if body.timer is not None and body.timer < MIN_TIMER:
        raise CommandError(
            "timer",
            f"timer: a turn is {MIN_TIMER:g} to {MAX_TIMER:g} seconds",
            field="timer",
            status=422,
        )
    players = len(body.seats) if body.seats is not None else None
    try:
        ruleset = build_ruleset(body.preset, body.options, players)
    except RulesetError as e:
        field = "preset" if e.option == "preset" else f"options.{e.option}"
        raise CommandError("ruleset", str(e), field=field, status=422) from None
    asked = body.seats or [SeatIn(kind="human")] + [
        SeatIn(kind="open") for _ in range(ruleset.players - 1)
    ]
    if asked[0].kind != "human":
        raise CommandError(
            "seats", "seat 0 is the creator's: its kind is human", field="seats", status=422
        )
    levels = available_bots()
    seats = [
        Seat(
            0, SeatKind.HUMAN, None, creator.id, creator.name, new_token(), account=creator.account
        )
    ]
    for n, seat in enumerate(asked[1:], 1):
        if seat.kind == "bot":
            level = seat.bot or "greedy"
            if level not in levels:
                raise CommandError(
                    "bot",
                    f"seat {n}: no bot {level!r}; choose from {', '.join(levels)}",
                    field=f"seats.{n}.bot",
                    status=422,
                )
            seats.append(Seat(n, SeatKind.BOT, level, None, bot_name(n)))
        elif seat.kind == "invite":
            seats.append(Seat(n, SeatKind.INVITE, invite=_invite_code()))
        else:
            seats.append(Seat(n, SeatKind.OPEN))
    return Table(
        id=_table_id(),
        preset=ruleset.preset,
        ruleset=ruleset.to_dict(),
        seed=seed,
        timer=body.timer,
        hints=body.hints if body.hints is not None else all(s.kind == "bot" for s in seats[1:]),
        rated=body.rated,
        creator=creator.id,
        seats=seats,
        created_at=now,
        updated_at=now,
        scores=[0] * ruleset.sides,
    )


def seated_table(
    body: TableIn, creator: Guest, others: Sequence[Player], now: float, seed: int
) -> Table:
    """The table ``body`` asks for with ``creator`` at seat 0 and ``others`` in the seats
    after it, held for them (``body``'s ``invite`` seats): it starts at once."""
    table = new_table(body, creator, now, seed)
    for n, p in enumerate(others, 1):
        table.seats[n] = Seat(n, SeatKind.HUMAN, None, p.id, p.name, new_token(), account=p.account)
    return table


def seats_drawn(table: Table, seed: int) -> Table:
    """``table`` with its seats in an order drawn from ``seed``: strangers seated together
    (Play now, a tournament) sit where chance puts them (in Kozel, who partners whom); each
    bot takes its new seat's name."""
    order = list(range(len(table.seats)))
    random.Random(seed).shuffle(order)
    table.seats = [_moved(table.seats[n], k) for k, n in enumerate(order)]
    return table


def _moved(seat: Seat, number: int) -> Seat:
    if seat.kind == SeatKind.BOT:
        return replace(seat, number=number, name=bot_name(number))
    return replace(seat, number=number)


def rematch_of(table: Table, now: float, seed: int) -> Table:
    """A new table with ``table``'s options and seats, every player seated again (with a new
    token; an invitation a player took a seat with is spent)."""
    seats = [
        replace(s, token=new_token(), invite=None) if s.kind == SeatKind.HUMAN else replace(s)
        for s in table.seats
    ]
    return replace(
        table,
        id=_table_id(),
        seed=seed,
        seats=seats,
        created_at=now,
        status=TableStatus.OPEN,
        version=0,
        updated_at=now,
        deadline=None,
        scores=[0] * len(table.scores),
        result=None,
    )


def table_json(table: Table, viewer: str | None = None) -> JSON:
    """The protocol's ``Table``: what everyone may know of a table (no tokens, no seed);
    the invitation codes only for its creator (``viewer``: the asking player's id)."""
    out: JSON = {
        "id": table.id,
        "preset": table.preset,
        "ruleset": table.ruleset,
        "seats": [
            {"name": s.name, "kind": s.kind.value, "bot": s.bot, "account": s.account}
            for s in table.seats
        ],
        "status": table.status.value,
        "timer": table.timer,
        "hints": table.hints,
        "rated": table.rated,
        "version": table.version,
        "scores": table.scores,
        "result": table.result,
        "created_at": table.created_at,
        "updated_at": table.updated_at,
        "tournament": None
        if table.tournament is None
        else {"id": table.tournament, "name": table.tournament_name},
    }
    if viewer is not None and viewer == table.creator:
        out["invites"] = [
            {"seat": s.number, "invite": s.invite} for s in table.seats if s.kind == SeatKind.INVITE
        ]
    return out


def _option(name: str, default: Any) -> JSON:
    if isinstance(default, StrEnum):
        return {"type": "choice", "choices": [m.value for m in type(default)]}
    if isinstance(default, bool):
        return {"type": "bool"}
    if name == "target":
        return {"type": "int", "min": 1, "suggested": list(TARGETS)}
    if name == "players":
        return {"type": "int", "min": 2, "max": 4}
    return {"type": "int", "min": 0}


def presets_json() -> JSON:
    """Every preset with its defaults per player count, and every option's kind."""
    sample = preset("draw")
    options = {
        f.name: _option(f.name, getattr(sample, f.name))
        for f in dataclasses.fields(Ruleset)
        if f.name != "preset"
    }
    return {
        "presets": [
            {
                "name": name,
                "players": list(p.players),
                "defaults": {str(n): preset(name, n).to_dict() for n in p.players},
            }
            for name, p in PRESETS.items()
        ],
        "options": options,
        "timer": {"min": MIN_TIMER, "max": MAX_TIMER},
    }
