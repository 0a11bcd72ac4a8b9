"""Tournaments (arenas, as lichess's) end to end, in two browsers: Anna creates an unrated
arena of 2-player Draw in single rounds from the lobby's card, starting at once, for ten
minutes, and Ben's lobby lists it live; Ben opens it from his card and joins, Anna joins
too, and both browsers are taken to one table, named after the tournament. They play the
round out; each game-over card offers "Back to the tournament" and no "Play again": Anna's
page goes back by itself after 5 s, Ben presses "Stay" and goes back later by the button.
The standings give the winner 2 points and the loser 0, one game each; Anna withdraws and is
shown so (and, withdrawn by the server for an absence, told so); a guest is told to
register. The page fits a phone upright, its texts come from the catalogs in English and
German, it works under the site's Content-Security-Policy, and a tournament not yet started
is cancelled by its creator (who is asked first). The README's pictures:
``docs/tournament.png`` (a laptop) and ``docs/tournament-phone.png``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import hidden_parts, register
from .conftest import serve
from .test_browser_languages import check_page, switch
from .test_browser_two_players import take_turn

PASSWORD = "double six tiles"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
NAME = "Friday Draw"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own: its lobby lists this test's tournaments only, under
    plain names, as the README's pictures show them."""
    yield from serve(tmp_path_factory.mktemp("tournaments"), "--no-limits")


def standings(page: Any) -> dict[str, tuple[str, str]]:
    """The standings the page shows: each player's (points, games)."""
    rows = page.locator("#standings tbody tr.standing")
    out = {}
    for i in range(rows.count()):
        row = rows.nth(i)
        name = str(row.get_attribute("data-player"))
        out[name] = (row.locator("td.score").inner_text(), row.locator("td.games").inner_text())
    return out


ABSENT = "You were withdrawn: you did not play your last game. Join again to play on."


def absent(route: Any) -> None:
    """The server's answer, its reader withdrawn for absence (``me.withdrawn``)."""
    answer = route.fetch()
    shown = answer.json()
    shown["me"]["withdrawn"] = "absent"
    route.fulfill(response=answer, json=shown)


def me_state(page: Any, state: str) -> str:
    """Wait until the page's own box says ``state`` (waiting, playing, withdrawn...); its line."""
    page.locator(f'#tournament-me[data-state="{state}"]').wait_for(timeout=15000)
    line: str = page.locator("#tournament-me-line").inner_text()
    return line


def create(
    page: Any, name: str, game: str, minutes: str, starts: str, target: str = "round"
) -> str:
    """Create a tournament from the lobby's card (single rounds unless ``target`` says the
    whole games' target, unrated); its id, once its page is open."""
    page.click("#tournament-create-open")
    page.fill("#tournament-name-input", name)
    page.select_option("#tournament-game", game)
    page.select_option("#tournament-target", target)
    page.select_option("#tournament-minutes", minutes)
    page.select_option("#tournament-starts", starts)
    assert not page.is_checked("#tournament-rated")
    assert page.locator("#tournament-timer").input_value() == "60"  # a minute a move
    page.click("#tournament-create")
    page.wait_for_url("**/tournament/**")
    page.locator("#tournament-name").wait_for()
    return str(page.url.split("/tournament/")[1])


