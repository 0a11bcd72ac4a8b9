"""Issue 11, item 5: rated games rate accounts as openskill says, once; bots stay fixed;
unrated and guests' tables are not rated; the leaderboard and player pages."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuceRating
from starlette.testclient import TestClient

from doublesix.ratings import BOT_RATINGS, Family
from doublesix.server import create_app, rating_store, schema
from doublesix.server.app import WEB
from doublesix.server.rating_store import rate_table, rate_unrated, shown_ratings
from doublesix.server.settings import Settings
from doublesix.server.store import SqlStore

from .rating_helpers import (
    MODEL,
    account,
    changes,
    rated_table,
    ratings,
    run,
    store_of,
    stored_result,
    wait_rated,
)
from .server_helpers import BOTH, AppFactory, Socket, guest, play_out


def _ranks(result: dict[str, Any], sides: int) -> list[int]:
    """Winners first; the others by their points, more first (a tie shares a place)."""
    winners = result["winners"]
    if not winners:
        return [0] * sides
    others = sorted({-result["scores"][s] for s in range(sides) if s not in winners})
    return [0 if s in winners else 1 + others.index(-result["scores"][s]) for s in range(sides)]


def _expected(teams: list[list[PlackettLuceRating]], ranks: list[int]) -> list[list[Any]]:
    return MODEL.rate(teams, ranks=[float(r) for r in ranks])


def _check(client: TestClient, table_id: str, ids: list[str], variant: str, pairs: bool) -> None:
    found = wait_rated(client, table_id, len(ids))
    assert len(found) == len(ids)
    result = stored_result(client, table_id)
    sides = 2 if pairs else len(ids)
    seats_of = [
        [s for s in range(len(ids)) if (s % 2 if pairs else s) == side] for side in range(sides)
    ]
    teams = [[MODEL.rating() for _ in seats] for seats in seats_of]
    expected = _expected(teams, _ranks(result, sides))
    stored = ratings(client)
    by_player = {row.player_id: row for row in found}
    for side, seats in enumerate(seats_of):
        for k, seat in enumerate(seats):
            want = expected[side][k]
            row = stored[(ids[seat], variant)]
            assert row.mu == pytest.approx(want.mu)
            assert row.sigma == pytest.approx(want.sigma)
            assert row.games == 1
            change = by_player[ids[seat]]
            assert change.mu_before == pytest.approx(1500.0)
            assert change.mu == pytest.approx(want.mu)
            won = side in result["winners"]
            outcome = "draw" if not result["winners"] else "win" if won else "loss"
            assert change.outcome == outcome
            assert (row.wins, row.losses, row.draws) == (
                int(outcome == "win"),
                int(outcome == "loss"),
                int(outcome == "draw"),
            )


@BOTH
def test_two_players_are_rated_as_openskill_says(client: TestClient) -> None:
    table_id, ids = rated_table(client, "draw", ["Anna", "Boris"], seed=1)
    _check(client, table_id, ids, "draw", pairs=False)


@BOTH
def test_three_players_are_rated_as_openskill_says(client: TestClient) -> None:
    table_id, ids = rated_table(client, "block", ["Anna", "Boris", "Chloe"], seed=2)
    _check(client, table_id, ids, "block", pairs=False)


@BOTH
def test_kozel_pairs_are_rated_as_teams(client: TestClient) -> None:
    table_id, ids = rated_table(client, "kozel", ["Anna", "Boris", "Chloe", "Dmitri"], seed=3)
    _check(client, table_id, ids, "kozel", pairs=True)
    # partners end with the same rating
    stored = ratings(client)
    assert stored[(ids[0], "kozel")].mu == pytest.approx(stored[(ids[2], "kozel")].mu)


@BOTH
def test_a_game_is_rated_once_even_when_rated_at_once_by_several(
    make_app: AppFactory,
) -> None:
    # the host waits (rating_delay) so that the game is left unrated for the test to rate
    with TestClient(make_app(rating_delay=3600)) as client:
        table_id, _ = rated_table(client, "draw", ["Anna", "Boris"], seed=4)
        assert changes(client, table_id) == []
        store = store_of(client)

        async def three_at_once() -> list[bool]:
            return list(await asyncio.gather(*(rate_table(store, table_id, 5.0) for _ in range(3))))

        assert sorted(run(client, three_at_once)) == [False, False, True]
        first = ratings(client)
        assert run(client, rate_table, store, table_id, 6.0) is False
        assert run(client, rate_unrated, store, 7.0) == 0
        assert len(changes(client, table_id)) == 2
        assert ratings(client) == first
        assert {row.games for row in first.values()} == {1}


def test_a_rated_table_with_a_guest_at_it_is_not_rated(make_app: AppFactory) -> None:
    with TestClient(make_app(rating_delay=3600)) as client:
        table_id, ids = rated_table(client, "draw", ["Anna", "Boris"], seed=8)
        store = store_of(client)

        async def forget_boris() -> None:  # as if Boris had sat there as a guest
            async with store.writing() as conn:
                a = schema.accounts
                await conn.execute(a.delete().where(a.c.player_id == ids[1]))

        run(client, forget_boris)
        assert run(client, rate_table, store, table_id, 5.0) is False
        assert run(client, rate_unrated, store, 6.0) == 0
        assert changes(client, table_id) == [] and ratings(client) == {}


def test_bots_keep_their_fixed_ratings(client: TestClient) -> None:
    me = account(client, "Anna")
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    body = {"preset": "draw", "seats": seats, "rated": True, "options": {"target": "round"}}
    table = client.post("/api/tables", json=body).json()
    with ExitStack() as stack:
        socket = Socket(client, stack, table["id"], table["token"])
        while socket.view["status"] != "finished":
            view = socket.view
            if view["status"] == "playing" and view["turn"] == 0:
                socket.play(view["legal"][0])
            socket.update()
    found = wait_rated(client, table["id"], 1)
    assert [row.player_id for row in found] == [me]  # nothing written for the bot
    result = stored_result(client, table["id"])
    greedy = BOT_RATINGS["greedy"]
    teams = [[MODEL.rating()], [MODEL.rating(mu=greedy.mu, sigma=greedy.sigma)]]
    want = _expected(teams, _ranks(result, 2))[0][0]
    assert found[0].mu == pytest.approx(want.mu)
    assert set(ratings(client)) == {(me, "draw")}
    board = client.get("/api/leaderboard/draw").json()
    assert {"bot": "greedy", "rating": round(greedy.mu)} in board["bots"]
    assert BOT_RATINGS["greedy"] == greedy  # never updated


def test_leaving_a_rated_game_does_not_escape_its_rating(make_app: AppFactory) -> None:
    """Anna leaves her rated game against a bot after one move: once her grace period is
    over a stand-in bot plays her seat to the game's end, and the game is rated for her."""
    with TestClient(make_app(grace_seconds=0.2)) as client:
        me = account(client, "Anna")
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        body = {"preset": "draw", "seats": seats, "rated": True, "options": {"target": 50}}
        table = client.post("/api/tables", json=body).json()
        with ExitStack() as stack:
            socket = Socket(client, stack, table["id"], table["token"])
            while not (socket.view["status"] == "playing" and socket.view["turn"] == 0):
                socket.update()
            socket.play(socket.view["legal"][0])
        # her socket is closed: nobody of hers is at the table any more
        found = wait_rated(client, table["id"], 1)
        assert [row.player_id for row in found] == [me]
        result = stored_result(client, table["id"])
        assert result["finished"] and max(result["scores"]) >= 50
        outcome = "win" if 0 in result["winners"] else "loss"
        assert found[0].outcome == outcome
        assert ratings(client)[(me, "draw")].games == 1


