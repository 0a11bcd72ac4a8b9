"""Quick pairing ("Play now"): which seeks make a table (a property of ``seeks.match``), and
the pool through the API and the lobby socket on one process (SQLite; PostgreSQL where the
storage is at stake). Two processes sharing one pool: ``test_site_lobby.py``."""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from doublesix.server.seeks import FILL_SECONDS, Kind, Seek, match, reach, spread, table_of

from .server_helpers import Clock, TestClient
from .test_lobby_socket import Cookies, Lobby, as_player, name, register

NOW = 1_000.0
KINDS = [Kind("draw", 2, False), Kind("kozel", 4, False), Kind("draw", 2, True)]


@st.composite
def pools(draw: st.DrawFn) -> tuple[list[Seek], frozenset[str], set[tuple[str, str]]]:
    count = draw(st.integers(0, 14))
    seeks = [
        Seek(
            player=f"p{n}",
            name=f"P{n}",
            account=True,
            kind=(kind := draw(st.sampled_from(KINDS))),
            rating=draw(st.integers(1000, 2200)) if kind.rated else None,
            since=NOW - draw(st.integers(0, 90)),
            avoid=frozenset(
                draw(st.sets(st.sampled_from([f"P{m}" for m in range(14)]), max_size=2))
            ),
        )
        for n in range(count)
    ]
    players = [s.player for s in seeks] or ["x"]
    busy = frozenset(draw(st.sets(st.sampled_from(players))))
    apart = draw(st.sets(st.tuples(st.sampled_from(players), st.sampled_from(players))))
    return seeks, busy, apart


@given(pools())
def test_pairing_seats_each_free_seeker_once_with_its_own_kind(
    drawn: tuple[list[Seek], frozenset[str], set[tuple[str, str]]],
) -> None:
    seeks, busy, apart = drawn
    groups = match(seeks, NOW, busy, apart)
    seated = [s.player for group in groups for s in group]
    assert len(seated) == len(set(seated))
    assert not busy & set(seated)
    for group in groups:  # never one who blocks another (or avoids their name) beside them
        assert not {(a.player, b.player) for a in group for b in group if a != b} & apart
        assert not any(a.name in b.avoid for a in group for b in group if a is not b)
    if apart or any(s.avoid for s in seeks):
        return  # who waits for want of a table without a blocker: not worked out here
    for group in groups:
        kind = group[0].kind
        assert all(s.kind == kind for s in group)
        oldest = min(s.since for s in group)
        if len(group) != kind.players:  # bots fill the rest, after a minute's wait
            assert 2 <= len(group) < kind.players and NOW - oldest >= FILL_SECONDS
        assert spread(group) <= reach(NOW - oldest)
    left = [s for s in seeks if s.player not in busy and s.player not in seated]
    for kind in KINDS:
        waiting = sorted((s for s in left if s.kind == kind), key=lambda s: s.since)
        if not kind.rated:  # nobody waits while enough of its kind do
            assert len(waiting) < kind.players
            assert len(waiting) < 2 or NOW - waiting[0].since < FILL_SECONDS
        else:  # rated (two players): only for want of a near rating
            for n, older in enumerate(waiting):
                for newer in waiting[n + 1 :]:
                    assert spread([older, newer]) > reach(NOW - older.since)


def test_the_oldest_seeks_are_paired_first() -> None:
    kind = Kind("draw", 2, False)
    seeks = [Seek(f"p{n}", f"P{n}", False, kind, None, NOW - n) for n in range(5)]
    assert [[s.player for s in g] for g in match(seeks, NOW)] == [["p4", "p3"], ["p2", "p1"]]


def test_a_seeker_is_not_seated_with_a_name_it_avoids() -> None:
    kind = Kind("draw", 2, False)
    anna = Seek("a", "Anna", True, kind, None, NOW, avoid=frozenset({"Ben"}))
    ben = Seek("b", "Ben", False, kind, None, NOW + 1)
    assert match([anna, ben], NOW + 600) == []  # neither way round
    assert (
        match([replace(ben, avoid=frozenset({"Anna"})), replace(anna, avoid=frozenset())], NOW)
        == []
    )
    cleo = Seek("c", "Cleo", False, kind, None, NOW + 2)
    assert [[s.name for s in g] for g in match([anna, ben, cleo], NOW + 2)] == [["Anna", "Cleo"]]


