"""Accounts and sessions: register, log in and out, change the password, download the
account's data, close or erase the account.

The session's secret travels in the ``ds_session`` cookie: HttpOnly,
SameSite=Lax, and ``Secure`` when the request came over https. Refusals
of ``accounts`` get their HTTP status here. A session that ends (a log-out, a new
password, a log-in over it) closes the sockets opened with it on every process, but a
seat's (``Lobby.sign_out``); a new password also gives the account's seats new tokens.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from doublesix.server import account_data, erasure
from doublesix.server.account_names import AccountError, Refusal
from doublesix.server.accounts import SESSION_DAYS, Login
from doublesix.server.deps import COOKIE, SESSION_COOKIE, MaybeGuest, ServerDep, client_address
from doublesix.server.errors import CommandError
from doublesix.server.routes.challenges import LobbyDep
from doublesix.server.store import Guest

router = APIRouter(prefix="/api")

STATUS = {
    Refusal.NAME: 422,
    Refusal.NAME_TAKEN: 409,
    Refusal.WEAK_PASSWORD: 422,
    Refusal.WRONG_PASSWORD: 401,
    Refusal.RATE_LIMITED: 429,
    Refusal.LOGGED_IN: 409,
    Refusal.NO_ACCOUNT: 401,
    Refusal.CLOSED: 403,
    Refusal.ERASED: 409,
    Refusal.OPERATOR: 403,
}
"""The HTTP status of each refusal of ``accounts``."""

LONGEST = 1024
"""Characters a name or password field may hold at all (the rules' limits are lower and
are answered with their own message)."""


class AccountIn(BaseModel):
    name: str = Field(max_length=LONGEST)
    password: str = Field(max_length=LONGEST)


class CloseIn(BaseModel):
    password: str = Field(max_length=LONGEST)


class PasswordIn(BaseModel):
    old: str = Field(max_length=LONGEST)
    new: str = Field(max_length=LONGEST)


def refused(e: AccountError) -> CommandError:
    return CommandError(e.code.value, e.message, field=e.field, status=STATUS[e.code])


def player_json(player: Guest | None) -> dict[str, object]:
    """``{"player": {"name", "account"}}`` (with ``"operator": true`` for an operator), or
    ``{"player": null}`` for nobody."""
    return {"player": None if player is None else player.own()}


def _logged_in(request: Request, login: Login, status: int) -> JSONResponse:
    response = JSONResponse(player_json(login.player), status_code=status)
    response.set_cookie(
        SESSION_COOKIE,
        login.secret,
        max_age=SESSION_DAYS * 24 * 3600,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


@router.post("/accounts", status_code=201)
async def register(
    body: AccountIn, request: Request, srv: ServerDep, who: MaybeGuest
) -> JSONResponse:
    """A new account, logged in; a guest who registers keeps the games played as the guest
    (the account takes the guest's id) and the guest cookie is cleared."""
    try:
        login = await srv.accounts.register(body.name, body.password, who)
    except AccountError as e:
        raise refused(e) from None
    response = _logged_in(request, login, 201)
    if who is not None:
        response.delete_cookie(COOKIE, httponly=True, samesite="lax")
    return response


@router.post("/session")
async def log_in(body: AccountIn, request: Request, srv: ServerDep, room: LobbyDep) -> JSONResponse:
    """A new session; the one this browser had ends."""
    old = request.cookies.get(SESSION_COOKIE)
    try:
        login = await srv.accounts.login(body.name, body.password, client_address(request))
    except AccountError as e:
        raise refused(e) from None
    if old:
        room.sign_out(await srv.accounts.logout(old))
    return _logged_in(request, login, 200)


@router.delete("/session")
async def log_out(request: Request, srv: ServerDep, room: LobbyDep) -> JSONResponse:
    """End this browser's session; it is who its guest cookie says again, if it has one."""
    secret = request.cookies.get(SESSION_COOKIE)
    if secret:
        room.sign_out(await srv.accounts.logout(secret))
    guest_id = request.cookies.get(COOKIE)
    guest = None if not guest_id else await srv.store.guest(guest_id)
    response = JSONResponse(player_json(guest))
    response.delete_cookie(
        SESSION_COOKIE, httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )
    return response


@router.post("/account/password")
async def change_password(
    body: PasswordIn, request: Request, srv: ServerDep, room: LobbyDep, who: MaybeGuest
) -> JSONResponse:
    """A new password; every other session of the account ends (after a stolen password is
    changed, the thief's open pages are signed out at once), and every seat of the account at
    a table not over takes a new token (the thief's seat sockets watch from then on; this
    browser's pages take the new token back: ``Lobby.new_password``)."""
    if who is None or not who.account:
        raise refused(AccountError(Refusal.NO_ACCOUNT, "log in to change your password"))
    try:
        ended = await srv.accounts.change_password(
            who,
            body.old,
            body.new,
            keep=request.cookies.get(SESSION_COOKIE),
            address=client_address(request),
        )
    except AccountError as e:
        raise refused(e) from None
    await room.new_password(who.id, ended)
    return JSONResponse(player_json(who))


@router.get("/account/data")
async def download_data(srv: ServerDep, room: LobbyDep, who: MaybeGuest) -> JSONResponse:
    """Everything the site keeps about the logged-in account, as a JSON file to keep
    (``server/account_data.py``): the right of access and portability.

    The session cookie is the proof, with no password asked, unlike close and erase: a GET
    carries no body, and a password in its query would be kept in the browser's history and
    the servers' logs; the download changes nothing, and it goes only to the browser that
    holds the session (the cookie is SameSite=Lax: another site's page may make a browser
    download its own data, never read it). ``no-store``: no cache keeps a copy."""
    if who is None or not who.account:
        raise refused(AccountError(Refusal.NO_ACCOUNT, "log in to download your data"))
    document = await account_data.gather(
        srv.accounts.store, who.id, srv.settings.clock(), await room.history.last()
    )
    if document is None:  # erased between its session's check and now
        raise refused(AccountError(Refusal.NO_ACCOUNT, "log in to download your data"))
    headers = {
        "Content-Disposition": f'attachment; filename="doublesix-{who.name}-data.json"',
        "Cache-Control": "no-store",
    }
    return JSONResponse(document, headers=headers)


@router.post("/account/close")
async def close_account(
    body: CloseIn, request: Request, srv: ServerDep, room: LobbyDep, who: MaybeGuest
) -> JSONResponse:
    """Close the logged-in account (``Accounts.close``): every session ends, this one too,
    and its sockets in every tab close at once, a bot in its seats (``Lobby.shut_out``)."""
    if who is None or not who.account:
        raise refused(AccountError(Refusal.NO_ACCOUNT, "log in to close your account"))
    try:
        await srv.accounts.close(who, body.password, address=client_address(request))
    except AccountError as e:
        raise refused(e) from None
    await room.shut_out(who.id)
    return _logged_out(request, player_json(None))


@router.post("/account/erase")
async def erase_account(
    body: CloseIn, request: Request, srv: ServerDep, room: LobbyDep, who: MaybeGuest
) -> JSONResponse:
    """Erase the logged-in account and its personal data (``Accounts.erase``,
    ``server/erasure.py``): it is closed as by ``close_account``, its words leave the lobby's
    chat, and the rest goes at once if none of its games is being played, else as soon as
    they end (a bot finishes its seats). ``{"player": null, "erasure": "done"}``, or
    ``"pending"`` with the number of its ``games`` still played. An operator's account is
    refused (403 ``operator``): the command line erases it."""
    if who is None or not who.account:
        raise refused(AccountError(Refusal.NO_ACCOUNT, "log in to erase your account"))
    try:
        await srv.accounts.erase(who, body.password, address=client_address(request))
    except AccountError as e:
        raise refused(e) from None
    await room.shut_out(who.id)
    await room.forget_chat_of(who.name)
    erasing = await erasure.erase(srv.accounts.store, who.id, srv.settings.clock())
    await erasure.tell(room, erasing)
    answer = player_json(None) | {"erasure": erasing.progress.value}
    if erasing.progress == erasure.Progress.PENDING:
        answer["games"] = len(erasing.tables)
    return _logged_out(request, answer)


def _logged_out(request: Request, answer: dict[str, object]) -> JSONResponse:
    """``answer``, and the session's cookie cleared."""
    response = JSONResponse(answer)
    response.delete_cookie(
        SESSION_COOKIE, httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )
    return response
