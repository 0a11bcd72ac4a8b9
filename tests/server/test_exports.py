"""Finished games as ``doublesix/1`` records, one a line, each the game's own record and one
the engine replays, on SQLite and PostgreSQL: a player's (``GET /api/records?player=…``),
newest first, a page at a time with a ``Link`` to the next, bad requests refused; the whole
site's, oldest first (``exports.every_record``, ``doublesix games``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
import pytest

from doublesix.cli import main
from doublesix.rules.record import loads, replay
from doublesix.server import exports

from .rating_helpers import run, store_of
from .server_helpers import BOTH, TestClient
from .test_together import _accounts, _as, _played


def _records(answer: Any) -> list[dict[str, Any]]:
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("application/x-ndjson")
    return [orjson.loads(line) for line in answer.text.splitlines()]


@BOTH
def test_a_players_games_as_records_a_page_at_a_time(client: TestClient) -> None:
    who = _accounts(client, "Boris", "Anna", "Chloe")
    tables = [_played(client, "draw", [who["Anna"], who["Boris"]], seed) for seed in range(3)]
    _played(client, "draw", [who["Anna"], who["Chloe"]], 9)  # not Boris's
    client.cookies.clear()  # records are public, as each game's page is

    answer = client.get("/api/records", params={"player": "boris"})  # any case
    everything = _records(answer)
    assert "link" not in answer.headers  # no more
    assert answer.headers["content-disposition"] == 'attachment; filename="doublesix-Boris.jsonl"'
    shown = client.get("/api/players/Boris").json()["games"]
    assert [g["table"] for g in shown] == tables[::-1]  # newest first, as the page lists them
    for record, table in zip(everything, tables[::-1], strict=True):
        assert record == client.get(f"/api/games/{table}/record").json()  # the game's own
        assert record["players"][1] == "Boris"
        game = replay(loads(orjson.dumps(record).decode()))  # a line reads and replays
        assert game.finished

    paged: list[dict[str, Any]] = []
    url: str | None = "/api/records?player=BORIS&max=2"
    while url is not None:
        answer = client.get(url)
        paged += _records(answer)
        link = answer.headers.get("link")
        url = None if link is None else re.fullmatch(r'<(.+)>; rel="next"', link)[1]  # type: ignore[index]
    assert paged == everything
    assert len(_records(client.get("/api/records", params={"player": "Boris", "max": 1}))) == 1


def test_bad_requests_are_refused(client: TestClient) -> None:
    _accounts(client, "Anna")
    for params, status, field in [
        ({}, 422, "query.player"),
        ({"player": "x" * 65}, 422, "query.player"),
        ({"player": "Anna", "max": 0}, 422, "query.max"),
        ({"player": "Anna", "max": 101}, 422, "query.max"),
        ({"player": "Anna", "max": "many"}, 422, "query.max"),
        ({"player": "Anna", "before_at": "1.5"}, 422, "before_table"),  # the one missing
        ({"player": "Anna", "before_at": "nan", "before_table": "t"}, 422, "before_at"),
        ({"player": "Nobody"}, 404, "player"),
    ]:
        refused = client.get("/api/records", params=params)
        assert refused.status_code == status, (params, refused.text)
        assert refused.json()["field"] == field, (params, refused.text)
    assert _records(client.get("/api/records", params={"player": "Anna"})) == []


@BOTH
def test_every_finished_game_of_the_site_oldest_first(client: TestClient) -> None:
    who = _accounts(client, "Anna", "Ben")
    pair = [who["Anna"], who["Ben"]]
    presets = ["draw", "draw", "block"]
    tables = [_played(client, preset, pair, seed) for seed, preset in enumerate(presets)]
    _as(client, who["Anna"])
    client.post("/api/tables", json={"preset": "draw"})  # not started: no record

    async def dump(**bounds: Any) -> list[dict[str, Any]]:
        return [r async for r in exports.every_record(store_of(client), **bounds)]

    everything = run(client, dump)
    assert everything == [client.get(f"/api/games/{t}/record").json() for t in tables]
    assert run(client, lambda: dump(preset="block")) == everything[2:]
    assert run(client, lambda: dump(rated=True)) == []
    ends = [client.get(f"/api/tables/{t}").json()["updated_at"] for t in tables]
    assert run(client, lambda: dump(since=ends[1])) == everything[1:]
    assert run(client, lambda: dump(until=ends[1])) == everything[:1]


def test_the_operator_dumps_the_sites_games(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    monkeypatch.setattr(exports, "BATCH", 2)  # more games than a batch
    db = ["--db", f"sqlite:///{tmp_path / 'doublesix.sqlite3'}"]
    who = _accounts(client, "Anna", "Ben")
    tables = [_played(client, "draw", [who["Anna"], who["Ben"]], seed) for seed in range(3)]
    out = tmp_path / "games.jsonl"
    assert main(["games", *db, "--out", str(out)]) == 0
    assert capsys.readouterr().err == "3 game(s)\n"
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [orjson.loads(line) for line in lines] == [
        client.get(f"/api/games/{t}/record").json() for t in tables
    ]
    assert main(["games", *db, "--since", "2999-01-01"]) == 0
    assert capsys.readouterr().out == ""
    for bad in (["--since", "yesterday"], ["--since", "2026-12-02", "--until", "2026-12-01"]):
        assert main(["games", *db, *bad]) == 2
        assert "error: --" in capsys.readouterr().err
