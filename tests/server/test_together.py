"""Two players' games together ("You and Boris" on a player's page): counted from the
viewer's side, against each other and as a Kozel pair's partners, and the games listed."""

from __future__ import annotations

import random
from contextlib import ExitStack
from typing import Any

from starlette.testclient import TestClient

from .rating_helpers import account, run, store_of
from .server_helpers import BOTH, Socket, guest, play_out


def _as(client: TestClient, cookies: dict[str, str]) -> None:
    client.cookies.clear()
    client.cookies.update(cookies)


def _accounts(client: TestClient, *names: str) -> dict[str, dict[str, str]]:
    """Each name an account; the cookies of each."""
    found = {}
    for name in names:
        account(client, name)
        found[name] = dict(client.cookies)
    return found


def _played(client: TestClient, preset: str, seated: list[dict[str, str]], seed: int) -> str:
    """A one-round, unrated game of ``preset`` by the players of ``seated`` (by seat),
    played to its end; its table's id."""
    _as(client, seated[0])
    seats = [{"kind": "human"}] + [{"kind": "open"}] * (len(seated) - 1)
    body = {"preset": preset, "seats": seats, "options": {"target": "round"}}
    table = client.post("/api/tables", json=body).json()
    tokens = [table["token"]]
    for cookies in seated[1:]:
        _as(client, cookies)
        tokens.append(client.post(f"/api/tables/{table['id']}/join", json={}).json()["token"])
    with ExitStack() as stack:
        sockets = [Socket(client, stack, table["id"], token) for token in tokens]
        play_out(sockets, [], random.Random(seed))
        assert sockets[0].view["status"] == "finished"
    return str(table["id"])


def _outcomes(client: TestClient, name: str) -> dict[str, str]:
    """Each finished game of ``name``'s page: its outcome for them, by table."""
    return {g["table"]: g["outcome"] for g in client.get(f"/api/players/{name}").json()["games"]}


def _record(outcomes: list[str]) -> dict[str, int]:
    return {
        "games": len(outcomes),
        "wins": outcomes.count("win"),
        "losses": outcomes.count("loss"),
        "draws": outcomes.count("draw"),
    }


NONE = {"games": 0, "wins": 0, "losses": 0, "draws": 0}


@BOTH
def test_two_players_records_against_each_other_and_as_partners(client: TestClient) -> None:
    who = _accounts(client, "Anna", "Boris", "Chloe", "Dan")
    duels = [_played(client, "draw", [who["Anna"], who["Boris"]], seed) for seed in range(3)]
    kozel = _played(client, "kozel", [who[n] for n in ("Anna", "Chloe", "Boris", "Dan")], 7)
    _played(client, "draw", [who["Chloe"], who["Dan"]], 1)  # neither Anna's nor Boris's

    _as(client, who["Anna"])
    anna = _outcomes(client, "Anna")
    together = client.get("/api/players/boris/together")  # any case
    assert together.status_code == 200, together.text
    assert together.json() == {
        "name": "Boris",
        "against": _record([anna[t] for t in duels]),
        "partners": _record([anna[kozel]]),  # seats 0 and 2: one side
    }
    against_chloe = client.get("/api/players/Chloe/together").json()
    assert against_chloe["against"] == _record([anna[kozel]]) and against_chloe["partners"] == NONE

    _as(client, who["Boris"])  # the same games from the other side
    boris = _outcomes(client, "Boris")
    assert all({anna[t], boris[t]} in ({"win", "loss"}, {"draw"}) for t in duels)
    assert client.get("/api/players/Anna/together").json()["against"] == _record(
        [boris[t] for t in duels]
    )

    _as(client, who["Dan"])
    assert client.get("/api/players/Anna/together").json()["against"] == _record(
        ["win" if anna[kozel] == "loss" else "loss"]
    )


@BOTH
def test_only_the_games_played_together_are_listed_a_page_at_a_time(
    client: TestClient, monkeypatch: Any
) -> None:
    from doublesix.server import rating_store

    monkeypatch.setattr(rating_store, "RECENT_GAMES", 2)
    who = _accounts(client, "Anna", "Boris", "Chloe")
    ours = [_played(client, "draw", [who["Anna"], who["Boris"]], seed) for seed in range(3)]
    theirs = [_played(client, "draw", [who["Boris"], who["Chloe"]], seed) for seed in range(2)]

    _as(client, who["Anna"])
    listed: list[dict[str, Any]] = []
    query: dict[str, str] = {"together": "true"}
    while True:
        page = client.get("/api/players/Boris/games", params=query)
        assert page.status_code == 200, page.text
        listed += page.json()["games"]
        if not page.json()["more"]:
            break
        query |= {"before_at": repr(listed[-1]["at"]), "before_table": listed[-1]["table"]}
    assert sorted(g["table"] for g in listed) == sorted(ours)
    everything = client.get("/api/players/Boris/games", params={"together": "false"}).json()
    assert len(everything["games"]) == 2 and everything["more"]  # Boris's five, as before
    _as(client, who["Chloe"])
    shown = client.get("/api/players/Boris/games", params={"together": "true"}).json()
    assert sorted(g["table"] for g in shown["games"]) == sorted(theirs)


def test_refusals(client: TestClient) -> None:
    who = _accounts(client, "Anna", "Boris")
    client.cookies.clear()
    for path in ("/api/players/Boris/together", "/api/players/Boris/games?together=true"):
        refused = client.get(path)  # whose games together? nobody's
        assert refused.status_code == 401 and refused.json()["code"] == "no_guest", path
    _as(client, who["Anna"])
    for path in ("/api/players/Anna/together", "/api/players/anna/games?together=true"):
        refused = client.get(path)
        assert refused.status_code == 422 and refused.json()["field"] == "name", path
    refused = client.get("/api/players/Nobody/together")
    assert refused.status_code == 404 and "Nobody" in refused.json()["error"]
    refused = client.get("/api/players/Boris/games", params={"together": "maybe"})
    assert refused.status_code == 422
    guest(client, "Gast")  # a guest has games too, and may ask
    assert client.get("/api/players/Boris/together").json()["against"] == NONE

    async def close() -> None:
        from doublesix.server.accounts import Accounts

        await Accounts(store_of(client), clock=lambda: 5.0).close_by_operator("Boris")

    run(client, close)
    refused = client.get("/api/players/Boris/together")
    assert refused.status_code == 404  # a closed account has no page
