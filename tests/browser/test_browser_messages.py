"""Private messages end to end: two accounts in two browsers; Anna writes to Boris from his
page ("Message"), Boris sees the header's badge and a toast that links the thread at once in
the lobby, reads the message in his inbox (an HTML payload shows as typed), answers, and
Anna's open thread shows the answer live; Boris reports her message; once he mutes her, her
next message is kept but never shown to him. "New message" in the inbox opens a thread with
a player found, or says why not; a challenge reaches a player whose only page is the inbox.
The inbox's pictures for the README (``docs/inbox.png``, ``docs/inbox-phone.png``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import person_name, register
from .conftest import serve

PASSWORD = "double six tiles"
PAYLOAD = "<b>rematch</b> tomorrow?\nat 8 <img src=x onerror=alert(1)>"
PHONE = {"width": 390, "height": 844}


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


def fits(page: Any) -> None:
    """Nothing wider than the phone: no horizontal scroll."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def phone_sees_the_inbox(new_context: Any, boris: Any, screenshots: Path) -> None:
    """Boris's inbox on a phone (his cookies): the list and the thread with Anna fit its
    width, her message's "Report" and the answer box with "Send" under it are in reach."""
    state = boris.context.storage_state()
    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True, storage_state=state)
    page = phone.new_page()
    page.goto("/inbox")
    page.locator('.conversation[data-with="Anna"]').wait_for()
    fits(page)
    page.goto("/inbox/Anna")
    page.locator("#thread .message.theirs .message-report").wait_for()
    page.locator("#message-send").scroll_into_view_if_needed()
    box, send = (page.locator(s).bounding_box() for s in ("#message-text", "#message-send"))
    assert box is not None and send is not None
    assert 0 <= send["y"] - (box["y"] + box["height"]) <= 16  # Send right under the box
    assert (
        send["x"] + send["width"] <= PHONE["width"]
        and send["y"] + send["height"] <= PHONE["height"]
    )
    fits(page)
    page.screenshot(path=str(screenshots / "inbox-phone.png"))
    phone.close()


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

    toast = boris.locator("#toasts .message-toast a.message-link", has_text="New message from Anna")
    toast.wait_for()
    assert toast.get_attribute("href") == "/inbox/Anna"  # the thread, as on the other pages
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
    phone_sees_the_inbox(new_context, boris, screenshots)

    boris.locator("#thread .message.theirs .message-report").click()
    reasons = boris.locator("#report-reasons label").all_inner_texts()
    assert reasons == ["Abusive chat", "Spam", "Something else"]  # a message cheats at no game
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


def open_with_lobby_socket(page: Any, path: str) -> None:
    """Open ``path`` and wait until its lobby socket has had the server's welcome: the player
    is online from that page."""
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(f)))
    page.goto(path)
    while not any('"welcome"' in str(f) for f in frames):
        page.wait_for_timeout(50)


def test_a_challenge_reaches_a_player_whose_only_page_is_the_inbox(new_context: Any) -> None:
    clara, dima = new_context().new_page(), new_context().new_page()
    c_name, d_name = person_name("Clara"), person_name("Dima")
    register(clara, c_name, PASSWORD)
    register(dima, d_name, PASSWORD)
    open_with_lobby_socket(dima, "/inbox")
    dima.locator("#new-message").wait_for()

    row = clara.locator(f'#online .online-row[data-player="{d_name}"]')
    row.locator(".status.free").wait_for()
    row.locator(".challenge-button").click()
    clara.wait_for_selector("#challenge-dialog[open]")
    clara.click("#challenge-send")
    clara.wait_for_selector(".challenge-toast.outgoing")

    toast = dima.locator(".challenge-toast.incoming")
    toast.wait_for()  # the lobby's toast, in the inbox: who, the game, the seconds left
    assert c_name in toast.inner_text()
    assert toast.locator(".countdown").inner_text().endswith("s")
    toast.locator("button.accept").click()
    for page in (clara, dima):
        page.wait_for_url("**/table/**")
    assert clara.url == dima.url


def test_new_message_opens_a_thread_or_says_why_not(new_context: Any) -> None:
    eva, fedor, gleb, hana = (new_context().new_page() for _ in range(4))
    names = {"eva": person_name("Eva"), "fedor": person_name("Fedor")}
    names |= {"gleb": person_name("Gleb"), "hana": person_name("Hana")}
    for page, who in ((eva, "eva"), (fedor, "fedor"), (gleb, "gleb"), (hana, "hana")):
        register(page, names[who], PASSWORD)
    assert gleb.request.put(f"/api/account/blocked/{names['eva']}").ok  # Gleb blocks Eva
    closed = hana.request.post("/api/account/close", data={"password": PASSWORD})
    assert closed.ok, closed.text()

    eva.goto("/inbox")
    eva.locator("#new-message #find-name").wait_for()
    error = eva.locator("#new-message-error")

    def typed(name: str) -> str:
        eva.fill("#find-name", name)
        eva.press("#find-name", "Enter")
        error.wait_for()
        return str(error.inner_text())

    with eva.expect_response(lambda r: "/api/players?" in r.url):
        assert typed("Nobodyqqq") == "There is no player named “Nobodyqqq”."
    eva.wait_for_timeout(200)  # the search's answer drawn: no "No player's name begins…" too
    assert eva.locator("#find-results li").count() == 0
    assert typed(names["eva"]) == "You cannot write to yourself."
    assert typed(names["hana"]) == f"{names['hana']}'s account is closed: it receives no messages."
    eva.fill("#find-name", names["gleb"][:-1])  # found by the beginning of the name, clicked
    eva.locator("#find-results button.found", has_text=names["gleb"]).click()
    eva.locator("#new-message-error", has_text="cannot write to each other").wait_for()
    assert error.inner_text() == f"{names['gleb']} and you cannot write to each other."
    eva.click(".lang-switch button[data-lang='de']")  # the refusal in the player's language
    eva.locator("#new-message-error", has_text="könnt einander nicht schreiben").wait_for()
    eva.click(".lang-switch button[data-lang='en']")
    eva.goto(f"/inbox/{names['gleb']}")  # the thread says so too, with no box to answer
    eva.locator(".thread-card .closed-note", has_text="cannot write to each other").wait_for()
    assert eva.locator("#message-form").count() == 0

    eva.goto("/inbox")
    eva.fill("#find-name", names["fedor"].lower())
    eva.locator("#find-results button.found", has_text=names["fedor"]).wait_for()
    eva.press("#find-name", "Enter")  # the one name found
    eva.wait_for_url(f"**/inbox/{names['fedor']}")
    eva.locator("#thread").wait_for(state="attached")
    assert eva.locator("#thread .message").count() == 0
    eva.locator(".thread-card", has_text="No messages yet: write the first.").wait_for()
    write(eva, "hello from the inbox")
    fedor.locator(".toast", has_text=f"New message from {names['eva']}").wait_for()
