"""Issue 11: accounts in the lobby — register, log out, log in, a wrong password, a new password.

A first visit leaves the console clean (``GET /api/me`` answers 200 for nobody);
refusals are shown, translated, next to their field.
"""

from __future__ import annotations

from typing import Any

from .browser_helpers import person_name, register

NAME = "Ines_acc"
PASSWORD = "tiles and pips"


def submit(page: Any, form: str, **fields: str) -> None:
    for field, value in fields.items():
        page.fill(f"#account-{form}-{field}", value)
    page.click(f"#account-{form}-form button[type=submit]")


def logged_in_as(page: Any, name: str) -> None:
    page.wait_for_selector("#identity .my-name")
    assert page.locator("#identity .my-name").inner_text() == name
    assert page.locator("#identity").inner_text().startswith("Logged in as")


def test_register_log_out_log_in(new_context: Any) -> None:
    context = new_context()
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
    page.goto("/")
    page.wait_for_selector("#guest-name")
    page.wait_for_selector("#tables .table-list")
    assert [m for m in console if m.startswith(("error", "warning"))] == []

    page.click("#account-register")
    submit(page, "register", name=NAME, password="short")
    error = page.locator("#account-register-password-error")
    error.wait_for()
    assert "at least 8 characters" in error.inner_text()
    submit(page, "register", name="B0t-7", password=PASSWORD)
    page.wait_for_function(
        "() => document.querySelector('#account-register-name-error').textContent.includes('bot')"
    )
    submit(page, "register", name=NAME, password=PASSWORD)
    logged_in_as(page, NAME)
    page.reload()
    logged_in_as(page, NAME)  # the session cookie lasts

    page.click("#account-logout")
    page.wait_for_selector("#guest-name")
    assert page.request.get("/api/me").json() == {"player": None}

    page.click("#account-login")
    submit(page, "login", name=NAME.lower(), password="not my password")
    error = page.locator("#account-login-password-error")
    error.wait_for()
    assert error.inner_text() == "Wrong name or password."
    submit(page, "login", name=NAME.lower(), password=PASSWORD)
    logged_in_as(page, NAME)

    page.click("#account-password")
    submit(page, "password", old="wrong one!", new="a new password")
    page.locator("#account-password-old-error").wait_for()
    assert "not your current password" in page.locator("#account-password-old-error").inner_text()
    submit(page, "password", old=PASSWORD, new="a new password")
    logged_in_as(page, NAME)
    assert page.request.get("/api/me").json() == {"player": {"name": NAME, "account": True}}


def test_the_forms_speak_german(new_context: Any) -> None:
    context = new_context(locale="de-DE")
    page = context.new_page()
    page.goto("/")
    page.click("#account-login")
    submit(page, "login", name="Niemand_acc", password="irgendwas")
    error = page.locator("#account-login-password-error")
    error.wait_for()
    assert error.inner_text() == "Name oder Passwort falsch."


def test_an_account_creates_a_rated_table_the_lobby_shows_what_it_is(new_context: Any) -> None:
    page = new_context().new_page()
    page.goto("/")
    page.wait_for_selector("#guest-name")
    assert page.locator("#rated").count() == 0  # a guest plays unrated
    page.click("#account-register")
    submit(page, "register", name="Rita_rated", password=PASSWORD)
    logged_in_as(page, "Rita_rated")
    page.select_option("#preset", "draw")
    page.select_option("#players", "2")
    page.select_option("#timer", "60")
    page.check("#hints")
    page.check("#rated")
    page.click("#create-table")
    page.wait_for_url("**/table/**")
    table_id = page.url.rsplit("/", 1)[1]
    assert page.request.get(f"/api/tables/{table_id}").json()["rated"] is True

    page.goto("/")
    row = page.locator(f'#tables .table-row[data-table="{table_id}"]')
    row.wait_for()
    badges = row.locator(".info .badge").all_inner_texts()
    assert badges == ["60 s a move", "hints", "rated"]


def test_the_account_links_stay_readable_under_the_pointer(new_context: Any) -> None:
    """A link in the welcome's green box keeps its light text on the green when hovered: a
    button's hover background (cream) would hide it."""
    page = new_context().new_page()
    page.goto("/")
    page.wait_for_selector("#account-register")
    for link in ("#account-login", "#account-register"):
        page.hover(link)
        background = page.eval_on_selector(link, "(b) => getComputedStyle(b).backgroundColor")
        assert background == "rgba(0, 0, 0, 0)", (link, background)


def test_a_player_closes_their_account(new_context: Any) -> None:
    """In one tab, with the lobby open in another: that one is logged out at once too."""
    name = person_name("Carla")
    page = new_context().new_page()
    register(page, name, PASSWORD)
    other = page.context.new_page()
    other.goto("/")
    other.locator("#online .online-row", has_text=name).wait_for()  # its socket is open
    page.click("#account-close")
    assert "Only the site's operator can open the account again." in page.inner_text("#identity")
    submit(page, "close", password="not my password")
    error = page.locator("#account-close-password-error")
    error.wait_for()
    assert error.inner_text() == "That is not your current password."
    submit(page, "close", password=PASSWORD)
    page.locator("#toasts .toast", has_text="Your account is closed. Goodbye!").wait_for()
    page.wait_for_selector("#guest-name")
    assert page.request.get("/api/me").json() == {"player": None}
    other.locator("#toasts .toast", has_text="This account is closed.").wait_for()
    other.wait_for_selector("#guest-name")  # logged out, its socket closed by the server
    assert page.locator("#toasts .toast", has_text="This account is closed.").count() == 0

    page.click("#account-login")
    submit(page, "login", name=name, password=PASSWORD)
    refused = page.locator("#account-login-name-error")
    refused.wait_for()
    assert refused.inner_text() == "This account is closed."
    page.goto(f"/player/{name}")
    page.locator(".not-found", has_text=f"The account {name} is closed.").wait_for()