def test_an_arena_from_the_lobby_to_the_standings(new_context: Any, screenshots: Path) -> None:
    a_name, b_name = "Anna", "Ben"  # the module's first test, on its own server
    anna = new_context(viewport=LAPTOP).new_page()
    ben = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    register(anna, a_name, PASSWORD)
    register(ben, b_name, PASSWORD)
    ben.locator("#tournaments .tournaments-none").wait_for()
    assert ben.locator("#tournament-create-open").is_visible()  # an account creates them

    # Anna creates it; Ben's open lobby lists it at once (the lobby socket's frame).
    tid = create(anna, NAME, "draw-2", "10", "0")
    row = ben.locator(f'#tournaments .tournament-row[data-tournament="{tid}"]')
    row.wait_for()
    assert row.locator(".tournament-row-name").inner_text() == NAME
    text = row.inner_text()
    assert "Draw, 2 players" in text and "single rounds" in text, text
    assert "starts in" in text or "ends in" in text, text
    assert ben.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    check_page(ben, "en")  # the card's texts come from the catalog

    assert anna.locator("#tournament-name").inner_text() == NAME
    facts = anna.locator("#tournament-facts").inner_text()
    for part in ("Draw, 2 players", "single rounds", "unrated", "60 s a move", "10 minutes"):
        assert part in facts, facts
    anna.locator('#tournament-status[data-status="running"]').wait_for(timeout=15000)
    assert "ends in" in anna.locator("#tournament-status").inner_text()
    clock = anna.locator("#tournament-clock").inner_text()
    assert clock.startswith(("10:", "9:")), clock  # ten minutes, on the server's clock
    assert "Join" in anna.locator("#tournament-join").inner_text()
    assert anna.locator("#tournament-cancel").count() == 0  # started: too late to cancel

    # Ben joins from his card's link; Anna's page shows him live, then she joins.
    row.locator(".tournament-row-name").click()
    ben.wait_for_url(f"**/tournament/{tid}")
    ben.click("#tournament-join")
    assert me_state(ben, "waiting") == "Waiting for your next game…"
    anna.locator(f'#standings tr.standing[data-player="{b_name}"]').wait_for()
    anna.click("#tournament-join")
    for page in (anna, ben):
        page.wait_for_url("**/table/**", timeout=20000)
        page.wait_for_selector("#hand .hand-tile", timeout=20000)
    assert anna.url == ben.url
    table_id = anna.url.rstrip("/").split("/")[-1]
    for page in (anna, ben):  # seated, and the bar names the tournament with a link
        assert page.locator("#my-name .watching").count() == 0
        tag = page.locator("#table-tournament")
        assert tag.get_attribute("href") == f"/tournament/{tid}"
        assert NAME in tag.inner_text()

    deadline = time.monotonic() + 240
    while not (anna.locator("#game-end").count() and ben.locator("#game-end").count()):
        assert time.monotonic() < deadline, "the round did not end"
        if not (take_turn(anna) or take_turn(ben)):
            anna.wait_for_timeout(50)
    ben.click("#tournament-stay")  # Ben stays; Anna's page goes back by itself
    for page in (anna, ben):
        assert page.locator("#tournament-back").inner_text() == "Back to the tournament"
        assert page.locator("#rematch, #rematch-decline").count() == 0  # no "Play again"
    assert ben.locator("#tournament-stay, #tournament-back-count").count() == 0
    anna.wait_for_url(f"**/tournament/{tid}", timeout=10000)
    ben.wait_for_timeout(1000)
    assert ben.url.endswith(f"/table/{table_id}")  # he stayed

    # The standings: the winner 2 points, the loser 0, one game each (a draw: 1 and 1).
    game = anna.locator(f"#tournament-games li.tournament-game.finished[data-table='{table_id}']")
    game.wait_for()
    assert game.locator("a.game-name[href^='/player/']").count() == 2  # players, by link
    shown = standings(anna)
    assert set(shown) == {a_name, b_name}, shown
    assert {games for _, games in shown.values()} == {"1"}, shown
    points = sorted(score for score, _ in shown.values())
    assert points in (["0", "2"], ["1", "1"]), shown
    first = anna.locator("#standings tbody tr.standing").first
    assert first.locator("td.score").inner_text() == max(points)
    assert first.locator("a").get_attribute("href").startswith("/player/")
    # Ben is not on a page of the site's lobby socket: Anna waits, and says so.
    assert me_state(anna, "waiting") == "Waiting for your next game…"
    anna.wait_for_timeout(600)  # the finished game's line and the clock settle
    anna.screenshot(path=str(screenshots / "tournament.png"))
    anna.click("#tournament-withdraw")
    assert "You have withdrawn" in me_state(anna, "withdrawn")
    assert anna.locator("#tournament-join").inner_text() == "Join again"
    anna.locator(f'#standings tr.standing.withdrawn[data-player="{a_name}"]').wait_for()
    # Withdrawn by the server, absent from her last game (the clock's minutes, were it real):
    # the page reads the reason from the server's answer.
    anna.route(f"**/api/tournaments/{tid}", absent)
    anna.reload()
    assert me_state(anna, "withdrawn") == ABSENT
    assert anna.locator("#tournament-join").inner_text() == "Join again"
    anna.unroute(f"**/api/tournaments/{tid}")

    # Ben goes back by the button: waiting (Anna has withdrawn), the same standings.
    ben.click("#tournament-back")
    ben.wait_for_url(f"**/tournament/{tid}")
    assert me_state(ben, "waiting") == "Waiting for your next game…"
    ben.locator(f'#standings tr.standing.withdrawn[data-player="{a_name}"]').wait_for()
    assert standings(ben) == shown
    assert ben.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    parts = ["#tournament-name", "#tournament-withdraw", "#standings", "#tournament-me-line"]
    assert hidden_parts(ben, parts) == []
    ben.wait_for_timeout(300)
    ben.screenshot(path=str(screenshots / "tournament-phone.png"))
    check_page(ben, "en")
    switch(ben, "de")
    assert "Warte auf deine nächste Partie…" in check_page(ben, "de")
    switch(ben, "en")

    # Ben's page lists the tournament, running, with his place now and his points.
    ben_score, _ = shown[b_name]
    place = "1st" if ben_score == max(points) else "2nd"  # a tie: Ben joined first
    ben.goto(f"/player/{b_name}")
    item = ben.locator(f"#player-tournaments li.tournament-item[data-tournament='{tid}']")
    assert item.locator("a.tournament-name").get_attribute("href") == f"/tournament/{tid}"
    assert item.locator("a.tournament-name").inner_text() == NAME
    assert item.locator(".tournament-status").inner_text() == "Running"
    point_word = "point" if ben_score == "1" else "points"
    expected = f"now {place} of 2 · {ben_score} {point_word}, 1 game"
    assert item.locator(".tournament-place").inner_text() == expected

    # A guest, under the Content-Security-Policy: the page, and "register to join".
    guest = new_context(bypass_csp=False).new_page()
    problems: list[str] = []
    guest.on("console", lambda m: problems.append(m.text) if "Refused to" in m.text else None)
    guest.goto(f"/tournament/{tid}")
    assert "register to join" in me_state(guest, "guest")
    assert guest.locator("#tournament-register").get_attribute("href") == "/"
    assert guest.locator("#tournament-join, #tournament-withdraw").count() == 0
    guest.locator(f'#standings tr.standing[data-player="{b_name}"]').wait_for()
    guest.wait_for_timeout(500)
    assert problems == []


