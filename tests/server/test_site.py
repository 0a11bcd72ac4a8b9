"""Issue 12: one site on several processes — PostgreSQL for the truth, Redis between them.

Every test here runs real ``doublesix serve`` processes on their own
PostgreSQL database and the machine's Redis (see ``conftest.py``).
"""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from doublesix.cli import main
from doublesix.rules.game import Game
from doublesix.rules.record import replay
from doublesix.server.lobby import build_ruleset

from .site_helpers import Process, Site


def guest(process: Process, name: str) -> httpx.Client:
    """A browser of its own (cookie jar) on ``process``, named ``name``."""
    client = httpx.Client(base_url=process.url, timeout=10)
    assert client.post("/api/guest", json={"name": name}).status_code == 200
    return client


def moved(client: httpx.Client, process: Process) -> httpx.Client:
    """The same browser (cookies) talking to another process."""
    other = httpx.Client(base_url=process.url, timeout=10)
    other.cookies = client.cookies
    return other


class Seat:
    """One seat's socket: it follows the table's versions and plays its first legal move."""

    def __init__(self, process: Process, table: str, token: str | None, since: Seat | None = None):
        self.process, self.table, self.token = process, table, token
        self.versions: list[int] = [] if since is None else since.versions
        self.version = 0 if since is None else since.version
        self.view: dict[str, Any] = {} if since is None else since.view
        self.resumed = False
        self.sent_at = 0.0
        self.skip_errors = False
        """Pass over ``server`` errors (a command refused while the owner changed)."""
        self.ws = process.socket(f"/ws/table/{table}")
        self.ws.send(json.dumps({"type": "hello", "token": token, "since": self.version or None}))
        first = self.receive()
        if first["type"] == "snapshot":
            self.version, self.view = first["version"], first["view"]
        else:
            assert first["type"] == "resume" and first["since"] == self.version, first
            self.resumed = True
            while self.version < first["version"]:
                self.take(self.receive())

    def receive(self, timeout: float = 15) -> dict[str, Any]:
        while True:
            frame: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
            if frame["type"] == "error" and self.skip_errors and frame["code"] == "server":
                continue  # its table was changing hands (any other error is the caller's)
            if frame["type"] not in ("presence", "chat"):
                return frame

    def take(self, frame: dict[str, Any]) -> None:
        assert frame["type"] == "update", frame
        assert frame["version"] == self.version + 1, (frame["version"], self.version)
        self.versions.append(frame["version"])
        self.version = frame["version"]
        if "view" in frame:
            self.view = frame["view"]

    def catch_up(self, version: int) -> None:
        while self.version < version:
            self.take(self.receive())

    def send(self, frame: dict[str, Any]) -> None:
        """Send ``frame`` 50 ms after this socket's last one at the soonest: the server lets a
        socket send 20 frames a second (a seat seldom waits, the other seat moves between)."""
        time.sleep(max(0.0, self.sent_at + 0.05 - time.monotonic()))
        self.ws.send(json.dumps(frame))
        self.sent_at = time.monotonic()

    def act(self) -> dict[str, Any] | None:
        view = self.view
        if view["status"] == "round_over" and view["seat"] not in view["continue"]:
            return {"type": "continue"}
        if view["status"] == "playing" and view["turn"] == view["seat"]:
            return {"type": "play", **view["legal"][0], "version": self.version}
        return None

    def close(self) -> None:
        self.ws.close()


def play(seats: list[Seat], limit: int = 2000) -> None:
    """Play until the game is over: whoever may act acts, every seat takes every update."""
    stale = 0
    for _ in range(limit):
        if seats[0].view["status"] == "finished":
            return
        acted = False
        for seat in seats:
            frame = seat.act()
            if frame is None:
                continue
            seat.send(frame)
            answer = seat.receive()
            if answer["type"] == "error":
                assert answer["code"] in ("server", "stale"), answer  # a table changing hands
                stale += answer["code"] == "stale"
                assert stale < 5, (answer, [(s.version, s.view["status"]) for s in seats])
                continue
            seat.take(answer)
            for other in seats:
                if other is not seat:
                    other.catch_up(seat.version)
            acted = True
            break
        if not acted:  # a frame is on its way: wait for it
            for seat in seats:
                with contextlib.suppress(TimeoutError):
                    seat.take(seat.receive(timeout=0.5))
    raise AssertionError(f"the game did not end: {[s.view['status'] for s in seats]}")


