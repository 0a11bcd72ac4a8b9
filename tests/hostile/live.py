"""A real ``doublesix serve`` for the hostile tests: started, waited for, killed.

``Served`` runs the server as its own process (as in production: uvicorn,
worker processes, the limits of ``serve``) on a free port with a database
in a temporary folder. Helpers make the records and tables the attacks use.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from doublesix.rules.game import Game
from doublesix.rules.record import game_record
from doublesix.rules.ruleset import preset

with warnings.catch_warnings():  # Starlette 1.x would rather test through httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

__all__ = ["TestClient"]

START = "import sys; from doublesix.cli import main; sys.exit(main())"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Served:
    """``doublesix serve`` with ``options`` on a free port; ``url`` once it answers."""

    def __init__(self, folder: Path, *options: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        self.log = folder / "serve.log"
        args = [
            "serve",
            "--port",
            str(self.port),
            "--db",
            str(folder / "games.sqlite3"),
            "--think-workers",
            "1",
            "--log-level",
            "warning",
        ]
        if "--bot-delay" not in options:
            args += ["--bot-delay", "0"]
        self.proc = subprocess.Popen(
            [sys.executable, "-c", START, *args, *options],
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()
            try:
                if httpx.get(self.url + "/api/bots", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        self.proc.kill()
        raise AssertionError(f"the server did not start: {self.log.read_text()}")

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def children(self) -> list[int]:
        """The server's child processes (its workers)."""
        return children_of(self.proc.pid)

    def client(self, **kw: Any) -> httpx.Client:
        return httpx.Client(base_url=self.url, timeout=30, **kw)


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def long_record(target: int) -> bytes:
    """A valid record of a 2-player Draw game to ``target`` (each seat plays its first move)."""
    game = Game(preset("draw", 2, target=target), 5)
    while not game.finished:
        if game.round.ending is not None:
            game.next_round()
        else:
            game.play(game.legal_moves()[0])
    return json.dumps(game_record(game, ["Anna", "Ben"])).encode()


def guest(http: httpx.Client, name: str) -> None:
    http.cookies.clear()
    r = http.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text


def bot_table(http: httpx.Client, bot: str = "greedy", **body: Any) -> dict[str, Any]:
    """A started table: the guest of ``http`` at seat 0 against one ``bot``."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": bot}]
    r = http.post("/api/tables", json={"preset": "draw", "seats": seats, **body})
    assert r.status_code == 200, r.text
    table: dict[str, Any] = r.json()
    return table


class Player:
    """The human at seat 0 of a table, over a real socket."""

    def __init__(self, served: Served, table: dict[str, Any], **connect_args: Any) -> None:
        self.ws = connect(f"{served.ws}/ws/table/{table['id']}", **connect_args).__enter__()
        self.send({"type": "hello", "token": table["token"], "since": None})
        first = self.receive()
        assert first["type"] == "snapshot", first
        self.version: int = first["version"]
        self.view: dict[str, Any] = first["view"]

    def send(self, frame: dict[str, Any]) -> None:
        self.ws.send(json.dumps(frame))

    def receive(self, timeout: float = 30) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        return frame

    def update(self, timeout: float = 30) -> dict[str, Any]:
        """The next update (other frames are skipped); the view follows it."""
        while True:
            frame = self.receive(timeout)
            if frame["type"] == "update":
                self.version, self.view = frame["version"], frame["view"]
                return frame

    def my_turn(self) -> bool:
        """Whether this seat is to act: its move, or Continue after a round."""
        view = self.view
        if view["status"] == "round_over":
            return view["seat"] not in view["continue"]
        return bool(view["status"] == "playing" and view["turn"] == view["seat"])

    def act(self) -> None:
        """Play the first legal move, or Continue after a round."""
        if self.view["status"] == "round_over":
            self.send({"type": "continue"})
        else:
            self.send({"type": "play", **self.view["legal"][0], "version": self.version})

    def wait_turn(self, timeout: float = 30) -> None:
        """Take updates until it is this seat's to act (its move, or Continue)."""
        while not self.my_turn():
            assert self.view["status"] != "finished", "the game ended"
            self.update(timeout)

    def close(self) -> None:
        self.ws.close()
