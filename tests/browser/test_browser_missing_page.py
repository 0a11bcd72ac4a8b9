"""An address that is no page shows a page that says so, in the reader's language."""

from __future__ import annotations

from typing import Any


def test_no_such_page_says_so_and_leads_to_the_lobby(new_context: Any) -> None:
    page = new_context(locale="de-DE").new_page()
    answer = page.goto("/nonsense")
    assert answer is not None and answer.status == 404
    page.wait_for_selector("#title:not(:empty)")
    assert page.locator("#title").inner_text() == "Diese Seite gibt es nicht"
    assert "/nonsense" in page.locator("#missing-text").inner_text()
    page.click("#missing-home")
    page.wait_for_selector("#create-table")
