"""The lobby's lists of tables follow the lobby socket: a table made elsewhere shows at once
in the open list, one that starts moves to the games being played, and nothing polls the
lists meanwhile."""

from __future__ import annotations

from typing import Any

from .browser_helpers import reads


def test_the_lobby_lists_follow_the_socket_without_polling(new_context: Any) -> None:
    anna = new_context().new_page()
    anna.goto("/replay")
    anna.request.post("/api/guest", data={"name": "Anna"})
    list_reads = reads(anna, "/api/tables")
    anna.goto("/")
    anna.wait_for_selector("#tables .table-list.open")
    anna.wait_for_selector("#online li[data-player='Anna']")  # the lobby socket's welcome came
    anna.wait_for_timeout(1000)  # (a sleep would hold back Playwright's events)
    settled = len(list_reads)
    assert 1 <= settled <= 2  # the page's first read, and one at the socket's welcome
    anna.wait_for_timeout(5000)
    assert len(list_reads) == settled, "the lobby polled its lists"

    ben = new_context().new_page()
    ben.goto("/replay")
    ben.request.post("/api/guest", data={"name": "Ben"})
    body = {
        "preset": "draw",
        "options": {"players": 2},
        "seats": [{"kind": "human"}, {"kind": "open"}],
    }
    waiting = ben.request.post("/api/tables", data=body).json()
    anna.wait_for_selector(
        f"#tables .table-list.open a[href='/table/{waiting['id']}']", timeout=5000
    )

    body["seats"] = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    playing = ben.request.post("/api/tables", data=body).json()
    anna.wait_for_selector(
        f"#tables .table-list.playing a[href='/table/{playing['id']}']", timeout=5000
    )
    assert anna.locator(f"#tables .table-list.open a[href='/table/{playing['id']}']").count() == 0
    assert len(list_reads) == settled
