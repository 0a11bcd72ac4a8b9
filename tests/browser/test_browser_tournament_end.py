"""A tournament's end as its page shows it, from a real server, nothing faked: three
accounts play a 5-minute arena of 2-player Draw in single rounds over the sockets (the lobby
socket that gets them paired, the table socket where each plays its own moves) until one of
them is on fire — two wins in a row — and each has played; then the test moves the site's
clock past the end, the site's own sweep finishes it, and a visitor's page shows the podium
(the first three of the standings the server gave) and the fire mark. Then one of the three
erases their account: the tournament's games, and the game's page, show the pseudonym as
text, not as a link to a page that does not exist.

The server runs in this process (uvicorn in a thread, as ``tests/hostile`` runs its small
one) so that its ``Settings.clock`` is the test's: this machine's time plus what the test
moved it on by. No route or option of the site moves a clock.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
import uvicorn
from argon2 import PasswordHasher
from websockets.sync.client import ClientConnection, connect

from doublesix.server.app import create_app
from doublesix.server.settings import Limits, Settings

from .conftest import BOT_DELAY, _free_port

PASSWORD = "double six tiles"
NAME = "Evening arena"
PLAYERS = ("Anna", "Ben", "Cleo")
PSEUDONYM = re.compile(r"^erased-[0-9a-f]{6}$")


class MovingClock:
    """The site's clock: this machine's time, plus what the test moved it on by."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.time() + self.ahead


CLOCK = MovingClock()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site, in this process, on ``CLOCK``; its base URL."""
    folder = tmp_path_factory.mktemp("tournament-end")
    settings = Settings(
        bot_delay=float(BOT_DELAY),
        clock=CLOCK,
        think_workers=1,
        password_hasher=PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1),
    )
    app = create_app(
        f"sqlite+aiosqlite:///{folder / 'end.sqlite3'}",
        settings=settings,
        limits=Limits(frames_per_second=10_000, burst=10_000),  # the test's moves come fast
    )
    port = _free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    served = uvicorn.Server(config)
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not served.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    served.should_exit = True
    thread.join(15)


class Account:
    """An account's HTTP client (its session cookie) and the sockets it opens."""

    def __init__(self, base: str, name: str) -> None:
        self.name, self.base = name, base
        self.http = httpx.Client(base_url=base, timeout=10)
        made = self.http.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
        self.lobby: ExitStack | None = None

    def connect(self, stack: ExitStack, path: str, *, quiet: bool = False) -> ClientConnection:
        """A socket of this account's, open while ``stack`` is."""
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        url = self.base.replace("http://", "ws://") + path
        # a lobby socket's frames are not read: kept here, never held up at the server
        opened = connect(
            url, additional_headers={"Cookie": cookie}, max_queue=None if quiet else 16
        )
        return stack.enter_context(opened)

    def open_lobby(self) -> None:
        """Online with a lobby socket: the site pairs this account."""
        if self.lobby is None:
            self.lobby = ExitStack()
            ws = self.connect(self.lobby, "/ws/lobby", quiet=True)
            assert json.loads(ws.recv(timeout=10))["type"] == "welcome"

    def close_lobby(self) -> None:
        if self.lobby is not None:
            self.lobby.close()
            self.lobby = None


def asked(http: httpx.Client, method: str, path: str) -> Any:
    """The answer to a request about a table the site paired, once the table is made (the
    standings name it from the pairing's transaction, just before)."""
    deadline = time.monotonic() + 10
    answer = http.request(method, path, json={} if method == "POST" else None)
    while answer.status_code == 404 and time.monotonic() < deadline:
        time.sleep(0.1)
        answer = http.request(method, path, json={} if method == "POST" else None)
    assert answer.status_code == 200, answer.text
    return answer.json()


class Seat:
    """An account's seat at a table, over the table's socket: the last version and view."""

    def __init__(self, stack: ExitStack, account: Account, table: str) -> None:
        token = asked(account.http, "POST", f"/api/tables/{table}/join")["token"]
        self.ws = account.connect(stack, f"/ws/table/{table}")
        self.ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
        first = self.next()
        assert first["type"] == "snapshot", first
        self.version: int = first["version"]
        self.view: dict[str, Any] = first["view"]

    def next(self) -> dict[str, Any]:
        """The next frame that says what the game is (presence and the rest skipped)."""
        while True:
            frame: dict[str, Any] = json.loads(self.ws.recv(timeout=10))
            if frame["type"] in ("snapshot", "update", "error"):
                return frame

    def update(self) -> None:
        frame = self.next()
        assert frame["type"] == "update" and frame["version"] == self.version + 1, frame
        self.version, self.view = frame["version"], frame["view"]


def play_table(accounts: dict[str, Account], table: str, rng: random.Random) -> None:
    """The table's players play its round out, each its own moves (none by the clock or a
    stand-in: nobody is withdrawn as absent)."""
    seated = asked(next(iter(accounts.values())).http, "GET", f"/api/tables/{table}")
    with ExitStack() as stack:
        seats = [Seat(stack, accounts[s["name"]], table) for s in seated["seats"]]
        by_seat = {s.view["seat"]: s for s in seats}
        while seats[0].view["status"] != "finished":
            view = seats[0].view
            assert view["status"] == "playing", view["status"]
            mover = by_seat[view["turn"]]
            move = rng.choice(mover.view["legal"])
            mover.ws.send(
                json.dumps(
                    {"type": "play", "tile": move["tile"], "end": move["end"]}
                    | {"version": mover.version}
                )
            )
            for seat in seats:
                seat.update()


