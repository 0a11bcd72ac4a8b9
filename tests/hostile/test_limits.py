"""Issue 13, items 4 and 8: limits per client (connections, headers, requests, sockets,
tables), quiet logs, and what the browser is told (security headers, socket origins)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from doublesix.server.addresses import CLOSE_LIMITED, AddressLimits
from doublesix.server.connections import GuardedH11Protocol
from doublesix.server.headers import CLOSE_ORIGIN

from .live import Served, bot_table, free_port, guest


class Quick(GuardedH11Protocol):
    header_seconds = 1.0
    per_address = 8


@pytest.fixture
def small_server() -> Iterator[int]:
    """A real uvicorn with the guarded protocol (1 s for headers, 8 connections an address)."""
    app = FastAPI()

    @app.get("/")
    async def root() -> dict[str, bool]:
        return {"ok": True}

    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, port=port, http=Quick, log_level="warning", lifespan="off")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield port
    server.should_exit = True
    thread.join(10)


def _half_sent(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
    return sock


def test_half_sent_requests_are_bounded_per_address_and_in_time(small_server: int) -> None:
    held = [_half_sent(small_server) for _ in range(8)]
    extra = _half_sent(small_server)
    assert extra.recv(4096).startswith(b"HTTP/1.1 429 ")  # at once: over the cap
    for sock in held:  # after the header timeout, every one is answered and closed
        answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 408 "), answer
        assert sock.recv(4096) == b""
    with socket.create_connection(("127.0.0.1", small_server), timeout=10) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert sock.recv(4096).startswith(b"HTTP/1.1 200 ")  # the count went back down


def test_limits_per_address_and_per_guest(tmp_path: Path) -> None:
    limits = AddressLimits()
    with Served(tmp_path) as served, served.client() as http:
        # tables per guest: five unfinished at once
        guest(http, "Anna")
        for _ in range(5):
            bot_table(http)
        r = http.post("/api/tables", json={"preset": "draw"})
        assert r.status_code == 429 and r.json()["error"].startswith("a guest has 5"), r.text

        # sockets per address: one more than the limit is closed with the limit as reason
        table = bot_table_of(http)
        url = f"{served.ws}/ws/table/{table}"
        sockets = [connect(url).__enter__() for _ in range(limits.sockets)]
        with connect(url) as extra, pytest.raises(ConnectionClosed) as closed:
            extra.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_LIMITED
        assert "sockets from one address" in closed.value.rcvd.reason
        for ws in sockets:
            ws.close()

        # requests per route: new guests
        answers = [http.post("/api/guest", json={"name": "Ben"}) for _ in range(30)]
        assert 429 in [a.status_code for a in answers]
        refused = next(a for a in answers if a.status_code == 429)
        assert refused.json()["limit"] == "30 per minute" and refused.headers["retry-after"]
        assert "POST /api/guest" in refused.json()["error"]

        # the lobby's list of tables: a query over every table, fewer than other requests
        answers = [http.get("/api/tables") for _ in range(30)]
        refused = next(a for a in answers if a.status_code == 429)
        assert refused.json()["limit"] == "30 per 10 seconds"
        assert "GET /api/tables" in refused.json()["error"]

        # a player's records, each replayed from its table's log: fewer still
        answers = [http.get("/api/records", params={"player": "Nobody"}) for _ in range(11)]
        assert [a.status_code for a in answers] == [404] * 10 + [429]
        assert answers[-1].json()["limit"] == "10 per minute"


def bot_table_of(http: httpx.Client) -> str:
    """The id of a table being played (any table will do for spectators)."""
    return str(http.get("/api/tables").json()["playing"][0]["id"])


def test_logs_stay_quiet_under_garbage(tmp_path: Path) -> None:
    with Served(tmp_path) as served:
        for _ in range(300):
            with socket.create_connection(("127.0.0.1", served.port), timeout=10) as sock:
                sock.sendall(b"\x16\x03\x01 not http at all\r\n\r\n")
                sock.recv(4096)
        served.stop()
        lines = served.log.read_text().splitlines()
    invalid = [line for line in lines if "Invalid HTTP request" in line]
    assert 0 < len(invalid) <= 30, len(invalid)
    assert any("more like this dropped" in line for line in invalid) or len(invalid) < 30


def test_pages_say_what_the_browser_may_do_and_sockets_check_their_origin(
    tmp_path: Path,
) -> None:
    with Served(tmp_path) as served, served.client() as http:
        for path in ("/", "/api/bots", "/api/tables/nope"):
            headers = http.get(path).headers
            assert "frame-ancestors 'none'" in headers["content-security-policy"]
            assert "script-src 'self'" in headers["content-security-policy"]
            assert headers["x-frame-options"] == "DENY"
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "same-origin"
        guest(http, "Anna")
        table = bot_table(http)
        url = f"{served.ws}/ws/table/{table['id']}"
        with connect(url, origin="http://evil.example") as ws, pytest.raises(ConnectionClosed) as e:
            ws.recv(timeout=10)
        assert e.value.rcvd is not None and e.value.rcvd.code == CLOSE_ORIGIN
        own = f"http://127.0.0.1:{served.port}"
        with connect(url, origin=own) as ws:  # type: ignore[arg-type]
            ws.send('{"type": "hello", "token": null, "since": null}')
            assert '"snapshot"' in str(ws.recv(timeout=10))


def test_a_serve_origin_lets_another_site_in(tmp_path: Path) -> None:
    with (
        Served(tmp_path, "--origin", "https://dominoes.example") as served,
        served.client() as http,
    ):
        guest(http, "Anna")
        table = bot_table(http)
        url = f"{served.ws}/ws/table/{table['id']}"
        with connect(url, origin="https://dominoes.example") as ws:  # type: ignore[arg-type]
            ws.send('{"type": "hello", "token": null, "since": null}')
            assert '"snapshot"' in str(ws.recv(timeout=10))
