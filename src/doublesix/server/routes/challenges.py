"""Who is online and challenges: ``/api/online``, ``/api/challenges`` and their answers."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from doublesix.server.challenges import Answer, ChallengeIn
from doublesix.server.deps import GuestDep
from doublesix.server.lobby_room import Lobby

router = APIRouter(prefix="/api")


def lobby(request: Request) -> Lobby:
    found: Lobby = request.app.state.lobby
    return found


LobbyDep = Annotated[Lobby, Depends(lobby)]


@router.get("/online")
async def online(room: LobbyDep) -> dict[str, Any]:
    return {"players": await room.players()}


@router.get("/challenges")
async def challenges(room: LobbyDep, who: GuestDep) -> dict[str, Any]:
    return {"challenges": await room.mine(who.id)}


@router.post("/challenges", status_code=201)
async def challenge(body: ChallengeIn, room: LobbyDep, who: GuestDep) -> dict[str, Any]:
    made = await room.challenge(body, who)
    return made.public(room.settings.clock()) | {"mine": True}


@router.post("/challenges/{challenge_id}/accept")
async def accept(challenge_id: str, room: LobbyDep, who: GuestDep) -> dict[str, Any]:
    """The table's id once every challenged player accepted (null until then)."""
    answered = await room.answer(challenge_id, who, Answer.ACCEPT)
    public = answered.public(room.settings.clock()) | {"mine": False}
    return {"table": answered.table, "challenge": public}


@router.post("/challenges/{challenge_id}/decline")
async def decline(challenge_id: str, room: LobbyDep, who: GuestDep) -> dict[str, Any]:
    answered = await room.answer(challenge_id, who, Answer.DECLINE)
    return answered.public(room.settings.clock()) | {"mine": False}


@router.post("/challenges/{challenge_id}/cancel")
async def cancel(challenge_id: str, room: LobbyDep, who: GuestDep) -> dict[str, Any]:
    withdrawn = await room.withdraw(challenge_id, who)
    return withdrawn.public(room.settings.clock()) | {"mine": True}