def next_of(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The socket's next frame of type ``kind`` (the others are passed over)."""
    while True:
        frame: dict[str, Any] = json.loads(ws.recv(timeout=15))
        if frame["type"] == kind:
            return frame


def two_player_table(a: Process, b: Process, **options: Any) -> tuple[str, list[str]]:
    """Anna creates a 2-player block table on ``a``; Ben takes the seat on ``b``."""
    anna = guest(a, "Anna")
    body = {"preset": "block", "seats": [{"kind": "human"}, {"kind": "open"}], **options}
    made = anna.post("/api/tables", json=body).json()
    ben = guest(b, "Ben")
    joined = ben.post(f"/api/tables/{made['id']}/join", json={})
    assert joined.status_code == 200, joined.text
    assert moved(ben, a).get(f"/api/tables/{made['id']}").json()["status"] == "playing"
    return made["id"], [made["token"], joined.json()["token"]]


def test_a_game_played_on_two_processes(site: Site) -> None:
    a, b = site.start(), site.start()
    table, tokens = two_player_table(a, b, options={"target": 30})
    seats = [Seat(a, table, tokens[0]), Seat(b, table, tokens[1])]
    watcher = Seat(b, table, None)
    play(seats)
    watcher.catch_up(seats[0].version)
    assert seats[0].versions == seats[1].versions  # every update reached both processes
    assert watcher.view["status"] == "finished" and watcher.view["hand"] == []
    for process in (a, b):
        record = httpx.get(f"{process.url}/api/games/{table}/record").json()
        assert replay(record).result.finished
    health = [httpx.get(f"{process.url}/api/health").json() for process in (a, b)]
    assert [h["checks"] for h in health] == [{"database": "ok", "redis": "ok"}] * 2
    assert health[0]["process"] != health[1]["process"]


def test_the_waiting_room_talks_across_processes(site: Site) -> None:
    """Anna waits at her table on one process; Ben, a visitor on the other, chats with her
    there before he sits down, and the game's start reaches both waiting sockets."""
    a, b = site.start(), site.start()
    anna = guest(a, "Anna")
    body = {"preset": "block", "seats": [{"kind": "human"}, {"kind": "open"}]}
    made = anna.post("/api/tables", json=body).json()
    ben = guest(b, "Ben")
    cookie = {"Cookie": f"ds_guest={ben.cookies['ds_guest']}"}
    sockets = [
        a.socket(f"/ws/table/{made['id']}"),
        b.socket(f"/ws/table/{made['id']}", additional_headers=cookie),
    ]
    for ws, token in zip(sockets, (made["token"], None), strict=True):
        ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
        first = json.loads(ws.recv(timeout=15))
        assert first["type"] == "snapshot" and first["view"]["status"] == "waiting", first

    sockets[1].send(json.dumps({"type": "chat", "text": "room for me?"}))
    for ws in sockets:
        said = next_of(ws, "chat")
        assert (said["from"], said["channel"], said["text"]) == (
            "Ben",
            "spectators",
            "room for me?",
        )
    assert ben.post(f"/api/tables/{made['id']}/join", json={}).status_code == 200
    for ws in sockets:
        update = next_of(ws, "update")
        while update["view"]["status"] != "playing":
            update = next_of(ws, "update")


def test_a_seat_left_before_the_start_is_freed_on_every_process(site: Site) -> None:
    """Ben sits down at Anna's table through the other process and stands up again: his
    socket there watches from then on, and once Carla has taken the seat and Dora the last
    one, the game's start shows it no hand."""
    a, b = site.start(), site.start()
    anna = guest(a, "Anna")
    seats = [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}]
    made = anna.post("/api/tables", json={"preset": "block", "seats": seats}).json()
    ben = guest(b, "Ben")
    joined = ben.post(f"/api/tables/{made['id']}/join", json={}).json()
    cookie = {"Cookie": f"ds_guest={ben.cookies['ds_guest']}"}
    ws = b.socket(f"/ws/table/{made['id']}", additional_headers=cookie)
    ws.send(json.dumps({"type": "hello", "token": joined["token"], "since": None}))
    assert next_of(ws, "snapshot")["view"]["seat"] == 1
    ws.send(json.dumps({"type": "leave"}))
    assert next_of(ws, "unseat") == {"type": "unseat", "seat": 1}
    for name, seat in (("Carla", 1), ("Dora", 2)):
        joins = guest(a, name).post(f"/api/tables/{made['id']}/join", json={"seat": seat})
        assert joins.status_code == 200, joins.text
    update = next_of(ws, "update")
    while update["view"]["status"] != "playing":
        update = next_of(ws, "update")
    assert update["view"]["seat"] is None and update["view"]["hand"] == []


