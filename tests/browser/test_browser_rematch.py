"""Issue 11, rematch: a game against bots played by clicking to its end, then "Play again".

The game-over card's buttons are in sight without scrolling on a laptop (1366×768) and on a
phone either way round; "No thanks" tells the table, and "Play again" still may follow; bots
always agree, so it opens the new table at once, and the browser goes there seated, with the
same seats and options.
"""

from __future__ import annotations

from typing import Any

import pytest

from .browser_helpers import hidden_parts, play_until

SCREENS = {
    "laptop": ({"width": 1366, "height": 768}, 3),
    "phone upright": ({"width": 390, "height": 844}, 2),
    "phone on its side": ({"width": 844, "height": 390}, 2),
}
BUTTONS = [
    "#game-end #rematch",
    "#game-end #rematch-decline",
    "#game-end #to-record",
    "#game-end .actions a[href='/']",
]


@pytest.mark.parametrize("screen", list(SCREENS))
def test_play_again_against_bots(new_context: Any, screen: str) -> None:
    size, players = SCREENS[screen]
    phone = screen != "laptop"
    page = new_context(viewport=size, is_mobile=phone, has_touch=phone).new_page()
    page.goto("/replay")
    page.request.post("/api/guest", data={"name": "Hedwig"})
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * (players - 1)
    body = {"preset": "draw", "options": {"target": "round"}, "seats": seats, "timer": 120}
    table = page.request.post("/api/tables", data=body).json()
    keep = "([id, seat, token]) =>"
    keep += " localStorage.setItem(`ds_token_${id}`, JSON.stringify({seat, token}))"
    page.evaluate(keep, [table["id"], table["seat"], table["token"]])
    page.goto(f"/table/{table['id']}")
    page.wait_for_selector("#hand .hand-tile", timeout=20000)
    names = page.locator(".seat .name").all_inner_texts()

    play_until(page, lambda: page.locator("#game-end").count() > 0, circles=False)
    page.wait_for_timeout(500)  # the card has risen
    assert hidden_parts(page, BUTTONS) == []
    assert page.evaluate("document.documentElement.scrollHeight") <= size["height"]
    assert page.locator("#rematch").inner_text() == "Play again"

    page.click("#rematch-decline")  # "No thanks": the card says so, and the button goes
    state = page.locator("#rematch-state")
    state.filter(has_text="Hedwig would rather not play again").wait_for(timeout=10000)
    assert page.locator("#rematch-decline").count() == 0
    page.click("#rematch")  # after all: the bots agree, so the new table opens at once
    page.wait_for_url(lambda url: table["id"] not in url, timeout=15000)
    page.wait_for_selector("#hand .hand-tile", timeout=20000)
    new_id = page.url.rstrip("/").split("/")[-1]
    assert page.locator("#my-name .name").inner_text() == "Hedwig"  # seated, not watching
    assert page.locator(".seat .name").all_inner_texts() == names  # the same bots
    new = page.request.get(f"/api/tables/{new_id}").json()
    old = page.request.get(f"/api/tables/{table['id']}").json()
    assert (new["ruleset"], new["seats"], new["timer"]) == (old["ruleset"], old["seats"], 120)
    assert new["status"] == "playing"
