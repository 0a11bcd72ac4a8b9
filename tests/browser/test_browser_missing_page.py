"""An address that is no page shows a page that says so, in the reader's language, under
the server's Content-Security-Policy."""

from __future__ import annotations

from typing import Any


def test_no_such_page_says_so_and_leads_to_the_lobby(new_context: Any) -> None:
    page = new_context(locale="de-DE", bypass_csp=False).new_page()
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Refused to" in m.text else None)
    answer = page.goto("/nonsense")
    assert answer is not None and answer.status == 404
    page.wait_for_selector("#title:not(:empty)")
    assert page.locator("#title").inner_text() == "Diese Seite gibt es nicht"
    assert "/nonsense" in page.locator("#missing-text").inner_text()
    assert refused == []
    page.click("#missing-home")
    page.wait_for_selector("#create-table")
