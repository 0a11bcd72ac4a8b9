"""Issue 14 (a table that explains itself) on a phone, upright and on its side.

A Kozel table with three bots, played by clicking to the game's end: the
felt keeps its room, the hand's tiles are at least 40 px tall, nothing
covers a name, the hand or the buttons, no name is cut to "…", the score
pad opens as a drawer, and the round-end and game-over cards show their
buttons without scrolling. Someone who opens the invitation link after
the start watches, and the table says so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import hidden_parts, play_until

PHONES = {"upright": {"width": 390, "height": 844}, "on its side": {"width": 844, "height": 390}}
SHOTS = {"upright": "phone-upright.png", "on its side": "phone-side.png"}


def open_kozel_table(context: Any, target: int) -> dict[str, Any]:
    """A Kozel table of ours with three bots, through the API; the page holds our seat."""
    page = context.new_page()
    page.goto("/replay")
    page.request.post("/api/guest", data={"name": "Marguerite"})
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * 3
    body = {"preset": "kozel", "options": {"target": target}, "seats": seats, "hints": False}
    table: dict[str, Any] = page.request.post("/api/tables", data=body).json()
    keep = "([id, seat, token]) =>"
    keep += " localStorage.setItem(`ds_token_${id}`, JSON.stringify({seat, token}))"
    page.evaluate(keep, [table["id"], table["seat"], table["token"]])
    page.goto(f"/table/{table['id']}")
    table["page"] = page
    return table


@pytest.mark.parametrize("phone", list(PHONES))
def test_a_phone_plays_kozel_to_the_end(new_context: Any, phone: str, screenshots: Path) -> None:
    size = PHONES[phone]
    context = new_context(viewport=size, is_mobile=True, has_touch=True)
    table = open_kozel_table(context, target=12)
    page = table["page"]
    page.wait_for_selector("#hand.my-turn .hand-tile.playable", timeout=20000)
    page.wait_for_timeout(600)  # the first tiles have landed

    board = page.locator("#board").bounding_box()
    assert board["height"] >= 0.4 * size["height"] and board["width"] >= 0.4 * size["width"], board
    for tile in page.locator("#hand .hand-tile svg").all():
        assert tile.bounding_box()["height"] >= 40
    parts = ["#hand .hand-tile", ".seat .name", "#status", "#pad-toggle", "#my-name .name"]
    assert hidden_parts(page, parts) == []
    assert page.evaluate("document.documentElement.scrollHeight") <= size["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    assert page.locator("#board .end-mark").count() == 2  # the open ends, before a tile is lifted
    partner = page.locator(".seat.partner .name")
    assert partner.inner_text() == "Bot 2 · greedy"  # the whole name, never "…"

    # The score pad is a drawer: "Scores" opens it, "Back to the table" closes it.
    page.click("#pad-toggle")
    page.wait_for_function("getComputedStyle(document.getElementById('side')).transform === 'none'")
    assert hidden_parts(page, ["#pad tfoot", "#pad-close"]) == []
    page.click("#pad-close")
    page.locator("#pad tfoot").wait_for(state="hidden")

    # Someone else opens the invitation link: the game has started, so they watch.
    watcher = new_context(viewport=size, is_mobile=True, has_touch=True).new_page()
    watcher.goto(f"/table/{table['id']}?invite=a-stale-code")
    watcher.wait_for_selector("#my-name .watching")
    assert watcher.locator("#my-name .name").count() == 0  # not labelled as the seat's player
    assert "Below: Marguerite" in watcher.locator("#my-name").inner_text()
    watcher.close()

    def round_end() -> None:
        assert hidden_parts(page, ["#round-end #continue"]) == []
        for tile in page.locator("#round-end .mini-tiles svg").all():
            assert tile.bounding_box()["height"] >= 30
        assert page.locator("#my-note").inner_text() == ""  # no "… knocks" left over

    shot = {"taken": False}

    def done() -> bool:
        """The game's end; on the way, a picture of the table in mid-round (our turn)."""
        mid_round = page.locator("#board .line-tile").count() >= 8
        if not shot["taken"] and mid_round and page.locator("#status.mine").count():
            page.wait_for_timeout(700)  # the last tile has landed
            page.screenshot(path=str(screenshots / SHOTS[phone]))
            shot["taken"] = True
        return page.locator("#game-end").count() > 0

    play_until(page, done, circles=False, at_round_end=round_end)
    page.wait_for_timeout(500)  # the card has risen
    assert hidden_parts(page, ["#game-end #to-record", "#game-end .actions a[href='/']"]) == []


@pytest.mark.parametrize("locale", ["de-DE", "fr-FR", "en-US"])
def test_every_link_of_the_bar_shows_on_a_narrow_phone(new_context: Any, locale: str) -> None:
    """At 360 px, German's links the longest, none of the bar's links is cut off: a player must
    not have to guess that the bar scrolls to find the leaderboard."""
    page = new_context(viewport={"width": 360, "height": 740}, locale=locale).new_page()
    page.goto("/")
    page.wait_for_selector("header.top nav a >> nth=3")
    for link in page.locator("header.top nav a").all():
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
    nav = page.eval_on_selector("header.top nav", "(n) => [n.scrollWidth, n.clientWidth]")
    assert nav[0] <= nav[1], nav
