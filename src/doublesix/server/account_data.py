"""What the site keeps about an account, gathered for its player: the right of access and
to data portability (GDPR, art. 15 and 20), the counterpart of ``erasure``.

``gather`` reads, in one connection, every table that ``erasure`` names as holding the
account's personal data and answers one JSON document, each part named plainly:

- ``account``: its name, when it was made, whether the operator silenced it (until when,
  why), whether it is one of the site's operators; never its password's hash;
- ``sessions``: when each began and ends; never their secrets (the database keeps only
  their hashes, which are secrets too: a stolen copy must not help anyone);
- ``ratings`` and ``rating_changes``; ``games``: its seats, each with the route of the
  game's record, and ``GET /api/records?player=NAME`` for all of them: the records are not
  embedded (each is replayed from its table's log: ``exports``);
- ``table_chat``: the words it wrote at tables (its seats', and as a spectator);
  ``lobby_chat``: the lobby's is not in the database, only its last messages in memory or
  Redis (``lobby_chat.KEPT``), of which the caller passes those the site holds now;
- ``private_messages``: both sides' words of its conversations (they are its conversations);
- ``following``, ``blocking``, ``muting``: its own lists. Who follows it is the followers'
  data (their lists): the document tells how many, never who;
- ``reports_made``: its words and each report's status, not the operator's note (the
  operators' working data); reports about it are left out for the same reason — and so that
  a reported player learns nothing of who reported them;
- ``challenges``: those it made or was invited to, by name;
- ``tournaments``: those it joined, with its score, games and wins, and those it created;
- ``operator_log``: the operators' log's entries about it (silenced, lifted, closed,
  reopened, password set, made an operator, a message removed or restored): its player is
  told of each of these anyway, so nothing is hidden by showing them; without the acting
  operator's name (that operator's own data; the site acts), and without the notes closing
  reports about it (as its reports). Entries *by* it, an operator, are about others.

Every list is bounded (``MOST``, the newest first): a list that holds more says so with
``"more": true`` and a note (``capped``) of how to get the rest. The bound keeps the
document one answer's size (tens of MB at the very most: 10,000 private messages of 1,000
characters are 10 MB; a usual player's is a few KB) and the database's work one request's;
a player with more asks the operator. Finding its chat as a spectator reads every table's
chat entries (as ``erasure`` does): the route is limited per address
(``addresses.AddressLimits``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from doublesix.ratings import Skill, shown
from doublesix.server import schema
from doublesix.server.moderation_log import Act
from doublesix.server.store import SqlStore
from doublesix.table.model import JSON, EventKind, SeatKind, TableStatus

FORMAT = "doublesix-account-data/1"
MOST = 10_000
"""Rows of one list at most: a player's whole history on a busy site fits in it (10,000
games is a game an hour for more than a year), and 10,000 rows of each part make a document
of a few MB."""
PRIVATE_ACTS = (Act.CLOSE_REPORT.value,)
"""Entries about the account that stay the operators': the notes closing reports about it."""


def when(at: float | None) -> str | None:
    """A time as people and programs read it: ISO 8601, UTC."""
    if at is None:
        return None
    return dt.datetime.fromtimestamp(at, dt.UTC).isoformat(timespec="seconds")


def part(items: Sequence[JSON], more: bool, **extra: Any) -> JSON:
    """A list of the document: its ``items``, and whether ``MOST`` left some out."""
    out: JSON = dict(extra) | {"items": list(items), "more": more}
    if more:
        out["capped"] = f"the newest {MOST} only; ask the site's operator for the rest"
    return out


async def _capped(conn: AsyncConnection, query: sa.Select[Any]) -> tuple[list[Any], bool]:
    rows = (await conn.execute(query.limit(MOST + 1))).all()
    return rows[:MOST], len(rows) > MOST


