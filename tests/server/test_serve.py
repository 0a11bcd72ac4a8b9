"""`doublesix serve` for real: uvicorn, HTTP and a WebSocket client; killed and started again."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from doublesix.cli import main
from doublesix.rules.record import replay

START = "import sys; from doublesix.cli import main; sys.exit(main())"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _serve(db: Path, port: int, log: Path, seed: int | None = None) -> subprocess.Popen[bytes]:
    """``doublesix serve`` in a process of its own; ``seed`` fixes its deals."""
    out = log.open("ab")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            START,
            "serve",
            "--port",
            str(port),
            "--db",
            str(db),
            "--bot-delay",
            "0",
            "--grace",
            "5",
            "--review-ms",
            "2",
            "--think-workers",
            "1",
            "--log-level",
            "warning",
            *([] if seed is None else ["--seed", str(seed)]),
        ],
        stdout=out,
        stderr=subprocess.STDOUT,
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


class Player:
    def __init__(self, ws: ClientConnection, token: str) -> None:
        self.ws = ws
        self.ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
        first = self.receive()
        assert first["type"] == "snapshot"
        self.version: int = first["version"]
        self.view: dict[str, Any] = first["view"]

    def receive(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=10))
        return frame

    def step(self, rng: random.Random) -> None:
        """Act if it is ours to act, then take the next update."""
        view = self.view
        frame: dict[str, Any] | None = None
        if view["status"] == "round_over" and 0 not in view["continue"]:
            frame = {"type": "continue"}
        elif view["status"] == "playing" and view["turn"] == 0:
            frame = {"type": "play", **rng.choice(view["legal"]), "version": self.version}
        if frame is not None:
            self.ws.send(json.dumps(frame))
        answer = self.receive()
        while answer["type"] == "error" and answer["code"] == "rate_limited":
            time.sleep(0.2)  # faster than any person: the server asks us to slow down
            self.ws.send(json.dumps(frame))
            answer = self.receive()
        assert answer["type"] == "update" and answer["version"] == self.version + 1, answer
        self.version, self.view = answer["version"], answer["view"]


def test_serve_survives_sigkill(tmp_path: Path) -> None:
    db, log, port = tmp_path / "games.sqlite3", tmp_path / "serve.log", _free_port()
    base = f"http://127.0.0.1:{port}"
    rng = random.Random(9)
    server = _serve(db, port, log)
    try:
        http = httpx.Client(base_url=base)
        assert http.post("/api/guest", json={"name": "Anna"}).status_code == 200
        seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * 3
        table = http.post("/api/tables", json={"preset": "kozel", "seats": seats}).json()
        url = f"ws://127.0.0.1:{port}/ws/table/{table['id']}"
        with connect(url) as ws:
            player = Player(ws, table["token"])
            while player.version < 30:
                player.step(rng)
            seen = player.version
            server.kill()  # SIGKILL: no shutdown, no goodbye
            server.wait()
        server = _serve(db, port, log)
        with connect(url) as ws:
            player = Player(ws, table["token"])
            assert player.version >= seen  # whatever was sent had been committed
            while player.view["status"] != "finished":
                player.step(rng)
        record = http.get(f"/api/games/{table['id']}/record").json()
        assert list(replay(record).scores) == player.view["scores"]
        # the post-game review runs in the server's worker process, at --review-ms
        review = http.get(f"/api/games/{table['id']}/review", params={"seat": 0}, timeout=60)
        assert review.status_code == 200, review.text
        assert review.json()["ms"] == 2 and review.json()["moves"]
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.mark.parametrize(
    "option",
    [
        ["--grace", "-1"],
        ["--review-ms", "0"],
        ["--open-for", "0"],
        ["--open-for", "nan"],
        ["--bot-delay", "-2"],
        ["--port", "70000"],
        ["--think-workers", "0"],
        ["--seed", "-1"],
        ["--seed", str(2**62)],  # a table's seed is a 64-bit column, counted up from this
        ["--seed", "x"],
        ["--site", ""],
        ["--site", "a b"],
        ["--site", "a/b"],  # the slash ends a site's name in its keys
        ["--site", "a*"],  # a wildcard would match other sites' keys
        ["--site", "x" * 33],
        ["--site", "staging"],  # without --redis
        ["--redis", "127.0.0.1:6379"],  # no scheme
    ],
)
def test_serve_refuses_bad_options(option: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", *option]) == 2
    assert option[0] in capsys.readouterr().err


def test_serve_says_what_a_site_s_name_may_be(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--redis", "redis://127.0.0.1:6379/0", "--site", "a/b"]) == 2
    said = capsys.readouterr().err
    assert "--site: 'a/b': a site's name is 1 to 32 ASCII letters, digits, '-' or '_'" in said
    assert main(["serve", "--site", "staging"]) == 2
    assert "--site staging needs --redis" in capsys.readouterr().err
