"""A player leaves a game that goes on: "Leave" asks first ("Stay" keeps the seat), then a bot
plays the seat at once and the player is in the lobby; the others are told, see "left: a bot
plays" at the seat and play on; the table's address gives the seat back."""

from __future__ import annotations

from typing import Any

from .browser_helpers import as_guest, create_table, person_name
from .test_browser_languages import check_page
from .test_browser_two_players import PHONE, take_turn


def test_a_player_leaves_a_bot_plays_on_and_the_seat_comes_back(new_context: Any) -> None:
    a_name, b_name = person_name("Anna"), person_name("Ben")
    anna = new_context().new_page()
    ben = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    as_guest(anna, a_name)
    as_guest(ben, b_name)
    create_table(anna, "draw", 2, seat_1="invite")
    anna.wait_for_selector(".waiting-card")
    table_url = anna.url
    ben.goto(anna.input_value("#invite-link-1"))
    for page in (anna, ben):
        page.wait_for_selector("#hand .hand-tile", timeout=15000)
    assert anna.is_visible("#leave") and ben.inner_text("#leave") == "Leave"

    ben.click("#leave")
    dialog = ben.locator("#leave-dialog[open]")
    dialog.wait_for()
    assert dialog.locator("h2").inner_text() == "Leave the game?"
    assert "A bot plays your seat from now on" in dialog.inner_text()
    assert ben.evaluate("document.activeElement.id") == "leave-stay"  # the safe choice
    check_page(ben, "en")
    ben.click("#leave-stay")  # stays: nothing is sent
    ben.locator("#leave-dialog").wait_for(state="detached")
    assert anna.locator(".away.shown").count() == 0

    ben.click("#leave")
    with ben.expect_navigation(url=f"{anna.url.split('/table/')[0]}/"):
        ben.click("#leave-go")  # the lobby, once the server has said the seat is left
    anna.locator(
        "#toasts .toast", has_text=f"{b_name} left the game: a bot plays for them"
    ).wait_for()
    label = anna.locator(".seat[data-seat='1'] .away.shown")
    label.wait_for()
    assert label.inner_text() == "left: a bot plays"

    # Anna plays on: Ben's bot takes his turns, and it is soon hers again.
    bens = anna.locator("#log li", has_text=b_name)
    before = bens.count()
    played = 0
    while played < 3:
        anna.wait_for_selector("#hand.my-turn, #overlay:not(.hidden)", timeout=15000)
        if not take_turn(anna):
            break  # the round ended
        played += 1
        anna.wait_for_timeout(200)
    assert played >= 2 and bens.count() > before

    ben.goto(table_url)  # back: his seat, and the bot stops
    ben.wait_for_selector("#hand .hand-tile", timeout=15000)
    assert b_name in ben.inner_text("#my-name")
    label.wait_for(state="hidden")
