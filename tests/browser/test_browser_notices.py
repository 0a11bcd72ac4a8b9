"""Challenges and private messages reach a player on any page of the site, not only on the
lobby's (the personal lobby socket, js/notices.js): a challenge sent to a player watching a
table, and its acceptance to a challenger gone to watch one, seat both at the new table; a
player seated in a game not over may decline a challenge but accepts it only once the game
is over; a message to a player on the leaderboard bumps the header's badge and shows a toast
that links the thread; a log-out closes the personal socket, and a log-in opens it again; a
log-out in another tab signs the page out at once, its challenges' toasts gone, and a table
it watches watches on as a visitor. The
picture of a challenge over a table for the README (``docs/challenge-anywhere.png``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import as_guest, create_table, person_name, play_until, register
from .conftest import serve

PASSWORD = "double six tiles"
BUSY = "Finish your game first: accepting would leave it."


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own: its picture shows this test's players, under plain
    names."""
    yield from serve(tmp_path_factory.mktemp("notices"), "--no-limits")


def open_with_notices(page: Any, path: str) -> None:
    """Open ``path`` and wait until its personal lobby socket has had the server's welcome:
    from then on a frame for the player reaches the page."""
    welcomed: list[str] = []

    def watch(ws: Any) -> None:
        if ws.url.endswith("/ws/lobby?only=me"):
            ws.on(
                "framereceived",
                lambda f: welcomed.append(str(f)) if '"welcome"' in str(f) else None,
            )

    page.on("websocket", watch)
    page.goto(path)
    while not welcomed:
        page.wait_for_timeout(50)


class PersonalSockets:
    """The personal lobby sockets a page opens, from before it is opened: each one, whether it
    is closed, and those the server welcomed."""

    def __init__(self, page: Any) -> None:
        self.opened: list[Any] = []
        self.welcomed: list[Any] = []
        page.on("websocket", self.watch)

    def watch(self, ws: Any) -> None:
        if ws.url.endswith("/ws/lobby?only=me"):
            self.opened.append(ws)
            ws.on("framereceived", lambda f: self.welcome(ws, f))

    def welcome(self, ws: Any, frame: Any) -> None:
        if '"welcome"' in str(frame):
            self.welcomed.append(ws)

    def open(self) -> list[Any]:
        return [ws for ws in self.opened if not ws.is_closed()]


def until(page: Any, done: Callable[[], bool], what: str, seconds: float = 10) -> None:
    """Let ``page`` run until ``done()``; fail after ``seconds``, saying ``what`` it waited for."""
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"{seconds} s without {what}"
        page.wait_for_timeout(50)


def who_changed(page: Any) -> None:
    """Say on ``page`` that who we are changed, as the lobby's log-in and log-out do."""
    page.evaluate("document.dispatchEvent(new CustomEvent('ds:me'))")


def seat_held(page: Any) -> Any:
    """The seat this browser keeps for the table its page shows."""
    table_id = page.url.split("/table/")[1].split("?")[0]
    return page.evaluate("(id) => JSON.parse(localStorage.getItem('ds_token_' + id))", table_id)


def test_a_challenge_reaches_a_watcher_and_its_acceptance_a_challenger_gone_watching(
    new_context: Any, screenshots: Path
) -> None:
    """Cleo plays a bot; Ben watches her table. Anna challenges him from the lobby and goes to
    watch the same table while she waits: Ben's page shows the toast, he accepts, and both
    land seated at the new table."""
    anna, ben, cleo = (new_context().new_page() for _ in range(3))
    as_guest(cleo, "Cleo")  # the module's first test, on its own server: plain names
    watched = create_table(cleo, "draw", 2, seat_1="bot:random")
    cleo.wait_for_selector("#hand .hand-tile")
    as_guest(anna, "Anna")
    as_guest(ben, "Ben")
    open_with_notices(ben, f"/table/{watched}")
    ben.locator("#board *").first.wait_for(state="attached")  # watching: no seat of his

    row = anna.locator('#online .online-row[data-player="Ben"]')
    row.locator(".status.free").wait_for()  # watching is not playing
    row.locator(".challenge-button").click()
    anna.wait_for_selector("#challenge-dialog[open]")
    anna.select_option("#challenge-preset", "draw")
    anna.click("#challenge-send")
    anna.wait_for_selector(".challenge-toast.outgoing")
    anna.goto(f"/table/{watched}")
    anna.locator(".challenge-toast.outgoing").wait_for()  # still waiting, on this page too

    toast = ben.locator(".challenge-toast.incoming")
    toast.wait_for()
    assert "Anna challenges you: Draw" in toast.inner_text()
    assert toast.locator(".countdown").inner_text().endswith("s")
    accept = toast.locator("button.accept")
    assert accept.is_enabled() and toast.locator(".busy-note").count() == 0  # he only watches
    ben.wait_for_timeout(300)  # the felt settles under the toast
    ben.screenshot(path=str(screenshots / "challenge-anywhere.png"))
    accept.click()

    for page in (anna, ben):
        page.wait_for_url(lambda url: "/table/" in url and watched not in url)
    assert anna.url == ben.url
    for page, seat in ((anna, 0), (ben, 1)):
        page.wait_for_selector("#hand .hand-tile")
        assert seat_held(page)["seat"] == seat