def test_a_rated_range_widens_with_the_oldest_seeks_wait() -> None:
    kind = Kind("draw", 2, True)
    anna = Seek("a", "Anna", True, kind, 1500, NOW)
    ben = Seek("b", "Ben", True, kind, 1900, NOW)
    assert match([anna, ben], NOW) == []
    assert match([anna, ben], NOW + 9) == []  # 400 apart; reach(9) is 380
    assert [len(g) for g in match([anna, ben], NOW + 10)] == [2]
    cleo = Seek("c", "Cleo", True, kind, 1550, NOW + 5)
    assert [{s.name for s in g} for g in match([anna, ben, cleo], NOW + 5)] == [{"Anna", "Cleo"}]


def test_after_a_minute_bots_fill_a_table_two_seekers_found() -> None:
    kind = Kind("kozel", 4, False)
    anna = Seek("a", "Anna", True, kind, None, NOW)
    ben = Seek("b", "Ben", False, kind, None, NOW + 20)
    assert match([anna, ben], NOW + 59) == []
    assert match([anna], NOW + 600) == []  # one seeker plays bots from the new-table form
    (group,) = match([anna, ben], NOW + 60)
    table = table_of(group, NOW + 60, seed=7)
    assert [s.number for s in table.seats] == [0, 1, 2, 3]
    humans = [s for s in table.seats if s.kind.value == "human"]
    assert sorted((str(s.name), s.account) for s in humans) == [("Anna", True), ("Ben", False)]
    assert all(s.token for s in humans)
    bots = [s for s in table.seats if s.kind.value == "bot"]
    assert [(s.name, s.bot) for s in bots] == [(f"Bot {s.number}", "medium") for s in bots]
    assert table.timer == 60 and table.status.value == "open"


# --- the pool through the API and the lobby -------------------------------------------------


def seek(client: TestClient, cookies: Cookies, **body: Any) -> Any:
    as_player(client, cookies)
    return client.post("/api/seeks", json={"preset": "draw", "players": 2} | body)


def paired(lobby: Lobby) -> Any:
    """The table of the next ``seek`` frame that has one."""
    while (table := lobby.next("seek")["table"]) is None:
        pass
    return table


def pool(lobby: Lobby, expected: list[dict[str, Any]]) -> None:
    """``pool`` frames until the counts are ``expected``."""
    shown = lobby.welcome["pool"]
    while shown != expected:
        shown = lobby.next("pool")["pool"]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_two_seekers_of_a_kind_are_seated_at_one_table(lobby: TestClient) -> None:
    anna, ben, cleo = name(lobby, "Anna"), name(lobby, "Ben"), name(lobby, "Cleo")
    with ExitStack() as stack:
        a, b, c = Lobby(lobby, stack, anna), Lobby(lobby, stack, ben), Lobby(lobby, stack, cleo)
        r = seek(lobby, anna)
        assert r.status_code == 201, r.text
        assert r.json()["table"] is None
        assert r.json()["seek"] | {"since": 0} == {
            "preset": "draw",
            "players": 2,
            "rated": False,
            "since": 0,
            "waiting": 0.0,
            "seated": None,
        }
        made = a.next("seek")
        assert made["seek"]["preset"] == "draw" and made["table"] is None
        pool(c, [{"preset": "draw", "players": 2, "rated": False, "seeking": 1}])
        assert seek(lobby, cleo, preset="kozel", players=None).json()["seek"]["players"] == 4
        r = seek(lobby, ben)
        assert r.status_code == 201, r.text
        table_id = r.json()["table"]
        assert table_id and r.json()["seek"] is None
        assert a.next("seek") == {"type": "seek", "seek": None, "table": table_id}
        assert paired(b) == table_id
        pool(c, [{"preset": "kozel", "players": 4, "rated": False, "seeking": 1}])
        table = lobby.get(f"/api/tables/{table_id}").json()
        assert table["status"] == "playing" and table["timer"] == 60 and not table["rated"]
        assert sorted(s["name"] for s in table["seats"]) == ["Anna", "Ben"]
        assert {s["kind"] for s in table["seats"]} == {"human"}
        for who in (anna, ben):
            as_player(lobby, who)
            assert lobby.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
            assert lobby.get("/api/seeks").json()["seek"] is None
        as_player(lobby, cleo)
        assert lobby.get("/api/seeks").json()["seek"]["preset"] == "kozel"


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_a_seeker_waits_rather_than_sit_with_a_name_muted_in_their_browser(
    lobby: TestClient, clock: Clock
) -> None:
    anna, ben, cleo = name(lobby, "Anna"), name(lobby, "Ben"), name(lobby, "Cleo")
    with ExitStack() as stack:
        a, c = Lobby(lobby, stack, anna), Lobby(lobby, stack, cleo)
        Lobby(lobby, stack, ben)
        assert seek(lobby, anna, avoid=["Ben", "Dora"]).status_code == 201
        a.next("seek")
        clock.now += 1  # Anna's is the oldest seek: the pool pairs her first
        r = seek(lobby, ben)
        assert r.json()["table"] is None  # Anna muted Ben: both wait
        as_player(lobby, anna)
        assert "avoid" not in lobby.get("/api/seeks").json()["seek"]  # never shown
        table_id = seek(lobby, cleo).json()["table"]
        assert table_id and paired(a) == table_id
        seated = lobby.get(f"/api/tables/{table_id}").json()["seats"]
        assert sorted(s["name"] for s in seated) == ["Anna", "Cleo"]
        pool(c, [{"preset": "draw", "players": 2, "rated": False, "seeking": 1}])  # Ben waits


