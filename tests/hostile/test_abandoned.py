"""Issue 13, item 3 (the table core's part): a table whose humans are all gone stops, and
its searching bots stop asking the workers."""

from __future__ import annotations

import time
from pathlib import Path

from doublesix.server import create_app
from doublesix.server.settings import Settings

from .live import TestClient


def test_a_table_everyone_left_closes_and_its_bots_stop(tmp_path: Path) -> None:
    settings = Settings(bot_delay=0.0, grace_seconds=0.2, abandon_seconds=1.0)
    app = create_app(f"sqlite+aiosqlite:///{tmp_path}/db.sqlite3", settings=settings)
    with TestClient(app) as client:
        assert client.post("/api/guest", json={"name": "Gone"}).status_code == 200
        seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "expert"}] * 3
        body = {"preset": "kozel", "seats": seats, "options": {"target": 10000}}
        table = client.post("/api/tables", json=body).json()
        with client.websocket_connect(f"/ws/table/{table['id']}") as ws:
            ws.send_json({"type": "hello", "token": table["token"], "since": None})
            assert ws.receive_json()["type"] == "snapshot"
        deadline = time.monotonic() + 60
        status = "playing"
        while status != "closed" and time.monotonic() < deadline:
            time.sleep(0.2)
            status = client.get(f"/api/tables/{table['id']}").json()["status"]
        assert status == "closed"
        workers = app.state.server.thinking._workers
        while workers._busy and time.monotonic() < deadline:  # a search under way ends
            time.sleep(0.1)
        time.sleep(2.0)
        assert workers.queued == 0 and not workers._busy  # and no other one starts
