"""Issue 11: sound and attention at the table.

Against a bot at a table with a short turn clock: laying a tile clicks, our
turn chimes, our clock turns red and ticks in its last ten seconds, the tab's
title says "● Your turn" while the tab is in the background, and the mute
switch silences all of it and is remembered after a reload.

The page's sounds are counted by wrapping ``HTMLMediaElement.play``, and the
tab is sent to the background by overriding ``document.hidden`` (headless
Chromium keeps every tab visible).
"""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

INIT = """
window.__played = [];
HTMLMediaElement.prototype.play = function () {
  window.__played.push(this.src.split('/').pop());
  return Promise.resolve();
};
window.__hidden = false;
Object.defineProperty(document, 'hidden', { get: () => window.__hidden });
Object.defineProperty(document, 'visibilityState', {
  get: () => (window.__hidden ? 'hidden' : 'visible'),
});
"""

BACKGROUND = (
    "(h) => { window.__hidden = h; document.dispatchEvent(new Event('visibilitychange')); }"
)


def played(page: Any) -> list[str]:
    sounds: list[str] = page.evaluate("window.__played")
    return sounds


def wait_for_our_turn(page: Any) -> None:
    """Until we have a tile to play. The server deals at random: a round may end before our
    next turn (the bot dominoes, or the line blocks), and then we press Continue."""
    deadline = time.monotonic() + 20
    mine = page.locator("#hand.my-turn .hand-tile.playable")
    while not mine.count():
        assert time.monotonic() < deadline, "our turn did not come"
        cont = page.locator("#continue:enabled")
        if cont.count() and cont.is_visible():
            cont.click()
        page.wait_for_timeout(100)


def test_sounds_title_clock_and_mute(new_context: Any) -> None:
    context = new_context()
    context.add_init_script(INIT)
    page = context.new_page()
    page.goto("/replay")
    page.request.post("/api/guest", data={"name": "Odile"})
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    body = {"preset": "block", "seats": seats, "timer": 11.5, "hints": False}
    table = page.request.post("/api/tables", data=body).json()
    keep = "([id, seat, token]) =>"
    keep += " localStorage.setItem(`ds_token_${id}`, JSON.stringify({seat, token}))"
    page.evaluate(keep, [table["id"], table["seat"], table["token"]])
    page.goto(f"/table/{table['id']}")
    wait_for_our_turn(page)
    assert page.locator("#mute").get_attribute("aria-pressed") == "false"

    # In the background, the title calls us; back in front, it is the page's again.
    page.evaluate(BACKGROUND, True)
    assert page.title() == "● Your turn · doublesix"
    page.evaluate(BACKGROUND, False)
    assert page.title() == "Table · doublesix"

    # The last ten seconds of our clock: red, and a tick each second.
    page.wait_for_selector("#my-timer.low", timeout=8000)
    page.wait_for_function("window.__played.filter((s) => s === 'warn.wav').length >= 2")
    # A tile laid clicks; our next turn chimes. Where the bot cannot answer, the turn never
    # leaves us and nothing chimes: we lay another tile (the server deals at random).
    for _ in range(6):
        page.evaluate("window.__played = []")
        page.locator("#hand.my-turn .hand-tile.playable").first.click()
        target = page.locator("#board .target")
        if target.count():
            target.first.click()
        page.wait_for_function("window.__played.includes('click.wav')")
        wait_for_our_turn(page)
        try:
            page.wait_for_function("window.__played.includes('turn.wav')", timeout=3000)
            break
        except PlaywrightTimeoutError:
            continue
    else:
        raise AssertionError("our turn never chimed")

    # Muted: nothing is heard, and the switch is remembered.
    page.click("#mute")
    assert page.locator("#mute").get_attribute("aria-pressed") == "true"
    assert page.evaluate("localStorage.getItem('ds_mute')") == "1"
    page.evaluate("window.__played = []")
    page.wait_for_selector("#my-timer.low", timeout=8000)
    page.wait_for_timeout(1200)  # a second of the red clock
    assert played(page) == []
    page.reload()
    page.wait_for_selector("#hand .hand-tile")
    assert page.locator("#mute").get_attribute("aria-pressed") == "true"
