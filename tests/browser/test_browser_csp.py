"""Issue 13, item 8: every page works under the server's Content-Security-Policy.

The other browser tests bypass the policy (Playwright's waits evaluate strings,
which it forbids); here it is enforced, and each page must render, open its
socket where it has one, and log no violation (the ``new_context`` fixture fails a
test on any script error).
"""

from __future__ import annotations

from typing import Any

PAGES = [
    "/",
    "/table/{game}",
    "/game/{game}",
    "/replay",
    "/rules/en/kozel",
    "/rules/de/draw",
    "/leaderboard/kozel",
    "/operator",
    "/inbox",
]


def _violation(message: Any, found: list[str]) -> None:
    if "Content Security Policy" in message.text or "Refused to" in message.text:
        found.append(message.text)


def test_every_page_works_under_the_content_security_policy(
    new_context: Any, finished_game: str
) -> None:
    context = new_context(bypass_csp=False)
    for path in PAGES:
        page = context.new_page()
        problems: list[str] = []
        sockets: list[str] = []
        page.on("console", lambda m, found=problems: _violation(m, found))
        page.on("websocket", lambda ws, sockets=sockets: sockets.append(ws.url))
        response = page.goto(path.format(game=finished_game))
        assert response is not None and response.ok, path
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        page.wait_for_load_state("load")
        # the scripts draw the page once they have read its texts, the table's board once its
        # socket's first view came: "load" waits for neither
        page.locator("body *").nth(5).wait_for(state="attached")
        if path.startswith("/table/"):
            page.locator("#board *").first.wait_for(state="attached")
        page.wait_for_timeout(800)
        assert page.locator("body *").count() > 5, path  # the scripts drew the page
        assert problems == [], (path, problems)
        if path.startswith("/table/"):
            assert sockets and page.locator("#board *").count() > 0, path
        page.close()
