"""A table whose seats are not taken in time closes (``serve --open-for``), and its
waiting room says so instead of waiting on."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import serve
from .test_browser_chat import seat_page

OPEN_FOR = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this test's own, whose open tables close after ``OPEN_FOR`` seconds."""
    yield from serve(tmp_path_factory.mktemp("expired"), "--open-for", str(OPEN_FOR))


def test_the_waiting_room_says_when_the_table_closed(new_context: Any) -> None:
    anna, table = seat_page(new_context(), "Anna")
    anna.wait_for_selector("#waiting .waiting-card")
    assert anna.locator("#waiting .take-seat").count() == 0
    closed = anna.locator("#waiting h2", has_text="This table closed")
    closed.wait_for(timeout=(OPEN_FOR + 10) * 1000)
    assert anna.locator("#waiting a[href='/']").count() == 1
    ben = new_context().new_page()
    ben.goto("/replay")
    ben.request.post("/api/guest", data={"name": "Ben"})
    refused = ben.request.post(f"/api/tables/{table['id']}/join", data={})
    assert refused.status == 409
    assert refused.json()["code"] == "closed"
