"""Private messages end to end: two accounts in two browsers; Anna writes to Boris from his
page ("Message"), Boris sees the header's badge and a toast at once in the lobby, reads the
message in his inbox (an HTML payload shows as typed), answers, and Anna's open thread shows
the answer live; Boris reports her message; once he mutes her, her next message is kept but
never shown to him. The inbox's picture for the README (``docs/inbox.png``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import register
from .conftest import serve

PASSWORD = "double six tiles"
PAYLOAD = "<b>rematch</b> tomorrow?\nat 8 <img src=x onerror=alert(1)>"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this test's own: its inbox's picture shows these players only."""
    yield from serve(tmp_path_factory.mktemp("messages"), "--no-limits")


def badge(page: Any) -> Any:
    return page.locator("#inbox-link .unread-badge")


def write(page: Any, text: str) -> None:
    """Send ``text`` from the thread open at ``page``; wait until the thread shows it."""
    mine = page.locator("#thread .message.mine")
    before = mine.count()
    page.fill("#message-text", text)
    page.click("#message-send")
    mine.nth(before).wait_for()


def test_two_accounts_write_privately_and_live(new_context: Any, screenshots: Path) -> None:
    anna, boris = new_context().new_page(), new_context().new_page()
    register(anna, "Anna", PASSWORD)
    register(boris, "Boris", PASSWORD)  # Boris stays in the lobby
    assert badge(boris).is_hidden()

    anna.goto("/player/Boris")
    anna.click("#message")
    anna.wait_for_url("**/inbox/Boris")
    anna.locator("#thread").wait_for(state="attached")
    write(anna, PAYLOAD)

    boris.locator(".toast", has_text="New message from Anna").wait_for()
    badge(boris).wait_for()
    assert badge(boris).inner_text() == "1"
    boris.click("#inbox-link")
    boris.wait_for_url("**/inbox")
    row = boris.locator('.conversation[data-with="Anna"]')
    assert row.locator(".badge.unread").inner_text() == "1 new"
    row.locator(".conversation-open").click()
    boris.wait_for_url("**/inbox/Anna")
    said = boris.locator("#thread .message.theirs .message-text")
    said.wait_for()
    assert said.inner_text() == PAYLOAD  # text, as typed: no HTML made of it
    assert boris.locator("#thread b, #thread img").count() == 0
    boris.wait_for_function("() => document.querySelector('#inbox-link .unread-badge.hidden')")

    write(boris, "gg, see you at 8")
    answer = anna.locator("#thread .message.theirs .message-text")
    answer.wait_for()  # live, on Anna's open thread
    assert answer.inner_text() == "gg, see you at 8"
    assert badge(anna).is_hidden()  # read as it came
    boris.screenshot(path=str(screenshots / "inbox.png"))

    boris.locator("#thread .message.theirs .report-message").click()
    boris.check("#report-reason-abuse")
    boris.click("#report-send")
    boris.locator(".toast", has_text="the site's operator will look").wait_for()

    muted = boris.request.put("/api/account/muted/Anna")
    assert muted.ok, muted.text()
    boris.goto("/")
    boris.locator("#identity .my-name").wait_for()
    write(anna, "you will not read this")
    boris.wait_for_timeout(800)  # a frame would have come by now
    assert boris.locator(".toast", has_text="New message from Anna").count() == 0
    assert badge(boris).is_hidden()
    boris.goto("/inbox")
    boris.locator("#conversations").wait_for(state="attached")
    assert boris.locator('.conversation[data-with="Anna"]').count() == 0
    boris.goto("/inbox/Anna")
    boris.locator("#thread .message").first.wait_for()
    assert boris.locator("#thread .message.theirs").count() == 0
