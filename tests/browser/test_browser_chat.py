"""Issue 11, chat at the table: two players and a spectator, then the finished game's page.

Anna (a laptop, English) and Ben (a phone, German) sit at a 2-player table of one
round; Carla watches with a name, and someone without a name only reads. An HTML
payload shows as text, a quick phrase in each reader's language, the spectator
writes in the spectators' channel, which a player hides; Anna mutes Ben and shows
him again; another's message sounds. On the phone the chat is a drawer with an unread
count that covers nothing while it is closed. Both press "Play again" at the end and meet at the new
table; the finished game's page shows what was said.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .browser_helpers import hidden_parts
from .test_browser_two_players import take_turn

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
HTML = "<img src=x onerror=alert(1)>"
PLAYED = """
window.__played = [];
HTMLMediaElement.prototype.play = function () {
  window.__played.push(this.src.split('/').pop());
  return Promise.resolve();
};
"""


def seat_page(
    context: Any, name: str, table: dict[str, Any] | None = None, players: int = 2
) -> Any:
    """A page of guest ``name`` at a new Draw table of ``players`` and one round (``table``
    None) or at ``table``'s open seat; the page holds the seat's token, as the lobby would have
    left it."""
    page = context.new_page()
    page.goto("/replay")
    page.request.post("/api/guest", data={"name": name})
    if table is None:
        seats = [{"kind": "human"}] + [{"kind": "open"}] * (players - 1)
        options = {"players": players, "target": "round"}
        body = {"preset": "draw", "options": options, "seats": seats, "hints": False}
        seat = page.request.post("/api/tables", data=body).json()
        table_id = seat["id"]
    else:
        table_id = table["id"]
        seat = page.request.post(f"/api/tables/{table_id}/join", data={}).json()
    keep = "([id, seat, token]) =>"
    keep += " localStorage.setItem(`ds_token_${id}`, JSON.stringify({seat, token}))"
    page.evaluate(keep, [table_id, seat["seat"], seat["token"]])
    page.goto(f"/table/{table_id}")
    return page, {"id": table_id}


def lines(page: Any) -> list[str]:
    """The chat's visible lines, without the time."""
    found = page.locator("#chat-list .chat-line:visible")
    return [
        " ".join(x.strip() for x in line.locator(":scope > :not(.chat-at)").all_inner_texts())
        for line in found.all()
    ]


def wait_line(page: Any, text: str) -> None:
    """Until a line with ``text`` is in the chat (in sight, or in the closed drawer)."""
    line = page.locator("#chat-list .chat-line", has_text=text).first
    line.wait_for(state="attached", timeout=10000)