def test_the_creator_cancels_a_tournament_before_its_start(new_context: Any) -> None:
    """A tournament of whole games to the target its creator chose, which its page and the
    lobby's card say. Before the start its creator sees "Cancel", which asks first; the page
    then says it is cancelled, and the lobby's card no longer lists it among the upcoming,
    but first among those over."""
    page = new_context().new_page()
    register(page, "Cora", PASSWORD)
    page.click("#tournament-create-open")
    page.select_option("#tournament-game", "kozel-4")
    choices = page.locator("#tournament-target option")
    assert [choices.nth(i).inner_text() for i in range(choices.count())] == [
        "Single rounds",
        "Whole games (to 50)",
        "Whole games (to 100)",
        "Whole games (to 150)",
    ]
    page.click("#tournament-form-close")
    tid = create(page, "Sunday Kozel", "kozel-4", "30", "60", target="150")
    assert "whole games to 150" in page.locator("#tournament-facts").inner_text()
    page.locator('#tournament-status[data-status="upcoming"]').wait_for()
    assert "starts in" in page.locator("#tournament-status").inner_text()
    assert page.locator("#tournament-clock").inner_text().startswith(("1:00:", "59:"))
    assert "Join now" in me_state(page, "out")
    page.click("#tournament-cancel")
    page.locator("#cancel-dialog").wait_for()
    page.click("#cancel-keep")  # not yet: nothing happens
    page.locator("#cancel-dialog").wait_for(state="detached")
    assert page.locator('#tournament-status[data-status="upcoming"]').count() == 1
    page.click("#tournament-cancel")
    page.click("#cancel-go")
    page.locator('#tournament-status[data-status="cancelled"]').wait_for()
    assert me_state(page, "over") == "This tournament was cancelled."
    assert page.locator("#tournament-cancel").count() == 0
    page.goto("/")
    page.locator("#tournaments #tournament-lists").wait_for()
    page.wait_for_timeout(500)
    upcoming = page.locator(f'#tournament-list .tournament-row[data-tournament="{tid}"]')
    assert upcoming.count() == 0
    ended = page.locator("#tournaments .tournament-list.finished .tournament-row").first
    assert ended.get_attribute("data-tournament") == tid  # the latest ended
    assert "Kozel, 4 players · whole games to 150" in ended.inner_text()
