"""R40 in the browser: "one round" chosen in the lobby makes a game of one round — the
table's score pad and the lobby's list say so, and the round's end is the game's end."""

from __future__ import annotations

from typing import Any

from .browser_helpers import as_guest, create_table, play_until


def test_R40_one_round_from_the_lobby(new_context: Any) -> None:
    page = new_context().new_page()
    as_guest(page, "Rosa")
    table_id = create_table(page, "block", 2, target="round")
    page.wait_for_selector("#hand .hand-tile")
    assert page.locator("#pad .pad-target").inner_text() == "One round"
    play_until(page, lambda: page.locator("#game-end").count() > 0, circles=False)
    assert (
        page.locator("#game-end .explain-head").count() == 1
    )  # the round's end, on the game's card
    page.goto("/")
    row = page.locator(f".table-list.finished .table-row[data-table='{table_id}']")
    row.wait_for()
    assert "one round" in row.inner_text()
