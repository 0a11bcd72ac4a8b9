"""Play now (quick pairing): a player picks a kind of game in the lobby's "Play now" card and
waits; the others' lobbies count them beside that kind; as soon as a second player seeks the
same kind, both browsers land at one table, seated. A seek withdrawn leaves the card idle and
the count gone; a visitor without a name is asked for one, an account may seek a rated game,
and the server's refusal shows in the card."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import as_guest, create_table, person_name, register
from .conftest import serve

PHONE = {"width": 390, "height": 780}
CLOCK = re.compile(r"^\d+:[0-5]\d$")
HIDDEN = (
    "(h) => { Object.defineProperty(document, 'hidden', {value: h, configurable: true});"
    " document.dispatchEvent(new Event('visibilitychange')); }"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own: its pool holds this module's seeks only, so the counts
    the lobbies show are this test's."""
    yield from serve(tmp_path_factory.mktemp("seeks"), "--no-limits")


def kind(page: Any, name: str) -> Any:
    return page.locator(f'#seek .seek-kind[data-kind="{name}"]')


def seek(page: Any, name: str) -> None:
    """Choose the kind ``name`` (``draw-2``) in the Play now card and press Find players."""
    kind(page, name).click()
    assert kind(page, name).locator("input").is_checked()
    page.click("#seek-find")


def seated(page: Any, name: str, table: str) -> None:
    """``page`` is at ``table`` as the seated player ``name``: its own name in the bar below
    the felt, a hand of tiles and the seat's token, not a spectator's view."""
    page.wait_for_selector("#hand .hand-tile")
    assert page.locator("#my-name .name").inner_text() == name
    assert page.locator("#my-name .watching").count() == 0
    held = page.evaluate("(id) => JSON.parse(localStorage.getItem('ds_token_' + id))", table)
    assert held is not None and held["token"], held


def test_two_players_seeking_the_same_kind_are_seated_at_one_table(
    new_context: Any, screenshots: Path
) -> None:
    a_name, b_name = "Anna", "Ben"  # the module's first test, on its own server
    anna = new_context().new_page()
    ben = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    as_guest(anna, a_name)
    as_guest(ben, b_name)
    ben.wait_for_selector(f'#online .online-row[data-player="{a_name}"]')  # both sockets are in
    anna.wait_for_selector(f'#online .online-row[data-player="{b_name}"]')
    assert anna.locator("#seek .seek-kind").count() == 5
    assert anna.locator("#seek-rated").count() == 0  # rated games are for accounts
    assert ben.locator("#seek .seek-count").count() == 0  # nobody seeks yet

    seek(anna, "draw-2")
    anna.wait_for_selector('#seek[data-state="seeking"]')
    assert anna.locator("#seek .seek-what").inner_text() == "Looking for players: Draw, 2 players"
    assert anna.locator("#seek-cancel").is_visible()
    first = anna.locator("#seek-clock").inner_text()
    assert CLOCK.match(first), first
    anna.wait_for_function(
        "(t) => document.getElementById('seek-clock').textContent !== t", arg=first
    )  # the clock runs
    assert CLOCK.match(anna.locator("#seek-clock").inner_text())
    anna.evaluate(HIDDEN, True)  # in a background tab the title says she seeks
    assert anna.title() == "⏳ Looking for players · doublesix"
    anna.evaluate(HIDDEN, False)
    assert anna.title() == "Lobby · doublesix"

    count = kind(ben, "draw-2").locator(".seek-count")
    count.wait_for()
    assert count.inner_text() == "1 waiting"
    assert ben.locator("#seek .seek-count").count() == 1  # beside that kind only
    assert ben.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # fits
    anna.locator("#seek").screenshot(path=str(screenshots / "play-now-seeking.png"))
    ben.locator("#seek").screenshot(path=str(screenshots / "play-now.png"))

    seek(ben, "draw-2")
    for page in (anna, ben):
        page.wait_for_url("**/table/**")
    assert anna.url == ben.url
    table = anna.url.split("/")[-1]
    seated(anna, a_name, table)
    seated(ben, b_name, table)
    for page, other in ((anna, b_name), (ben, a_name)):
        page.locator(".seat .name", has_text=other).wait_for()
    info = anna.evaluate("async (id) => (await fetch('/api/tables/' + id)).json()", table)
    names = sorted(s["name"] for s in info["seats"])
    assert names == sorted([a_name, b_name]), info["seats"]
    assert (info["preset"], len(info["seats"]), info["timer"]) == ("draw", 2, 60), info


def test_cancel_returns_the_card_to_idle_and_the_count_goes(new_context: Any) -> None:
    a_name, b_name = person_name("Anna"), person_name("Ben")
    anna = new_context().new_page()
    ben = new_context().new_page()
    as_guest(anna, a_name)
    as_guest(ben, b_name)
    ben.wait_for_selector(f'#online .online-row[data-player="{a_name}"]')

    seek(anna, "block-4")
    anna.wait_for_selector('#seek[data-state="seeking"]')
    assert "Block, 4 players" in anna.locator("#seek .seek-what").inner_text()
    anna.click(".lang-switch button[data-lang='de']")  # the card speaks the reader's language
    what = anna.locator("#seek .seek-what")
    what.filter(has_text="Suche Mitspieler: Blockspiel, 4 Spieler").wait_for()
    assert anna.locator("#seek-cancel").inner_text() == "Abbrechen"
    anna.click(".lang-switch button[data-lang='en']")
    what.filter(has_text="Looking for players: Block, 4 players").wait_for()
    count = kind(ben, "block-4").locator(".seek-count")
    count.wait_for()
    assert count.inner_text() == "1 waiting"

    anna.evaluate(HIDDEN, True)
    assert anna.title().startswith("⏳")
    anna.evaluate(HIDDEN, False)
    anna.click("#seek-cancel")
    anna.wait_for_selector('#seek[data-state="idle"]')
    # the lobby's frame may draw the idle card before the withdrawal's answer frees the button
    anna.wait_for_selector("#seek-find:enabled")
    assert anna.locator("#seek-cancel").count() == 0 and anna.locator("#seek-clock").count() == 0
    assert kind(anna, "block-4").locator("input").is_checked()  # the kind she chose stays
    assert anna.locator("#seek-error").inner_text() == ""
    count.wait_for(state="detached")
    assert ben.locator("#seek .seek-count").count() == 0
    assert anna.evaluate("fetch('/api/seeks').then((r) => r.json())")["seek"] is None


