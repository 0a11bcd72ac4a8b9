"""Tournaments on the server (``touring.py``, ``tournament_sql.py``, ``routes/tournaments.py``),
on SQLite and PostgreSQL: made, listed, joined, withdrawn from and cancelled, and every bad
request refused with nothing changed; started and ended by the site's clock; free players
paired and sent to their table on the lobby socket, a busy one not; a game's end scored,
once, even after a restart; no rematch at a tournament's table. Two processes pairing one
tournament: ``test_tournaments_site.py``."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from doublesix.server import schema, tournament_sql
from doublesix.server.touring import Touring
from doublesix.server.tournaments import CURRENT_SHOWN, FULL

from .conftest import CHEAP
from .server_helpers import BOTH, AppFactory, Clock, Socket, TestClient, play_out
from .test_accounts import rows
from .test_lobby_socket import Cookies, Lobby, as_player, name, register
from .test_operator import appoint_on

ROUTE = "/api/tournaments"
DRAW = {"preset": "draw", "players": 2, "starts_in": 0, "minutes": 30}
"""A running tournament of 2-player Draw, single rounds: a game is a few moves."""


@pytest.fixture
def site(make_app: AppFactory, clock: Clock) -> Iterator[TestClient]:
    """A site whose clock the test moves, whose lobby sweeps (and pairs) every 0.05 s, and
    whose passwords hash fast."""
    app = make_app(clock=clock, password_hasher=CHEAP)
    with TestClient(app) as c:
        app.state.lobby.sweep_seconds = 0.05
        yield c


def account(client: TestClient, player: str) -> Cookies:
    return register(client, name(client, player), player)


def ok(answer: Any, status: int = 200) -> Any:
    assert answer.status_code == status, answer.text
    return answer.json()


def create(client: TestClient, cookies: Cookies, **body: Any) -> dict[str, Any]:
    return dict(ok(as_player(client, cookies).post(ROUTE, json=DRAW | body), 201))


def act(client: TestClient, cookies: Cookies | None, tournament: str, what: str) -> Any:
    as_player(client, cookies)
    if what == "cancel":
        return client.delete(f"{ROUTE}/{tournament}")
    return client.post(f"{ROUTE}/{tournament}/{what}")


def snapshot(client: TestClient) -> list[list[Any]]:
    """Every row of the tournaments' tables: what a refusal must leave as it was."""
    tables = (schema.tournaments, schema.tournament_players, schema.tournament_games)
    return [sorted(map(tuple, rows(client, t)), key=repr) for t in tables]


def summary_frame(lobby: Lobby, tournament: str, **expected: Any) -> dict[str, Any]:
    """The next ``tournament`` frame of ``tournament`` whose summary has ``expected``."""
    while True:
        frame = lobby.next("tournament")
        shown = frame["summary"]
        if frame["id"] == tournament and expected.items() <= shown.items():
            return dict(shown)


