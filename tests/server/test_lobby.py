"""The HTTP API: guests, presets, creating and joining tables, bots, records, pages."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from doublesix import Game, preset
from doublesix.rules.record import game_record
from doublesix.rules.view import seat_view

from .server_helpers import BOTH, AppFactory, TestClient, guest, new_table


def test_guest_cookie(client: TestClient) -> None:
    client.cookies.clear()
    first = client.get("/api/me")  # a first visit is no error
    assert first.status_code == 200 and first.json() == {"player": None}
    r = client.post("/api/guest", json={"name": "  Anna \n"})
    assert r.json() == {"player": {"name": "Anna", "account": False}}  # the secret: in the cookie
    assert len(client.cookies["ds_guest"]) >= 32
    assert client.get("/api/me").json() == {"player": {"name": "Anna", "account": False}}
    r = client.post("/api/guest", json={"name": ""})
    assert r.status_code == 422 and r.json()["field"] == "name"


def test_presets_and_bots(client: TestClient) -> None:
    presets = client.get("/api/presets").json()
    names = [p["name"] for p in presets["presets"]]
    assert {"draw", "block", "kozel", "vog-goat", "international", "classic"} <= set(names)
    kozel = next(p for p in presets["presets"] if p["name"] == "kozel")
    assert kozel["players"] == [4] and kozel["defaults"]["4"]["pairs"] is True
    assert presets["options"]["opener"]["type"] == "choice"
    assert presets["options"]["target"]["suggested"] == [50, 100, 150]
    bots = client.get("/api/bots").json()
    assert {"random", "greedy"} <= set(bots) and "omniscient" not in bots


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"preset": "chess"}, 422, "preset"),
        ({"preset": "draw", "options": {"colour": "red"}}, 422, "options.colour"),
        ({"preset": "draw", "options": {"target": "many"}}, 422, "options.target"),
        ({"preset": "draw", "options": {"hand_size": 12}}, 422, "options.hand_size"),
        ({"preset": "draw", "options": {"opener": "youngest"}}, 422, "options.opener"),
        ({"preset": "kozel", "seats": [{"kind": "human"}] * 3}, 422, "options.players"),
        ({"preset": "draw", "seats": [{"kind": "bot"}, {"kind": "open"}]}, 422, "seats"),
        (
            {"preset": "draw", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "omniscient"}]},
            422,
            "seats.1.bot",
        ),
        ({"preset": "draw", "seats": [{"kind": "human"}, {"kind": "alien"}]}, 422, "seats.1.kind"),
        ({"preset": "draw", "timer": -5}, 422, "timer"),
    ],
)
def test_create_table_refuses(
    client: TestClient, body: dict[str, Any], status: int, field: str
) -> None:
    guest(client, "Anna")
    r = client.post("/api/tables", json=body)
    assert r.status_code == status, r.text
    assert r.json()["field"] == field, r.json()
    assert r.json()["error"]


def test_create_needs_a_guest(client: TestClient) -> None:
    client.cookies.clear()
    r = client.post("/api/tables", json={"preset": "draw"})
    assert r.status_code == 401 and r.json()["error"]


@BOTH
def test_a_guest_has_five_unfinished_tables_at_most(client: TestClient) -> None:
    """Open ones and those being played alike; another guest is counted apart."""
    guest(client, "Anna")
    waiting = {"preset": "draw"}
    playing = {"preset": "draw", "seats": [{"kind": "human"}, {"kind": "bot"}]}
    made = [client.post("/api/tables", json=body) for body in [waiting] * 3 + [playing] * 2]
    assert [r.json()["status"] for r in made] == ["open"] * 3 + ["playing"] * 2
    refused = client.post("/api/tables", json=waiting)
    assert refused.status_code == 429, refused.text
    assert refused.json()["code"] == "too_many_tables"
    assert "5 unfinished tables" in refused.json()["error"]
    guest(client, "Ben")
    assert client.post("/api/tables", json=waiting).status_code == 200


def test_create_join_and_start(client: TestClient) -> None:
    table = new_table(
        client,
        preset="draw",
        options={"target": 150, "draw_rule": "draw_one", "keep_in_boneyard": 2},
        seats=[{"kind": "human"}, {"kind": "open"}, {"kind": "invite"}],
        timer=30,
        hints=True,
    )
    assert table["seat"] == 0 and table["token"]
    assert table["status"] == "open"
    assert table["ruleset"]["players"] == 3 and table["ruleset"]["target"] == 150
    assert table["ruleset"]["draw_rule"] == "draw_one"
    assert table["timer"] == 30 and table["hints"] is True
    assert [s["kind"] for s in table["seats"]] == ["human", "open", "invite"]
    assert table["seats"][0]["name"] == "Anna"
    assert "seed" not in table and "token" not in table["seats"][0]
    [invite] = table["invites"]  # the creator sees the invitation codes
    assert invite["seat"] == 2
    tid = table["id"]
    listed = client.get("/api/tables").json()
    assert [t["id"] for t in listed["open"]] == [tid]
    assert listed["open"][0]["invites"] == [invite]

    guest(client, "Ben")
    listed = client.get("/api/tables").json()
    assert "invites" not in listed["open"][0]  # nobody else does
    assert "invites" not in client.get(f"/api/tables/{tid}").json()
    assert invite["invite"] not in client.get("/api/tables").text
    wrong = client.post(f"/api/tables/{tid}/join", json={"invite": "guess"})
    assert wrong.status_code == 403 and wrong.json()["field"] == "invite"
    held = client.post(f"/api/tables/{tid}/join", json={"seat": 2})
    assert held.status_code == 403 and held.json()["field"] == "invite"
    ben = client.post(f"/api/tables/{tid}/join", json={"invite": invite["invite"]})
    assert ben.json()["seat"] == 2
    again = client.post(f"/api/tables/{tid}/join", json={})
    assert again.json() == ben.json()  # a seated guest gets the same seat back
    taken = client.post(f"/api/tables/{tid}/join", json={"seat": 2})
    assert taken.json() == ben.json()
    guest(client, "Carla")
    taken = client.post(f"/api/tables/{tid}/join", json={"seat": 2})
    assert taken.status_code == 409 and taken.json()["field"] == "seat"
    # only the creator seats a bot
    r = client.post(f"/api/tables/{tid}/seats/1/bot", json={"bot": "greedy"})
    assert r.status_code == 403
    carla = client.post(f"/api/tables/{tid}/join", json={})
    assert carla.json()["seat"] == 1
    started = client.get(f"/api/tables/{tid}").json()
    assert started["status"] == "playing"
    assert [s["name"] for s in started["seats"]] == ["Anna", "Carla", "Ben"]
    guest(client, "Dora")
    late = client.post(f"/api/tables/{tid}/join", json={})
    assert late.status_code == 409
    listed = client.get("/api/tables").json()
    assert [t["id"] for t in listed["playing"]] == [tid] and listed["open"] == []


def test_creator_fills_free_seats_with_bots(client: TestClient) -> None:
    table = new_table(client, preset="kozel")
    assert [s["kind"] for s in table["seats"]] == ["human", "open", "open", "open"]
    tid = table["id"]
    for n, level in [(1, "random"), (2, "greedy")]:
        r = client.post(f"/api/tables/{tid}/seats/{n}/bot", json={"bot": level})
        assert r.status_code == 200, r.text
        assert r.json()["seats"][n] == {
            "name": f"Bot {n}",
            "kind": "bot",
            "bot": level,
            "account": False,
        }
        assert r.json()["status"] == "open"
    r = client.post(f"/api/tables/{tid}/seats/0/bot", json={"bot": "greedy"})
    assert r.status_code == 409  # the creator's own seat
    r = client.post(f"/api/tables/{tid}/seats/3/bot", json={"bot": "nobody"})
    assert r.status_code == 422 and r.json()["field"] == "bot"
    r = client.post(f"/api/tables/{tid}/seats/3/bot", json={"bot": "greedy"})
    assert r.json()["status"] == "playing"  # every seat taken: the game starts
    r = client.post(f"/api/tables/{tid}/seats/3/bot", json={"bot": "random"})
    assert r.status_code == 409


def test_unknown_table_and_unfinished_record(client: TestClient) -> None:
    r = client.get("/api/tables/nope")
    assert r.status_code == 404 and r.json()["error"]
    table = new_table(client, preset="block", seats=[{"kind": "human"}, {"kind": "bot"}])
    r = client.get(f"/api/games/{table['id']}/record")
    assert r.status_code == 409 and r.json()["error"]
    assert client.get(f"/api/games/{table['id']}/text").status_code == 409


def _finished_record() -> dict[str, Any]:
    game = Game(preset("draw", 2, target=30), seed=11)
    rng = random.Random(11)
    while not game.finished:
        if game.turn is None:
            game.next_round()
            continue
        game.play(rng.choice(seat_view(game, game.turn).legal_moves))
    return game_record(game, ["Anna", "Ben"])


def test_record_upload(client: TestClient) -> None:
    record = _finished_record()
    r = client.post("/api/records", json=record)
    assert r.status_code == 200, r.text
    assert r.json()["result"] == record["result"]
    broken = _finished_record()
    event = broken["rounds"][0]["events"][1]
    event["play" if "play" in event else "draw" if "draw" in event else "seat"] = "6-6"
    r = client.post("/api/records", json=broken)
    assert r.status_code == 422
    error = r.json()
    # events count from 1, as the move list: the second event is event 2
    assert error["round"] == 1 and error["event"] == 2 and error["rule"], error
    assert client.post("/api/records", content=b"{nope").status_code == 422
    assert client.post("/api/records", json=[1]).status_code == 422


def test_pages_and_static_files(make_app: AppFactory, tmp_path: Path) -> None:
    web = tmp_path / "web"
    (web / "js").mkdir(parents=True)
    for page in ["index", "table", "game", "replay", "rules", "operator"]:
        (web / f"{page}.html").write_text(f"<title>{page}</title>")
    (web / "js" / "app.js").write_text("export {};")
    with TestClient(make_app()) as client:
        table = new_table(client, preset="draw", seats=[{"kind": "human"}, {"kind": "open"}])
        for path, page in [
            ("/", "index"),
            (f"/table/{table['id']}?invite=x", "table"),
            (f"/game/{table['id']}", "game"),
            ("/replay", "replay"),
            ("/rules/de/kozel", "rules"),
            ("/operator", "operator"),  # anyone gets the page; its reports are operators'
        ]:
            r = client.get(path)
            assert r.status_code == 200 and f"<title>{page}</title>" in r.text, path
        for path, page in [("/table/abc?invite=x", "table"), ("/game/abc", "game")]:
            r = client.get(path)  # no such table: the page says so, with 404
            assert r.status_code == 404 and f"<title>{page}</title>" in r.text, path
        assert client.get("/static/js/app.js").text == "export {};"
        assert client.get("/static/nothing.js").status_code == 404
        assert client.get("/docs").status_code == 404  # it would load from a CDN


@pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
def test_each_seat_says_whether_its_player_has_an_account(accounts_client: TestClient) -> None:
    """A table links an account's name to the player's page: its seats say which have one."""
    client = accounts_client
    guest(client, "Anna")
    r = client.post("/api/accounts", json={"name": "Anna", "password": "correct horse"})
    assert r.status_code == 201, r.text
    r = client.post(
        "/api/tables",
        json={"preset": "draw", "seats": [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}]},
    )
    assert r.status_code == 200, r.text
    tid = r.json()["id"]
    assert [s["account"] for s in r.json()["seats"]] == [True, False, False]
    r = client.post(f"/api/tables/{tid}/seats/2/bot", json={"bot": "greedy"})
    assert r.status_code == 200, r.text
    guest(client, "Ben")
    assert client.post(f"/api/tables/{tid}/join", json={}).status_code == 200
    seats = client.get(f"/api/tables/{tid}").json()["seats"]
    assert [(s["name"], s["kind"], s["account"]) for s in seats] == [
        ("Anna", "human", True),
        ("Ben", "human", False),
        ("Bot 2", "bot", False),
    ]
    ratings = client.get(f"/api/tables/{tid}/ratings").json()
    assert ratings["variant"] == "draw"
    assert ratings["seats"] == [{"rating": 1500, "provisional": True, "games": 0}, None, None]
    assert client.get("/api/tables/nosuchtable/ratings").status_code == 404
