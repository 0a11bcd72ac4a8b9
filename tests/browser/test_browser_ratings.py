"""Issue 11, item 5: the leaderboard and a player page in the browser, after rated games.

A server of its own (its database gets accounts written here: registration is
another part's) where two accounts play rated one-round Draw games against
a bot over the socket; then the pages must show the rows, the chart and the
games, in the reader's language, on a desktop and on a phone.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from doublesix.server.account_names import name_key

from .browser_helpers import Requests, watch_errors
from .conftest import _free_port, _wait_for
from .test_browser_languages import check_page

GAMES = {"Anna": 3, "Boris": 2}
DUELS = 2
"""Unrated games of Chloe against Dan (who plays one against a bot besides)."""
COOKIES: dict[str, str] = {}
"""Each account's guest cookie, to browse as them."""


def _view(ws: Any) -> tuple[int, dict[str, Any]]:
    """The next view a table's socket gets, and its version."""
    while True:
        msg = json.loads(ws.recv(timeout=30))
        if msg["type"] in ("snapshot", "update"):
            return msg["version"], msg["view"]


def _play(http: httpx.Client, port: int, rated: bool = True) -> None:
    """A one-round Draw game against greedy, to its end (seat 0: its first move)."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    body = {"preset": "draw", "seats": seats, "rated": rated, "options": {"target": "round"}}
    answer = http.post("/api/tables", json=body)
    assert answer.status_code == 200, answer.text
    table = answer.json()
    with connect(f"ws://127.0.0.1:{port}/ws/table/{table['id']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": table["token"], "since": None}))
        while True:
            version, view = _view(ws)
            if view["status"] == "finished":
                return
            if view["status"] == "playing" and view["turn"] == 0 and view["legal"]:
                move = view["legal"][0]
                frame = {"type": "play", "tile": move["tile"], "end": move["end"]}
                ws.send(json.dumps(frame | {"version": version}))


def _duel(first: httpx.Client, second: httpx.Client, port: int) -> None:
    """An unrated one-round Draw game of two players, to its end."""
    seats = [{"kind": "human"}, {"kind": "open"}]
    body = {"preset": "draw", "seats": seats, "options": {"target": "round"}}
    table = first.post("/api/tables", json=body).json()
    joined = second.post(f"/api/tables/{table['id']}/join", json={})
    assert joined.status_code == 200, joined.text
    url = f"ws://127.0.0.1:{port}/ws/table/{table['id']}"
    with connect(url) as one, connect(url) as two:
        sockets = [one, two]
        for ws, token in zip(sockets, (table["token"], joined.json()["token"]), strict=True):
            ws.send(json.dumps({"type": "hello", "token": token, "since": None}))
        views = [_view(ws) for ws in sockets]
        while True:
            versions = {version for version, _ in views}
            if len(versions) > 1:  # one socket is behind (the other's hello came between)
                behind = min(range(2), key=lambda seat: views[seat][0])
                views[behind] = _view(sockets[behind])
                continue
            version, view = views[0]
            if view["status"] == "finished":
                return
            if view["status"] == "playing":
                turn = view["turn"]
                move = views[turn][1]["legal"][0]
                frame = {"type": "play", "tile": move["tile"], "end": move["end"]}
                sockets[turn].send(json.dumps(frame | {"version": version}))
            views = [_view(ws) for ws in sockets]


@pytest.fixture(scope="module")
def rated_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("ratings")
    db, port = folder / "ratings.sqlite3", _free_port()
    base = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-c", "from doublesix.cli import main; main()", "serve"]
    command += ["--port", str(port), "--db", str(db), "--bot-delay", "0", "--no-limits"]
    command += ["--think-workers", "1", "--log-level", "warning"]
    log = (folder / "server.log").open("wb")
    server = subprocess.Popen(command, cwd=folder, stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_for(f"{base}/api/bots", server)
        players = {}
        for name in [*GAMES, "Chloe", "Dan"]:
            http = players[name] = httpx.Client(base_url=base)
            http.post("/api/guest", json={"name": name}).raise_for_status()
            me = COOKIES[name] = http.cookies["ds_guest"]
            with sqlite3.connect(db) as conn:
                conn.execute(
                    "INSERT INTO accounts (player_id, name, name_key, password, created_at,"
                    " updated_at) VALUES (?, ?, ?, 'not-a-hash', ?, ?)",
                    (me, name, name_key(name), time.time(), time.time()),
                )
        for name, games in GAMES.items():
            for _ in range(games):
                _play(players[name], port)
        for _ in range(DUELS):
            _duel(players["Chloe"], players["Dan"], port)
        _play(players["Dan"], port, rated=False)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=10)
        log.close()


@pytest.fixture
def context(browser: Any, rated_site: str) -> Iterator[Any]:
    made = browser.new_context(
        base_url=rated_site,
        viewport={"width": 1280, "height": 800},
        locale="en-US",
        bypass_csp=True,  # Playwright's waits evaluate strings (test_browser_csp enforces it)
    )
    requests = Requests()
    requests.watch(made)
    errors: list[str] = []
    made.on("page", lambda page: watch_errors(page, errors))
    yield made
    made.close()
    assert requests.outside(rated_site) == [], "a page loaded something from outside"
    assert errors == [], errors


def _rated(base: str, name: str) -> int:
    # the host rates a game right after its end: wait for the last one
    for _ in range(200):
        page = httpx.get(f"{base}/api/players/{name}").json()
        if page["ratings"] and page["ratings"][0]["games"] == GAMES[name]:
            return int(page["ratings"][0]["rating"])
        time.sleep(0.05)
    raise AssertionError(f"{name}'s games were not rated")


def test_leaderboard_and_player_page(context: Any, rated_site: str, screenshots: Path) -> None:
    ratings = {name: _rated(rated_site, name) for name in GAMES}
    page = context.new_page()
    page.goto("/")
    page.click("header.top a[href='/leaderboard/draw']")  # the link in every page's header
    page.wait_for_selector("#standings table.standings tbody tr")
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 2
    first = rows.nth(0).locator("td")
    best = max(ratings, key=lambda n: ratings[n])
    assert first.nth(1).inner_text() == best
    assert first.nth(2).inner_text() == f"{ratings[best]}?"  # provisional
    assert page.locator("#bot-ratings li[data-bot='expert']").inner_text() == "expert ≈ 1857"
    assert page.locator(".variant-tabs a[aria-current='page']").inner_text() == "Draw game"
    page.screenshot(path=str(screenshots / "leaderboard.png"), full_page=True)
    check_page(page, "en")

    page.click("#standings tbody tr >> nth=0 >> a")
    page.wait_for_url(f"**/player/{best}")
    page.wait_for_selector("svg.rating-chart polyline")
    assert page.locator("h1.player-name").inner_text() == best
    chart = page.locator("svg.rating-chart[data-variant='draw']")
    assert chart.locator("circle.point").count() == GAMES[best]
    assert chart.locator("circle.start").count() == 1
    # Each point tells its date, the rating after that game and the game's change; the
    # last one is the rating the page shows, and the first game's date is under the line.
    told = chart.locator("circle.point title").all_text_contents()
    assert len(told) == GAMES[best]
    today = page.evaluate("() => new Date().toLocaleDateString('en')")
    assert told[-1].startswith(f"{today}: {ratings[best]} (")
    assert all(re.fullmatch(r".+: \d+ \((\+|−)\d+\)|.+: \d+ \(±0\)", t) for t in told), told
    assert chart.locator("text.when.first").text_content() == today
    assert page.locator("#games tbody tr").count() == GAMES[best]
    assert page.locator("#ratings tbody tr td").nth(1).inner_text() == f"{ratings[best]}?"
    games = page.locator("#games tbody tr td a[href^='/game/']")
    assert games.count() == GAMES[best]
    assert "Bot 1 · greedy" in page.locator("#games tbody tr").first.inner_text()  # name, level
    page.screenshot(path=str(screenshots / "player.png"), full_page=True)
    check_page(page, "en")
    page.click(".lang-switch button[data-lang='de']")
    assert "Letzte Partien" in check_page(page, "de")

    games.nth(0).click()  # the game's own page
    page.wait_for_url("**/game/**")
    page.wait_for_selector(".move-list .move-round")


def test_you_and_another_player(context: Any, rated_site: str, screenshots: Path) -> None:
    """Chloe on Dan's page: their games against each other, counted from her side, and the
    games list narrowed to them and back."""
    context.add_cookies([{"name": "ds_guest", "value": COOKIES["Chloe"], "url": rated_site}])
    dan = httpx.get(f"{rated_site}/api/players/Dan").json()
    duels = [g for g in dan["games"] if any(p["name"] == "Chloe" for p in g["players"])]
    assert len(duels) == DUELS and len(dan["games"]) == DUELS + 1
    mine = [{"win": "loss", "loss": "win"}.get(g["outcome"], "draw") for g in duels]
    page = context.new_page()
    page.goto("/player/Dan")
    against = page.locator("#together p.against")
    against.wait_for()
    assert page.locator("#together h2").inner_text() == "You and Dan"
    won, lost, drew = (mine.count(o) for o in ("win", "loss", "draw"))
    assert against.inner_text() == (
        f"Against each other: {DUELS} games. You won {won}, lost {lost}, drew {drew}."
    )
    assert page.locator("#together p.partners").count() == 0  # never a pair
    assert page.locator("#ratings p.muted").inner_text() == "No rated games yet."
    assert page.locator("#history").count() == 0  # said once, not under each heading
    rows = page.locator("#games tbody tr")
    assert rows.count() == DUELS + 1
    assert page.locator("#games th").nth(3).inner_text() == "Result for Dan"  # Dan's, not hers
    download = page.locator("#download-games")
    assert download.inner_text() == "Download the latest 100 as doublesix/1 records (JSON lines)"
    records = page.request.get(download.get_attribute("href")).text().splitlines()
    assert [json.loads(line)["players"][0] for line in records] == [
        g["players"][0]["name"] for g in dan["games"]
    ]
    page.check("#games-together")
    page.wait_for_function(f"() => document.querySelectorAll('#games tbody tr').length === {DUELS}")
    assert all("Chloe" in row.inner_text() for row in rows.all())
    page.screenshot(path=str(screenshots / "player-together.png"), full_page=True)
    check_page(page, "en")
    page.uncheck("#games-together")
    page.wait_for_function(
        f"() => document.querySelectorAll('#games tbody tr').length === {DUELS + 1}"
    )
    page.click(".lang-switch button[data-lang='fr']")
    assert "Vous et Dan" in check_page(page, "fr")

    page.goto("/player/Chloe")  # her own page has no such card
    page.wait_for_selector("#games")
    assert page.locator("#together").count() == 0 and page.locator("#games-together").count() == 0


def test_unknown_variant_and_player_get_a_page(context: Any) -> None:
    page = context.new_page()
    response = page.goto("/leaderboard/chess")
    assert response is not None and response.status == 404
    page.wait_for_selector(".not-found p")
    assert page.locator(".not-found p").inner_text() == "There is no rated variant “chess”."
    assert page.locator(".not-found .variant-tabs a").count() == 6
    response = page.goto("/player/nobody")
    assert response is not None and response.status == 404
    page.wait_for_selector(".not-found p")
    assert page.locator(".not-found p").inner_text() == "There is no player named “nobody”."


def test_a_player_is_found_by_the_start_of_the_name(context: Any, rated_site: str) -> None:
    page = context.new_page()
    page.goto("/leaderboard/kozel")  # nobody rated in Kozel: the search finds every account
    page.fill("#find-name", "bo")
    found = page.locator("#find-results a")
    found.first.wait_for()
    assert [a.inner_text() for a in found.all()] == ["Boris"]
    page.press("#find-name", "Enter")  # the one name found
    page.wait_for_url("**/player/Boris")
    page.wait_for_selector("h1.player-name")

    page.goto("/player/ann")  # no such player: the search, filled in, offers who there is
    page.wait_for_selector("#find-results a")
    assert page.locator("#find-name").input_value() == "ann"
    assert [a.inner_text() for a in page.locator("#find-results a").all()] == ["Anna"]
    page.fill("#find-name", "zz")
    none = page.locator("#find-results li.muted")
    none.wait_for()
    assert none.inner_text() == "No player's name begins with “zz”."
    check_page(page, "en")


def test_the_pages_fit_a_phone(browser: Any, rated_site: str) -> None:
    _rated(rated_site, "Anna")
    phone = browser.new_context(
        base_url=rated_site, viewport={"width": 390, "height": 844}, locale="fr-FR", bypass_csp=True
    )
    phone.add_cookies([{"name": "ds_guest", "value": COOKIES["Chloe"], "url": rated_site}])
    try:
        page = phone.new_page()
        for path, ready in [
            ("/leaderboard/draw", "#standings tbody tr"),
            ("/player/Anna", "svg.rating-chart"),
            ("/player/Dan", "#together p.against"),  # seen by Chloe: their games, the filter
        ]:
            page.goto(path)
            page.wait_for_selector(ready)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (path, width)  # nothing wider than the phone
            check_page(page, "fr")
    finally:
        phone.close()


def test_a_players_older_games_come_on_asking(context: Any, rated_site: str) -> None:
    """The page shows the first games the server sends and, while it says there are more,
    "Older games" reads the next ones from the real API (here the first answer is cut to
    one game, as if the player had more than a page of them)."""
    _rated(rated_site, "Anna")
    page = context.new_page()

    def first_page_of_one(route: Any) -> None:
        answer = route.fetch()
        data = answer.json()
        data["games"], data["more_games"] = data["games"][:1], True
        route.fulfill(response=answer, json=data)

    page.route("**/api/players/Anna", first_page_of_one)
    page.goto("/player/Anna")
    rows = page.locator("#games tbody tr")
    rows.first.wait_for()
    assert rows.count() == 1
    page.click("#older-games")
    page.wait_for_function("() => document.querySelectorAll('#games tbody tr').length === 3")
    assert page.locator("#older-games").count() == 0  # the API said there are no more
    links = [
        a.get_attribute("href") for a in page.locator("#games tbody tr a[href^='/game/']").all()
    ]
    assert len(set(links)) == 3
