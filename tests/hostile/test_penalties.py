"""Issue 13, item 4: the penalty box. An address that passes its limits again and again is
refused at once, before any parsing, for a cool-down; other addresses are not touched."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi import FastAPI, WebSocket
from limits import parse
from websockets.sync.client import connect

from doublesix.server.addresses import CLOSE_LIMITED, AddressGuard, AddressLimits
from doublesix.server.connections import GuardedH11Protocol
from doublesix.server.penalties import PenaltyBox
from doublesix.server.windows import MovingWindows

from .live import Served, free_port

ATTACKER = "127.0.0.2"
"""Another loopback address: the server sees it as another client."""


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_moving_windows_count_hits_per_key_and_forget_them() -> None:
    clock = Clock()
    windows = MovingWindows(clock)
    three = parse("3/10 seconds")
    for _ in range(3):
        assert windows.hit(three, "a")
        clock.now += 2
    assert not windows.hit(three, "a")  # three hits in 4 s: the fourth is refused
    assert windows.hit(three, "b")  # another key has its own window
    assert windows.reset_in(three, "a") == 4.0  # the first hit leaves the window then
    clock.now += 4
    assert windows.hit(three, "a") and not windows.hit(three, "a")  # one hit left, one came
    clock.now += 3600
    assert windows.hit(three, "c")  # the sweep forgot the stale keys
    assert windows.reset_in(three, "a") == 0.0


def test_the_box_holds_an_address_past_its_strikes_until_its_time_is_up() -> None:
    clock = Clock()
    box = PenaltyBox("3/10 seconds", seconds=60, clock=clock)
    for _ in range(3):
        box.strike("10.0.0.1", "requests: at most 300 per 10 seconds")
    assert box.refuses("10.0.0.1") is None  # three strikes are allowed
    box.strike("10.0.0.1", "requests: at most 300 per 10 seconds")
    boxed = box.refuses("10.0.0.1")
    assert boxed is not None and boxed.limit == "requests: at most 300 per 10 seconds"
    assert "refused for 60 s" in boxed.message and "300 per 10 seconds" in boxed.message
    assert box.retry_after(boxed) == 60 and box.refused == 1
    assert box.refuses("10.0.0.2") is None  # only that address
    clock.now += 59.5
    assert box.refuses("10.0.0.1") is not None and box.retry_after(boxed) == 1
    clock.now += 0.5
    assert box.refuses("10.0.0.1") is None and box.refused == 2  # let go


@dataclass
class Small:
    """A real uvicorn: the guarded protocol and the address limits, both with ``box``."""

    port: int
    box: PenaltyBox

    def client(self, address: str) -> httpx.Client:
        transport = httpx.HTTPTransport(local_address=address)
        return httpx.Client(base_url=f"http://127.0.0.1:{self.port}", transport=transport)

    def connection(self, address: str) -> socket.socket:
        sock = socket.socket()
        sock.settimeout(10)
        sock.bind((address, 0))
        sock.connect(("127.0.0.1", self.port))
        return sock


@pytest.fixture
def small() -> Iterator[Small]:
    """5 requests a minute, 4 connections an address; 3 strikes a minute, then 1 s boxed."""
    box = PenaltyBox("3/minute", seconds=1.0)

    class Boxing(GuardedH11Protocol):
        per_address = 4

    Boxing.box = box
    app = FastAPI()

    @app.get("/")
    async def root() -> dict[str, bool]:
        return {"ok": True}

    @app.websocket("/ws")
    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        await ws.send_text(await ws.receive_text())
        await ws.close()

    limits = AddressLimits(requests="5/minute", routes={})
    port = free_port()
    config = uvicorn.Config(
        AddressGuard(app, limits, box), port=port, http=Boxing, log_level="error", lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield Small(port, box)
    server.should_exit = True
    thread.join(10)


def test_a_request_flood_is_boxed_then_let_go_and_others_never_feel_it(small: Small) -> None:
    with small.client(ATTACKER) as attacker, small.client("127.0.0.1") as player:
        answers = [attacker.get("/") for _ in range(9)]  # kept alive: one connection
        assert [a.status_code for a in answers] == [200] * 5 + [429] * 4
        assert answers[5].json()["error"].startswith("too many requests")
        # the fourth refusal was a strike too many: the box answers, and closes
        boxed = attacker.get("/")
        assert boxed.status_code == 429 and boxed.headers["connection"] == "close"
        assert "refused for 1 s" in boxed.json()["error"]
        assert boxed.json()["limit"] == "requests: at most 5 per minute"
        assert boxed.headers["retry-after"] == "1"
        assert player.get("/").status_code == 200  # another address is not touched

        # a new connection of the boxed address is answered before it sends anything
        refused = small.box.refused
        with small.connection(ATTACKER) as sock:
            answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 429 ") and b"refused for" in answer
        assert b"requests: at most 5 per minute" in answer
        assert small.box.refused == refused + 1  # counted
        deadline = time.monotonic() + 30
        while small.box.refuses(ATTACKER) is not None:  # the cool-down of 1 s
            assert time.monotonic() < deadline
            time.sleep(0.1)
        # let go: the limit answers again (its window is still full), not the box
        again = attacker.get("/")
        assert again.status_code == 429 and again.json()["error"].startswith("too many requests")


def test_a_connection_flood_is_boxed_and_its_kept_connections_refused(small: Small) -> None:
    held = [small.connection(ATTACKER) for _ in range(4)]
    for sock in held:  # half-sent requests: the four the cap allows
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    for _ in range(4):  # one over the cap, four times: the fourth is a strike too many
        with small.connection(ATTACKER) as extra:
            answer = extra.recv(4096)
        assert answer.startswith(b"HTTP/1.1 429 ")
        assert b"at most 4 connections from one address" in answer
    for sock in held:  # the rest of a held request is refused by the box, unread
        sock.sendall(b"\r\n")
        answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 429 ") and b"refused for" in answer, answer
        assert b"at most 4 connections from one address" in answer
        assert sock.recv(4096) == b""  # and closed
        sock.close()
    with small.client("127.0.0.1") as player:
        assert player.get("/").status_code == 200


def test_a_boxed_address_has_its_sockets_refused_with_the_limit(small: Small) -> None:
    kept = small.connection(ATTACKER)  # admitted before the box: a request answered
    kept.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    answer = b""
    while not answer.endswith(b'{"ok":true}'):
        answer += kept.recv(4096)
    for _ in range(4):
        small.box.strike(ATTACKER, "sockets: at most 32 from one address")
    # A new connection is answered 429 at once, before it sends a byte. (Read from a raw
    # socket: a WebSocket client that has not sent its handshake yet when the answer and
    # the close arrive reports a closed connection instead of the status.)
    with small.connection(ATTACKER) as fresh:
        refused = b""
        while more := fresh.recv(4096):
            refused += more
    assert refused.startswith(b"HTTP/1.1 429 ")
    assert b"at most 32 from one address" in refused
    handshake = (
        "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    with kept:  # the kept connection's socket: accepted, then closed with 4429 and why
        kept.sendall(handshake.encode())
        answer = b""
        while b"refused for" not in answer:
            more = kept.recv(4096)
            assert more, answer
            answer += more
    assert answer.startswith(b"HTTP/1.1 101 ")
    assert b"\x88" in answer and CLOSE_LIMITED.to_bytes(2, "big") in answer
    url = f"ws://127.0.0.1:{small.port}/ws"
    with connect(url, source_address=("127.0.0.1", 0)) as ws:  # another address
        ws.send("hello")
        assert ws.recv(timeout=10) == "hello"


def test_serve_boxes_a_request_flood_and_keeps_its_players(tmp_path: Path) -> None:
    limits = AddressLimits()
    with Served(tmp_path) as served:
        transport = httpx.HTTPTransport(local_address=ATTACKER)
        with httpx.Client(base_url=served.url, transport=transport, timeout=30) as attacker:
            statuses = [attacker.get("/api/bots").status_code for _ in range(330)]
            boxed = attacker.get("/api/bots")
        assert statuses.count(200) == parse(limits.requests).amount
        assert boxed.status_code == 429 and "refused for 60 s" in boxed.json()["error"]
        assert boxed.json()["limit"] == "requests: at most 300 per 10 seconds"
        with served.client() as player:
            assert player.get("/api/bots").status_code == 200
        assert "address 127.0.0.2 refused for 60 s" in served.log.read_text()