def test_a_name_first_a_rated_seek_for_accounts_and_refusals_in_the_card(
    new_context: Any,
) -> None:
    visitor = new_context().new_page()
    sought: list[str] = []
    visitor.on("request", lambda r: sought.append(r.url) if "/api/seeks" in r.url else None)
    visitor.goto("/")
    visitor.wait_for_selector("#seek .seek-name-first")
    visitor.click("#seek-find")  # no name yet: the lobby asks for one, nothing is sought
    visitor.locator("#toasts .toast.error", has_text="Choose a name first.").wait_for()
    assert visitor.evaluate("document.activeElement.id") == "guest-name"
    assert sought == [] and visitor.locator('#seek[data-state="idle"]').count() == 1

    # A refusal shows in the card: one the card knows in the reader's words, another in the
    # server's.
    refusal = {"error": "at most 20 seeks a minute", "code": "too_many_seeks"}

    def refuse(route: Any) -> None:
        if route.request.method == "POST":
            route.fulfill(status=429, content_type="application/json", body=json.dumps(refusal))
        else:
            route.continue_()

    visitor.route("**/api/seeks", refuse)
    visitor.fill("#guest-name", person_name("Vera"))  # a name typed is taken as the button goes
    visitor.click("#seek-find")
    error = visitor.locator("#seek-error")
    error.filter(has_text="too often").wait_for()
    assert error.inner_text() == (
        "You have asked too often in a minute: wait a moment, then try again."
    )
    assert visitor.locator('#seek[data-state="idle"]').count() == 1
    refusal = {"error": "the pool is closed", "code": "closed"}
    visitor.click("#seek-find")
    error.filter(has_text="the pool is closed").wait_for()
    assert error.inner_text() == "Refused: the pool is closed"
    visitor.unroute("**/api/seeks")

    # An account may seek a rated game; a guest's lobby counts only the unrated seekers.
    c_name = person_name("Cleo")
    cleo = new_context().new_page()
    register(cleo, c_name, "a long secret phrase")
    cleo.check("#seek-rated")
    seek(cleo, "kozel-4")
    cleo.wait_for_selector('#seek[data-state="seeking"]')
    assert "Kozel, 4 players" in cleo.locator("#seek .seek-what").inner_text()
    assert cleo.locator("#seek .seek-waiting .badge.rated").inner_text() == "rated"
    visitor.reload()
    visitor.wait_for_selector(f'#online .online-row[data-player="{c_name}"]')
    assert visitor.locator("#seek .seek-count").count() == 0
    cleo.click("#seek-cancel")
    cleo.wait_for_selector('#seek[data-state="idle"]')
    assert cleo.locator("#seek-rated").is_checked()  # remembered for the next seek


def test_a_seeker_seated_in_another_tab_is_told_why_and_where(new_context: Any) -> None:
    """The pool pairs a player only while free: seated at a table in another tab, the card
    says so with a link to that table, and the note goes once the tab is closed."""
    a_name = person_name("Anna")
    context = new_context()
    lobby = context.new_page()
    as_guest(lobby, a_name)
    table = context.new_page()  # a second tab: a table against a bot, playing
    table.goto("/")
    table_id = create_table(table, "draw", 2, seat_1="bot:random")
    table.wait_for_selector("#hand .hand-tile")

    seek(lobby, "kozel-4")
    note = lobby.locator("#seek-seated")
    note.wait_for()
    assert note.inner_text().startswith("You are seated at a table: you get a seat here")
    assert note.locator("a").get_attribute("href") == f"/table/{table_id}"
    table.close()  # free: the note goes, and the seek waits on
    note.wait_for(state="detached", timeout=15000)
    assert lobby.locator('#seek[data-state="seeking"]').count() == 1


def test_play_now_never_seats_a_player_with_a_name_they_muted(new_context: Any) -> None:
    """Anna muted Ben in her browser: his seek of her kind leaves both waiting (her seek says
    whom to avoid), and Cleo's, a moment later, makes Anna's table."""
    a_name, b_name, c_name = person_name("Anna"), person_name("Ben"), person_name("Cleo")
    anna = new_context().new_page()
    as_guest(anna, a_name)
    anna.evaluate("(n) => localStorage.setItem('ds_chat_muted', JSON.stringify([n]))", b_name)
    anna.reload()
    anna.wait_for_selector("#seek .seek-kind")
    with anna.expect_request("**/api/seeks") as sent:
        seek(anna, "block-2")
    assert sent.value.post_data_json["avoid"] == [b_name]
    ben = new_context().new_page()
    as_guest(ben, b_name)
    seek(ben, "block-2")
    ben.wait_for_timeout(1500)
    assert "/table/" not in anna.url and "/table/" not in ben.url
    cleo = new_context().new_page()
    as_guest(cleo, c_name)
    seek(cleo, "block-2")
    for page in (anna, cleo):
        page.wait_for_url("**/table/**")
    assert anna.url.split("/table/")[1] == cleo.url.split("/table/")[1]
    assert "/table/" not in ben.url
