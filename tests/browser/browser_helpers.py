"""Helpers of the browser tests: request recording, a socket player, a clicking player."""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # the tests are skipped then (conftest.py)
    PlaywrightTimeout = TimeoutError  # type: ignore[misc,assignment]

SCREENSHOTS = "DOUBLESIX_SCREENSHOTS"
"""The folder the README's screenshots are written to when set (``make screenshots``: docs/)."""

UNMISTAKABLE = "cdfghjkmnpqrvwxyz"
"""Letters no account name rule reads as another character (``0`` as ``o``, ``7`` as ``t``...)."""


def person_name(first: str) -> str:
    """``first`` and four random letters: a name of the test's own for a guest or an account.

    A hex tag would not do: ``Bo_7b4e`` reads as ``bot...``, which the server refuses
    (``account_names.looks_like_bot``) once in sixteen runs."""
    return first + "".join(secrets.choice(UNMISTAKABLE) for _ in range(4))


REFUSED = "#toasts .toast.error, #identity .error:not(:empty)"
"""Where the lobby says why it refused a name: a toast (the guest form), the account form."""


def shown_as(page: Any, name: str) -> None:
    """Wait until the lobby names the page's player ``name``; if the lobby refused the name,
    fail at once with its reason rather than at a timeout."""
    page.locator(f"#identity .my-name, {REFUSED}").first.wait_for()
    refusal = page.locator(REFUSED)
    assert refusal.count() == 0, f"{name!r} refused: {refusal.first.inner_text()}"
    assert page.locator("#identity .my-name").inner_text() == name


def as_guest(page: Any, name: str) -> None:
    """Open the lobby and play as the guest ``name``."""
    page.goto("/")
    page.fill("#guest-name", name)
    page.click("#guest-form button[type=submit]")
    shown_as(page, name)


def register(page: Any, name: str, password: str) -> None:
    """Open the lobby and register the account ``name``, logged in."""
    page.goto("/")
    page.click("#account-register")
    page.fill("#account-register-name", name)
    page.fill("#account-register-password", password)
    page.click("#account-register-form button[type=submit]")
    shown_as(page, name)


def create_table(page: Any, preset: str, players: int, **choices: str) -> str:
    """Make a table from the lobby's new-table form: ``preset`` for ``players``, then each of
    ``choices`` chosen in the select of that id (``seat_1="invite"`` is ``#seat-1``); the
    table's id, once its page is open."""
    page.select_option("#preset", preset)
    page.select_option("#players", str(players))
    for field, value in choices.items():
        page.select_option(f"#{field.replace('_', '-')}", value)
    page.click("#create-table")
    page.wait_for_url("**/table/**")
    return str(page.url.split("/table/")[1].split("?")[0])


class Requests:
    """Every URL the pages of a context asked for, WebSockets included."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def watch(self, context: Any) -> None:
        context.on("request", lambda r: self.urls.append(r.url))
        context.on("page", self.watch_page)

    def watch_page(self, page: Any) -> None:
        page.on("websocket", lambda ws: self.urls.append(ws.url))

    def outside(self, base: str) -> list[str]:
        origin = urlsplit(base)
        bad = []
        for url in self.urls:
            u = urlsplit(url)
            if u.scheme in ("data", "blob", "about"):
                continue
            if u.scheme not in ("http", "ws") or u.netloc != origin.netloc:
                bad.append(url)
        return bad


def reads(target: Any, path: str) -> list[str]:
    """The GET requests of ``target`` (a page or a context) whose path matches the regular
    expression ``path`` to its end, recorded as they go out."""
    pattern = re.compile(path + "$")
    urls: list[str] = []

    def seen(request: Any) -> None:
        if request.method == "GET" and pattern.search(urlsplit(request.url).path):
            urls.append(request.url)

    target.on("request", seen)
    return urls


def play_bot_game(
    base: str, preset: str = "kozel", target: int = 30, said: Sequence[str] = ()
) -> str:
    """A whole game through the socket protocol (seat 0 plays its first legal move); its id.
    Seat 0 (Vera) says the lines ``said`` at the table first."""
    import httpx
    from websockets.sync.client import connect

    with httpx.Client(base_url=base) as http:
        http.post("/api/guest", json={"name": "Vera"}).raise_for_status()
        body = {
            "preset": preset,
            "options": {"target": target},
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * 3,
            "hints": False,
        }
        answer = http.post("/api/tables", json=body)
        answer.raise_for_status()
        table = answer.json()
    url = base.replace("http://", "ws://") + f"/ws/table/{table['id']}"
    with connect(url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": table["token"], "since": None}))
        for text in said:
            ws.send(json.dumps({"type": "chat", "text": text}))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv(timeout=30))
            if msg["type"] not in ("snapshot", "update"):
                continue
            view = msg["view"]
            if view["status"] == "finished":
                return str(table["id"])
            if view["status"] == "round_over" and 0 not in view["continue"]:
                ws.send(json.dumps({"type": "continue"}))
            elif view["status"] == "playing" and view["turn"] == 0 and view["legal"]:
                move = view["legal"][0]
                frame = {"type": "play", "tile": move["tile"], "end": move["end"]}
                ws.send(json.dumps(frame | {"version": msg["version"]}))
    raise AssertionError("the game did not finish in time")


def play_until(
    page: Any,
    done: Callable[[], bool],
    *,
    circles: bool,
    limit: float = 180,
    at_round_end: Callable[[], None] | None = None,
) -> dict[str, int]:
    """Play at ``page`` by clicking tiles (and circles) and "Continue" until ``done()``.

    ``at_round_end`` is called at each round's end, before "Continue" is pressed.
    """
    counts = {"moves": 0, "circles": 0, "rounds": 0}
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, f"the game did not end: {counts}"
        cont = page.locator("#continue:enabled")
        if cont.count() and cont.is_visible():
            if at_round_end is not None:
                at_round_end()
            cont.click()
            counts["rounds"] += 1
            continue
        tiles = page.locator("#hand.my-turn .hand-tile.playable")
        if tiles.count():
            tiles.first.click()
            target = page.locator("#board .target")
            if circles or target.count():
                try:
                    target.first.wait_for(timeout=1500)
                except PlaywrightTimeout:
                    continue  # the tile went at once (one end only) or the turn moved on
                target.first.click()
                counts["circles"] += 1
            counts["moves"] += 1
            continue
        page.wait_for_timeout(60)
    return counts


_HIDDEN = (Path(__file__).parent / "hidden_parts.js").read_text(encoding="utf-8").splitlines()
HIDDEN_JS = "\n".join(line for line in _HIDDEN if not line.startswith("//"))


def hidden_parts(page: Any, selectors: list[str]) -> list[str]:
    """The elements of ``selectors`` that are off screen, covered by another, or cut short
    with "…" (empty when each is fully in sight)."""
    found: list[str] = page.evaluate(HIDDEN_JS, selectors)
    return found


def watch_errors(page: Any, errors: list[str]) -> None:
    """Add to ``errors`` what ``page`` raises, and the texts it shows unfilled (web/js/i18n.js
    reports a key with no text, or a parameter with no value, as ``i18n: ...``)."""
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    page.on(
        "console",
        lambda m: errors.append(f"{page.url}: {m.text}") if m.text.startswith("i18n:") else None,
    )