@BOTH
def test_a_tournament_is_made_listed_joined_withdrawn_from_and_cancelled(
    site: TestClient, clock: Clock
) -> None:
    anna, ben = account(site, "Anna"), account(site, "Ben")
    with ExitStack() as stack:
        watcher = Lobby(site, stack, None)
        made = create(site, anna, starts_in=10, minutes=60, name="Anna's cup", rated=True)
        tid = made["id"]
        assert made | {"id": 0} == {
            "id": 0,
            "name": "Anna's cup",
            "creator": "Anna",
            "preset": "draw",
            "players": 2,
            "options": {"target": "round"},
            "timer": 60.0,
            "rated": True,
            "status": "upcoming",
            "starts_at": clock.now + 600,
            "ends_at": clock.now + 600 + 3600,
            "ended_at": None,
            "entrants": 0,
            "playing": 0,
            "leader": None,
            "now": clock.now,
            "standings": [],
            "games": [],
            "me": {
                "joined": False,
                "active": False,
                "rank": None,
                "score": 0,
                "table": None,
                "withdrawn": None,
            },
        }
        summary_frame(watcher, tid, status="upcoming", entrants=0)
        joined = ok(act(site, ben, tid, "join"))
        assert joined["entrants"] == 1 and joined["me"] == {
            "joined": True,
            "active": True,
            "rank": 1,
            "score": 0,
            "table": None,
            "withdrawn": None,
        }
        summary_frame(watcher, tid, entrants=1)
        assert ok(act(site, ben, tid, "join")) == joined  # again: nothing changes
        clock.now += 1
        ok(act(site, anna, tid, "join"))
        standing = ok(site.get(f"{ROUTE}/{tid}"))["standings"]
        assert [(s["rank"], s["name"], s["active"]) for s in standing] == [
            (1, "Ben", True),
            (2, "Anna", True),
        ]  # who joined first
        assert standing[0] | {"name": "-"} == {
            "rank": 1,
            "name": "-",
            "score": 0,
            "games": 0,
            "wins": 0,
            "streak": 0,
            "fire": False,
            "active": True,
            "table": None,
        }
        withdrawn = ok(act(site, ben, tid, "withdraw"))
        assert withdrawn["me"]["active"] is False and withdrawn["entrants"] == 2
        assert withdrawn["me"]["withdrawn"] == "self"
        back = ok(act(site, ben, tid, "join"))["me"]  # back, score kept
        assert (back["active"], back["withdrawn"]) == (True, None)
        listed = ok(as_player(site, None).get(ROUTE))
        assert [t["id"] for t in listed["upcoming"]] == [tid]
        assert listed["running"] == listed["finished"] == []
        cancelled = ok(act(site, anna, tid, "cancel"))
        assert cancelled["status"] == "cancelled"
        summary_frame(watcher, tid, status="cancelled")
        listed = ok(site.get(ROUTE))
        assert listed["upcoming"] == [] and [t["status"] for t in listed["finished"]] == [
            "cancelled"
        ]


@BOTH
def test_every_bad_request_is_refused_by_name_and_changes_nothing(
    site: TestClient, clock: Clock
) -> None:
    anna, ben = account(site, "Anna"), account(site, "Ben")
    guest = name(site, "Gus")
    tid = create(site, anna, starts_in=5)["id"]
    ok(act(site, ben, tid, "join"))
    before = snapshot(site)
    bad = [
        ({"preset": "chess"}, 422, "ruleset", "preset"),
        ({"preset": "kozel", "players": 2}, 422, "ruleset", "players"),
        ({"options": {"target": -5}}, 422, "ruleset", "options.target"),
        ({"options": {"target": 10_001}}, 422, "ruleset", "options.target"),
        ({"options": {"target": 2.5}}, 422, "ruleset", "options.target"),
        ({"options": {"target": False}}, 422, "ruleset", "options.target"),
        ({"options": {"target": "game"}}, 422, "ruleset", "options.target"),
        ({"options": {"hand": 3}}, 422, "ruleset", "options.hand"),
        ({"timer": 2}, 422, "timer", "timer"),
        ({"minutes": 241}, 422, "minutes", "minutes"),
        ({"minutes": 4}, 422, "minutes", "minutes"),
        ({"starts_in": 1441}, 422, "starts_in", "starts_in"),
        ({"name": "n" * 41}, 422, "name", "name"),
        ({"name": " \t "}, 422, "name", "name"),
        ({"name": "a\x00b"}, 422, "name", "name"),
        ({"rated": "maybe"}, 422, None, "rated"),
    ]
    for changed, status, code, field in bad:
        answer = as_player(site, anna).post(ROUTE, json=DRAW | changed)
        assert (answer.status_code, answer.json().get("code"), answer.json()["field"]) == (
            status,
            code,
            field,
        ), changed
    refusals = [
        (as_player(site, guest).post(ROUTE, json=DRAW), 401, "no_account"),
        (as_player(site, None).post(ROUTE, json=DRAW), 401, "no_account"),
        (act(site, guest, tid, "join"), 401, "no_account"),
        (act(site, anna, "nothing", "join"), 404, "not_found"),
        (as_player(site, None).get(f"{ROUTE}/nothing"), 404, "not_found"),
        (act(site, anna, tid, "withdraw"), 409, "not_joined"),
        (act(site, ben, tid, "cancel"), 403, "not_yours"),
        (act(site, anna, "nothing", "cancel"), 404, "not_found"),
    ]
    for answer, status, code in refusals:
        assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
    assert snapshot(site) == before

    create(site, anna)  # a second one that has not finished: the most at once
    third = as_player(site, anna).post(ROUTE, json=DRAW)
    assert (third.status_code, third.json()["code"]) == (409, "tournaments_open")
    running = ok(site.get(ROUTE))["running"][0]["id"]
    started = act(site, anna, running, "cancel")
    assert (started.status_code, started.json()["code"]) == (409, "started")
    ok(act(site, anna, tid, "cancel"))
    clock.now += 31 * 60  # the other ends: its creator may make more
    summary = ok(site.get(f"{ROUTE}/{running}"))
    while summary["status"] != "finished":
        summary = ok(site.get(f"{ROUTE}/{running}"))
    for what in ("join", "withdraw", "cancel"):
        over = act(site, ben, running, what)
        assert (over.status_code, over.json()["code"]) == (409, "tournament_over"), what
    for _ in range(8):  # ten a day: two made above
        made = create(site, anna, starts_in=5)["id"]
        ok(act(site, anna, made, "cancel"))
    tenth = as_player(site, anna).post(ROUTE, json=DRAW | {"starts_in": 5})
    assert (tenth.status_code, tenth.json()["code"]) == (429, "too_many_tournaments")


