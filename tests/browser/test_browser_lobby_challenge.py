"""Issue 11: two browsers see each other online, chat in the lobby (an HTML payload shows as
text), one challenges the other, who sees the toast and accepts: both land at the table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import as_guest, person_name
from .conftest import serve

PHONE = {"width": 390, "height": 780}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own: the lobby in its picture shows this test's players and
    chat, under plain names, and nothing of the other tests'."""
    yield from serve(tmp_path_factory.mktemp("lobby_challenge"), "--no-limits")


def test_a_challenge_from_the_lobby_seats_both_players(new_context: Any, screenshots: Path) -> None:
    a_name, b_name = "Anna", "Ben"  # the module's first test, on its own server
    anna = new_context().new_page()
    ben = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    as_guest(anna, a_name)
    as_guest(ben, b_name)
    anna.wait_for_selector(f'#online .online-row[data-player="{b_name}"] .status.free')
    ben.wait_for_selector(f'#online .online-row[data-player="{a_name}"]')
    assert ben.locator(f'#online .online-row[data-player="{a_name}"] a').count() == 0  # no page

    payload = '<b id="bold">hi</b><img src=x>'
    anna.fill("#lobby-chat-input", payload)
    anna.press("#lobby-chat-input", "Enter")
    line = ben.locator("#lobby-chat-lines .chat-line", has_text=a_name).last
    line.wait_for()
    assert line.locator(".chat-text").inner_text() == payload
    assert ben.locator("#bold").count() == 0 and ben.locator("#lobby-chat-lines img").count() == 0
    ben.click("#lobby-chat .phrases button.phrase >> nth=0")  # "Good game", in each language
    said = anna.locator("#lobby-chat-lines .chat-line", has_text="Good game")
    said.wait_for()
    said.locator(".chat-from").click()  # Anna mutes Ben: his lines are hidden, until unmuted
    said.wait_for(state="detached")
    anna.click("#lobby-chat .unmute")
    anna.locator("#lobby-chat-lines .chat-line", has_text="Good game").wait_for()

    hidden = "(h) => { Object.defineProperty(document, 'hidden', {value: h, configurable: true});"
    hidden += " document.dispatchEvent(new Event('visibilitychange')); }"
    ben.evaluate(hidden, True)  # Ben's tab is in the background
    anna.click(f'#online .online-row[data-player="{b_name}"] .challenge-button')
    anna.wait_for_selector("#challenge-dialog[open]")
    anna.select_option("#challenge-preset", "draw")
    anna.select_option("#challenge-target", "round")
    anna.fill("#challenge-hand-size", "5")  # VOG: target, tiles in hand, scoring
    anna.dispatch_event("#challenge-hand-size", "change")
    anna.select_option("#challenge-scoring", "winner_takes_all")
    anna.click("#challenge-send")
    anna.wait_for_selector(".challenge-toast.outgoing")

    toast = ben.locator(".challenge-toast.incoming")
    toast.wait_for()
    assert ben.title() == f"⚔ Challenge from {a_name}"
    ben.evaluate(hidden, False)
    assert ben.title() != f"⚔ Challenge from {a_name}" and "doublesix" in ben.title()
    assert a_name in toast.inner_text() and "Draw" in toast.inner_text()
    assert toast.locator(".countdown").inner_text().endswith("s")
    ben.screenshot(path=str(screenshots / "challenge-phone.png"))
    assert ben.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # fits
    toast.locator("button.accept").click()

    for page in (anna, ben):
        page.wait_for_url("**/table/**")
    assert anna.url == ben.url
    for page, seat in ((anna, 0), (ben, 1)):
        page.wait_for_selector("#hand")
        held = page.evaluate(
            "(id) => JSON.parse(localStorage.getItem('ds_token_' + id))", anna.url.split("/")[-1]
        )
        assert held["seat"] == seat, held
    ruleset = anna.evaluate(
        "async (id) => (await (await fetch('/api/tables/' + id)).json()).ruleset",
        anna.url.split("/")[-1],
    )
    assert (ruleset["hand_size"], ruleset["scoring"], ruleset["target"]) == (
        5,
        "winner_takes_all",
        "round",
    )


