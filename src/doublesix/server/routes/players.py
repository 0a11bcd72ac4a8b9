"""Who is playing: ``/api/guest`` (a name, kept in a cookie) and ``/api/me``."""

from __future__ import annotations

import secrets

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from doublesix.server.account_names import looks_erased, looks_like_bot
from doublesix.server.deps import COOKIE, MaybeGuest, ServerDep
from doublesix.server.errors import CommandError
from doublesix.server.lobby import GuestIn, clean_name
from doublesix.server.routes.accounts import player_json
from doublesix.server.store import Guest

router = APIRouter(prefix="/api")


@router.post("/guest")
async def new_guest(body: GuestIn, srv: ServerDep, who: MaybeGuest) -> JSONResponse:
    """A guest of that name. Refused: while logged in, a name that could pass for a bot's or
    an erased account's pseudonym, and a name an account holds (or one people would take for
    it)."""
    if who is not None and who.account:
        raise CommandError("logged_in", "you are logged in: log out to play as a guest", status=409)
    name = clean_name(body.name)
    if looks_like_bot(name):
        raise CommandError("name", "that name could pass for a bot's", field="name", status=422)
    if looks_erased(name):
        raise CommandError(
            "name", "names that begin with 'erased' are kept", field="name", status=422
        )
    if await srv.accounts.name_taken(name):
        raise CommandError(
            "name_taken", "a registered player has that name", field="name", status=409
        )
    guest = Guest(secrets.token_urlsafe(24), name, srv.settings.clock())
    await srv.store.add_guest(guest)
    response = JSONResponse(
        {"player": {"name": guest.name, "account": False}}
    )  # the id is the cookie's secret: only there
    response.set_cookie(COOKIE, guest.id, max_age=365 * 24 * 3600, httponly=True, samesite="lax")
    return response


@router.get("/me")
async def me(who: MaybeGuest) -> JSONResponse:
    """The request's player, or ``{"player": null}`` (200: a first visit is no error)."""
    return JSONResponse(player_json(who))
