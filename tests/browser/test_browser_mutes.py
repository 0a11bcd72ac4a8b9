"""An account's mutes follow it from browser to browser: the names a browser muted before
the account was made join it, a name muted on one browser is muted on the next one it logs
in on, and a name shown again there is shown again on the first."""

from __future__ import annotations

from typing import Any

from .browser_helpers import as_guest, person_name, register
from .test_browser_accounts import logged_in_as, submit

PASSWORD = "a long enough password"
LINE = "#lobby-chat-lines .chat-line"
CHIPS = "#lobby-chat .chat-muted .unmute"


def _muted_on_site(response: Any, method: str) -> bool:
    return response.request.method == method and response.url.endswith("/api/account/muted")


def _chips(page: Any) -> list[str]:
    return sorted(page.locator(CHIPS).all_inner_texts())


def test_an_accounts_mutes_follow_it_to_another_browser(new_context: Any) -> None:
    a_name, b_name = person_name("Anna"), person_name("Ben")
    ben = new_context().new_page()
    as_guest(ben, b_name)

    laptop = new_context().new_page()
    laptop.goto("/")
    laptop.wait_for_selector("#guest-name")
    laptop.evaluate("(n) => localStorage.setItem('ds_chat_muted', JSON.stringify([n]))", "Troll")
    with laptop.expect_response(lambda r: _muted_on_site(r, "POST")):  # the browser's list joins
        register(laptop, a_name, PASSWORD)
    assert laptop.request.get("/api/account/muted").json() == {"muted": ["Troll"]}

    hello = f"Hello from {b_name}"  # the lobby's chat is the whole site's: a line of its own
    ben.fill("#lobby-chat-input", hello)
    ben.press("#lobby-chat-input", "Enter")
    said = laptop.locator(LINE, has_text=hello)
    said.wait_for()
    with laptop.expect_response(lambda r: r.request.method == "PUT" and "/muted/" in r.url):
        said.locator(".chat-from").click()
    said.wait_for(state="detached")
    assert _chips(laptop) == sorted([b_name, "Troll"])

    phone = new_context().new_page()  # another browser, that never muted anyone
    phone.goto("/")
    phone.wait_for_selector(LINE)  # Ben's line, before she logs in
    assert phone.locator(LINE, has_text=hello).count() == 1
    phone.click("#account-login")
    with phone.expect_response(lambda r: _muted_on_site(r, "GET")):
        submit(phone, "login", name=a_name, password=PASSWORD)
    logged_in_as(phone, a_name)
    phone.locator(CHIPS).nth(1).wait_for()
    assert _chips(phone) == sorted([b_name, "Troll"])
    assert phone.locator(LINE, has_text=hello).count() == 0

    with phone.expect_response(lambda r: r.request.method == "DELETE" and "/muted/" in r.url):
        phone.locator(CHIPS, has_text=b_name).click()  # shown again: on the site too
    phone.locator(LINE, has_text=hello).wait_for()
    with laptop.expect_response(lambda r: _muted_on_site(r, "GET")):
        laptop.reload()
    chips = f"[...document.querySelectorAll('{CHIPS}')].map((b) => b.textContent).join()"
    laptop.wait_for_function(f"() => {chips} === 'Troll'")  # the site's list, not the browser's
    assert _chips(laptop) == ["Troll"]
    laptop.locator(LINE, has_text=hello).wait_for()