def test_a_challenged_player_who_leaves_ends_the_challenge(new_context: Any) -> None:
    a_name, b_name = person_name("Anna"), person_name("Ben")
    anna = new_context().new_page()
    ben = new_context().new_page()
    as_guest(anna, a_name)
    as_guest(ben, b_name)
    anna.click(f'#online .online-row[data-player="{b_name}"] .challenge-button')
    anna.wait_for_selector("#challenge-dialog[open]")
    anna.click("#challenge-send")
    anna.wait_for_selector(".challenge-toast.outgoing")
    ben.locator(".challenge-toast.incoming").wait_for()
    ben.close()  # Ben closes his tab without answering
    note = anna.locator(".challenge-toast.note", has_text=f"{b_name} left the site")
    note.wait_for()
    assert anna.locator(".challenge-toast.outgoing").count() == 0
    anna.wait_for_selector(f'#online .online-row[data-player="{b_name}"]', state="detached")


def test_one_mute_hides_a_name_in_the_lobby_at_the_table_and_declines_its_challenges(
    new_context: Any,
) -> None:
    """Muting is one list per browser: Anna mutes Ben in the lobby, so his challenge never
    reaches her (he reads "declined"), and his lines at the table they then share are hidden.
    A list the lobby kept under its old key joins it."""
    a_name, b_name, c_name = person_name("Anna"), person_name("Ben"), person_name("Cleo")
    anna = new_context().new_page()
    ben = new_context().new_page()
    anna.goto("/")
    anna.evaluate("(n) => localStorage.setItem('ds_lobby_muted', JSON.stringify([n]))", c_name)
    as_guest(anna, a_name)
    as_guest(ben, b_name)
    assert anna.evaluate("localStorage.getItem('ds_lobby_muted')") is None
    chips = anna.locator("#lobby-chat .chat-muted .unmute")
    chips.first.wait_for()  # the lobby's chat is drawn at the socket's welcome, which may lag
    assert chips.all_inner_texts() == [c_name]

    ben.fill("#lobby-chat-input", "Hello Anna")
    ben.press("#lobby-chat-input", "Enter")
    said = anna.locator("#lobby-chat-lines .chat-line", has_text="Hello Anna")
    said.locator(".chat-from").click()
    said.wait_for(state="detached")
    muted = anna.evaluate("JSON.parse(localStorage.getItem('ds_chat_muted'))")
    assert sorted(muted) == sorted([b_name, c_name])

    ben.click(f'#online .online-row[data-player="{a_name}"] .challenge-button')
    ben.wait_for_selector("#challenge-dialog[open]")
    ben.click("#challenge-send")
    ben.locator(".challenge-toast.note", has_text=f"{a_name} declined the challenge.").wait_for()
    assert anna.locator(".challenge-toast").count() == 0
    anna.wait_for_selector(f'#online .online-row[data-player="{b_name}"] .status.free')

    anna.click(f'#online .online-row[data-player="{b_name}"] .challenge-button')
    anna.wait_for_selector("#challenge-dialog[open]")
    anna.select_option("#challenge-preset", "draw")
    anna.click("#challenge-send")  # her challenge to a name she muted goes as any other
    ben.locator(".challenge-toast.incoming button.accept").click()
    for page in (anna, ben):
        page.wait_for_url("**/table/**")
        page.wait_for_selector("#hand .hand-tile")  # the socket is open: lines said are sent
    ben.fill("#chat-input", "Muted at the table too?")
    ben.press("#chat-input", "Enter")
    ben.locator("#chat-list .chat-line", has_text="Muted at the table too?").wait_for()
    anna.fill("#chat-input", "Still talking")
    anna.press("#chat-input", "Enter")
    anna.locator("#chat-list .chat-line", has_text="Still talking").wait_for()
    assert anna.locator("#chat-list .chat-line", has_text="Muted at the table too?").count() == 0
    anna.locator("#chat-muted .unmute", has_text=b_name).click()  # shown again, everywhere
    anna.locator("#chat-list .chat-line", has_text="Muted at the table too?").wait_for()
    assert anna.evaluate("JSON.parse(localStorage.getItem('ds_chat_muted'))") == [c_name]