async def gather(
    store: SqlStore, player_id: str, now: float, lobby_chat: Iterable[JSON] = ()
) -> JSON | None:
    """The document of the account ``player_id`` (see the module), or None if there is no
    such account or it is erased; ``lobby_chat``: the lobby's messages the site holds now."""
    a = schema.accounts
    async with store.engine.connect() as conn:
        row = (await conn.execute(sa.select(a).where(a.c.player_id == player_id))).first()
        if row is None or row.erased_at is not None:
            return None
        name = row.name
        document: JSON = {
            "format": FORMAT,
            "made_at": when(now),
            "account": _account(row),
            "sessions": await _sessions(conn, player_id),
            "ratings": await _ratings(conn, player_id),
            "rating_changes": await _rating_changes(conn, player_id),
            "games": await _games(conn, player_id, name),
            "table_chat": await _table_chat(conn, player_id),
            "lobby_chat": part(
                [
                    {"at": when(m.get("at")), "text": m.get("text"), "phrase": m.get("phrase")}
                    for m in lobby_chat
                    if m.get("from") == name
                ],
                False,
                note="the lobby's chat is not kept in the database: only its last messages, "
                "in memory or the site's Redis; these are yours among them now",
            ),
            "private_messages": await _messages(conn, player_id, name),
            "following": await _listed(
                conn, schema.follows, "follower_id", "followed_id", player_id
            ),
            "followers": {
                "count": await _followers(conn, player_id),
                "note": "who follows you is their data (their lists): the number only",
            },
            "blocking": await _listed(conn, schema.blocks, "player_id", "blocked_id", player_id),
            "muting": await _muting(conn, player_id),
            "reports_made": await _reports(conn, player_id),
            "reports_about_you": {
                "note": "not included: the operators' working data, and the reporters' own"
            },
            "challenges": await _challenges(conn, player_id),
            "tournaments": await _tournaments(conn, player_id),
            "operator_log": await _operator_log(conn, name),
        }
    return document


def _account(row: Any) -> JSON:
    return {
        "name": row.name,
        "created_at": when(row.created_at),
        "operator": bool(row.operator),
        "silenced": None
        if row.silenced_at is None
        else {
            "since": when(row.silenced_at),
            "until": when(row.silenced_until),
            "reason": row.silence_reason,
        },
    }


async def _followers(conn: AsyncConnection, pid: str) -> int:
    f = schema.follows
    found = await conn.execute(
        sa.select(sa.func.count()).select_from(f).where(f.c.followed_id == pid)
    )
    return int(found.scalar_one())


async def _sessions(conn: AsyncConnection, pid: str) -> JSON:
    s = schema.sessions
    rows, more = await _capped(
        conn,
        sa.select(s.c.created_at, s.c.expires_at)
        .where(s.c.player_id == pid)
        .order_by(s.c.created_at.desc()),
    )
    return part(
        [{"created_at": when(r.created_at), "expires_at": when(r.expires_at)} for r in rows],
        more,
    )


async def _ratings(conn: AsyncConnection, pid: str) -> JSON:
    r = schema.ratings
    rows, more = await _capped(conn, sa.select(r).where(r.c.player_id == pid).order_by(r.c.variant))
    return part(
        [
            shown(Skill(x.mu, x.sigma), x.games).to_json()
            | {
                "variant": x.variant,
                "mu": x.mu,
                "sigma": x.sigma,
                "wins": x.wins,
                "losses": x.losses,
                "draws": x.draws,
                "updated_at": when(x.updated_at),
            }
            for x in rows
        ],
        more,
    )


async def _rating_changes(conn: AsyncConnection, pid: str) -> JSON:
    c = schema.rating_changes
    rows, more = await _capped(
        conn, sa.select(c).where(c.c.player_id == pid).order_by(c.c.at.desc(), c.c.table_id)
    )
    return part(
        [
            {
                "table": x.table_id,
                "variant": x.variant,
                "outcome": x.outcome,
                "rating_before": round(x.mu_before),
                "rating_after": round(x.mu),
                "mu_before": x.mu_before,
                "sigma_before": x.sigma_before,
                "mu_after": x.mu,
                "sigma_after": x.sigma,
                "at": when(x.at),
            }
            for x in rows
        ],
        more,
    )


