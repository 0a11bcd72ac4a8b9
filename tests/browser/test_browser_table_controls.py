"""The table's controls: a bot for an open seat from the waiting room, the turn timer,
the hint button, cancelling a lifted tile (second click, right-click), keyboard play
and the clock for Continue at a round's end.
"""

from __future__ import annotations

import re
from typing import Any

from .browser_helpers import as_guest, play_until


def my_turn_with_a_tile(page: Any) -> None:
    """Wait for our turn with a tile to play, pressing "Continue" if a round ends first."""
    for _ in range(400):
        if page.locator("#hand.my-turn .hand-tile.playable").count():
            return
        assert not page.locator("#game-end").count(), "the game ended before our turn"
        cont = page.locator("#continue:enabled")
        if cont.count() and cont.is_visible():
            cont.click()
        page.wait_for_timeout(50)
    raise AssertionError("no turn with a tile to play")


def test_waiting_room_timer_hint_cancel_and_keyboard(new_context: Any) -> None:
    page = new_context().new_page()
    as_guest(page, "Carla")
    page.select_option("#preset", "block")
    page.select_option("#players", "2")
    page.select_option("#seat-1", "open")
    page.select_option("#timer", "60")
    page.check("#hints")
    page.click("#create-table")
    page.wait_for_url("**/table/**")

    # The waiting room: the creator seats a bot in the open seat, and the game starts.
    page.wait_for_selector(".waiting-card .seat-bot")
    page.click(".waiting-card .seat-bot")
    page.wait_for_selector("#hand .hand-tile", timeout=15000)
    page.uncheck("#quick")
    my_turn_with_a_tile(page)
    timer = page.locator("#my-timer")
    assert timer.inner_text().startswith(("1:00", "0:5")), timer.inner_text()

    # The hint names a move of ours.
    page.click("#hint")
    page.wait_for_selector("#my-note:has-text('Hint:')", timeout=20000)
    hinted = page.locator("#hand .hand-tile.hinted")
    assert hinted.count() == 1

    # A second click on the lifted tile, or a right-click, puts it back.
    tile = page.locator("#hand.my-turn .hand-tile.playable").first
    name = tile.get_attribute("data-tile")
    tile.click()
    assert (
        page.locator(f"#hand .hand-tile[data-tile='{name}']").get_attribute("aria-pressed")
        == "true"
    )
    assert page.locator("#board .target").count() >= 1
    page.locator(f"#hand .hand-tile[data-tile='{name}']").click()
    assert page.locator("#board .target").count() == 0
    page.locator(f"#hand .hand-tile[data-tile='{name}']").click()
    assert page.locator("#board .target").count() >= 1
    page.locator("#board").click(button="right")
    assert page.locator("#board .target").count() == 0
    assert page.locator("#hand .hand-tile.selected").count() == 0

    # The keyboard: arrows pick a tile, Enter lifts it, left or right plays it there.
    before = page.locator("#hand .hand-tile").count()
    tiles = page.locator("#hand .hand-tile")
    playable = [tiles.nth(i).get_attribute("class") for i in range(before)]
    index = next(i for i, cls in enumerate(playable) if "playable" in (cls or ""))
    tiles.first.focus()
    for _ in range(index):
        page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.tile")
    assert focused == tiles.nth(index).get_attribute("data-tile")
    page.keyboard.press("Enter")
    page.wait_for_selector("#board .target")
    end = page.locator("#board .target").first.get_attribute("data-end")
    page.keyboard.press(
        "Enter" if end == "open" else {"left": "ArrowLeft", "right": "ArrowRight"}[end]
    )
    page.wait_for_function(f"document.querySelectorAll('#hand .hand-tile').length < {before}")
    line = page.locator(f"#board .line-tile[data-tile='{focused}']")
    line.wait_for()

    # To the round's end: the table's clock runs for Continue too.
    play_until(page, lambda: page.locator("#continue:enabled").count() > 0, circles=False)
    clock = page.locator(".continue-clock")
    assert clock.inner_text().startswith("Continues by itself in")
    page.wait_for_function("document.querySelector('#continue-timer').textContent !== ''")
    assert re.fullmatch(r"0:[0-3]\d", page.locator("#continue-timer").inner_text())