def test_two_kozel_seekers_play_with_two_bots_after_a_minute(
    lobby: TestClient, clock: Clock
) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    with ExitStack() as stack:
        a, b = Lobby(lobby, stack, anna), Lobby(lobby, stack, ben)
        seek(lobby, anna, preset="kozel", players=4)
        clock.now += 30
        assert seek(lobby, ben, preset="kozel", players=4).json()["table"] is None
        clock.now += 30  # Anna's minute: the sweep makes the table
        table_id = paired(a)
        assert paired(b) == table_id
        table = lobby.get(f"/api/tables/{table_id}").json()
        assert table["status"] == "playing"
        seats = sorted((s["kind"], s["bot"] or s["name"]) for s in table["seats"])
        assert seats == [("bot", "medium"), ("bot", "medium"), ("human", "Anna"), ("human", "Ben")]


def test_a_new_seek_replaces_the_old_and_a_withdrawn_one_is_gone(lobby: TestClient) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    with ExitStack() as stack:
        a, b = Lobby(lobby, stack, anna), Lobby(lobby, stack, ben)
        seek(lobby, anna)
        seek(lobby, anna, preset="block")
        pool(b, [{"preset": "block", "players": 2, "rated": False, "seeking": 1}])
        assert seek(lobby, ben).json()["table"] is None  # Anna seeks Block now
        as_player(lobby, anna)
        assert lobby.delete("/api/seeks").json() == {"seek": None}
        while a.next("seek")["seek"] is not None:
            pass
        pool(b, [{"preset": "draw", "players": 2, "rated": False, "seeking": 1}])
        r = lobby.delete("/api/seeks")
        assert r.status_code == 404 and r.json()["code"] == "not_found"


def test_a_seekers_leaving_ends_the_seek(lobby: TestClient) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    with ExitStack() as stack:
        a, b = Lobby(lobby, stack, anna), Lobby(lobby, stack, ben)
        seek(lobby, anna)
        pool(b, [{"preset": "draw", "players": 2, "rated": False, "seeking": 1}])
        a.close()
        pool(b, [])
        assert seek(lobby, ben).json()["table"] is None


def test_a_seek_is_the_lobbys_and_ends_when_its_seeker_goes_to_a_table(
    lobby: TestClient,
) -> None:
    """Anna seeks, then sits down at a table of her own and closes the lobby: still online,
    but no longer in the lobby to be sent to a paired table, so her seek ends."""
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    as_player(lobby, anna)
    table = lobby.post("/api/tables", json={"preset": "draw", "options": {"players": 2}}).json()
    with ExitStack() as stack:
        a, b = Lobby(lobby, stack, anna), Lobby(lobby, stack, ben)
        seek(lobby, anna)
        pool(b, [{"preset": "draw", "players": 2, "rated": False, "seeking": 1}])
        as_player(lobby, anna)
        seat = stack.enter_context(lobby.websocket_connect(f"/ws/table/{table['id']}"))
        seat.send_json({"type": "hello", "token": table["token"], "since": None})
        assert seat.receive_json()["type"] == "snapshot"
        a.close()
        pool(b, [])
        assert b.until_online({"Anna", "Ben"})[0]["status"] == "seated"