def test_a_tournament_takes_500_players(site: TestClient, clock: Clock) -> None:
    anna = account(site, "Anna")
    tid = create(site, anna, starts_in=5)["id"]
    store = site.app.state.server.store  # type: ignore[attr-defined]
    assert site.portal is not None
    for n in range(FULL):
        site.portal.call(tournament_sql.join, store, tid, f"p{n}", clock.now)
    full = act(site, anna, tid, "join")
    assert (full.status_code, full.json()["code"]) == (409, "tournament_full")


def test_the_list_shows_the_soonest_upcoming_and_running(site: TestClient, clock: Clock) -> None:
    anna = account(site, "Anna")
    tid = create(site, anna, starts_in=5)["id"]
    t = schema.tournaments
    (made,) = [r._asdict() for r in rows(site, t)]
    later = [  # others' (the table keeps them), each a minute after the one before
        made | {"id": f"later{n:02}", "starts_at": made["starts_at"] + 60 * (n + 1)}
        for n in range(CURRENT_SHOWN + 5)
    ]
    store = site.app.state.server.store  # type: ignore[attr-defined]

    async def insert() -> None:
        async with store.writing() as conn:
            await conn.execute(t.insert(), later)

    assert site.portal is not None
    site.portal.call(insert)
    shown = ok(site.get(ROUTE))["upcoming"]
    assert [t["id"] for t in shown] == [tid] + [f"later{n:02}" for n in range(CURRENT_SHOWN - 1)]


@BOTH
def test_the_clock_starts_and_ends_a_tournament(site: TestClient, clock: Clock) -> None:
    anna = account(site, "Anna")
    with ExitStack() as stack:
        watcher = Lobby(site, stack, None)
        tid = create(site, anna, starts_in=1, minutes=5)["id"]
        summary_frame(watcher, tid, status="upcoming")
        clock.now += 59
        assert ok(site.get(f"{ROUTE}/{tid}"))["status"] == "upcoming"
        clock.now += 1
        assert summary_frame(watcher, tid, status="running")["now"] >= clock.now
        assert ok(site.get(f"{ROUTE}/{tid}"))["status"] == "running"
        assert [t["id"] for t in ok(site.get(ROUTE))["running"]] == [tid]
        clock.now += 5 * 60
        summary_frame(watcher, tid, status="finished")
        assert [t["id"] for t in ok(site.get(ROUTE))["finished"]] == [tid]


