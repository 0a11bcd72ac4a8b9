"""Browser tests: the real server (``doublesix serve``) and Debian's Chromium through Playwright.

The server runs in a subprocess on a free port with a fresh SQLite file and
quick bots. Every browser context records the requests of its pages (and
their WebSockets); at the end of a test each of them must have gone to the
server's own origin: no page loads anything from outside.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import SCREENSHOTS, Requests, play_bot_game, watch_errors

CHROMIUM = os.environ.get("DOUBLESIX_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
BOT_DELAY = "0.02"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait_for(url: str, proc: subprocess.Popen[bytes], seconds: float = 30.0) -> None:
    import httpx

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"doublesix serve exited with {proc.returncode}")
        try:
            if httpx.get(url, timeout=1.0).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer at {url}")


def serve(folder: Path, *extra: str) -> Iterator[str]:
    """Run ``doublesix serve`` (quick bots, SQLite in ``folder``, options ``extra``) while
    the generator is open; it yields the server's base URL."""
    port = _free_port()
    db = f"sqlite+aiosqlite:///{folder / 'browser.sqlite3'}"
    exe = shutil.which("doublesix", path=str(Path(sys.executable).parent))
    command = [exe] if exe else [sys.executable, "-c", "from doublesix.cli import main; main()"]
    command += ["serve", "--port", str(port), "--db", db, "--bot-delay", BOT_DELAY]
    command += ["--log-level", "warning", *extra]
    log = (folder / "server.log").open("wb")
    proc = subprocess.Popen(command, cwd=folder, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_for(f"{base}/api/bots", proc)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running ``doublesix serve``, without its limits per client address:
    every browser test's players come from 127.0.0.1, and on a fast machine the suite names
    more guests a minute than one address may (30, ``addresses.AddressLimits``), which
    ``tests/hostile`` tests against the real server."""
    yield from serve(tmp_path_factory.mktemp("server"), "--no-limits")


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """Chromium driven by Playwright, for the browser tests only: Playwright's sync API
    runs an event loop in this thread, which must be gone before other tests call
    ``asyncio.run``."""
    if not Path(CHROMIUM).exists():  # `make test` installs it: apt-get install chromium
        if os.environ.get("CI"):
            pytest.fail(f"no Chromium at {CHROMIUM}: `make test` installs it")
        pytest.skip(f"no Chromium at {CHROMIUM}")
    playwright_sync = pytest.importorskip("playwright.sync_api")
    with playwright_sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def new_context(browser: Any, server: str) -> Iterator[Callable[..., Any]]:
    """Make browser contexts; each one's requests must stay on the server's origin."""
    made: list[tuple[Any, Requests]] = []
    errors: list[str] = []

    def make(**options: Any) -> Any:
        options.setdefault("viewport", {"width": 1280, "height": 800})
        options.setdefault("locale", "en-US")
        # every state at once (the pages honour the setting), so no wait is for an animation
        options.setdefault("reduced_motion", "reduce")
        # Playwright's waits evaluate strings in the page, which the server's
        # Content-Security-Policy forbids: test_browser_csp.py checks the pages under it
        options.setdefault("bypass_csp", True)
        context = browser.new_context(base_url=server, **options)
        requests = Requests()
        requests.watch(context)
        context.on("page", lambda page: watch_errors(page, errors))
        made.append((context, requests))
        return context

    yield make
    for context, requests in made:
        context.close()
        assert requests.urls, "no request was recorded"
        assert requests.outside(server) == [], "a page loaded something from outside"
    assert errors == [], "a page raised an error"


@pytest.fixture(scope="session")
def finished_game(server: str) -> str:
    """The id of a finished Kozel game (seat 0 and three bots), played over the socket."""
    return play_bot_game(server)


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    """Where a test saves its screenshots: ``$DOUBLESIX_SCREENSHOTS`` (``make screenshots``
    sets docs/, the README's pictures) or else a folder of the test's own."""
    folder = Path(os.environ.get(SCREENSHOTS) or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