def test_a_seated_seeker_waits_until_free(lobby: TestClient) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    as_player(lobby, anna)
    table = lobby.post("/api/tables", json={"preset": "draw", "options": {"players": 2}}).json()
    with ExitStack() as stack:
        a, b = Lobby(lobby, stack, anna), Lobby(lobby, stack, ben)
        as_player(lobby, anna)
        at_table = ExitStack()  # her table's socket, closed when she leaves it
        stack.callback(at_table.close)
        seated = at_table.enter_context(lobby.websocket_connect(f"/ws/table/{table['id']}"))
        seated.send_json({"type": "hello", "token": table["token"], "since": None})
        assert seated.receive_json()["type"] == "snapshot"
        b.until_online({"Anna", "Ben"})
        while b.players[0]["status"] != "seated":
            b.next("online")
        # her card says why she waits, and where she sits
        assert seek(lobby, anna).json()["seek"]["seated"] == table["id"]
        assert a.next("seek")["seek"]["seated"] == table["id"]
        as_player(lobby, anna)
        assert lobby.get("/api/seeks").json()["seek"]["seated"] == table["id"]
        assert seek(lobby, ben).json()["table"] is None  # Anna plays elsewhere
        at_table.close()
        table_id = paired(a)  # the sweep pairs them once she is free
        assert paired(b) == table_id


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"preset": "chess"}, "preset"),
        ({"preset": "kozel", "players": 3}, "players"),
        ({"players": 5}, "players"),
        ({"rated": True}, "rated"),
        ({"preset": "x" * 33}, "preset"),
        ({"avoid": ["Ben"] * 201}, "avoid"),
        ({"avoid": ["x" * 65]}, "avoid"),
        ({"avoid": "Ben"}, "avoid"),
    ],
)
def test_a_bad_seek_is_refused_and_changes_nothing(
    lobby: TestClient, body: dict[str, Any], field: str
) -> None:
    anna = name(lobby, "Anna")
    seek(lobby, anna)
    r = seek(lobby, anna, **body)
    assert r.status_code == 422, r.text
    assert field in (r.json().get("field") or str(r.json())), r.json()
    assert lobby.get("/api/seeks").json()["seek"]["preset"] == "draw"


def test_a_visitor_without_a_name_reads_the_pool_only(lobby: TestClient) -> None:
    seek(lobby, name(lobby, "Anna"))
    lobby.cookies.clear()
    assert lobby.post("/api/seeks", json={"preset": "draw"}).status_code == 401
    assert lobby.delete("/api/seeks").status_code == 401
    assert lobby.get("/api/seeks").json() == {
        "seek": None,
        "pool": [{"preset": "draw", "players": 2, "rated": False, "seeking": 1}],
    }


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_rated_seekers_are_accounts_paired_by_rating(lobby: TestClient) -> None:
    anna, ben = name(lobby, "Anna"), name(lobby, "Ben")
    anna, ben = register(lobby, anna, "Anna"), register(lobby, ben, "Ben")
    with ExitStack() as stack:
        a = Lobby(lobby, stack, anna)
        Lobby(lobby, stack, ben)
        seek(lobby, anna, rated=True)
        assert a.next("seek")["seek"]["rated"] is True
        table_id = seek(lobby, ben, rated=True).json()["table"]
        assert lobby.get(f"/api/tables/{table_id}").json()["rated"] is True


bodies = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner),
    max_leaves=8,
)
fields = st.fixed_dictionaries(
    {},
    optional={
        "preset": st.sampled_from(["draw", "kozel", "Draw", ""]) | bodies,
        "players": st.integers(-1, 6) | bodies,
        "rated": st.booleans() | bodies,
    },
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=bodies | fields)
def test_any_body_gets_a_seek_or_a_refusal_with_its_field(lobby: TestClient, body: Any) -> None:
    name(lobby, "Anna")
    r = lobby.post("/api/seeks", json=body)
    assert r.status_code in (201, 422), r.text
    mine = lobby.get("/api/seeks").json()["seek"]
    if r.status_code == 201:
        assert mine is not None and mine["preset"] in ("draw", "kozel")
    else:
        assert mine is None and r.json()["error"]
