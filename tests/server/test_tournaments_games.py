"""Tournament games on the server (``tournament_sql.py``, ``touring.py``): a player absent
from a game (the clock made every play of theirs) is withdrawn until they join again, one
who played is not (on SQLite and PostgreSQL); two players of whom one blocks the other are
not seated together while a third is free; two players who have waited a minute for a Kozel
table get one with two ``medium`` bots, which score nothing. The rest:
``test_tournaments_server.py``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

from doublesix.server.requests import Describe
from doublesix.server.seeks import FILL_SECONDS

from .conftest import CHEAP
from .server_helpers import BOTH, AppFactory, Clock, Socket, TestClient
from .test_lobby_socket import Cookies, Lobby, as_player
from .test_tournaments_server import ROUTE, account, act, create, ok, paired, seat_of

TIMER = 5
"""A turn's seconds at these tests' tables (the least a table has)."""


@pytest.fixture
def site(make_app: AppFactory, clock: Clock) -> Iterator[TestClient]:
    """A site whose clock the test moves, whose lobby sweeps (and pairs) every 0.05 s, and
    whose passwords hash fast (as ``test_tournaments_server``'s)."""
    app = make_app(clock=clock, password_hasher=CHEAP)
    with TestClient(app) as c:
        app.state.lobby.sweep_seconds = 0.05
        yield c


def play_seated(
    client: TestClient,
    clock: Clock,
    players: dict[str, Cookies],
    table: str,
    *,
    idle: str | None = None,
    own: int = 0,
) -> None:
    """The table's players play its game out, each laying its first legal tile, while its
    bots play theirs. ``idle`` lays its first ``own`` tiles and lets the clock play every
    move after: the site's clock passes the turn's deadline and the table's task is woken
    (its sleep runs on real time, which the site's clock does not move)."""
    seats = ok(client.get(f"/api/tables/{table}"))["seats"]
    humans = {i: s["name"] for i, s in enumerate(seats) if s["kind"] == "human"}
    touring = client.app.state.lobby.touring  # type: ignore[attr-defined]
    assert client.portal is not None

    async def wake() -> None:
        link = await touring.manager.get(table)
        await link.submit(Describe())

    laid = 0
    with ExitStack() as stack:
        tokens = {i: seat_of(client, players[n], table) for i, n in humans.items()}
        sockets = {i: Socket(client, stack, table, token) for i, token in tokens.items()}
        first = next(iter(sockets.values()))
        first.all_here()
        while first.view["status"] != "finished":
            assert first.view["status"] == "playing", first.view["status"]  # single rounds
            turn = first.view["turn"]
            if humans.get(turn) == idle and laid >= own:
                clock.now += TIMER + 1
                client.portal.call(wake)
            elif turn in sockets:
                laid += humans[turn] == idle
                sockets[turn].play(sockets[turn].view["legal"][0])
            for s in sockets.values():  # a bot's move comes by itself
                s.update()


def scored(client: TestClient, tournament: str, table: str, viewer: Cookies) -> dict[str, Any]:
    """The tournament as ``viewer`` reads it once the game at ``table`` is scored: the game
    finished, and nobody in the standings at its table (on SQLite each of the answer's
    reads sees the latest write, so both are asked)."""
    deadline = time.monotonic() + 10
    while True:
        shown: dict[str, Any] = ok(as_player(client, viewer).get(f"{ROUTE}/{tournament}"))
        finished = any(g["table"] == table and g["finished"] for g in shown["games"])
        if finished and all(s["table"] != table for s in shown["standings"]):
            return shown
        assert time.monotonic() < deadline, shown["games"]
        time.sleep(0.02)


@BOTH
def test_a_player_absent_from_a_game_is_withdrawn_until_joining_again(
    site: TestClient, clock: Clock
) -> None:
    anna, ben = account(site, "Anna"), account(site, "Ben")
    players = {"Anna": anna, "Ben": ben}
    tid = create(site, anna, timer=TIMER)["id"]
    for who in players.values():
        ok(act(site, who, tid, "join"))

    def game(own: int) -> dict[str, Any]:
        """Anna and Ben are paired and play, Ben laying ``own`` tiles himself; the
        tournament as Ben reads it after."""
        with ExitStack() as stack:
            lobbies = [Lobby(site, stack, who) for who in players.values()]
            table = paired(lobbies[0])["table"]
            for lobby in lobbies:  # at the table now: not paired again at the game's end
                lobby.close()
            play_seated(site, clock, players, table, idle="Ben", own=own)
        return scored(site, tid, table, ben)

    after = game(own=0)  # the clock made every play of Ben's
    assert after["me"] | {"rank": 0, "score": 0} == {
        "joined": True,
        "active": False,
        "rank": 0,
        "score": 0,
        "table": None,
        "withdrawn": "absent",
    }
    standings = {s["name"]: (s["active"], s["games"]) for s in after["standings"]}
    assert standings == {"Anna": (True, 1), "Ben": (False, 1)}  # his game counts
    [played] = after["games"]
    assert None not in played["points"] and played["bots"] == [None, None]
    anna_me = ok(as_player(site, anna).get(f"{ROUTE}/{tid}"))["me"]
    assert (anna_me["active"], anna_me["withdrawn"]) == (True, None)

    again = ok(act(site, ben, tid, "join"))["me"]
    assert (again["active"], again["withdrawn"]) == (True, None)
    after = game(own=1)  # one tile of his own: he played
    assert (after["me"]["active"], after["me"]["withdrawn"]) == (True, None)
    assert [s["games"] for s in after["standings"]] == [2, 2]

    withdrawn = ok(act(site, ben, tid, "withdraw"))["me"]
    assert (withdrawn["active"], withdrawn["withdrawn"]) == (False, "self")


def test_two_of_whom_one_blocks_the_other_are_not_seated_together(
    site: TestClient, clock: Clock
) -> None:
    """Anna blocks Ben, her neighbour in the standings: Anna sits with Cleo, Ben waits."""
    anna, ben, cleo = account(site, "Anna"), account(site, "Ben"), account(site, "Cleo")
    as_player(site, anna)
    ok(site.put("/api/account/blocked/Ben"))
    tid = create(site, anna)["id"]
    for who in (anna, ben, cleo):  # in this order: the standings' before any game
        ok(act(site, who, tid, "join"))
        clock.now += 1
    with ExitStack() as stack:
        a, _, _ = (Lobby(site, stack, who) for who in (anna, ben, cleo))
        table = paired(a)["table"]
        seated = ok(site.get(f"/api/tables/{table}"))["seats"]
        assert sorted(s["name"] for s in seated) == ["Anna", "Cleo"]
        time.sleep(0.3)  # sweeps go on: Ben, alone, is not seated
        shown = ok(site.get(f"{ROUTE}/{tid}"))
    [game] = shown["games"]
    assert sorted(game["players"]) == ["Anna", "Cleo"]
    assert {s["name"]: s["table"] for s in shown["standings"]} == {
        "Anna": table,
        "Ben": None,
        "Cleo": table,
    }


def test_two_who_waited_a_minute_play_kozel_with_two_bots_that_score_nothing(
    site: TestClient, clock: Clock
) -> None:
    anna, ben = account(site, "Anna"), account(site, "Ben")
    players = {"Anna": anna, "Ben": ben}
    tid = create(site, anna, preset="kozel", players=4)["id"]
    for who in players.values():
        ok(act(site, who, tid, "join"))
    with ExitStack() as stack:
        a, b = (Lobby(site, stack, who) for who in players.values())
        time.sleep(0.3)  # sweeps go on: two of four seats wait for more
        assert ok(site.get(f"{ROUTE}/{tid}"))["games"] == []
        clock.now += FILL_SECONDS
        deadline = time.monotonic() + 10
        while not (games := ok(site.get(f"{ROUTE}/{tid}"))["games"]):
            assert time.monotonic() < deadline, "no table after a minute's wait"
            time.sleep(0.02)
        table = games[0]["table"]
        assert paired(a)["table"] == paired(b)["table"] == table
        a.close()
        b.close()
        seats = ok(site.get(f"/api/tables/{table}"))["seats"]
        assert sorted((s["kind"], s["bot"]) for s in seats) == [
            ("bot", "medium"),
            ("bot", "medium"),
            ("human", None),
            ("human", None),
        ]
        play_seated(site, clock, players, table)
    shown = scored(site, tid, table, anna)
    [game] = shown["games"]
    bots = [s["kind"] == "bot" for s in seats]
    assert game["bots"] == ["medium" if bot else None for bot in bots]
    assert [p is None for p in game["points"]] == bots  # a bot's seat scores nothing
    assert game["players"] == [s["name"] for s in seats]
    assert sorted(s["name"] for s in shown["standings"]) == ["Anna", "Ben"]
    assert sum(s["games"] for s in shown["standings"]) == 2