def test_unrated_tables_are_not_rated(client: TestClient) -> None:
    account(client, "Anna")
    seats = [{"kind": "human"}, {"kind": "open"}]
    body = {"preset": "draw", "seats": seats, "options": {"target": "round"}}
    table = client.post("/api/tables", json=body).json()
    account(client, "Boris")
    token = client.post(f"/api/tables/{table['id']}/join", json={}).json()["token"]
    with ExitStack() as stack:
        sockets = [Socket(client, stack, table["id"], t) for t in (table["token"], token)]
        play_out(sockets, [], random.Random(5))
    assert stored_result(client, table["id"])["finished"]
    assert run(client, rate_table, store_of(client), table["id"], 1.0) is False
    assert changes(client, table["id"]) == [] and ratings(client) == {}


def test_a_guest_cannot_create_or_join_a_rated_table(client: TestClient) -> None:
    guest(client, "Gast")
    body = {"preset": "draw", "rated": True, "seats": [{"kind": "human"}, {"kind": "open"}]}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 403 and r.json()["field"] == "rated", r.text
    assert "rated" in r.json()["error"]
    assert client.get("/api/tables").json()["open"] == []  # nothing was made

    account(client, "Anna")
    table = client.post("/api/tables", json=body).json()
    guest(client, "Gast")
    r = client.post(f"/api/tables/{table['id']}/join", json={})
    assert r.status_code == 403 and r.json()["field"] == "rated", r.text
    seats = client.get(f"/api/tables/{table['id']}").json()["seats"]
    assert [s["kind"] for s in seats] == ["human", "open"]  # the seat is still free
    account(client, "Boris")
    assert client.post(f"/api/tables/{table['id']}/join", json={}).status_code == 200


