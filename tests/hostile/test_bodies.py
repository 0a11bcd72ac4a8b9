"""Issue 13, item 2: bodies are capped per route while they stream in, refused early
(413 with the limit, connection closed), and deeply nested JSON is a 4xx JSON error."""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request

from doublesix import record_bounds
from doublesix.server.bodies import DEFAULT_LIMIT, BodyLimit
from doublesix.server.errors import install

from .live import Served


def _head(served: Served, path: str, *headers: str) -> socket.socket:
    """A connection that has sent the request line and ``headers``, and no body yet."""
    sock = socket.create_connection(("127.0.0.1", served.port), timeout=10)
    lines = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{served.port}", *headers]
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
    return sock


def _answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    while len(body) < int(headers.get("content-length", "0")):
        body += sock.recv(65536)
    return int(lines[0].split()[1]), headers, body


def test_bodies_are_refused_before_they_are_read(tmp_path: Path) -> None:
    with Served(tmp_path) as served:
        # a declared 300 MB body: answered before a byte of it is sent
        sock = _head(served, "/api/records", "Content-Length: 300000000")
        status, headers, body = _answer(sock)
        assert status == 413 and headers["connection"] == "close"
        assert json.loads(body)["limit"] == record_bounds.MAX_BYTES
        sock.close()

        # a 60 MB name streamed without a length: refused once past the guest route's cap,
        # and the connection is closed under the sender
        sock = _head(served, "/api/guest", "Transfer-Encoding: chunked")
        chunk = b"%x\r\n%s\r\n" % (65536, b"x" * 65536)
        sent = 0
        with pytest.raises(OSError):
            for _ in range(60 * 16):
                sock.sendall(chunk)
                sent += 65536
        assert sent < 60 * 2**20
        sock.close()

        with served.client() as http:
            nested = http.post(
                "/api/guest", content=b"[" * 1000, headers={"content-type": "application/json"}
            )
            assert nested.status_code == 400
            assert nested.json()["error"] == "the JSON is nested too deeply"
            nested = http.post("/api/records", content=b"[" * 1000)
            assert nested.status_code == 422 and "nested too deeply" in nested.json()["error"]
            small = http.post("/api/guest", json={"name": "Anna" * 5000})
            assert small.status_code == 413 and small.json()["limit"] == DEFAULT_LIMIT


def test_a_body_that_trickles_in_is_cut_off() -> None:
    app = FastAPI()
    install(app)

    @app.post("/echo")
    async def echo(request: Request) -> dict[str, int]:
        return {"bytes": len(await request.body())}

    async def call(gap: float) -> tuple[int, Any]:
        """POST /echo a body of 10 bytes sent one by one, ``gap`` seconds apart."""
        sent: list[Any] = []
        left = 10

        async def receive() -> dict[str, Any]:
            nonlocal left
            await asyncio.sleep(gap)
            left -= 1
            return {"type": "http.request", "body": b"x", "more_body": left > 0}

        async def send(message: Any) -> None:
            sent.append(message)

        scope = {
            "type": "http",
            "method": "POST",
            "path": "/echo",
            "raw_path": b"/echo",
            "query_string": b"",
            "headers": [(b"content-length", b"10")],
            "http_version": "1.1",
            "scheme": "http",
            "client": ("127.0.0.1", 1),
            "server": ("127.0.0.1", 2),
            "root_path": "",
        }
        await BodyLimit(app, seconds=0.3)(scope, receive, send)
        return sent[0]["status"], json.loads(sent[1]["body"])

    assert asyncio.run(call(0.0)) == (200, {"bytes": 10})
    status, body = asyncio.run(call(0.1))
    assert status == 408 and "within" in body["error"]