def over(detail: dict[str, Any]) -> bool:
    """Enough played: somebody on fire, and each of the three with a game."""
    standings = detail["standings"]
    return (
        len(standings) == len(PLAYERS)
        and any(s["fire"] for s in standings)
        and all(s["games"] >= 1 for s in standings)
        and detail["playing"] == 0
    )


def play_until_someone_is_on_fire(accounts: dict[str, Account], tid: str) -> dict[str, Any]:
    """The three online, paired by the site game after game, each game played out, until
    ``over``; then nobody is online, so that nobody is paired again. The tournament then."""
    rng = random.Random(11)
    read = next(iter(accounts.values())).http
    played: set[str] = set()
    deadline = time.monotonic() + 180
    while True:
        assert time.monotonic() < deadline, "nobody was on fire in time"
        detail: dict[str, Any] = read.get(f"/api/tournaments/{tid}").json()
        tables = {s["table"] for s in detail["standings"] if s["table"]} - played
        for table in sorted(tables):
            play_table(accounts, table, rng)
            played.add(table)
        if tables:
            continue
        online = any(a.lobby is not None for a in accounts.values())
        if over(detail):
            if not online:
                return detail  # as it stays: nobody is online to be paired
            for account in accounts.values():
                account.close_lobby()
            time.sleep(1.5)  # a sweep that paired them meanwhile shows in the next read
        elif not online:
            for account in accounts.values():
                account.open_lobby()
        time.sleep(0.2)


@pytest.fixture
def accounts(server: str) -> Iterator[dict[str, Account]]:
    """Anna, Ben and Cleo, registered."""
    made = {name: Account(server, name) for name in PLAYERS}
    yield made
    for account in made.values():
        account.close_lobby()
        account.http.close()


def test_a_finished_arena_shows_its_podium_and_who_is_on_fire(
    accounts: dict[str, Account], new_context: Any
) -> None:
    anna = accounts["Anna"].http
    made = anna.post(
        "/api/tournaments",
        json={"name": NAME, "preset": "draw", "players": 2, "starts_in": 0, "minutes": 5},
    )
    assert made.status_code == 201, made.text
    tid = made.json()["id"]
    for account in accounts.values():
        assert account.http.post(f"/api/tournaments/{tid}/join").status_code == 200

    played = play_until_someone_is_on_fire(accounts, tid)
    assert played["status"] == "running"
    CLOCK.ahead += 5 * 60  # its end: the site's own sweep finishes it
    deadline = time.monotonic() + 15
    finished = anna.get(f"/api/tournaments/{tid}").json()
    while finished["status"] != "finished":
        assert time.monotonic() < deadline, finished["status"]
        time.sleep(0.2)
        finished = anna.get(f"/api/tournaments/{tid}").json()
    standings = finished["standings"]
    assert standings == played["standings"]  # the end changed no score
    on_fire = {s["name"] for s in standings if s["fire"]}
    assert on_fire and all(s["streak"] >= 2 for s in standings if s["fire"])

    page = new_context().new_page()  # a visitor
    page.goto(f"/tournament/{tid}")
    podium = page.locator("#podium")
    podium.wait_for()
    first = standings[0]["name"]
    assert podium.locator("h2").inner_text() == f"{first} wins the tournament!"
    steps = podium.locator("li.podium-step")
    assert [steps.nth(i).get_attribute("data-player") for i in range(steps.count())] == [
        s["name"] for s in standings[:3]
    ]
    for i, s in enumerate(standings[:3]):
        points = "point" if s["score"] == 1 else "points"
        assert steps.nth(i).locator(".podium-score").inner_text() == f"{s['score']} {points}"
    for s in standings:
        row = page.locator(f'#standings tr.standing[data-player="{s["name"]}"]')
        assert row.locator("td.score").inner_text() == str(s["score"])
        fire = row.locator(".on-fire")
        assert fire.count() == (1 if s["fire"] else 0), s
        if s["fire"]:
            title = "On fire: two wins in a row, each further win counts double"
            assert fire.get_attribute("title") == title

    # Cleo erases her account: her games show her pseudonym, as text (she has no page).
    cleo = accounts["Cleo"].http
    erased = cleo.post("/api/account/erase", json={"password": PASSWORD})
    assert erased.json()["erasure"] == "done", erased.text
    games = anna.get(f"/api/tournaments/{tid}").json()["games"]
    hers = [g for g in games if any(PSEUDONYM.match(p) for p in g["players"])]
    assert hers and all("Cleo" not in g["players"] for g in games)
    [alias] = {p for g in hers for p in g["players"] if PSEUDONYM.match(p)}
    page.reload()
    page.locator("#tournament-games .game-name", has_text=alias).first.wait_for()
    for g in hers:
        line = page.locator(f"#tournament-games li.tournament-game[data-table='{g['table']}']")
        other = next(p for p in g["players"] if p != alias)
        shown = line.locator(".game-name", has_text=alias)
        assert shown.count() == 1
        assert shown.evaluate("n => n.tagName") == "SPAN"
        assert shown.get_attribute("title") == "This player's account was erased: it has no page."
        assert line.locator(f"a.game-name[href='/player/{other}']").count() == 1
    assert page.locator("#tournament-games a[href^='/player/erased-']").count() == 0
    page.goto(f"/game/{hers[0]['table']}")  # the game's page names her as text too
    page.locator("#game-players").wait_for()
    assert alias in page.locator("#game-players").inner_text()
    assert page.locator("#game-players a[href^='/player/erased-']").count() == 0