@BOTH
def test_a_player_page_charts_each_variants_latest_games_only(client: TestClient) -> None:
    """Of a player rated in many games, the page's chart has each variant's latest
    ``HISTORY_POINTS``, oldest first (each variant's read on its own, newest first, up to
    that many)."""
    anna = account(client, "Anna")
    limit = rating_store.HISTORY_POINTS
    played = {"draw": limit + 7, "block": 3}

    async def insert() -> None:
        async with store_of(client).writing() as conn:
            for variant, games in played.items():
                await conn.execute(
                    schema.ratings.insert().values(
                        player_id=anna,
                        variant=variant,
                        mu=1500.0,
                        sigma=100.0,
                        games=games,
                        wins=games,
                        losses=0,
                        draws=0,
                        updated_at=1.0,
                    )
                )
                for n in range(games):
                    table_id = f"{variant}-{n}"
                    await conn.execute(
                        schema.tables.insert().values(
                            id=table_id,
                            preset=variant,
                            ruleset={},
                            seed=n,
                            status="finished",
                            hints=False,
                            rated=True,
                            version=1,
                            scores=[],
                            created_at=n,
                            updated_at=n,
                        )
                    )
                    await conn.execute(
                        schema.rating_changes.insert().values(
                            table_id=table_id,
                            player_id=anna,
                            variant=variant,
                            outcome="win",
                            mu_before=1000.0 + n,
                            sigma_before=100.0,
                            mu=1001.0 + n,
                            sigma=100.0,
                            at=10.0 + n,
                        )
                    )

    run(client, insert)
    history = client.get("/api/players/Anna").json()["history"]
    assert [p["table"] for p in history["block"]] == ["block-0", "block-1", "block-2"]
    draw = [p["at"] for p in history["draw"]]
    assert len(draw) == limit and draw == sorted(draw) and draw[-1] == 10.0 + limit + 6
    assert history["draw"][0]["rating"] == 1001 + 7  # the seven oldest are left out


