"""Issue 5, item 7: ``doublesix loadtest`` at a tiny scale against a real ``doublesix serve``."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from doublesix.cli import main
from doublesix.loadtest import LoadError, check_url, parse_think

from .test_serve import _free_port, _serve


def loadtest_against_a_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: str
) -> tuple[int, str, float]:
    """``doublesix loadtest --url … OPTIONS --json`` against a ``doublesix serve`` of its own:
    the exit code, what it printed, and the seconds it took."""
    port = _free_port()
    server = _serve(tmp_path / "load.sqlite3", port, tmp_path / "serve.log")
    try:
        started = time.monotonic()
        url = f"http://127.0.0.1:{port}"
        code = main(["loadtest", "--url", url, *options.split(), "--json"])
        took = time.monotonic() - started
        return code, capsys.readouterr().out, took
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_loadtest_plays_and_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    options = "--tables 2 --clients 5 --players 3 --seconds 3 --think 0-0.05 --target 30"
    code, out, took = loadtest_against_a_server(tmp_path, capsys, options)
    assert code == 0, out
    figures: dict[str, Any] = json.loads(out)
    assert took < 15  # it stops by itself
    assert figures["clients"] == 5 and figures["tables"] == 2
    assert figures["connected"] >= 5
    assert figures["moves"] > 20 and figures["moves_per_second"] > 5
    assert figures["latency_ms"]["count"] > 10
    assert 0 < figures["latency_ms"]["p50"] <= figures["latency_ms"]["p99"]
    assert figures["errors"] == 0, figures["errors_by_kind"]
    assert figures["lost"] == 0 and figures["duplicated"] == 0


def test_loadtest_in_two_processes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--processes 2``: each process plays its share of the tables; one report of both."""
    options = "--tables 2 --clients 5 --players 3 --seconds 3 --think 0-0.05 --target 30"
    code, out, _ = loadtest_against_a_server(tmp_path, capsys, options + " --processes 2")
    assert code == 0, out
    figures: dict[str, Any] = json.loads(out)
    assert figures["processes"] == 2 and figures["clients"] == 5 and figures["tables"] == 2
    assert figures["connected"] >= 5 and figures["moves"] > 10
    assert figures["latency_ms"]["count"] > 5
    assert 0 < figures["latency_ms"]["p50"] <= figures["latency_ms"]["p99"]
    assert figures["errors"] == 0, figures["errors_by_kind"]
    assert figures["lost"] == 0 and figures["duplicated"] == 0
    assert "latencies_ms" not in figures


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com:8000",
        "http://10.1.2.3:8000",
        "http://0.0.0.0:8000",
        "https://127.0.0.1:8000",
        "ws://127.0.0.1:8000",
        "http://127.0.0.1.example.com:8000",
        "http://[::ffff:8.8.8.8]:80",
    ],
)
def test_loadtest_refuses_other_hosts(
    url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def nothing(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"connected to {args}")

    monkeypatch.setattr(asyncio, "open_connection", nothing)
    monkeypatch.setattr(socket.socket, "connect", nothing)
    assert main(["loadtest", "--url", url, "--seconds", "1"]) == 2
    assert "loadtest: error" in capsys.readouterr().err


def test_loopback_urls_and_think_times() -> None:
    assert check_url("http://127.0.0.1:8000") == ("127.0.0.1", 8000, "")
    assert check_url("http://127.0.0.2:9/x/") == ("127.0.0.2", 9, "/x")
    assert check_url("http://[::1]:8000")[0] == "::1"
    assert check_url("http://localhost:8000")[0] == "localhost"
    assert parse_think("0.5-2") == (0.5, 2.0)
    assert parse_think("0") == (0.0, 0.0)
    for bad in ["2-1", "x", "-1", "0.5-"]:
        with pytest.raises(LoadError):
            parse_think(bad)


def test_loadtest_without_a_server(capsys: pytest.CaptureFixture[str]) -> None:
    port = _free_port()
    assert main(["loadtest", "--url", f"http://127.0.0.1:{port}", "--seconds", "1"]) == 1
    assert "no doublesix server" in capsys.readouterr().err
