"""The lobby: request bodies, building a table's ruleset and seats, the ``Table`` JSON."""

from __future__ import annotations

import dataclasses
import secrets
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field

from doublesix.rules.ruleset import PRESETS, Ruleset, RulesetError, preset
from doublesix.server.actor import CommandError, available_bots
from doublesix.server.store import Guest, SeatRecord, TableRecord
from doublesix.server.views import JSON

TARGETS = (50, 100, 150)
"""Targets the lobby offers (R30); any positive number may be given."""
MIN_TIMER = 5.0
"""Seconds a turn's clock may be set to at least (less is not a game people can play)."""
MAX_TIMER = 3600.0


class GuestIn(BaseModel):
    name: str = Field(min_length=1, max_length=32)


class SeatIn(BaseModel):
    kind: Literal["human", "bot", "open"]
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


class JoinIn(BaseModel):
    seat: int | None = None
    invite: str | None = Field(default=None, max_length=64)


class BotIn(BaseModel):
    bot: str = Field(max_length=32)


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


def new_table(body: TableIn, creator: Guest, now: float, seed: int) -> TableRecord:
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
    seats = [SeatRecord(0, "human", None, creator.id, creator.name, secrets.token_urlsafe(24))]
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
            seats.append(SeatRecord(n, "bot", level, None, f"{level} bot"))
        else:
            seats.append(SeatRecord(n, "open"))
    return TableRecord(
        id=secrets.token_urlsafe(6).replace("-", "x").replace("_", "y"),
        preset=ruleset.preset,
        ruleset=ruleset.to_dict(),
        seed=seed,
        status="open",
        invite=secrets.token_urlsafe(8),
        timer=body.timer,
        hints=body.hints if body.hints is not None else all(s.kind == "bot" for s in seats[1:]),
        creator=creator.id,
        version=0,
        deadline=None,
        scores=[0] * ruleset.sides,
        seats=seats,
        created_at=now,
        updated_at=now,
    )


def table_json(table: TableRecord) -> JSON:
    """The protocol's ``Table``: what everyone may know of a table (no tokens, no seed)."""
    return {
        "id": table.id,
        "preset": table.preset,
        "ruleset": table.ruleset,
        "seats": [{"name": s.name, "kind": s.kind, "bot": s.bot} for s in table.seats],
        "status": table.status,
        "invite": table.invite,
        "timer": table.timer,
        "hints": table.hints,
        "version": table.version,
        "scores": table.scores,
        "created_at": table.created_at,
        "updated_at": table.updated_at,
    }


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