async def _games(conn: AsyncConnection, pid: str, name: str) -> JSON:
    t, s = schema.tables, schema.seats
    rows, more = await _capped(
        conn,
        sa.select(
            t.c.id,
            t.c.preset,
            t.c.status,
            t.c.rated,
            t.c.created_at,
            t.c.updated_at,
            s.c.seat,
            s.c.name,
            s.c.outcome,
        )
        .select_from(s.join(t, t.c.id == s.c.table_id))
        .where(s.c.player_id == pid, s.c.kind == SeatKind.HUMAN.value)
        .order_by(t.c.created_at.desc(), t.c.id),
    )
    games = []
    for x in rows:
        finished = x.status == TableStatus.FINISHED.value
        games.append(
            {
                "table": x.id,
                "preset": x.preset,
                "status": x.status,
                "rated": bool(x.rated),
                "created_at": when(x.created_at),
                "ended_at": when(x.updated_at) if finished else None,
                "seat": x.seat,
                "seated_as": x.name,
                "outcome": x.outcome,
                "record": f"/api/games/{x.id}/record" if finished else None,
            }
        )
    return part(
        games,
        more,
        records=f"GET /api/records?player={name}",
        records_note="every finished game's doublesix/1 record, one a line, newest first; "
        "its Link header names the next page",
    )


async def _table_chat(conn: AsyncConnection, pid: str) -> JSON:
    """Its messages in the tables' logs: those that carry its id, and those from a seat it
    holds under the name it sat down with (an entry written without the player: its seat's
    token alone). A message an operator removed shows as removed."""
    e, s = schema.events, schema.seats
    player = e.c.data["player"].as_string()
    said_from = e.c.data["from"].as_string()
    seat = sa.and_(s.c.table_id == e.c.table_id, s.c.seat == e.c.seat, s.c.player_id == pid)
    rows, more = await _capped(
        conn,
        sa.select(e.c.table_id, e.c.version, e.c.created_at, e.c.data)
        .select_from(e.outerjoin(s, seat))
        .where(
            e.c.kind == EventKind.CHAT.value,
            sa.or_(
                player == pid,
                sa.and_(player.is_(None), s.c.player_id.is_not(None), said_from == s.c.name),
            ),
        )
        .order_by(e.c.created_at.desc(), e.c.table_id, e.c.version.desc()),
    )
    items = []
    for x in rows:
        data = x.data
        item: JSON = {"table": x.table_id, "at": when(x.created_at), "as": data.get("from")}
        for key in ("text", "phrase", "removed", "channel"):
            if key in data:
                item[key] = data[key]
        items.append(item)
    return part(items, more)


async def _messages(conn: AsyncConnection, pid: str, name: str) -> JSON:
    m, a = schema.messages, schema.accounts
    other_id = sa.case((m.c.sender_id == pid, m.c.recipient_id), else_=m.c.sender_id)
    rows, more = await _capped(
        conn,
        sa.select(m, a.c.name.label("other"))
        .select_from(m.outerjoin(a, a.c.player_id == other_id))
        .where(sa.or_(m.c.sender_id == pid, m.c.recipient_id == pid))
        .order_by(m.c.id.desc()),
    )
    items = []
    for x in rows:
        sent = x.sender_id == pid
        items.append(
            {
                "id": x.id,
                "from": name if sent else x.other,
                "to": x.other if sent else name,
                "text": x.text,
                "at": when(x.at),
                "read_at": when(x.read_at),
            }
        )
    return part(items, more, note="both sides' words: the conversations are yours")


async def _listed(conn: AsyncConnection, table: sa.Table, owner: str, other: str, pid: str) -> JSON:
    """A list by player id (``account_lists``): the accounts on ``pid``'s, by name."""
    a = schema.accounts
    rows, more = await _capped(
        conn,
        sa.select(a.c.name, table.c.created_at)
        .select_from(table.join(a, a.c.player_id == table.c[other]))
        .where(table.c[owner] == pid)
        .order_by(table.c.created_at.desc()),
    )
    return part([{"name": x.name, "since": when(x.created_at)} for x in rows], more)


