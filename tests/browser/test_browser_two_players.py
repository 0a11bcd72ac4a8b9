"""Issue 4: two browser contexts play a 2-player Draw game against each other.

Anna creates the table on a desktop with the second seat open and sends
the invitation link; Ben opens it on a phone, picks a name and is seated.
They play by clicking (a tile that fits one end goes with one click, the
others through a circle) until both see the game's end. The phone's board
fits its screen.
"""

from __future__ import annotations

import time
from typing import Any

PHONE = {"width": 390, "height": 780}


def take_turn(page: Any) -> bool:
    """One click-through at ``page`` if it has something to do; True if it did."""
    cont = page.locator("#continue:enabled")
    if cont.count() and cont.is_visible():
        cont.click()
        return True
    tiles = page.locator("#hand.my-turn .hand-tile.playable")
    if not tiles.count():
        return False
    tiles.first.click()
    target = page.locator("#board .target")
    if target.count():
        target.first.click()
    return True


def test_two_people_play_a_draw_game(new_context: Any) -> None:
    anna = new_context().new_page()
    ben = new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="en-GB").new_page()

    anna.goto("/")
    anna.fill("#guest-name", "Anna")
    anna.click("#guest-form button[type=submit]")
    anna.wait_for_selector(".identity .my-name")
    anna.select_option("#preset", "draw")
    anna.select_option("#players", "2")
    anna.select_option("#target", "custom")
    anna.fill("#target-custom", "15")
    anna.dispatch_event("#target-custom", "change")
    anna.select_option("#seat-1", "invite")
    assert not anna.is_checked("#hints")  # another person at the table: no hints by default
    anna.click("#create-table")
    anna.wait_for_url("**/table/**")
    anna.wait_for_selector(".waiting-card")
    invite = anna.input_value("#invite-link-1")
    assert "invite=" in invite
    assert anna.locator("#table-link").count() == 0  # no seat is open to anyone

    ben.goto(invite)
    ben.wait_for_selector(".guest-form input")
    ben.fill(".guest-form input", "Ben")
    ben.click(".guest-form button[type=submit]")
    for page in (anna, ben):
        page.wait_for_selector("#hand .hand-tile", timeout=15000)
    assert anna.locator(".seat .name").inner_text() == "Ben"
    assert ben.locator(".seat .name").inner_text() == "Anna"
    assert "Boneyard" in anna.locator("#boneyard").inner_text()

    deadline = time.monotonic() + 240
    moves = 0
    while not (anna.locator("#game-end").count() and ben.locator("#game-end").count()):
        assert time.monotonic() < deadline, "the game did not end"
        acted = take_turn(anna) or take_turn(ben)
        moves += acted
        if not acted:
            anna.wait_for_timeout(50)
        if moves == 6:  # the phone's table: everything on the screen, no sideways scrolling
            check_phone(ben)
    assert moves > 4
    for page in (anna, ben):
        text = page.locator("#game-end").inner_text()
        assert "wins the game!" in text
    winner = anna.locator("#game-end .winners").inner_text()
    assert winner == ben.locator("#game-end .winners").inner_text()
    assert winner.split()[0] in ("Anna", "Ben")


def check_phone(page: Any) -> None:
    page.wait_for_timeout(800)  # the last tiles have landed
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"] + 1
    board = page.locator("#board").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"] + 1
    for tile in page.locator("#board .line-tile").all():
        box = tile.bounding_box()
        if box is None:
            continue
        assert box["x"] >= -1 and box["x"] + box["width"] <= PHONE["width"] + 1
        assert (
            box["y"] >= board["y"] - 1
            and box["y"] + box["height"] <= board["y"] + board["height"] + 1
        )
    hand = page.locator("#hand").bounding_box()
    assert hand["y"] + hand["height"] <= PHONE["height"] + 1, "the hand is below the screen"
