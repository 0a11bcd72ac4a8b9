"""Helpers of the server tests: guests, tables, socket players, a game played to its end."""

from __future__ import annotations

import asyncio
import io
import os
import random
import warnings
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from typing import Any, TypeVar

import pytest
from fastapi import FastAPI

from doublesix.cli import main

with warnings.catch_warnings():  # Starlette 1.x would rather test through httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession

AppFactory = Callable[..., FastAPI]


T = TypeVar("T")


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to its end on a loop of its own, even when the calling thread
    already runs one (the browser tests' Playwright does, in the same session)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


POSTGRES = os.environ.get(
    "DOUBLESIX_TEST_POSTGRES", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)

BOTH = pytest.mark.parametrize("backend", ["sqlite", "postgres"], indirect=True)
"""A test run on both databases: SQLite and this machine's PostgreSQL."""


def guest(client: TestClient, name: str) -> dict[str, Any]:
    """Become a new guest: the client's cookie jar now holds only its cookie; its id (the
    cookie's secret, never in an answer) and name."""
    client.cookies.clear()
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    return {"id": client.cookies["ds_guest"], "name": r.json()["player"]["name"]}


def new_table(client: TestClient, creator: str = "Anna", **body: Any) -> dict[str, Any]:
    guest(client, creator)
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def join(client: TestClient, table_id: str, name: str, **body: Any) -> dict[str, Any]:
    guest(client, name)
    r = client.post(f"/api/tables/{table_id}/join", json=body)
    assert r.status_code == 200, r.text
    return dict(r.json())


def human_table(
    client: TestClient, preset: str, players: int, **options: Any
) -> tuple[str, list[str]]:
    """A table of ``players`` humans that has started; its id and each seat's token."""
    seats = [{"kind": "human"}] + [{"kind": "open"}] * (players - 1)
    table = new_table(client, preset=preset, options=options, seats=seats)
    tokens = [table["token"]]
    for n in range(1, players):
        answer = join(client, table["id"], f"Player {n}")
        assert answer["seat"] == n
        tokens.append(answer["token"])
    assert client.get(f"/api/tables/{table['id']}").json()["status"] == "playing"
    return table["id"], tokens


class Socket:
    """One client at a table: its frames, the last version and view it saw."""

    def __init__(
        self,
        client: TestClient,
        stack: ExitStack,
        table_id: str,
        token: str | None,
        *,
        since: Socket | None = None,
    ) -> None:
        """Say hello as ``token`` (None: watch); ``since``: the socket this one replaces,
        whose last version it sends, and whose view it keeps if nothing was missed."""
        self._own = ExitStack()
        stack.callback(self._own.close)
        self.ws: WebSocketTestSession = self._own.enter_context(
            client.websocket_connect(f"/ws/table/{table_id}")
        )
        v = None if since is None else since.version
        self.ws.send_json({"type": "hello", "token": token, "since": v})
        first = self.ws.receive_json()
        self.frames: list[dict[str, Any]] = [first]
        self.resumed = first["type"] == "resume"
        """Whether the server sent the missing events rather than a snapshot."""
        if self.resumed:
            assert since is not None and first["since"] == v, first
            self.version = first["since"]
            self.view = since.view
            for _ in range(first["version"] - first["since"]):
                frame = self.receive()
                assert frame["type"] == "update", frame
                assert frame["version"] == self.version + 1, (frame, self.version)
                self.version = frame["version"]
                if frame["version"] == first["version"]:
                    self.view = frame["view"]
                else:
                    assert "view" not in frame, frame
            assert self.version == first["version"]
            presence = self.ws.receive_json()
            self.frames.append(presence)
            assert presence["type"] == "presence", presence
            self.away: list[dict[str, Any]] = presence["away"]
            """The seats whose players are disconnected, as the last presence frame said."""
            return
        assert first["type"] == "snapshot", first
        self.version: int = first["version"]
        self.view: dict[str, Any] = first["view"]
        self.away = self.view["away"]

    def close(self) -> None:
        self._own.close()

    @property
    def state(self) -> dict[str, Any]:
        """The view without ``away``: what a restart must keep as it was."""
        return {k: v for k, v in self.view.items() if k != "away"}

    @property
    def seat(self) -> int | None:
        seat: int | None = self.view["seat"]
        return seat

    def send(self, frame: dict[str, Any]) -> None:
        self.ws.send_json(frame)

    def receive(self) -> dict[str, Any]:
        """The next frame that is not a ``presence`` one (those are kept in ``away``)."""
        while True:
            frame: dict[str, Any] = self.ws.receive_json()
            self.frames.append(frame)
            if frame["type"] != "presence":
                return frame
            self.away = frame["away"]

    def receive_presence(self) -> dict[str, Any]:
        """The next frame, which must be a ``presence`` one."""
        frame: dict[str, Any] = self.ws.receive_json()
        self.frames.append(frame)
        assert frame["type"] == "presence", frame
        self.away = frame["away"]
        return frame

    def all_here(self) -> None:
        """Take presence frames until nobody is away (when every seat has said hello)."""
        while self.away:
            self.receive_presence()

    def update(self) -> dict[str, Any]:
        """The next frame, which must be the update after the last version seen."""
        frame = self.receive()
        assert frame["type"] == "update", frame
        assert frame["version"] == self.version + 1, (frame["version"], self.version)
        self.version = frame["version"]
        self.view = frame["view"]
        check_view(self.view)
        return frame

    def error(self) -> dict[str, Any]:
        frame = self.receive()
        assert frame["type"] == "error", frame
        return frame

    def play(self, move: dict[str, Any], version: int | None = None) -> None:
        self.send(
            {
                "type": "play",
                "tile": move["tile"],
                "end": move["end"],
                "version": self.version if version is None else version,
            }
        )


def check_view(view: dict[str, Any]) -> None:
    """What a seat may see, and no more (issue 5 scans every frame; this is the gist)."""
    seat = view["seat"]
    if view["status"] == "waiting":
        return
    if seat is None:
        assert view["hand"] == [] and view["legal"] == []
    else:
        assert len(view["hand"]) == view["hand_counts"][seat]
        if view["turn"] != seat:
            assert view["legal"] == []
    for event in view["events"]:
        if "draw" in event and event["seat"] != seat:
            assert event["draw"] is None, (seat, event)
    assert (view["revealed"] is None) == (view["status"] == "playing")


def play_out(
    sockets: list[Socket],
    watchers: list[Socket],
    rng: random.Random,
    *,
    stop_after: int | None = None,
) -> int:
    """Play through the sockets until the game ends (or ``stop_after`` commands); how many.

    ``sockets[i]`` is seat i's; every socket and watcher must get each update.
    """
    everyone = sockets + watchers
    commands = 0
    while stop_after is None or commands < stop_after:
        view = sockets[0].view
        if view["status"] == "finished":
            break
        if view["status"] == "round_over":
            for s in sockets:
                if s.view["status"] != "round_over":
                    break
                if s.seat in s.view["continue"]:
                    continue  # pressed already (a second press would be ignored)
                s.send({"type": "continue"})
                for other in everyone:
                    other.update()
                commands += 1
            continue
        mover = sockets[view["turn"]]
        legal = mover.view["legal"]
        assert legal, mover.view
        mover.play(rng.choice(legal))
        for s in everyone:
            frame = s.update()
            assert frame["events"], frame
        commands += 1
        versions = {s.version for s in everyone}
        assert len(versions) == 1, versions
    return commands


def finished_table(client: TestClient, preset: str, players: int, seed: int, **options: Any) -> str:
    """A table of ``players`` humans, played to its end with random moves; its id."""
    table_id, tokens = human_table(client, preset, players, **options)
    with ExitStack() as stack:
        sockets = [Socket(client, stack, table_id, t) for t in tokens]
        play_out(sockets, [], random.Random(seed))
    return table_id


def apply_online(players: list[dict[str, Any]], frame: dict[str, Any]) -> list[dict[str, Any]]:
    """The list of who is online after an ``online`` frame, as the lobby page makes it: each
    entry of ``removed`` taken out once, those of ``added`` put in, by name."""
    kept = list(players)
    for entry in frame["removed"]:
        kept.remove(entry)  # ValueError: the frame removes what the list does not hold
    return sorted(kept + frame["added"], key=lambda p: str(p["name"]).casefold())


class Clock:
    """A site's clock that a test moves (``clock.now += 60``)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


Command = Callable[..., tuple[int, str, str]]
"""``doublesix account ARGS... --db DB`` with ``typed`` on its standard input: exit code,
standard output and standard error."""


def command_on(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Command:
    def run(*args: str, typed: str = "") -> tuple[int, str, str]:
        monkeypatch.setattr("sys.stdin", io.StringIO(typed + "\n"))
        code = main(["account", *args, "--db", db])
        out, err = capsys.readouterr()
        return code, out, err

    return run
