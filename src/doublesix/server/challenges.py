"""Challenges (VOG's "Herausfordern"): a player asks named online players to a table.

What a challenge is and what may be asked; no I/O here. The challenger
names the players (``to``), the table's options (the new-table form's:
preset, options, players, timer, hints, rated, a bot level for the seats
left over). When every challenged player has accepted, the table is made
with each of them seated (``table_of``) and starts at once. A challenge
is answered within ``SECONDS``; it ends declined, expired, cancelled (its
challenger left or withdrew it), left (a challenged player left the site
before it was accepted) or accepted. A player whose account is closed (a ban,
its own close, its erasure) has left: its challenges end so at once (``gone``).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, Field

from doublesix.server.errors import CommandError
from doublesix.server.lobby import MAX_TIMER, SeatIn, TableIn, new_table, seated_table
from doublesix.server.presence import OnlinePlayer
from doublesix.server.store import Guest
from doublesix.table.commands import Player
from doublesix.table.model import JSON, Table

SECONDS = 60.0
"""A challenge expires this long after it was made."""
OPEN_AT_ONCE = 3
"""Challenges a player may have waiting for answers at once."""


class Status(StrEnum):
    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    EXPIRED = "expired"
    CANCELLED = "cancelled"
    LEFT = "left"
    """A challenged player left the site while it waited: the table would have an empty
    seat."""


class Answer(StrEnum):
    ACCEPT = "accept"
    DECLINE = "decline"


class ChallengeIn(BaseModel):
    to: list[Annotated[str, Field(max_length=32)]] = Field(min_length=1, max_length=3)
    preset: str = Field(max_length=32)
    options: dict[str, Any] = Field(default_factory=dict, max_length=64)
    players: int | None = Field(default=None, ge=2, le=4)
    """Seats at the table (default: the challenger and the challenged); bots take the
    seats left over."""
    rated: bool = False
    timer: float | None = Field(default=None, gt=0, le=MAX_TIMER, allow_inf_nan=False)
    hints: bool | None = None
    bot: str | None = Field(default=None, max_length=32)
    """The level of the bots in the seats left over (default: greedy)."""


@dataclass
class Invited:
    id: str
    name: str
    account: bool
    answer: Answer | None = None
    left: bool = False
    """They left the site while the challenge waited (it ended ``LEFT``)."""

    def to_json(self) -> JSON:
        return {
            "id": self.id,
            "name": self.name,
            "account": self.account,
            "answer": None if self.answer is None else self.answer.value,
            "left": self.left,
        }

    @classmethod
    def from_json(cls, data: JSON) -> Invited:
        answer = data.get("answer")
        return cls(
            data["id"],
            data["name"],
            bool(data["account"]),
            answer and Answer(answer),
            bool(data.get("left", False)),  # rows stored before it had the key
        )


@dataclass
class Challenge:
    id: str
    player: str
    """The challenger's id."""
    name: str
    account: bool
    """The challenger has an account."""
    invited: list[Invited]
    settings: JSON
    """The table's settings: ``TableIn``'s fields as the challenge gave them."""
    created_at: float
    expires_at: float
    status: Status = Status.OPEN
    table: str | None = None
    """The table it made, once every challenged player accepted."""

    def involves(self, player_id: str) -> bool:
        return player_id == self.player or any(i.id == player_id for i in self.invited)

    def people(self) -> list[str]:
        """The ids of everyone involved: to be told of every change."""
        return [self.player, *(i.id for i in self.invited)]

    def invitee(self, player_id: str) -> Invited | None:
        return next((i for i in self.invited if i.id == player_id), None)

    def public(self, now: float) -> JSON:
        """The protocol's ``Challenge`` (names only: an id is a guest's cookie)."""
        return {
            "id": self.id,
            "from": self.name,
            "to": [
                {"name": i.name, "answer": i.answer and i.answer.value, "left": i.left}
                for i in self.invited
            ],
            "preset": self.settings["preset"],
            "options": self.settings["options"],
            "players": self.settings["players"],
            "rated": self.settings["rated"],
            "timer": self.settings["timer"],
            "hints": self.settings["hints"],
            "status": self.status.value,
            "table": self.table,
            "expires_in": max(0.0, round(self.expires_at - now, 1)),
        }


def _refuse(code: str, message: str, field: str, status: int = 422) -> CommandError:
    return CommandError(code, message, field=field, status=status)


def over(challenge: Challenge) -> CommandError:
    """The refusal of an answer to (or the withdrawal of) a challenge that has ended."""
    if challenge.status == Status.LEFT:
        gone = ", ".join(i.name for i in challenge.invited if i.left)
        return CommandError("answered", f"this challenge is over: {gone} left", status=409)
    return CommandError(
        "answered", f"this challenge is {challenge.status.value} already", status=409
    )


