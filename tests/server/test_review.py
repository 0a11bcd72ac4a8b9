"""Post-game review on the server: ``GET /api/games/{id}/review?seat=N`` and, for an
uploaded record, ``POST /api/records/review?seat=N``.

A finished game's review lists every move the seat made in the order it
made them — each beside the expert's choice from that seat's view, with
the estimated loss — and is the same when asked again. An unfinished
game, a seat that is not at the table and a seat that is not a number
are refused with a clear error.
"""

from __future__ import annotations

import random
from contextlib import ExitStack

import pytest

import doublesix.server.reviews
from doublesix.rules.moves import Play
from doublesix.rules.record import replay

from .server_helpers import (
    AppFactory,
    Socket,
    TestClient,
    finished_table,
    human_table,
    new_table,
    play_out,
)


def _chosen_plays(record: dict[str, object], seat: int) -> list[tuple[int, int, str]]:
    """(round, event, tile) of every play ``seat`` chose (not those the engine made)."""
    game = replay(record)
    out = []
    for number, rnd in enumerate(game.rounds, 1):
        for index, event in enumerate(rnd.play.events):
            if isinstance(event, Play) and event.seat == seat:
                out.append((number, index, str(event.tile)))
    return out


def test_a_finished_game_is_reviewed_seat_by_seat(make_app: AppFactory) -> None:
    with TestClient(make_app(review_ms=2.0)) as client:
        table_id, tokens = human_table(client, "draw", 2, target=20)
        with ExitStack() as stack:
            sockets = [Socket(client, stack, table_id, t) for t in tokens]
            r = client.get(f"/api/games/{table_id}/review", params={"seat": 0})
            assert r.status_code == 409 and "over" in r.json()["error"]
            play_out(sockets, [], random.Random(3))
        record = client.get(f"/api/games/{table_id}/record").json()
        for seat in (0, 1):
            r = client.get(f"/api/games/{table_id}/review", params={"seat": seat})
            assert r.status_code == 200, r.text
            found = r.json()
            assert found["seat"] == seat and found["ms"] == 2.0
            rows = found["moves"]
            chosen = [(row["round"], row["event"], row["played"]["tile"]) for row in rows]
            # every chosen play, in order; the first play of a round may be the engine's (R16)
            assert set(chosen) <= set(_chosen_plays(record, seat))
            assert len(chosen) >= len(_chosen_plays(record, seat)) - len(record["rounds"])
            assert chosen == sorted(chosen)
            for row in rows:
                assert row["loss"] >= 0 and row["choices"] >= 1
                assert (row["loss"] == 0) == (row["played"] == row["best"])
                assert 0 <= row["win_chance"] <= 1
            assert found["differ"] == sum(1 for row in rows if row["loss"] > 0)
            again = client.get(f"/api/games/{table_id}/review", params={"seat": seat})
            assert again.json() == found


def test_review_refuses_bad_requests(client: TestClient) -> None:
    r = client.get("/api/games/nope/review", params={"seat": 0})
    assert r.status_code == 404
    table = new_table(client, preset="block", seats=[{"kind": "human"}, {"kind": "bot"}])
    assert client.get(f"/api/games/{table['id']}/review?seat=0").status_code == 409
    assert client.get(f"/api/games/{table['id']}/review?seat=x").status_code == 422
    assert client.get(f"/api/games/{table['id']}/review").status_code == 422


def test_review_names_a_seat_that_is_not_at_the_table(make_app: AppFactory) -> None:
    with TestClient(make_app()) as client:
        table_id = finished_table(client, "block", 2, 5, target=10)
        r = client.get(f"/api/games/{table_id}/review", params={"seat": 2})
        assert r.status_code == 422
        assert r.json()["field"] == "seat" and "no seat 2" in r.json()["error"]


def test_an_uploaded_record_is_reviewed_like_the_game(make_app: AppFactory) -> None:
    """``POST /api/records/review?seat=N``: the /replay page's review of a record file."""
    with TestClient(make_app(review_ms=2.0)) as client:
        table_id = finished_table(client, "block", 2, 6, target=10)
        record = client.get(f"/api/games/{table_id}/record").json()
        on_page = client.get(f"/api/games/{table_id}/review", params={"seat": 1}).json()
        r = client.post("/api/records/review", params={"seat": 1}, json=record)
        assert r.status_code == 200, r.text
        assert r.json() == on_page and on_page["moves"]

        r = client.post("/api/records/review", params={"seat": 2}, json=record)
        assert r.status_code == 422 and r.json()["field"] == "seat"
        broken = record | {"rounds": [record["rounds"][0] | {"events": [{"seat": 0}]}]}
        r = client.post("/api/records/review", params={"seat": 0}, json=broken)
        assert r.status_code == 422 and (r.json()["round"], r.json()["event"]) == (1, 1), r.text
        r = client.post("/api/records/review?seat=0", content=b"\xff not json")
        assert r.status_code == 422 and r.json()["error"] == "not JSON"


def test_a_full_review_queue_says_busy(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(doublesix.server.reviews, "WAITING", 0)
    with TestClient(make_app(review_ms=2.0)) as client:
        table_id = finished_table(client, "block", 2, 7, target=10)
        r = client.get(f"/api/games/{table_id}/review", params={"seat": 0})
        assert r.status_code == 503 and "ask again" in r.json()["error"]
