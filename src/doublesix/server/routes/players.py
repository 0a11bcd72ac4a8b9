"""Who is playing: ``/api/guest`` (a name, kept in a cookie) and ``/api/me``."""

from __future__ import annotations

import secrets

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from doublesix.server.deps import COOKIE, GuestDep, ServerDep
from doublesix.server.lobby import GuestIn, clean_name
from doublesix.server.store import Guest

router = APIRouter(prefix="/api")


@router.post("/guest")
async def new_guest(body: GuestIn, srv: ServerDep) -> JSONResponse:
    guest = Guest(secrets.token_urlsafe(24), clean_name(body.name), srv.settings.clock())
    await srv.store.add_guest(guest)
    response = JSONResponse({"id": guest.id, "name": guest.name})
    response.set_cookie(COOKIE, guest.id, max_age=365 * 24 * 3600, httponly=True, samesite="lax")
    return response


@router.get("/me")
async def me(guest: GuestDep) -> dict[str, str]:
    return {"id": guest.id, "name": guest.name}
