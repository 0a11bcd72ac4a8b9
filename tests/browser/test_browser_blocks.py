"""An account blocks another from its page: the Follow button goes (the site unfollowed), the
blocked player's lobby messages are hidden from the blocker only — without joining the
browser's mute list —, the blocked player's challenge is refused in their dialog, and the
blocker's own page lists whom it blocks, with "Unblock", which her lobby open in another tab
takes at once."""

from __future__ import annotations

from typing import Any

from .browser_helpers import as_guest, person_name, register
from .test_browser_languages import check_page, switch

PASSWORD = "a long enough password"
LINE = "#lobby-chat-lines .chat-line"


def open_lobby(page: Any) -> None:
    """Open the lobby and wait until it has read whom the account blocks (the chat is hidden
    by it) and its socket has welcomed it."""
    with page.expect_response("**/api/account/blocked"):
        page.goto("/")
    page.wait_for_selector("#lobby-chat-input")


def say(page: Any, text: str) -> None:
    page.fill("#lobby-chat-input", text)
    page.press("#lobby-chat-input", "Enter")


def test_an_account_blocks_a_player_and_unblocks_them(new_context: Any) -> None:
    a_name, b_name, c_name = person_name("Anna"), person_name("Ben"), person_name("Cleo")
    # The lobby's chat is the whole site's: each line names its writer, so that no other
    # test's line matches it.
    hello, again, cleo_hello = f"Hello from {b_name}", f"Again from {b_name}", f"Hi from {c_name}"
    ben = new_context().new_page()
    register(ben, b_name, PASSWORD)
    cleo = new_context().new_page()
    as_guest(cleo, c_name)
    cleo.goto(f"/player/{b_name}")
    cleo.wait_for_selector("#presence[data-status]")
    assert cleo.locator("#block").count() == 0  # a guest blocks nobody

    anna = new_context().new_page()
    register(anna, a_name, PASSWORD)
    anna.goto(f"/player/{b_name}")
    anna.click("#follow[aria-pressed='false']")  # she followed him: blocking unfollows
    anna.locator("#follow[aria-pressed='true']").wait_for()
    block = anna.locator("#block")
    assert block.inner_text() == "Block" and block.get_attribute("data-blocked") == "false"
    assert block.get_attribute("title").startswith(f"Block {b_name}: ")
    block.click()
    anna.locator("#block[data-blocked='true']").wait_for()
    assert block.inner_text() == "Unblock"
    assert block.get_attribute("title") == f"Stop blocking {b_name}"
    assert anna.locator("#follow").is_hidden()
    told = anna.locator("#toasts .toast", has_text=f"{b_name} is blocked: ")
    assert "you will not see their messages or challenges" in told.inner_text()
    anna.reload()  # kept by the site, not the page
    anna.locator("#block[data-blocked='true']").wait_for()
    assert anna.locator("#follow").is_hidden()
    followed = anna.evaluate("async () => (await (await fetch('/api/account/following')).json())")
    assert followed == {"following": []}

    # The lobby, in a tab of its own: Ben's lines are hidden from Anna, not from Cleo, and the
    # browser's own mute list stays empty. Cleo's line comes after Ben's: once Anna has it,
    # Ben's would be there.
    lobby = anna.context.new_page()
    open_lobby(lobby)
    cleo.goto("/")
    cleo.wait_for_selector("#lobby-chat-input")
    ben.wait_for_selector(f'#online .online-row[data-player="{a_name}"] .status.free')
    say(ben, hello)
    cleo.locator(LINE, has_text=hello).wait_for()
    say(cleo, cleo_hello)
    lobby.locator(LINE, has_text=cleo_hello).wait_for()
    assert lobby.locator(LINE, has_text=hello).count() == 0
    assert lobby.locator(LINE, has_text=b_name).count() == 0
    assert lobby.evaluate("localStorage.getItem('ds_chat_muted')") in (None, "[]")
    assert lobby.locator("#lobby-chat .unmute").count() == 0
    ben_row = lobby.locator(f'#online .online-row[data-player="{b_name}"]')
    ben_row.wait_for()  # listed, but Anna gets no button to challenge whom she blocks
    assert ben_row.locator(".challenge-button").count() == 0
    cleo_row = lobby.locator(f'#online .online-row[data-player="{c_name}"]')
    cleo_row.locator(".challenge-button").wait_for()  # Cleo's is there

    # Ben challenges Anna: the site refuses, his dialog says why, and she sees nothing.
    ben.click(f'#online .online-row[data-player="{a_name}"] .challenge-button')
    ben.wait_for_selector("#challenge-dialog[open]")
    ben.click("#challenge-send")
    refusal = ben.locator("#challenge-error", has_text="does not take your challenges")
    refusal.wait_for()
    assert refusal.inner_text() == f"Challenge refused: {a_name} does not take your challenges"
    assert ben.locator("#challenge-dialog[open]").count() == 1
    assert lobby.locator(".challenge-toast").count() == 0
    ben.click("#challenge-dialog button:not(#challenge-send)")

    # Anna's own page lists Ben under "You block", in each language; Ben's lists nobody.
    ben.goto(f"/player/{b_name}")
    ben.wait_for_selector("#presence[data-status]")
    assert ben.locator("#blocked").is_hidden() and ben.locator("#block").count() == 0
    anna.goto(f"/player/{a_name}")
    card = anna.locator("#blocked")
    row = card.locator(f'li[data-player="{b_name}"]')
    row.wait_for()
    assert card.locator("h2").inner_text() == "You block" and card.locator("li").count() == 1
    assert row.locator("a").get_attribute("href") == f"/player/{b_name}"
    for lang in ("de", "fr"):
        switch(anna, lang)
        shown = check_page(anna, lang)
        assert {"de": "Du blockierst", "fr": "Vous bloquez"}[lang] in shown
    switch(anna, "en")
    unblock = row.locator("button.block-button")
    assert unblock.inner_text() == "Unblock"
    with lobby.expect_response("**/api/account/blocked"):  # the lobby's tab reads it again
        unblock.click()
    row.locator("button[data-blocked='false']").wait_for()  # "Block" again, till a reload
    assert row.locator("button").inner_text() == "Block"
    anna.locator("#toasts .toast", has_text=f"{b_name} is no longer blocked.").wait_for()
    anna.reload()
    anna.wait_for_selector("#following")
    assert anna.locator("#blocked").is_hidden()  # nobody blocked: no card

    # Unblocked: Ben's lines show in Anna's lobby, the earlier one and his next.
    lobby.locator(LINE, has_text=hello).wait_for()
    ben.goto("/")
    ben.wait_for_selector("#lobby-chat-input")
    say(ben, again)
    lobby.locator(LINE, has_text=again).wait_for()
    open_lobby(anna)  # and in a lobby opened now
    anna.locator(LINE, has_text=again).wait_for()
