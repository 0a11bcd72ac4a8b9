"""A new password takes the account's seat from the pages of the sessions it ended, and its
player's pages take the seat's new token by themselves (``server/seat_keys.py``,
js/table/connection.js ``takeBack``)."""

from __future__ import annotations

from typing import Any

from .browser_helpers import create_table, person_name, play_until, register, shown_as
from .test_browser_accounts import submit

PASSWORD = "double six tiles"
NEW = "a brand new secret"


def logged_in(context: Any, name: str, password: str) -> Any:
    """A page of ``context`` on the lobby, logged in by its form as ``name``."""
    page = context.new_page()
    page.goto("/")
    page.click("#account-login")
    submit(page, "login", name=name, password=password)
    shown_as(page, name)
    return page


def test_a_new_password_unseats_the_other_session_s_page_and_its_player_plays_on(
    new_context: Any,
) -> None:
    """Ben plays a bot in one browser, and changes his password in another: the seated page,
    its session ended, holds the seat no more — no hand, no token kept, and a toast says
    why — while a browser logged in with the new password opens the table and plays the
    seat, never having had its token."""
    name = person_name("Ben")
    seated = new_context().new_page()
    register(seated, name, PASSWORD)
    table_id = create_table(seated, "draw", 2, seat_1="bot:random")
    seated.locator("#hand .hand-tile").first.wait_for()

    other = logged_in(new_context(), name, PASSWORD)
    other.click("#account-password")
    submit(other, "password", old=PASSWORD, new=NEW)
    seated.locator("#toasts .toast", has_text="This seat's account has a new password").wait_for()
    seated.locator("#hand .hand-tile").first.wait_for(state="detached")
    assert seated.evaluate(f"localStorage.getItem('ds_token_{table_id}')") is None

    page = logged_in(new_context(), name, NEW)
    page.goto(f"/table/{table_id}")
    page.locator("#hand .hand-tile").first.wait_for()
    laid = page.locator("#board .line-tile").count()
    done = play_until(
        page, lambda: page.locator("#board .line-tile").count() >= laid + 2, circles=False
    )
    assert done["moves"] >= 1


def test_a_page_with_the_old_token_takes_the_seat_back_without_a_refusal(
    new_context: Any,
) -> None:
    """Ben leaves his table's page, changes his password from the lobby (his own session
    stays), and opens the table again: the token his browser kept is refused (4401), and the
    page takes the seat's new token at once, without showing the refusal."""
    name = person_name("Ben")
    page = new_context().new_page()
    register(page, name, PASSWORD)
    table_id = create_table(page, "draw", 2, seat_1="bot:random")
    page.locator("#hand .hand-tile").first.wait_for()
    old = page.evaluate(f"localStorage.getItem('ds_token_{table_id}')")

    page.goto("/")
    page.click("#account-password")
    submit(page, "password", old=PASSWORD, new=NEW)
    page.locator("#toasts .toast", has_text="password").first.wait_for()
    page.goto(f"/table/{table_id}")
    page.locator("#hand .hand-tile").first.wait_for()
    assert page.evaluate(f"localStorage.getItem('ds_token_{table_id}')") not in (None, old)
    assert page.locator("#toasts .toast.error").count() == 0