def test_a_player_in_a_game_not_over_declines_and_accepts_only_once_it_is_over(
    new_context: Any,
) -> None:
    a_name, b_name = person_name("Anna"), person_name("Ben")
    anna, ben = new_context().new_page(), new_context().new_page()
    as_guest(anna, a_name)
    as_guest(ben, b_name)
    playing = create_table(ben, "block", 2, target="round")  # one round against a bot
    ben.wait_for_selector("#hand .hand-tile")

    def challenge() -> Any:
        """Anna's challenge, sent as the lobby's Challenge would have been a moment ago
        (the lobby offers none to a seated player; a challenge sent before he sat down
        reaches him seated)."""
        made = anna.request.post("/api/challenges", data={"to": [b_name], "preset": "draw"})
        assert made.ok, made.text()
        toast = ben.locator(".challenge-toast.incoming")
        toast.wait_for()
        return toast

    toast = challenge()
    assert toast.locator("button.accept").is_disabled()
    assert toast.locator(".busy-note").inner_text() == BUSY
    toast.locator("button.decline").click()
    anna.locator(".challenge-toast.note", has_text=f"{b_name} declined the challenge.").wait_for()
    toast.wait_for(state="detached")
    assert ben.url.endswith(f"/table/{playing}")  # still at his game

    toast = challenge()
    assert toast.locator("button.accept").is_disabled()
    play_until(ben, lambda: ben.locator("#game-end").count() > 0, circles=False, limit=45)
    toast.locator("button.accept:enabled").wait_for()  # the game is over: nothing to leave
    assert toast.locator(".busy-note").count() == 0
    toast.locator("button.accept").click()
    for page in (anna, ben):
        page.wait_for_url(lambda url: "/table/" in url and playing not in url)
    assert anna.url == ben.url
    assert seat_held(ben)["seat"] == 1


def badge(page: Any) -> Any:
    return page.locator("#inbox-link .unread-badge")


def test_a_message_to_a_player_on_the_leaderboard_bumps_the_badge_and_links_the_thread(
    new_context: Any,
) -> None:
    a_name, b_name = person_name("Anna"), person_name("Ben")
    anna, ben = new_context().new_page(), new_context().new_page()
    register(anna, a_name, PASSWORD)
    register(ben, b_name, PASSWORD)
    open_with_notices(ben, "/leaderboard/draw")
    badge(ben).wait_for(state="attached")
    assert badge(ben).is_hidden()
    elsewhere = anna.context.new_page()  # another tab of Anna's, on a player's page
    open_with_notices(elsewhere, f"/player/{b_name}")

    sent = anna.request.post("/api/messages", data={"to": b_name, "text": "rematch at 8?"})
    assert sent.ok, sent.text()
    link = ben.locator("#toasts .message-toast a.message-link")
    link.wait_for()
    assert link.inner_text() == f"New message from {a_name}"
    assert link.get_attribute("href") == f"/inbox/{a_name}"
    badge(ben).wait_for()
    assert badge(ben).inner_text() == "1"
    link.click()
    ben.wait_for_url(f"**/inbox/{a_name}")
    said = ben.locator("#thread .message.theirs .message-text")
    said.wait_for()
    assert said.inner_text() == "rematch at 8?"

    elsewhere.wait_for_timeout(500)  # her own message, from another tab: no toast, no badge
    assert elsewhere.locator(".message-toast").count() == 0
    assert badge(elsewhere).is_hidden()