def test_the_owner_dies_and_another_process_finishes_the_game(site: Site) -> None:
    a, b = site.start(), site.start()
    table, tokens = two_player_table(a, b, options={"target": 40})
    seats = [Seat(a, table, tokens[0]), Seat(b, table, tokens[1])]
    for _ in range(4):  # a few moves on the owner, a
        mover = next(s for s in seats if s.act() is not None)
        mover.ws.send(json.dumps(mover.act()))
        mover.take(mover.receive())
        for other in seats:
            other.catch_up(mover.version)
    mover = next(s for s in seats if s.act() is not None)
    in_flight = mover.act()
    assert in_flight is not None
    before = mover.version
    mover.ws.send(json.dumps(in_flight))  # and at once:
    a.kill()
    started = time.monotonic()
    index = seats.index(mover)
    # Seat 0 comes back to b with the last version it saw: exactly what it missed (once b
    # has taken the table over: until then b cannot reach the table's owner).
    seats[0].close()
    while True:
        try:
            seats[0] = Seat(b, table, tokens[0], since=seats[0])
            break
        except Exception:
            assert time.monotonic() - started < 15, "b did not take the table over"
            time.sleep(0.2)
    for seat in seats:
        seat.skip_errors = True
        seat.catch_up(seats[0].version)
    mover = seats[index]
    applied = mover.version > before
    # The move in flight was applied once, or it was not and is applied when sent again.
    mover.ws.send(json.dumps(in_flight))
    answer = mover.receive()
    if applied:
        assert answer["type"] == "error" and answer["code"] == "stale", answer
    else:
        mover.take(answer)
        for other in seats:
            other.catch_up(mover.version)
    play(seats)
    took = time.monotonic() - started
    assert took < 60
    record = httpx.get(f"{b.url}/api/games/{table}/record").json()
    assert replay(record).result.finished
    versions = seats[0].versions
    assert versions == list(range(versions[0], versions[-1] + 1))  # none lost, none twice


def test_bots_and_clocks_resume_on_the_new_owner(site: Site) -> None:
    # A deal of its own: in about one deal of 120 nobody can follow the opening double, the
    # round is over at once and the table waits out Continue's 30 s. In seed 1's deal the
    # bot opens and Anna is to move.
    assert Game(build_ruleset("block", {"target": 20}, 2), 1).turn == 0
    a, b = site.start("--seed", "1"), site.start()
    anna = guest(a, "Anna")
    body = {
        "preset": "block",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
        "options": {"target": 20},
        "timer": 5,
    }
    answer = anna.post("/api/tables", json=body)
    assert answer.status_code == 200, answer.text
    made = answer.json()
    version = made["version"]
    a.kill()
    # Nobody plays: on b the bot moves for itself and the clock moves for Anna.
    deadline = time.monotonic() + 30
    while True:
        now = httpx.get(f"{b.url}/api/tables/{made['id']}").json()
        if now["version"] >= version + 3:
            break
        assert time.monotonic() < deadline, (
            f"the bot and the clock did not resume (version {now['version']}, made at "
            f"{version}); the table on the new owner: {now}; "
            f"its log:\n{b.log.read_text()[-4000:]}"
        )
        time.sleep(0.3)


def test_a_load_test_spreads_each_table_over_both_processes(
    site: Site, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = site.start(), site.start()
    code = main(
        [
            "loadtest", "--url", a.url, "--url", b.url, "--tables", "4", "--clients", "8",
            "--seconds", "4", "--think", "0-0.05", "--target", "30", "--json",
        ]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    figures = json.loads(out)
    assert figures["urls"] == [a.url, b.url]
    assert figures["moves"] > 20 and figures["latency_ms"]["count"] > 10
    assert figures["errors"] == 0, figures["errors_by_kind"]
    assert figures["lost"] == 0 and figures["duplicated"] == 0
