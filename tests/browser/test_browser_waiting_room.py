"""The waiting room follows the table's socket: a seat taken shows at once, and nothing
polls the table meanwhile (a page that asked every second, at every open table of a
site, would cost the server more than the games)."""

from __future__ import annotations

from typing import Any

from .test_browser_chat import seat_page


def table_reads(page: Any, table_id: str) -> list[str]:
    """The page's requests for the table's REST resource, recorded as they go out."""
    urls: list[str] = []
    page.on("request", lambda r: r.url.endswith(f"/api/tables/{table_id}") and urls.append(r.url))
    return urls


def test_the_waiting_room_shows_a_seat_taken_without_polling(new_context: Any) -> None:
    context = new_context()
    anna = context.new_page()
    anna.goto("/replay")
    anna.request.post("/api/guest", data={"name": "Anna"})
    body = {
        "preset": "draw",
        "options": {"players": 3, "target": "round"},
        "seats": [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}],
        "hints": False,
    }
    seat = anna.request.post("/api/tables", data=body).json()
    keep = "([id, seat, token]) =>"
    keep += " localStorage.setItem(`ds_token_${id}`, JSON.stringify({seat, token}))"
    anna.evaluate(keep, [seat["id"], seat["seat"], seat["token"]])
    reads = table_reads(anna, seat["id"])
    anna.goto(f"/table/{seat['id']}")
    anna.wait_for_selector("#waiting .waiting-card")
    # the page's first read, and one when the socket's snapshot comes: then quiet
    anna.wait_for_function("() => document.querySelector('#chat-form') !== null")
    anna.wait_for_timeout(1000)  # (a sleep would hold back Playwright's events)
    settled = len(reads)
    assert 1 <= settled <= 2
    anna.wait_for_timeout(3000)
    assert len(reads) == settled, "the waiting room polled the table"

    ben, _ = seat_page(new_context(), "Ben", {"id": seat["id"]})
    ben.wait_for_selector("#waiting .waiting-card")
    anna.wait_for_selector("#waiting li[data-seat='1'] .name", timeout=5000)
    assert anna.locator("#waiting li[data-seat='1'] .name").inner_text() == "Ben"
    assert anna.locator("#waiting li[data-seat='2'] .open").count() == 1
    anna.wait_for_timeout(1000)
    assert len(reads) == settled + 1  # the seat taken: one read, from the socket's update
