"""Issue 13, item 1: record uploads are read, replayed and written off the event loop,
bounded in size and time; a player's move never waits for them."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

import doublesix.server.uploads
from doublesix import record_bounds
from doublesix.server import create_app
from doublesix.server.settings import Settings

from .live import Player, Served, TestClient, bot_table, guest, long_record


def test_a_move_is_answered_while_uploads_replay(tmp_path: Path) -> None:
    """Two uploads of a long record (about a second of replay each) are sent, then a
    move: its update arrives before either upload is answered. On the event loop, the
    move would have waited for the replays."""
    record = long_record(10_000)
    with Served(tmp_path) as served, served.client() as http:
        guest(http, "Anna")
        player = Player(served, bot_table(http))
        player.wait_turn()
        answered: list[float] = []
        statuses: list[int] = []

        def upload() -> None:
            with served.client() as other:
                r = other.post("/api/records", content=record)
                statuses.append(r.status_code)
                answered.append(time.monotonic())

        uploads = [threading.Thread(target=upload) for _ in range(2)]
        for thread in uploads:
            thread.start()
        time.sleep(0.3)  # the bodies are sent; the replays have begun
        player.act()
        player.update()
        moved = time.monotonic()
        for thread in uploads:
            thread.join()
        assert statuses == [200, 200]
        assert moved < min(answered)
        player.close()


def test_a_record_over_the_bounds_is_refused_naming_the_bound(tmp_path: Path) -> None:
    record = long_record(100)
    app = create_app(f"sqlite+aiosqlite:///{tmp_path}/db.sqlite3", settings=Settings())
    with TestClient(app) as client:
        ok = client.post("/api/records", content=record)
        assert ok.status_code == 200 and ok.json()["result"]["finished"]

        named = record.replace(b'"Anna"', b'"' + b"A" * 65 + b'"')
        r = client.post("/api/records", content=named)
        assert r.status_code == 413 and r.json()["field"] == "players.0", r.text
        assert r.json()["limit"] == record_bounds.MAX_NAME

        data = ok.json()
        many = data | {"rounds": [{}] * (record_bounds.MAX_ROUNDS + 1)}
        r = client.post("/api/records", json=many)
        assert r.status_code == 413 and r.json()["field"] == "rounds", r.text

        r = client.post("/api/records/review", params={"seat": 0}, json=many)
        assert r.status_code == 413 and r.json()["field"] == "rounds", r.text


def test_an_upload_has_a_time_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(doublesix.server.uploads, "UPLOAD_SECONDS", 0.05)
    app = create_app(f"sqlite+aiosqlite:///{tmp_path}/db.sqlite3", settings=Settings())
    with TestClient(app) as client:
        r = client.post("/api/records", content=long_record(3_000))
        assert r.status_code == 413 and "took over" in r.json()["error"], r.text
        # the worker that was killed is replaced: the next upload is read
        monkeypatch.setattr(doublesix.server.uploads, "UPLOAD_SECONDS", 60.0)
        assert client.post("/api/records", content=long_record(50)).status_code == 200