def resolve(names: list[str], challenger: str, online: dict[str, OnlinePlayer]) -> list[Invited]:
    """The online players ``names`` name (case-insensitively); CommandError on field ``to``
    for oneself, a name given twice, a player not online, or a name several players have."""
    by_name: dict[str, list[OnlinePlayer]] = {}
    for player in online.values():
        by_name.setdefault(player.name.casefold(), []).append(player)
    seen: set[str] = set()
    invited = []
    for n, name in enumerate(names):
        key = name.strip().casefold()
        where = f"to.{n}"
        if key in seen:
            raise _refuse("duplicate", f"{name!r} is named twice", where)
        seen.add(key)
        found = [p for p in by_name.get(key, []) if p.id != challenger]
        if not found:
            if any(p.id == challenger for p in by_name.get(key, [])):
                raise _refuse("yourself", "you cannot challenge yourself", where)
            raise _refuse("offline", f"no player named {name!r} is online", where)
        if len(found) > 1:
            raise _refuse(
                "ambiguous", f"{len(found)} players online are named {name!r}", where, 409
            )
        invited.append(Invited(found[0].id, found[0].name, found[0].account))
    return invited


def table_request(body: ChallengeIn, invited: int) -> TableIn:
    """The new-table request a challenge stands for: the challenger at seat 0, the
    challenged next (their seats held for them), bots in the seats left over."""
    players = body.players if body.players is not None else 1 + invited
    if 1 + invited > players:
        raise _refuse("players", f"{1 + invited} players do not fit at a table of {players}", "to")
    bots = players - 1 - invited
    seats = [SeatIn(kind="human")] + [SeatIn(kind="invite") for _ in range(invited)]
    seats += [SeatIn(kind="bot", bot=body.bot) for _ in range(bots)]
    return TableIn(
        preset=body.preset,
        options=body.options,
        seats=seats,
        timer=body.timer,
        hints=body.hints,
        rated=body.rated,
    )


def new_challenge(
    body: ChallengeIn,
    challenger: Guest,
    online: dict[str, OnlinePlayer],
    now: float,
) -> Challenge:
    """The challenge ``body`` asks for; CommandError naming the field if it may not be."""
    invited = resolve(body.to, challenger.id, online)
    if body.rated and not challenger.account:
        raise _refuse("rated", "a rated game is between accounts: register first", "rated")
    guests = [i.name for i in invited if not i.account]
    if body.rated and guests:
        raise _refuse(
            "rated", f"a rated game is between accounts; {', '.join(guests)} is a guest", "rated"
        )
    request = table_request(body, len(invited))
    try:
        checked = new_table(request, challenger, now, 0)  # the table's checks: options, timer
    except CommandError as e:  # a challenge's players and bots are fields of its own
        if e.field == "options.players":
            e.field = "players"
        elif e.field is not None and e.field.startswith("seats."):
            e.field = "bot"
        raise
    settings: JSON = {
        "preset": checked.preset,
        "options": body.options,
        "players": len(checked.seats),
        "rated": body.rated,
        "timer": body.timer,
        "hints": body.hints,
        "bot": body.bot,
    }
    return Challenge(
        id=secrets.token_hex(8),
        player=challenger.id,
        name=challenger.name,
        account=challenger.account,
        invited=invited,
        settings=settings,
        created_at=now,
        expires_at=now + SECONDS,
    )


def table_of(challenge: Challenge, now: float, seed: int) -> Table:
    """The table of an accepted challenge: every challenged player in their seat, so that it
    starts at once."""
    body = ChallengeIn(to=[i.name for i in challenge.invited], **challenge.settings)
    creator = Guest(challenge.player, challenge.name, challenge.created_at, challenge.account)
    others = [Player(i.id, i.name, i.account) for i in challenge.invited]
    return seated_table(table_request(body, len(challenge.invited)), creator, others, now, seed)


@dataclass
class Answered:
    """What an answer did: the challenge as it is now; a table to make if it was the last
    acceptance."""

    challenge: Challenge
    table: Table | None = None


def answer(challenge: Challenge, player_id: str, given: Answer, now: float, seed: int) -> Answered:
    """``player_id``'s answer; CommandError if it is not theirs to give, or too late."""
    invitee = challenge.invitee(player_id)
    if invitee is None:
        raise CommandError("forbidden", "this challenge is not for you", status=403)
    if challenge.status == Status.OPEN and now >= challenge.expires_at:
        challenge.status = Status.EXPIRED
        return Answered(challenge)
    if challenge.status != Status.OPEN:
        raise over(challenge)
    if invitee.answer is not None:
        raise CommandError("answered", "you have answered this challenge already", status=409)
    invitee.answer = given
    if given == Answer.DECLINE:
        challenge.status = Status.DECLINED
        return Answered(challenge)
    if all(i.answer == Answer.ACCEPT for i in challenge.invited):
        table = table_of(challenge, now, seed)
        challenge.status, challenge.table = Status.ACCEPTED, table.id
        return Answered(challenge, table)
    return Answered(challenge)


def leave(challenge: Challenge, player_id: str) -> bool:
    """A challenged player left the site: an open challenge that waited for them (their
    answer, or the others' after their acceptance) ends ``LEFT``. Whether it ended."""
    invitee = challenge.invitee(player_id)
    if invitee is None or challenge.status != Status.OPEN:
        return False
    invitee.left = True
    challenge.status = Status.LEFT
    return True


def gone(challenge: Challenge, player_id: str) -> bool:
    """``player_id`` left the site, or its account was closed: an open challenge it made
    ends ``CANCELLED``, one it was sent ends ``LEFT`` (``leave``). Whether it ended."""
    if challenge.status != Status.OPEN:
        return False
    if challenge.player == player_id:
        challenge.status = Status.CANCELLED
        return True
    return leave(challenge, player_id)