def test_two_players_and_a_spectator_chat(new_context: Any, screenshots: Path) -> None:
    laptop = new_context(viewport=LAPTOP)
    laptop.add_init_script(PLAYED)  # the page's sounds, counted
    anna, table = seat_page(laptop, "Anna")
    anna.wait_for_selector("#waiting .waiting-card")
    anna.locator("#chat-form").wait_for()  # the waiting room has the chat (below)
    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="de-DE")
    ben, _ = seat_page(phone, "Ben", table)
    for page in (anna, ben):
        page.wait_for_selector("#hand .hand-tile", timeout=15000)
    assert anna.locator("#chat-list .chat-empty").inner_text() == "No messages yet."

    # An HTML payload is shown as the text it is, to both players.
    anna.fill("#chat-input", HTML)
    anna.press("#chat-input", "Enter")
    for page in (anna, ben):
        wait_line(page, HTML)
        assert page.locator("#chat-list img").count() == 0
    assert anna.input_value("#chat-input") == ""  # sent: the line is empty again
    assert lines(anna) == [f"Anna {HTML}"]

    # Ben's phone: the chat is a drawer; the message waits as "1" unread, covering nothing.
    assert ben.locator("#chat-unread").inner_text() == "1"
    parts = ["#hand .hand-tile", ".seat .name", "#chat-toggle", "#pad-toggle", "#my-name .name"]
    assert hidden_parts(ben, parts) == []
    ben.click("#chat-toggle")
    ben.wait_for_function("getComputedStyle(document.getElementById('side')).transform === 'none'")
    assert ben.locator("#chat-unread").is_hidden()
    assert (
        hidden_parts(ben, ["#chat-list .chat-line", "#chat-input", "#chat-phrases .phrase"]) == []
    )
    assert ben.locator("#pad").is_hidden()  # the drawer shows the chat, not the score pad

    # A quick phrase is shown in each reader's language.
    ben.click("#chat-phrases .phrase[data-phrase='good_game']")
    wait_line(ben, "Gutes Spiel")
    wait_line(anna, "Good game")
    assert lines(anna)[-1] == "Ben Good game" and lines(ben)[-1] == "Ben Gutes Spiel"
    assert anna.evaluate("window.__played").count("chat.wav") == 1  # Ben's, not her own
    ben.screenshot(path=str(screenshots / "phone-chat.png"))
    ben.click("#pad-close")
    ben.locator("#chat-input").wait_for(state="hidden")

    # Carla watches with a name and writes in the spectators' channel; it is marked.
    carla = new_context(viewport=LAPTOP).new_page()
    carla.goto("/replay")
    carla.request.post("/api/guest", data={"name": "Carla"})
    carla.goto(f"/table/{table['id']}")
    carla.wait_for_selector("#my-name .watching")
    assert carla.locator("#chat-spectators").is_hidden()  # a spectator has no channel switch
    wait_line(carla, "Good game")
    carla.fill("#chat-input", "Go Anna!")
    carla.click("#chat-send")
    wait_line(anna, "Go Anna!")
    assert lines(anna)[-1] == "Carla spectator Go Anna!"
    spectator_line = anna.locator("#chat-list .chat-line.spectators")
    assert spectator_line.count() == 1
    anna.screenshot(path=str(screenshots / "table-chat.png"))

    # Someone without a name reads, and is told where to choose one to write.
    reader = new_context(viewport=LAPTOP).new_page()
    reader.goto(f"/table/{table['id']}")
    wait_line(reader, "Go Anna!")
    reader.locator("#chat-note").wait_for()
    assert reader.locator("#chat-form").is_hidden()
    reader.close()

    # Anna hides the spectators' channel (kept for her next visit); Ben still sees it.
    anna.uncheck("#chat-show-spectators")
    spectator_line.wait_for(state="hidden")
    assert all("Go Anna!" not in line for line in lines(anna))
    ben.click("#chat-toggle")
    wait_line(ben, "Go Anna!")
    ben.click("#pad-close")
    anna.reload()
    anna.wait_for_selector("#hand .hand-tile")
    wait_line(anna, "Good game")
    assert not anna.is_checked("#chat-show-spectators")
    assert all("Go Anna!" not in line for line in lines(anna))

    # Anna mutes Ben: his messages are gone from her chat until she shows him again.
    anna.click("#chat-list .chat-line button.chat-from:has-text('Ben')")
    assert anna.locator("#chat-muted .unmute").inner_text() == "Ben"
    ben.click("#chat-toggle")
    ben.fill("#chat-input", "Hörst du mich?")
    ben.click("#chat-send")
    wait_line(ben, "Hörst du mich?")
    ben.click("#pad-close")
    carla.fill("#chat-input", "Still here")
    carla.click("#chat-send")
    anna.check("#chat-show-spectators")
    wait_line(anna, "Still here")  # Carla's came after Ben's: Ben's is muted, not late
    assert all("Hörst du mich?" not in line and "Good game" not in line for line in lines(anna))
    anna.click("#chat-muted .unmute")
    wait_line(anna, "Hörst du mich?")
    assert anna.locator("#chat-muted").is_hidden()
    carla.close()

    # The game to its end; both press "Play again" and meet again at the new table.
    while not (anna.locator("#game-end").count() and ben.locator("#game-end").count()):
        if not (take_turn(anna) or take_turn(ben)):
            anna.wait_for_timeout(50)
    anna.click("#rematch")
    anna.locator("#rematch:disabled").wait_for()
    ben.locator("#rematch-state", has_text="Anna").wait_for()
    old = anna.url
    ben.click("#rematch")
    for page in (anna, ben):
        page.wait_for_url(lambda url: url != old and "/table/" in url, timeout=15000)
        page.wait_for_selector("#hand .hand-tile", timeout=15000)
    assert anna.url == ben.url
    assert anna.locator("#my-name .name").inner_text() == "Anna"
    assert ben.locator("#my-name .name").inner_text() == "Ben"
    assert anna.locator(".seat .name").inner_text() == "Ben"

    # The finished game's page shows the chat, both channels, as text.
    game = new_context(viewport=LAPTOP, locale="de-DE").new_page()
    game.goto(f"/game/{table['id']}")
    game.locator("#game-chat .chat-line").first.wait_for()
    said = [
        " ".join(x.strip() for x in li.locator(":scope > :not(.chat-at)").all_inner_texts())
        for li in game.locator("#game-chat .chat-line").all()
    ]
    assert said == [
        f"Anna {HTML}",
        "Ben Gutes Spiel",
        "Carla Zuschauer Go Anna!",
        "Ben Hörst du mich?",
        "Carla Zuschauer Still here",
    ]
    assert game.locator("#game-chat img").count() == 0
    # A name muted there is muted here too: Carla's lines go, until she is shown again.
    game.locator("#game-chat .chat-line", has_text="Go Anna!").locator(".chat-from").click()
    assert game.locator("#game-chat .chat-line", has_text="Carla").count() == 0
    assert game.locator("#chat-muted .unmute").all_inner_texts() == ["Carla"]
    game.reload()
    game.locator("#game-chat .chat-line").first.wait_for()
    assert game.locator("#game-chat .chat-line", has_text="Carla").count() == 0
    game.locator("#chat-muted .unmute").click()
    assert game.locator("#game-chat .chat-line", has_text="Carla").count() == 2


