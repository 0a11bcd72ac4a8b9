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


def test_no_such_table_says_so_with_the_way_back_and_nothing_else(new_context: Any) -> None:
    page = new_context(locale="fr-FR").new_page()
    answer = page.goto("/table/no-such-table")
    assert answer is not None and answer.status == 404
    card = page.locator("#waiting .no-table-card")
    card.wait_for()
    assert card.locator("h2").inner_text() == "Cette table n'existe pas."
    assert "mal tapée" in card.inner_text()
    assert page.locator("#side").is_hidden() and page.locator("#me").is_hidden()
    card.locator("a.button[href='/']").click()
    page.wait_for_selector("#create-table")


def test_a_table_that_cannot_be_loaded_says_why(new_context: Any) -> None:
    page = new_context().new_page()
    page.route(
        "**/api/tables/some-table",
        lambda route: route.fulfill(status=503, json={"error": "the server is restarting"}),
    )
    page.goto("/table/some-table")
    card = page.locator("#waiting .no-table-card")
    card.wait_for()
    assert card.locator("h2").inner_text() == "The table could not be loaded."
    assert "the server is restarting" in card.inner_text()
    assert page.locator("#side").is_hidden()
    assert card.locator("a.button[href='/']").count() == 1