def test_a_log_out_closes_the_personal_socket_and_a_log_in_opens_it_again(
    new_context: Any,
) -> None:
    """A visitor's personal socket would get nothing: logged out on his own player's page, Ben
    keeps none open, not after a while either; logged in again, one opens and Anna's challenge
    reaches it."""
    a_name, b_name = person_name("Anna"), person_name("Ben")
    anna, ben = new_context().new_page(), new_context().new_page()
    as_guest(anna, a_name)
    register(ben, b_name, PASSWORD)
    sockets = PersonalSockets(ben)
    open_with_notices(ben, f"/player/{b_name}")
    assert len(sockets.open()) == 1

    assert ben.request.delete("/api/session").ok  # the browser's cookies: logged out
    who_changed(ben)
    until(ben, lambda: not sockets.open(), "the personal socket closed")
    ben.wait_for_timeout(2500)  # past the reconnections' first delays (1 s, 2 s)
    assert sockets.open() == [] and len(sockets.opened) == 1  # none opened since

    logged_in = ben.request.post("/api/session", data={"name": b_name, "password": PASSWORD})
    assert logged_in.ok, logged_in.text()
    who_changed(ben)
    until(ben, lambda: len(sockets.welcomed) == 2, "a new personal socket welcomed")
    assert sockets.open() == [sockets.welcomed[-1]]
    made = anna.request.post("/api/challenges", data={"to": [b_name], "preset": "draw"})
    assert made.ok, made.text()
    toast = ben.locator(".challenge-toast.incoming")
    toast.wait_for()
    assert f"{a_name} challenges you: Draw" in toast.inner_text()


def test_a_log_out_in_another_tab_signs_the_page_out_at_once(new_context: Any) -> None:
    """Ben has the lobby in one tab and his player's page in another when Anna challenges him;
    he logs out in the lobby: the server closes the other tab's personal socket (its session
    ended), and that page, not reloaded, shows nobody in its header — no inbox — and drops
    the challenge's toast, as the lobby does, and opens no socket for a visitor. His inbox,
    open in a third tab, starts again as a visitor's: no thread of his stays on the screen.
    In a fourth he watches Anna's game against a bot: the server closes its table socket too,
    and the page, not reloaded, keeps the game on the screen, watches on through a new socket
    as a visitor, and its header and chat say so: no inbox, a chat line no more."""
    a_name, b_name = person_name("Anna"), person_name("Ben")
    anna = new_context().new_page()
    as_guest(anna, a_name)
    watched = create_table(anna, "draw", 2, seat_1="bot:random")
    anna.wait_for_selector("#hand .hand-tile")  # her move: the game waits for it
    lobby = new_context().new_page()
    register(lobby, b_name, PASSWORD)
    elsewhere = lobby.context.new_page()
    sockets = PersonalSockets(elsewhere)
    open_with_notices(elsewhere, f"/player/{b_name}")
    elsewhere.locator("#inbox-link").wait_for()
    inbox = lobby.context.new_page()
    inbox.goto("/inbox")
    inbox.locator("#new-message").wait_for()
    watching = lobby.context.new_page()
    tables: list[Any] = []
    watching.on("websocket", lambda ws: tables.append(ws) if "/ws/table/" in ws.url else None)
    open_with_notices(watching, f"/table/{watched}")
    watching.locator("#board *").first.wait_for(state="attached")
    watching.locator("#inbox-link").wait_for()
    watching.locator("#chat-form:not(.hidden)").wait_for()  # he writes as Ben
    for page in (elsewhere, watching):
        page.evaluate("window.notReloaded = true")
    made = anna.request.post("/api/challenges", data={"to": [b_name], "preset": "draw"})
    assert made.ok, made.text()
    pages = (lobby, elsewhere, inbox, watching)
    toasts = [page.locator(".challenge-toast.incoming") for page in pages]
    for toast in toasts:
        toast.wait_for()

    lobby.click("#account-logout")
    lobby.locator("#guest-form").wait_for()
    elsewhere.locator("#inbox-link").wait_for(state="detached")
    for toast in toasts:
        toast.wait_for(state="detached")
    until(elsewhere, lambda: not sockets.open(), "the personal socket closed")
    assert len(sockets.opened) == 1  # a visitor's would get nothing
    inbox.get_by_text("Log in in the lobby to read and write private messages.").wait_for()
    assert inbox.locator("#new-message").count() == 0

    watching.locator("#inbox-link").wait_for(state="detached")
    watching.get_by_text("Choose a name in the lobby to write here.").wait_for()
    assert watching.locator("#chat-form.hidden").count() == 1
    until(watching, lambda: len(tables) == 2, "the table's socket opened again")
    assert tables[0].is_closed() and not tables[1].is_closed()
    assert watching.locator("#board *").count() > 0  # the game is still on the screen
    assert watching.evaluate("document.body.dataset.status") == "playing"
    for page in (elsewhere, watching):
        assert page.evaluate("window.notReloaded") is True
