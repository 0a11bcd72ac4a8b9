"""The lobby's list of who is online in a crowd: its count, a box to find a name once ten are
online, and a list that keeps its scroll and the box its text and focus while players come
and go (the list changes a row at a time: ``server/online_list.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from .browser_helpers import as_guest
from .conftest import serve


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module's own: the count is this test's players only."""
    yield from serve(tmp_path_factory.mktemp("online_list"), "--no-limits")


def online(server: str, name: str) -> ClientConnection:
    """A guest named ``name`` with a lobby socket open: online until it closes."""
    with httpx.Client(base_url=server) as http:
        assert http.post("/api/guest", json={"name": name}).status_code == 200
        cookie = f"ds_guest={http.cookies['ds_guest']}"
    ws = "ws" + server.removeprefix("http") + "/ws/lobby"
    return connect(ws, additional_headers={"Cookie": cookie, "Origin": server})


def test_a_crowded_list_counts_filters_and_keeps_its_place(new_context: Any, server: str) -> None:
    with ExitStack() as stack:
        for i in range(14):
            stack.enter_context(online(server, f"Guest{i:02d}"))
        anna = new_context(viewport={"width": 1280, "height": 800}).new_page()
        as_guest(anna, "Anna")
        anna.locator("#online-count", has_text="15").wait_for()
        rows = anna.locator("#online .online-row")
        assert rows.count() == 15

        anna.fill("#online-filter", "guest0")
        assert sorted(rows.all_inner_texts())[0].startswith("Guest00")
        assert rows.count() == 10  # Guest00 to Guest09
        anna.fill("#online-filter", "")
        assert rows.count() == 15

        anna.eval_on_selector("#online .online-list", "(ul) => { ul.scrollTop = ul.scrollHeight; }")
        top = anna.eval_on_selector("#online .online-list", "(ul) => ul.scrollTop")
        assert top > 0  # the list scrolls: fifteen rows are more than it shows
        stack.enter_context(online(server, "Zora"))
        anna.locator("#online .online-row[data-player='Zora']").wait_for()
        assert anna.eval_on_selector("#online .online-list", "(ul) => ul.scrollTop") >= top

        anna.click("#online-filter")
        anna.keyboard.type("zz")
        no_match = "Nobody online has a name like that."
        anna.locator("#online .online-list li", has_text=no_match).wait_for()
        with online(server, "Boris"):  # a row comes while Anna types: her box is untouched
            anna.locator("#online-count", has_text="17").wait_for()
            anna.keyboard.type("x")
            assert anna.input_value("#online-filter") == "zzx"
            assert anna.evaluate("document.activeElement.id") == "online-filter"
        anna.locator("#online-count", has_text="16").wait_for()
        anna.fill("#online-filter", "bor")
        assert rows.count() == 0
