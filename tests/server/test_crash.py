"""Issue 5, item 5: SIGKILL with moves in flight; no event lost, none applied twice.

A real ``doublesix serve`` runs three tables of two players each. Every
table's mover sends a move and the server is killed at once, before or after
it committed them (at the first table after: its update was sent, and lost).
Started again, each client comes back with ``since`` and sends its move again
with the same version: a move that was committed is refused as stale, one
that was not is applied — exactly once either way. The deals are fixed
(``serve --seed``): on a deal of its own, a table's game could be over before
the kill, with no move left to be in flight.
Then the games are played to their end, and the database must hold every
table's events numbered 1, 2, 3, ... with every update any client saw before
the kill among them, and records that replay.
"""

from __future__ import annotations

import json
import random
import sqlite3
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from doublesix.rules.record import replay

from .test_serve import _free_port, _serve

TABLES = 3
SEED = 5


class Client:
    """One seat's socket; every frame it got, by kind."""

    def __init__(self, stack: ExitStack, url: str, token: str, since: Client | None = None) -> None:
        self.url, self.token = url, token
        self.ws: ClientConnection = stack.enter_context(connect(url))
        self.updates: list[dict[str, Any]] = [] if since is None else since.updates
        self.version = 0 if since is None else since.version
        self.view: dict[str, Any] = {} if since is None else since.view
        self.ws.send(json.dumps({"type": "hello", "token": token, "since": self.version or None}))
        first = self.receive()
        if first["type"] == "snapshot":
            self.version, self.view = first["version"], first["view"]
        else:
            assert first["type"] == "resume" and first["since"] == self.version, first
            for _ in range(first["version"] - first["since"]):
                self.take(self.receive())

    def receive(self) -> dict[str, Any]:
        while True:
            frame: dict[str, Any] = json.loads(self.ws.recv(timeout=10))
            if frame["type"] != "presence":
                return frame

    def take(self, frame: dict[str, Any]) -> None:
        assert frame["type"] == "update", frame
        assert frame["version"] == self.version + 1, (frame["version"], self.version)
        self.updates.append(frame)
        self.version = frame["version"]
        if "view" in frame:
            self.view = frame["view"]

    def update(self) -> None:
        self.take(self.receive())


def _act(me: Client) -> dict[str, Any] | None:
    view = me.view
    if view["status"] == "round_over" and view["seat"] not in view["continue"]:
        return {"type": "continue"}
    if view["status"] == "playing" and view["turn"] == view["seat"]:
        return {"type": "play", **view["legal"][0], "version": me.version}
    return None


def _step(pair: list[Client]) -> bool:
    """One command at a table and its update to both; False once the game is over."""
    if pair[0].view["status"] == "finished":
        return False
    for me in pair:
        frame = _act(me)
        if frame is not None:
            me.ws.send(json.dumps(frame))
            answer = me.receive()
            while answer["type"] == "error" and answer["code"] == "rate_limited":
                time.sleep(0.2)  # faster than any person: the server asks us to slow down
                me.ws.send(json.dumps(frame))
                answer = me.receive()
            me.take(answer)
            for c in pair:
                if c is not me:
                    c.update()
            return True
    raise AssertionError(f"nobody can act: {pair[0].view}")


def test_sigkill_with_moves_in_flight(tmp_path: Path) -> None:
    db, log, port = tmp_path / "crash.sqlite3", tmp_path / "serve.log", _free_port()
    server = _serve(db, port, log, seed=SEED)
    stack = ExitStack()
    try:
        tables: list[tuple[str, list[Client]]] = []
        for n in range(TABLES):
            anna, ben = (
                httpx.Client(base_url=f"http://127.0.0.1:{port}"),
                httpx.Client(base_url=f"http://127.0.0.1:{port}"),
            )
            anna.post("/api/guest", json={"name": f"Anna {n}"})
            ben.post("/api/guest", json={"name": f"Ben {n}"})
            body = {
                "preset": "block",
                "options": {"target": 30},
                "seats": [{"kind": "human"}, {"kind": "open"}],
            }
            table = anna.post("/api/tables", json=body).json()
            other = ben.post(f"/api/tables/{table['id']}/join", json={}).json()
            url = f"ws://127.0.0.1:{port}/ws/table/{table['id']}"
            tables.append(
                (
                    table["id"],
                    [Client(stack, url, table["token"]), Client(stack, url, other["token"])],
                )
            )
        rng = random.Random(21)
        for _ in range(12):
            for _, pair in tables:
                if rng.random() < 0.8:
                    _step(pair)
        in_flight: list[tuple[int, dict[str, Any], int]] = []
        for n, (_, pair) in enumerate(tables):  # send, and do not wait
            for i, me in enumerate(pair):
                frame = _act(me)
                if frame is not None:
                    me.ws.send(json.dumps(frame))
                    in_flight.append((i, frame, me.version))
                    if n == 0:  # committed and sent, but its update is lost on the way
                        assert me.receive()["type"] == "update"
                    break
        server.kill()  # SIGKILL
        server.wait()
        for _, pair in tables:
            for c in pair:
                c.ws.close()
        server = _serve(db, port, log, seed=SEED)
        outcomes = []
        for (_, pair), (i, frame, before) in zip(tables, in_flight, strict=True):
            back = [Client(stack, c.url, c.token, since=c) for c in pair]
            pair[:] = back
            committed = back[i].version > before
            assert back[i].version in (before, before + 1)  # nothing lost, nothing made up
            if frame["type"] == "continue" and committed:
                outcomes.append("committed")
                continue  # pressing again would be ignored
            back[i].ws.send(json.dumps(frame))  # the same command again
            answer = back[i].receive()
            if committed:
                assert answer["type"] == "error" and answer["code"] == "stale", answer
                outcomes.append("refused")  # it was committed: not applied twice
            else:
                back[i].take(answer)
                back[1 - i].update()
                outcomes.append("applied")
        for _, pair in tables:
            while _step(pair):
                pass
        stored = _events(db)
        for table_id, pair in tables:
            versions = [v for v, _, _ in stored[table_id]]
            assert versions == list(range(1, len(versions) + 1)), versions
            by_version = {v: (kind, data) for v, kind, data in stored[table_id]}
            for c in pair:  # every update a client saw is the stored event of its number
                seen = [u["version"] for u in c.updates]
                assert seen == sorted(set(seen)), "a client saw an event twice"
                for u in c.updates:
                    kind, data = by_version[u["version"]]
                    plays = [e for e in u["events"] if "play" in e]
                    if kind == "play":
                        assert plays and plays[0]["play"] == data["tile"], (u, data)
            record = httpx.get(f"http://127.0.0.1:{port}/api/games/{table_id}/record").json()
            assert list(replay(record).scores) == pair[0].view["scores"]
        assert len(outcomes) == TABLES, outcomes  # a move was in flight at every table
        assert outcomes[0] in ("refused", "committed"), outcomes
    finally:
        stack.close()
        server.terminate()
        server.wait(timeout=10)


def _events(db: Path) -> dict[str, list[tuple[int, str, dict[str, Any]]]]:
    out: dict[str, list[tuple[int, str, dict[str, Any]]]] = {}
    with sqlite3.connect(db) as conn:
        for table_id, version, kind, data in conn.execute(
            "SELECT table_id, version, kind, data FROM events ORDER BY table_id, version"
        ):
            out.setdefault(table_id, []).append((version, kind, json.loads(data)))
    return out