@BOTH
def test_leaderboard_and_player_page(client: TestClient) -> None:
    table_id, _ = rated_table(client, "draw", ["Anna", "Boris"], seed=6)
    wait_rated(client, table_id, 2)
    result = stored_result(client, table_id)
    board = client.get("/api/leaderboard/draw").json()
    assert board["variant"] == "draw"
    assert set(board["variants"]) == {f.value for f in Family}
    rows = board["players"]
    assert [row["rank"] for row in rows] == [1, 2]
    assert {row["name"] for row in rows} == {"Anna", "Boris"}
    assert all(row["provisional"] and row["games"] == 1 for row in rows)
    assert rows[0]["rating"] >= rows[1]["rating"]
    assert [b["bot"] for b in board["bots"]] == ["random", "greedy", "medium", "pimc", "expert"]
    assert client.get("/api/leaderboard/kozel").json()["players"] == []

    missing = client.get("/api/leaderboard/chess")
    assert missing.status_code == 404 and "chess" in missing.json()["error"]

    page = client.get("/api/players/anna").json()  # any case
    assert page["name"] == "Anna" and page["since"] == 1.0  # account()'s row was made then
    [rating] = page["ratings"]
    assert rating["variant"] == "draw" and rating["games"] == 1 and rating["provisional"]
    [point] = page["history"]["draw"]
    assert point["table"] == table_id and point["rating"] == rating["rating"]
    [game] = page["games"]
    assert game["table"] == table_id and game["rated"] and game["variant"] == "draw"
    assert [p["name"] for p in game["players"]] == ["Anna", "Boris"]
    won = 0 in result["winners"]
    outcome = "draw" if not result["winners"] else "win" if won else "loss"
    assert game["outcome"] == outcome
    assert game["rating_change"] == rating["rating"] - 1500
    assert page["counts"] == {
        "games": 1,
        "wins": int(outcome == "win"),
        "losses": int(outcome == "loss"),
        "draws": int(outcome == "draw"),
    }
    missing = client.get("/api/players/nobody")
    assert missing.status_code == 404 and "nobody" in missing.json()["error"]


def test_shown_ratings_for_the_lobby(client: TestClient) -> None:
    table_id, ids = rated_table(client, "draw", ["Anna", "Boris"], seed=7)
    wait_rated(client, table_id, 2)
    newcomer = account(client, "Chloe")
    visitor = guest(client, "Gast")["id"]
    store = store_of(client)
    shown = run(client, shown_ratings, store, [*ids, newcomer, visitor])
    assert set(shown) == {*ids, newcomer}  # guests have no rating
    assert all(set(every) == set(Family) for every in shown.values())
    assert shown[newcomer][Family.DRAW].rating == 1500 and shown[newcomer][Family.DRAW].provisional
    assert shown[newcomer][Family.DRAW].text == "1500?"
    page = client.get("/api/players/Anna").json()
    assert shown[ids[0]][Family.DRAW].rating == page["ratings"][0]["rating"] != 1500
    assert shown[ids[0]][Family.DRAW].games == 1
    assert {shown[i][Family.KOZEL].rating for i in ids} == {1500}


@pytest.fixture
def pages_site(tmp_path: Path) -> Iterator[TestClient]:
    """The app with its pages (the other server tests run without them)."""
    store = SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'pages.sqlite3'}")
    app = create_app(store=store, settings=Settings(bot_delay=0.0), web_dir=WEB)
    with TestClient(app) as c:
        yield c


