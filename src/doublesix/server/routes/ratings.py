"""Ratings: the leaderboard of a variant and a player's page, as JSON and as pages.

``/leaderboard/{variant}`` and ``/player/{name}`` serve their page; for an
unknown variant or player the page comes with 404 and says so itself (it
reads the same API), so a browser shows a page, never raw JSON.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request

from doublesix.ratings import Family, family_named, family_of
from doublesix.rules.ruleset import Ruleset
from doublesix.server import rating_store
from doublesix.server.account_lists import open_account
from doublesix.server.account_names import NAME_MAX
from doublesix.server.deps import MaybeGuest, Server, ServerDep, not_found, server, table_of
from doublesix.server.errors import CommandError
from doublesix.server.routes.pages import keyed_page
from doublesix.server.store import Guest, SqlStore
from doublesix.server.together import together

router = APIRouter(prefix="/api")


def sql_store(srv: Server) -> SqlStore:
    if not isinstance(srv.store, SqlStore):
        raise CommandError("no_ratings", "this server keeps no ratings", status=503)
    return srv.store


async def check_rated_seat(srv: Server, player_id: str) -> None:
    """Refuse a guest a seat at a rated table (only games between accounts are rated)."""
    if not await rating_store.is_account(sql_store(srv), player_id):
        raise CommandError(
            "rated",
            "rated: a rated table is for accounts only; log in or register, or play unrated",
            field="rated",
            status=403,
        )


async def table_rated(srv: Server, table_id: str) -> bool:
    host = srv.manager.hosts.get(table_id)
    table = host.table if host is not None else await srv.store.table(table_id)
    return table is not None and table.rated


def _family(variant: str) -> Family:
    family = family_named(variant)
    if family is None:
        choices = ", ".join(f.value for f in Family)
        raise not_found(f"no variant {variant!r}; the rated variants are {choices}")
    return family


@router.get("/leaderboard/{variant}")
async def leaderboard(variant: str, srv: ServerDep) -> dict[str, Any]:
    family = _family(variant)
    standings = await rating_store.leaderboard(sql_store(srv), family)
    return {
        "variant": family.value,
        "variants": [f.value for f in Family],
        "players": [s.to_json() for s in standings],
        "bots": rating_store.bots_json(),
    }


FOUND = 10
"""Names a search answers at most: a search box shows them under the field."""
TABLE_ID_MAX = 32
"""Characters of a table's id (``tables.id``)."""


@router.get("/players")
async def find_players(srv: ServerDep, prefix: str = "") -> dict[str, Any]:
    """The accounts whose names begin with ``prefix``: the leaderboard's "find a player"."""
    if not 1 <= len(prefix) <= NAME_MAX:
        raise CommandError(
            "prefix", f"prefix: 1 to {NAME_MAX} characters of a name", field="prefix", status=422
        )
    names = await rating_store.find_accounts(sql_store(srv), prefix, FOUND)
    return {"prefix": prefix, "players": [{"name": name} for name in names]}


@router.get("/tables/{table_id}/ratings")
async def seat_ratings(table_id: str, request: Request) -> dict[str, Any]:
    """``{"variant", "seats": [Rating | null]}``: each account's rating at the table, in the
    variant its rules are rated in (null for a guest, a bot or an open seat), shown beside
    the names at a table whether or not its game is rated."""
    table = await table_of(request, table_id)
    family = family_of(Ruleset.from_dict(table.ruleset))
    found = await rating_store.shown_ratings(
        sql_store(server(request)),
        [s.player for s in table.seats if s.account and s.player is not None],
    )
    seats = [found[s.player][family].to_json() if s.player in found else None for s in table.seats]
    return {"variant": family.value, "seats": seats}


@router.get("/players/{name}")
async def player(name: str, srv: ServerDep) -> dict[str, Any]:
    found = await rating_store.player_json(sql_store(srv), name)
    if found is None:
        raise not_found(f"no player {name!r}")
    if found.get("closed"):
        raise CommandError("closed", f"the account {found['name']!r} is closed", status=410)
    return found


def _bad_cursor(field: str, message: str) -> CommandError:
    return CommandError("cursor", f"{field}: {message}", field=field, status=422)


def game_cursor(at: str | None, table: str | None) -> tuple[float, str] | None:
    """The game a page of games goes on after (``before_at``, ``before_table``: the last game
    shown, both or neither); CommandError 422 naming the field otherwise."""
    if at is None and table is None:
        return None
    if at is None:
        raise _bad_cursor("before_at", "give both before_at and before_table")
    if table is None:
        raise _bad_cursor("before_table", "give both before_at and before_table")
    try:
        when = float(at)
    except ValueError:
        when = math.nan
    if not math.isfinite(when):
        raise _bad_cursor("before_at", "a game's time, in seconds")
    if len(table) > TABLE_ID_MAX:
        raise _bad_cursor("before_table", f"at most {TABLE_ID_MAX} characters")
    return when, table


async def _other(srv: Server, name: str, viewer: Guest | None) -> tuple[str, str, str]:
    """The viewer's id, and the id and name of the open account ``name``, whose games
    together are asked for: 401 without a viewer, 404 without such an account, 422 for the
    viewer's own."""
    if viewer is None:
        raise CommandError(
            "no_guest", "whose games together? choose a name first or log in", status=401
        )
    player, spelled = await open_account(sql_store(srv), name)
    if player == viewer.id:
        raise CommandError(
            "self",
            "name: your own page; together is for another player's",
            field="name",
            status=422,
        )
    return viewer.id, player, spelled


@router.get("/players/{name}/games")
async def player_games(
    name: str,
    srv: ServerDep,
    viewer: MaybeGuest,
    before_at: str | None = None,
    before_table: str | None = None,
    together: bool = False,
) -> dict[str, Any]:
    """The next page of the player's finished games, after the last one shown (the player
    page shows the first with the rest of its data); ``together``: only those the viewer
    played with them."""
    cursor = game_cursor(before_at, before_table)
    if together:
        viewer_id, player, _ = await _other(srv, name, viewer)
        return await rating_store.player_games(sql_store(srv), player, cursor, viewer_id)
    player, _ = await open_account(sql_store(srv), name)
    return await rating_store.player_games(sql_store(srv), player, cursor, None)


@router.get("/players/{name}/together")
async def played_together(name: str, srv: ServerDep, viewer: MaybeGuest) -> dict[str, Any]:
    """``{"name", "against", "partners"}``: the viewer's finished games with the player, each
    ``{"games", "wins", "losses", "draws"}`` from the viewer's side: those they played against
    each other, and those as partners (a Kozel pair)."""
    viewer_id, player, spelled = await _other(srv, name, viewer)
    return (await together(sql_store(srv), viewer_id, player, spelled)).to_json()


def pages(web: Path) -> APIRouter:
    """The two pages, from the folder ``web``."""
    pages = APIRouter(include_in_schema=False)

    async def known_variant(variant: str, _: Server) -> bool:
        return family_named(variant) is not None

    async def known_player(name: str, srv: Server) -> bool:
        return await rating_store.account_named(sql_store(srv), name) is not None

    pages.add_api_route(
        "/leaderboard/{key}", keyed_page(web / "leaderboard.html", known_variant), methods=["GET"]
    )
    pages.add_api_route(
        "/player/{key}", keyed_page(web / "player.html", known_player), methods=["GET"]
    )
    return pages