def paired(lobby: Lobby) -> dict[str, Any]:
    return lobby.next("tournament_paired")


def seat_of(client: TestClient, cookies: Cookies, table: str) -> str:
    """The token of the player's seat at ``table``."""
    return str(ok(as_player(client, cookies).post(f"/api/tables/{table}/join", json={}))["token"])


def play_to_the_end(client: TestClient, players: dict[str, Cookies], table: str) -> None:
    """The seated players play the table's game out with random moves."""
    seats = ok(client.get(f"/api/tables/{table}"))["seats"]
    tokens = [seat_of(client, players[s["name"]], table) for s in seats]
    with ExitStack() as stack:
        sockets = [Socket(client, stack, table, t) for t in tokens]
        sockets[0].all_here()
        play_out(sockets, [], random.Random(5))
        sockets[0].send({"type": "rematch"})
        refused = sockets[0].error()
        assert (refused["code"], refused["message"]) == (
            "tournament",
            "no rematch at a tournament's table: it pairs you again",
        )


@BOTH
def test_free_players_are_paired_a_busy_one_waits_and_a_game_s_end_scores(
    site: TestClient, clock: Clock, tmp_path: Path
) -> None:
    anna, ben, cleo = account(site, "Anna"), account(site, "Ben"), account(site, "Cleo")
    dan = account(site, "Dan")
    players = {"Anna": anna, "Ben": ben, "Cleo": cleo, "Dan": dan}
    as_player(site, cleo)  # Cleo waits at a table of her own: busy, so Dan waits too
    ok(site.post("/api/tables", json={"preset": "draw", "options": {"players": 2}}))
    tid = create(site, anna, name="Friday arena")["id"]
    for who in players.values():  # in this order: the standings' before any game
        ok(act(site, who, tid, "join"))
        clock.now += 1
    with ExitStack() as stack:
        a, b = Lobby(site, stack, anna), Lobby(site, stack, ben)
        Lobby(site, stack, cleo)
        d = Lobby(site, stack, dan)
        told = paired(a)
        table = told["table"]
        assert told == {"type": "tournament_paired", "tournament": tid, "table": table}
        assert paired(b) == told
        shown = ok(site.get(f"/api/tables/{table}"))
        assert shown["tournament"] == {"id": tid, "name": "Friday arena"}
        assert sorted(s["name"] for s in shown["seats"]) == ["Anna", "Ben"]
        assert shown["status"] == "playing" and shown["timer"] == 60
        listed = {t["id"]: t for t in ok(site.get("/api/tables"))["playing"]}
        assert listed[table]["tournament"] == {"id": tid, "name": "Friday arena"}
        detail = ok(as_player(site, anna).get(f"{ROUTE}/{tid}"))
        assert detail["playing"] == 1 and detail["me"]["table"] == table
        assert {s["name"]: s["table"] for s in detail["standings"]} == {
            "Anna": table,
            "Ben": table,
            "Cleo": None,
            "Dan": None,
        }
        a.close()  # at the table now: not paired again when the game ends
        b.close()
        play_to_the_end(site, players, table)
        after = summary_frame(d, tid, playing=0)
    detail = ok(site.get(f"{ROUTE}/{tid}"))
    [game] = detail["games"]
    result = dict(zip(game["players"], game["result"], strict=True))
    points = dict(zip(game["players"], game["points"], strict=True))
    assert game["finished"] and game["table"] == table
    assert {p: {"win": 2, "draw": 1, "loss": 0}[r] for p, r in result.items()} == points
    scores = {s["name"]: (s["score"], s["games"], s["table"]) for s in detail["standings"]}
    assert scores == {
        "Anna": (points["Anna"], 1, None),
        "Ben": (points["Ben"], 1, None),
        "Cleo": (0, 0, None),
        "Dan": (0, 0, None),
    }
    assert after["leader"] == detail["standings"][0]["name"]
    order = [s["name"] for s in detail["standings"]]
    assert order.index("Cleo") == (1 if 0 in points.values() else 2)  # no game before a loss

    (tmp_path / "web").mkdir()  # the tournament's page, served as it is; 404 for no such one
    (tmp_path / "web" / "tournament.html").write_text("<p>a tournament</p>")
    assert site.get(f"/tournament/{tid}").status_code == 200
    assert site.get("/tournament/nothing").status_code == 404