async def _muting(conn: AsyncConnection, pid: str) -> JSON:
    m = schema.mutes
    rows, more = await _capped(
        conn,
        sa.select(m.c.name, m.c.created_at)
        .where(m.c.player_id == pid)
        .order_by(m.c.created_at.desc()),
    )
    return part([{"name": x.name, "since": when(x.created_at)} for x in rows], more)


async def _reports(conn: AsyncConnection, pid: str) -> JSON:
    r = schema.reports
    rows, more = await _capped(
        conn, sa.select(r).where(r.c.reporter_id == pid).order_by(r.c.id.desc())
    )
    return part(
        [
            {
                "at": when(x.at),
                "about": x.name,
                "reason": x.reason,
                "text": x.text,
                "table": x.table_id,
                "message": x.message,
                "status": "open" if x.closed_at is None else "closed",
                "closed_at": when(x.closed_at),
            }
            for x in rows
        ],
        more,
        note="the operator's notes on them are the operators' working data",
    )


async def _challenges(conn: AsyncConnection, pid: str) -> JSON:
    """Those it made, and those it was invited to (its id in their list of the invited:
    the text of a JSON column is searched, as ``erasure`` does)."""
    c = schema.challenges
    invited = sa.cast(c.c.invited, sa.Text).contains(pid, autoescape=True)
    rows, more = await _capped(
        conn,
        sa.select(c).where(sa.or_(c.c.player_id == pid, invited)).order_by(c.c.created_at.desc()),
    )
    items = []
    for x in rows:
        if x.player_id != pid and all(i["id"] != pid for i in x.invited):
            continue  # the id was in another field's text: not its challenge
        items.append(
            {
                "at": when(x.created_at),
                "by": x.name,
                "invited": [{"name": i["name"], "answer": i.get("answer")} for i in x.invited],
                "settings": x.settings,
                "status": x.status,
                "table": x.table_id,
            }
        )
    return part(items, more)


async def _tournaments(conn: AsyncConnection, pid: str) -> JSON:
    """Those it joined, with its tally, and those it created."""
    t, p = schema.tournaments, schema.tournament_players
    joined, more = await _capped(
        conn,
        sa.select(t.c.id, t.c.name, t.c.status, p)
        .join(t, t.c.id == p.c.tournament_id)
        .where(p.c.player_id == pid)
        .order_by(p.c.joined_at.desc()),
    )
    created, also = await _capped(
        conn, sa.select(t).where(t.c.creator_id == pid).order_by(t.c.created_at.desc())
    )
    return {
        "joined": part(
            [
                {
                    "tournament": x.id,
                    "name": x.name,
                    "status": x.status,
                    "joined_at": when(x.joined_at),
                    "active": bool(x.active),
                    "withdrawn": x.withdrawn,
                    "score": x.score,
                    "games": x.games,
                    "wins": x.wins,
                }
                for x in joined
            ],
            more,
        ),
        "created": part(
            [
                {
                    "tournament": x.id,
                    "name": x.name,
                    "status": x.status,
                    "created_at": when(x.created_at),
                    "starts_at": when(x.starts_at),
                    "ends_at": when(x.ends_at),
                }
                for x in created
            ],
            also,
        ),
    }


async def _operator_log(conn: AsyncConnection, name: str) -> JSON:
    m = schema.moderation_log
    rows, more = await _capped(
        conn,
        sa.select(m.c.at, m.c.action, m.c.detail)
        .where(m.c.name == name, m.c.action.not_in(PRIVATE_ACTS))
        .order_by(m.c.id.desc()),
    )
    return part(
        [{"at": when(x.at), "act": x.action, "detail": x.detail} for x in rows],
        more,
        note="what the site's operators did about your account; the operator is not named",
    )