def test_the_waiting_room_has_the_chat(new_context: Any, screenshots: Path) -> None:
    """Anna waits at her table; Ben, a visitor with a name, reads and answers there (in the
    spectators' channel), takes the seat, and writes on as a player once the game is on."""
    anna, table = seat_page(new_context(viewport=LAPTOP), "Anna")
    anna.wait_for_selector("#waiting .waiting-card")
    anna.fill("#chat-input", "Anyone for a round?")
    anna.press("#chat-input", "Enter")
    wait_line(anna, "Anyone for a round?")

    ben = new_context(viewport=LAPTOP).new_page()
    ben.goto("/replay")
    ben.request.post("/api/guest", data={"name": "Ben"})
    ben.goto(f"/table/{table['id']}")
    ben.wait_for_selector("#waiting .take-seat")
    wait_line(ben, "Anyone for a round?")
    ben.fill("#chat-input", "Me!")
    ben.click("#chat-send")
    wait_line(anna, "Me!")
    assert lines(anna) == ["Anna Anyone for a round?", "Ben spectator Me!"]
    ben.screenshot(path=str(screenshots / "waiting-chat.png"))

    ben.click("#waiting .take-seat")
    for page in (anna, ben):
        page.wait_for_selector("#hand .hand-tile", timeout=15000)
    assert ben.locator("#my-name .name").inner_text() == "Ben"
    assert ben.locator("#waiting").is_hidden()
    ben.fill("#chat-input", "Good luck")
    ben.click("#chat-send")
    wait_line(anna, "Good luck")
    assert lines(anna)[-1] == "Ben Good luck"  # a player now: the players' channel