def test_whole_games_are_played_to_the_target_its_creator_chose(site: TestClient) -> None:
    anna, ben = account(site, "Anna"), account(site, "Ben")
    made = create(site, anna, options={"target": 50})
    assert made["options"] == {"target": 50}
    assert ok(site.get(ROUTE))["running"][0]["options"] == {"target": 50}
    for who in (anna, ben):
        ok(act(site, who, made["id"], "join"))
    with ExitStack() as stack:
        a = Lobby(site, stack, anna)
        Lobby(site, stack, ben)
        table = paired(a)["table"]
    assert ok(site.get(f"/api/tables/{table}"))["ruleset"]["target"] == 50


@BOTH
def test_two_pairings_at_once_seat_each_player_once(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two pairings of one tournament at once, as two processes' sweeps may: each player is
    seated once (the tournament's row locked, who is free read again inside)."""

    async def no_sweep(self: Touring) -> None:
        return None

    monkeypatch.setattr(Touring, "sweep", no_sweep)  # the test's two pairings only
    with TestClient(make_app(password_hasher=CHEAP)) as site:
        cookies = [account(site, n) for n in ("Anna", "Ben", "Cleo", "Dan")]
        tid = create(site, cookies[0])["id"]
        for who in cookies:
            ok(act(site, who, tid, "join"))
        touring = site.app.state.lobby.touring  # type: ignore[attr-defined]
        assert site.portal is not None
        tournament = site.portal.call(tournament_sql.get, touring.store, tid)

        async def race() -> list[dict[str, str]]:
            return list(await asyncio.gather(*(touring.pair([tournament]) for _ in range(2))))

        with ExitStack() as stack:
            for who in cookies:
                Lobby(site, stack, who)
            first, second = site.portal.call(race)
        assert len(first) + len(second) == 4 and not first.keys() & second.keys()
        assert len(rows(site, schema.tournament_games)) == 2
        tables = {t["id"]: t for t in ok(site.get("/api/tables"))["playing"]}
        assert set(tables) == {*first.values(), *second.values()}
        assert sorted(s["name"] for t in tables.values() for s in t["seats"]) == [
            "Anna",
            "Ben",
            "Cleo",
            "Dan",
        ]


@BOTH
def test_a_game_no_process_scored_is_scored_at_the_next_start(
    make_app: AppFactory, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game ends while its process does not score it (as if it stopped in between):
    the next start scores it, once."""

    async def unscored(self: Touring, *args: Any) -> int:
        return 0

    monkeypatch.setattr(Touring, "finished", unscored)
    monkeypatch.setattr(Touring, "settle", unscored)
    with TestClient(make_app(clock=clock, password_hasher=CHEAP)) as site:
        site.app.state.lobby.sweep_seconds = 0.05  # type: ignore[attr-defined]
        anna, ben = account(site, "Anna"), account(site, "Ben")
        tid = create(site, anna)["id"]
        for who in (anna, ben):
            ok(act(site, who, tid, "join"))
        with ExitStack() as stack:
            a = Lobby(site, stack, anna)
            Lobby(site, stack, ben)
            table = paired(a)["table"]
            play_to_the_end(site, {"Anna": anna, "Ben": ben}, table)
        [game] = ok(site.get(f"{ROUTE}/{tid}"))["games"]
        assert not game["finished"] and game["points"] is None
    monkeypatch.undo()
    with TestClient(make_app(clock=clock, password_hasher=CHEAP)) as site:
        detail = ok(site.get(f"{ROUTE}/{tid}"))  # before any sweep: at start-up
        [game] = detail["games"]
        assert game["finished"] and sorted(game["points"]) in ([0, 2], [1, 1])
        assert sum(s["score"] for s in detail["standings"]) == 2
        assert [s["games"] for s in detail["standings"]] == [1, 1]
        assert [s["table"] for s in detail["standings"]] == [None, None]  # free again
        touring = site.app.state.lobby.touring  # type: ignore[attr-defined]
        assert site.portal is not None
        site.portal.call(touring.score, game["table"])  # again: counted once
        assert ok(site.get(f"{ROUTE}/{tid}"))["standings"] == detail["standings"]


@BOTH
def test_a_closed_account_is_withdrawn_and_an_operator_s_cancel_is_logged(
    site: TestClient,
) -> None:
    anna, ben, olga = account(site, "Anna"), account(site, "Ben"), account(site, "Olga")
    appoint_on(site, "Olga")
    tid = create(site, anna, name="Anna's cup")["id"]
    for who in (anna, ben):
        ok(act(site, who, tid, "join"))
    as_player(site, ben)
    ok(site.post("/api/account/close", json={"password": "correct horse"}))
    standings = ok(as_player(site, anna).get(f"{ROUTE}/{tid}"))["standings"]
    assert {s["name"]: s["active"] for s in standings} == {"Anna": True, "Ben": False}
    reasons = [r.withdrawn for r in rows(site, schema.tournament_players)]
    assert sorted(reasons, key=str) == [None, "closed"]  # Ben's account closed

    document = ok(site.get("/api/account/data"))["tournaments"]
    assert [(t["tournament"], t["name"]) for t in document["created"]["items"]] == [
        (tid, "Anna's cup")
    ]
    [joined] = document["joined"]["items"]
    assert joined | {"joined_at": None} == {
        "tournament": tid,
        "name": "Anna's cup",
        "status": "running",
        "joined_at": None,
        "active": True,
        "withdrawn": None,
        "score": 0,
        "games": 0,
        "wins": 0,
    }

    cancelled = ok(act(site, olga, tid, "cancel"))  # running: an operator's act
    assert cancelled["status"] == "cancelled" and cancelled["creator"] == "Anna"
    [logged] = ok(site.get("/api/operator/log"))["log"][:1]
    assert logged | {"id": 0, "at": 0} == {
        "id": 0,
        "at": 0,
        "operator": "Olga",
        "act": "tournament",
        "name": "Anna",
        "detail": {"tournament": tid, "title": "Anna's cup"},
    }


@BOTH
def test_an_operator_s_cancel_is_logged_unless_of_their_own_before_its_start(
    site: TestClient,
) -> None:
    """An operator cancelling their own tournament before its start does what any creator
    may: not an operator's act, not logged. Their own once running, or another's before its
    start, only an operator may cancel: logged."""
    anna, olga = account(site, "Anna"), account(site, "Olga")
    appoint_on(site, "Olga")

    def logged() -> list[Any]:
        as_player(site, olga)
        entries = ok(site.get("/api/operator/log"))["log"]
        return [(e["act"], e["name"], e["detail"]["tournament"]) for e in entries]

    own = create(site, olga, starts_in=5, name="Olga's cup")["id"]
    assert ok(act(site, olga, own, "cancel"))["status"] == "cancelled"
    assert logged() == []  # her own, before its start: as its creator
    running = create(site, olga, name="Olga's arena")["id"]
    ok(act(site, olga, running, "cancel"))
    assert logged() == [("tournament", "Olga", running)]
    theirs = create(site, anna, starts_in=5)["id"]
    ok(act(site, olga, theirs, "cancel"))
    assert logged() == [("tournament", "Anna", theirs), ("tournament", "Olga", running)]


@BOTH
def test_the_finished_list_shows_the_latest_ended_first(site: TestClient, clock: Clock) -> None:
    """A cancelled tournament ended when it was cancelled, not at the end it would have had:
    one that finished after its cancel stands above it."""
    anna, ben = account(site, "Anna"), account(site, "Ben")
    short = create(site, anna, minutes=5)["id"]  # running: ends in 5 minutes
    long = create(site, ben, starts_in=60, minutes=240)["id"]  # would end 5 hours from now
    clock.now += 10
    cancelled = ok(act(site, ben, long, "cancel"))
    assert cancelled["ended_at"] == clock.now and cancelled["ends_at"] > clock.now + 4 * 3600
    clock.now += 5 * 60
    summary = ok(site.get(f"{ROUTE}/{short}"))
    while summary["status"] != "finished":
        summary = ok(site.get(f"{ROUTE}/{short}"))
    assert summary["ended_at"] == summary["ends_at"]  # it ended then, a sweep saw it after
    finished = ok(site.get(ROUTE))["finished"]
    assert [(t["id"], t["status"]) for t in finished] == [
        (short, "finished"),
        (long, "cancelled"),
    ]
    upcoming = create(site, anna, starts_in=5)
    assert upcoming["ended_at"] is None


def set_score(client: TestClient, tournament: str, player: str, *score: int) -> None:
    """Give ``player`` (a name) ``(score, games, wins)`` in ``tournament``, as games would."""
    engine = client.app.state.server.store.engine  # type: ignore[attr-defined]
    p, a = schema.tournament_players, schema.accounts
    points, games, wins = score

    async def write() -> None:
        async with engine.begin() as conn:
            pid = sa.select(a.c.player_id).where(a.c.name == player).scalar_subquery()
            await conn.execute(
                p.update()
                .where(p.c.tournament_id == tournament, p.c.player_id == pid)
                .values(score=points, games=games, wins=wins)
            )

    assert client.portal is not None
    client.portal.call(write)


@BOTH
def test_a_player_s_tournaments_show_their_place_the_latest_joined_first(
    site: TestClient, clock: Clock
) -> None:
    anna, ben, cleo = account(site, "Anna"), account(site, "Ben"), account(site, "Cleo")
    dan = account(site, "Dan")
    monday = create(site, anna, name="Monday cup")["id"]  # running
    for who in (ben, anna, cleo):  # Ben first: he is ahead of any tie
        ok(act(site, who, monday, "join"))
        clock.now += 1
    set_score(site, monday, "Anna", 4, 2, 2)
    set_score(site, monday, "Ben", 2, 2, 1)
    set_score(site, monday, "Cleo", 2, 3, 1)  # as many points and wins, one game more
    tuesday = create(site, cleo, name="Tuesday cup", starts_in=60)["id"]  # upcoming
    for who in (dan, ben):
        ok(act(site, who, tuesday, "join"))
        clock.now += 1

    def shown(player: str) -> list[tuple[Any, ...]]:
        items = ok(site.get(f"/api/players/{player}/tournaments"))["tournaments"]
        keys = ("id", "status", "rank", "entrants", "score", "games", "wins", "active")
        return [tuple(t[k] for k in keys) for t in items]

    [first, _] = ok(site.get("/api/players/ben/tournaments"))["tournaments"]  # any case
    assert first | {"starts_at": 0, "ends_at": 0} == {
        "id": tuesday,
        "name": "Tuesday cup",
        "preset": "draw",
        "players": 2,
        "status": "upcoming",
        "starts_at": 0,
        "ends_at": 0,
        "rank": None,
        "entrants": 2,
        "score": 0,
        "games": 0,
        "wins": 0,
        "active": True,
    }
    assert shown("Ben") == [
        (tuesday, "upcoming", None, 2, 0, 0, 0, True),
        (monday, "running", 2, 3, 2, 2, 1, True),  # after Anna, before Cleo
    ]
    assert shown("Cleo") == [(monday, "running", 3, 3, 2, 3, 1, True)]
    assert shown("Anna") == [(monday, "running", 1, 3, 4, 2, 2, True)]
    assert ok(site.get("/api/players/Nobody/tournaments"), 404)["code"] == "not_found"

    as_player(site, anna)  # Anna erased: she leaves the standings, Ben leads
    ok(site.post("/api/account/erase", json={"password": "correct horse"}))
    assert shown("Ben")[1] == (monday, "running", 1, 2, 2, 2, 1, True)
    assert site.get("/api/players/Anna/tournaments").status_code == 404