def test_pages_answer_404_with_a_page_for_what_is_unknown(pages_site: TestClient) -> None:
    account(pages_site, "Anna")
    for path, status in [
        ("/leaderboard/draw", 200),
        ("/leaderboard/vog-goat", 200),
        ("/leaderboard/chess", 404),
        ("/player/anna", 200),
        ("/player/nobody", 404),
    ]:
        r = pages_site.get(path)
        assert r.status_code == status, path
        assert r.headers["content-type"].startswith("text/html")
        assert '<script type="module"' in r.text


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_finding_players_by_the_start_of_their_names(client: TestClient) -> None:
    for name in ("Anna", "annika", "Ann_Ka", "Annxka", "Boris"):
        account(client, name)
    guest(client, "Annabel")  # a guest has no page to find

    def found(prefix: str) -> list[str]:
        answer = client.get("/api/players", params={"prefix": prefix})
        assert answer.status_code == 200, answer.text
        assert answer.json()["prefix"] == prefix
        return [p["name"] for p in answer.json()["players"]]

    assert sorted(found("ANN")) == ["Ann_Ka", "Anna", "Annxka", "annika"]  # any case
    assert found("ann_") == ["Ann_Ka"]  # "_" is a letter of the name, not a wildcard
    assert found("Bo") == ["Boris"] and found("B0") == ["Boris"]  # look-alikes folded
    assert found("Annab") == [] and found("%") == []
    letters = "abcdefghjkmn"  # no "i" and "l": they are look-alikes, one name
    for letter in reversed(letters):
        account(client, f"Zed{letter}")
    assert found("zed") == [f"Zed{letter}" for letter in letters[:10]]  # the first ten
    for bad in ("", "x" * 25):
        refused = client.get("/api/players", params={"prefix": bad})
        assert refused.status_code == 422 and refused.json()["field"] == "prefix", bad
    assert client.get("/api/players").json()["field"] == "prefix"


@BOTH
def test_a_players_games_come_a_page_at_a_time(client: TestClient, monkeypatch: Any) -> None:
    monkeypatch.setattr(rating_store, "RECENT_GAMES", 2)
    account(client, "Boris")
    boris = dict(client.cookies)
    account(client, "Anna")
    anna = dict(client.cookies)
    tables = []
    for seed in range(5):  # one-round games, unrated: every finished game is listed
        seats = [{"kind": "human"}, {"kind": "open"}]
        body = {"preset": "draw", "seats": seats, "options": {"target": "round"}}
        client.cookies.clear()
        client.cookies.update(anna)
        table = client.post("/api/tables", json=body).json()
        client.cookies.clear()
        client.cookies.update(boris)
        joined = client.post(f"/api/tables/{table['id']}/join", json={}).json()
        with ExitStack() as stack:
            sockets = [
                Socket(client, stack, table["id"], token)
                for token in (table["token"], joined["token"])
            ]
            play_out(sockets, [], random.Random(seed))
        tables.append(table["id"])
    page = client.get("/api/players/Anna").json()
    assert page["counts"]["games"] == 5  # counted over every game, shown a page at a time
    shown, more = page["games"], page["more_games"]
    assert len(shown) == 2 and more
    while more:
        last = shown[-1]
        answer = client.get(
            "/api/players/anna/games",
            params={"before_at": repr(last["at"]), "before_table": last["table"]},
        )
        assert answer.status_code == 200, answer.text
        assert 0 < len(answer.json()["games"]) <= 2
        shown, more = shown + answer.json()["games"], answer.json()["more"]
    assert sorted(g["table"] for g in shown) == sorted(tables)  # each once
    outcomes = Counter(g["outcome"] for g in shown)  # as each seat was stored at the end
    assert page["counts"] == {
        "games": 5,
        "wins": outcomes["win"],
        "losses": outcomes["loss"],
        "draws": outcomes["draw"],
    }
    assert [g["at"] for g in shown] == sorted((g["at"] for g in shown), reverse=True)
    assert client.get("/api/players/Anna/games").json()["games"][0]["table"] == tables[-1]

    for params, field in [
        ({"before_at": "1"}, "before_table"),
        ({"before_table": tables[0]}, "before_at"),
        ({"before_at": "soon", "before_table": tables[0]}, "before_at"),
        ({"before_at": "nan", "before_table": tables[0]}, "before_at"),
        ({"before_at": "1e999", "before_table": tables[0]}, "before_at"),
        ({"before_at": "1", "before_table": "x" * 33}, "before_table"),
    ]:
        refused = client.get("/api/players/Anna/games", params=params)
        assert refused.status_code == 422 and refused.json()["field"] == field, params
    assert client.get("/api/players/nobody/games").status_code == 404
