"""At the table, an account's name opens a small menu: the player's page, in a new tab, and a
report to the site's operator that names the table. A guest's name is plain text (a guest has
no page), a visitor without a name gets the page but no report, and Escape closes the menu."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .browser_helpers import as_guest, create_table, person_name, register

PASSWORD = "a long enough password"
PHONE = {"width": 390, "height": 780}


def seat(page: Any, name: str) -> Any:
    """The felt's seat of ``name``."""
    return page.locator(".seat", has=page.locator(".name", has_text=name))


def open_menu(page: Any, name: str) -> Any:
    seat(page, name).locator(".seat-name").click()
    menu = page.locator("#seat-menu")
    menu.wait_for()
    return menu


def test_an_accounts_name_at_the_table_opens_its_page_or_a_report(
    new_context: Any, screenshots: Path
) -> None:
    a_name, b_name, c_name = person_name("Anna"), person_name("Ben"), person_name("Cleo")
    anna = new_context().new_page()
    ben = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    cleo = new_context().new_page()
    register(anna, a_name, PASSWORD)
    register(ben, b_name, PASSWORD)
    as_guest(cleo, c_name)
    table_id = create_table(anna, "draw", 3, seat_1="invite", seat_2="invite")
    anna.wait_for_selector(".waiting-card")
    ben.goto(anna.input_value("#invite-link-1"))
    cleo.goto(anna.input_value("#invite-link-2"))
    for page in (anna, ben, cleo):
        page.wait_for_selector("#hand .hand-tile", timeout=15000)

    # Anna's felt: Ben's name is a button with its menu; Cleo's, a guest's, is only a name.
    button = seat(anna, b_name).locator(".seat-name")
    assert button.get_attribute("aria-haspopup") == "menu"
    assert (
        button.get_attribute("title") == f"{b_name}: their page, or a report to the site's operator"
    )
    assert seat(anna, c_name).locator(".seat-name").count() == 0
    assert seat(anna, c_name).locator("span.name").inner_text() == c_name
    rating = seat(anna, b_name).locator(".seat-rating")  # a new account: 1500, provisional
    rating.wait_for()
    assert rating.inner_text() == "1500?" and rating.get_attribute("title") == "Rating in Draw game"
    assert seat(anna, c_name).locator(".seat-rating").count() == 0
    assert anna.locator("#my-name .seat-rating").inner_text() == "1500?"  # her own, below
    menu = open_menu(anna, b_name)
    assert button.get_attribute("aria-expanded") == "true"
    assert menu.get_attribute("role") == "menu"
    assert menu.locator(".seat-menu-item").all_inner_texts() == ["Player's page ↗", "Report…"]
    page_link = menu.locator("a")
    assert page_link.get_attribute("href") == f"/player/{b_name}"
    assert page_link.get_attribute("target") == "_blank"
    assert anna.evaluate("document.activeElement.textContent") == "Player's page ↗"
    anna.keyboard.press("ArrowDown")
    assert anna.evaluate("document.activeElement.textContent") == "Report…"
    anna.keyboard.press("Escape")  # closes the menu, back on the name
    menu.wait_for(state="detached")
    assert button.get_attribute("aria-expanded") == "false"
    assert anna.evaluate("document.activeElement.classList.contains('seat-name')")
    open_menu(anna, b_name)
    anna.locator(".board-wrap").click(position={"x": 5, "y": 5})  # a click elsewhere closes it
    anna.locator("#seat-menu").wait_for(state="detached")
    with anna.context.expect_page() as opened:  # the player's page, in a tab of its own
        open_menu(anna, b_name).locator("a").click()
    opened.value.wait_for_load_state()
    assert opened.value.url.endswith(f"/player/{b_name}")
    assert anna.url.endswith(f"/table/{table_id}")
    opened.value.close()

    # Ben, on a phone, reports Anna from the table: the report names the table.
    menu = open_menu(ben, a_name)
    ben.screenshot(path=str(screenshots / "table-seat-menu.png"))
    menu.locator("button", has_text="Report…").click()
    ben.wait_for_selector("#report-dialog[open]")
    ben.get_by_label("Cheating or stalling").check()
    with ben.expect_response("**/api/reports") as sent:
        ben.click("#report-send")
    assert sent.value.status == 201
    assert sent.value.request.post_data_json == {
        "name": a_name,
        "reason": "cheating",
        "table": table_id,
    }
    ben.locator("#toasts .toast", has_text="Thank you").wait_for()

    # A visitor without a name watches: the page, but no report to make.
    visitor = new_context().new_page()
    visitor.goto(f"/table/{table_id}")
    menu = open_menu(visitor, b_name)
    assert menu.locator(".seat-menu-item").all_inner_texts() == ["Player's page ↗"]
