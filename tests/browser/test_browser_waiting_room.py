"""The waiting room follows the table's socket: a seat taken shows at once, and nothing
polls the table meanwhile (a page that asked every second, at every open table of a
site, would cost the server more than the games)."""

from __future__ import annotations

from typing import Any

from .browser_helpers import reads
from .test_browser_chat import seat_page


def test_the_waiting_room_shows_a_seat_taken_without_polling(new_context: Any) -> None:
    context = new_context()
    table_reads = reads(context, r"/api/tables/[^/]+")
    anna, table = seat_page(context, "Anna", players=3)
    anna.wait_for_selector("#waiting .waiting-card")
    # the page's first read, and one when the socket's snapshot comes: then quiet
    anna.locator("#chat-form").wait_for()  # shown at the snapshot (it is in the page's HTML)
    anna.wait_for_timeout(1000)  # (a sleep would hold back Playwright's events)
    settled = len(table_reads)
    assert 1 <= settled <= 2
    anna.wait_for_timeout(3000)
    assert len(table_reads) == settled, "the waiting room polled the table"

    ben, _ = seat_page(new_context(), "Ben", table)
    ben.wait_for_selector("#waiting .waiting-card")
    anna.wait_for_selector("#waiting li[data-seat='1'] .name", timeout=5000)
    assert anna.locator("#waiting li[data-seat='1'] .name").inner_text() == "Ben"
    assert anna.locator("#waiting li[data-seat='2'] .open").count() == 1
    anna.wait_for_timeout(1000)
    assert len(table_reads) == settled + 1  # the seat taken: one read, from the socket's update


def test_the_creator_closes_the_table_before_its_game(new_context: Any) -> None:
    """ "Close the table" asks for a second press; then every page at the table says that its
    creator closed it, and the lobby lists it no more. The others have no such button."""
    anna, table = seat_page(new_context(), "Anna", players=3)
    ben, _ = seat_page(new_context(), "Ben", table)
    anna.wait_for_selector("#waiting li[data-seat='1'] .name")
    ben.wait_for_selector("#waiting .waiting-card")
    assert ben.locator("#close-table").count() == 0
    listed = anna.request.get("/api/tables").json()["open"]
    assert table["id"] in [t["id"] for t in listed]
    button = anna.locator("#close-table")
    assert button.inner_text() == "Close the table"
    button.click()
    assert button.inner_text() == "Close it? Press again"
    anna.wait_for_timeout(500)
    assert anna.locator("#waiting .waiting-card .seat-list").count() == 1  # not closed yet
    button.click()
    closed = "This table closed: its creator closed it before the game began."
    for page in (anna, ben):
        page.locator(".no-table-card", has_text=closed).wait_for()
    listed = anna.request.get("/api/tables").json()["open"]
    assert table["id"] not in [t["id"] for t in listed]


def test_a_player_leaves_the_seat_before_the_game(new_context: Any) -> None:
    """Ben, at Anna's table in two tabs, presses "Leave this seat": both tabs watch from then
    on, each told why, and everyone's room shows the seat open again; a seat taken again is
    his as any other."""
    anna, table = seat_page(new_context(), "Anna", players=3)
    bens = new_context()
    ben, _ = seat_page(bens, "Ben", table)
    other_tab = bens.new_page()
    other_tab.goto(f"/table/{table['id']}")
    for page in (ben, other_tab):
        page.wait_for_selector("#waiting li[data-seat='1'] .badge.you")
    anna.wait_for_selector("#waiting li[data-seat='1'] .name")
    assert anna.locator("#stand-up").count() == 0  # the creator closes the table instead
    button = ben.locator("#stand-up")
    assert button.inner_text() == "Leave this seat"
    button.click()
    ben.locator("#toasts .toast", has_text="You left the seat: it is free again").wait_for()
    other_tab.locator("#toasts .toast", has_text="You left this seat on another page").wait_for()
    for page in (ben, other_tab):
        page.wait_for_selector("#waiting li[data-seat='1'] .take-seat")
        assert page.locator("#stand-up, #waiting .badge.you").count() == 0
    anna.wait_for_selector("#waiting li[data-seat='1'] .open")
    anna.locator("#toasts .toast", has_text="Ben left seat 2: it is free again.").wait_for()
    for page in (ben, other_tab):  # his own pages say it their way, not as of another
        assert page.locator("#toasts .toast", has_text="left seat").count() == 0
    kept = ben.evaluate("(id) => localStorage.getItem(`ds_token_${id}`)", table["id"])
    assert kept is None

    ben.locator("#waiting li[data-seat='2'] .take-seat").click()
    ben.wait_for_selector("#waiting li[data-seat='2'] .badge.you")
    ben.wait_for_selector("#stand-up")
    anna.wait_for_selector("#waiting li[data-seat='2'] .name")
    assert anna.locator("#waiting li[data-seat='2'] .name").inner_text() == "Ben"
