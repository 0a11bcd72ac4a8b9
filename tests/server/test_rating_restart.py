"""Issue 11, item 5: a rated game's result counts once, even after a SIGKILL between the
game's last commit and its rating, on SQLite and on PostgreSQL.

A real server (uvicorn, as ``doublesix serve`` runs it) is started with a
rating delay, so that the rated game's end is stored and its rating not yet
written when the server is killed. Started again, it rates the game at
start-up; started once more, it rates nothing twice.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.sync.client import connect

from doublesix.server.app import SERVE_ENV
from doublesix.server.store import database_url

from .server_helpers import run_async
from .test_serve import Player, _free_port

START = (
    "import sys, uvicorn; uvicorn.run('doublesix.server.app:from_environment', factory=True, "
    "host='127.0.0.1', port=int(sys.argv[1]), log_level='warning')"
)


def _serve(db: str, port: int, log: Path, rating_delay: float) -> subprocess.Popen[bytes]:
    options = {
        "db": database_url(db),
        "settings": {"bot_delay": 0.0, "think_workers": 1, "rating_delay": rating_delay},
        "address_limits": False,
        "origins": [],
    }
    env = os.environ | {SERVE_ENV: json.dumps(options)}
    out = log.open("ab")
    proc = subprocess.Popen(
        [sys.executable, "-c", START, str(port)], env=env, stdout=out, stderr=subprocess.STDOUT
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert proc.poll() is None, log.read_text()
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/bots", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"the server did not start: {log.read_text()}")


def _rows(db: str, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    """The rows ``sql`` reads (or writes) in the server's database, as the server does."""

    async def run() -> list[tuple[Any, ...]]:
        engine = create_async_engine(database_url(db))
        try:
            async with engine.begin() as conn:
                result = await conn.execute(sa.text(sql), params)
                return [tuple(row) for row in result] if result.returns_rows else []
        finally:
            await engine.dispose()

    return run_async(run())


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgres":
        return str(request.getfixturevalue("database"))
    return str(tmp_path / "games.sqlite3")


def test_a_game_killed_before_its_rating_is_rated_once_after_restarts(
    db: str, tmp_path: Path
) -> None:
    log, port = tmp_path / "serve.log", _free_port()
    base = f"http://127.0.0.1:{port}"
    server = _serve(db, port, log, rating_delay=3600)
    try:
        http = httpx.Client(base_url=base)
        http.post("/api/guest", json={"name": "Anna"}).raise_for_status()
        me = http.cookies["ds_guest"]
        _rows(  # an account, written as registering would (the player is the guest)
            db,
            "INSERT INTO accounts (player_id, name, name_key, password, created_at, updated_at)"
            " VALUES (:me, 'Anna', 'anna', 'not-a-hash', 1.0, 1.0)",
            me=me,
        )
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        body = {"preset": "draw", "seats": seats, "rated": True, "options": {"target": "round"}}
        table = http.post("/api/tables", json=body).json()
        with connect(f"ws://127.0.0.1:{port}/ws/table/{table['id']}") as ws:
            player = Player(ws, table["token"])
            rng = random.Random(11)
            while player.view["status"] != "finished":
                player.step(rng)
        # the end is stored (the update said so), the rating waits: kill it now
        server.kill()
        server.wait()
        assert _rows(db, f"SELECT status FROM tables WHERE id = '{table['id']}'") == [("finished",)]
        assert _rows(db, "SELECT * FROM rating_changes") == []

        for _ in range(2):  # rated at the first start-up, not again at the second
            server = _serve(db, port, log, rating_delay=0)
            changes = _rows(db, "SELECT table_id, player_id FROM rating_changes")
            assert changes == [(table["id"], me)]
            assert _rows(db, "SELECT games FROM ratings") == [(1,)]
            page = http.get("/api/players/Anna").json()
            assert page["ratings"][0]["games"] == 1 and page["counts"]["games"] == 1
            server.terminate()
            server.wait(timeout=10)
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=10)
