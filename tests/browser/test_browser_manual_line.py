"""R39 in the browser: a ``vog-block`` game against a bot in which the line is laid by
hand — tiles bent left or right by their circles, the line straightened by a click on
one of its tiles and an arrow — played to its end; then its replay, which draws the
line exactly as it was laid, the straightening included."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .browser_helpers import as_guest
from .conftest import serve

SEED = 1
"""The seed of the server's first table (``serve --seed``): the same game on every run, one
whose deal lets the line bend and be straightened (a random deal may give no chance)."""

SHAPE_JS = """(root) => {
  const tiles = [...document.querySelectorAll(root + ' .line-tile')];
  const boxes = tiles.map((t) => [t.dataset.tile, t.getBoundingClientRect()]);
  if (!boxes.length) return {};
  const unit = Math.min(...boxes.map(([, r]) => Math.min(r.width, r.height)));
  const [, o] = boxes[0];
  const cx = (r) => r.x + r.width / 2;
  const cy = (r) => r.y + r.height / 2;
  const at = (r) => [(cx(r) - cx(o)) / unit, (cy(r) - cy(o)) / unit];
  const shape = {};
  for (const [name, r] of boxes) {
    const [x, y] = at(r);
    shape[name] = [Math.round(x * 2) / 2, Math.round(y * 2) / 2, r.width > r.height];
  }
  return shape;
}"""
"""Each tile of the line drawn under ``root``: its centre from the first tile's, in
short sides of a tile (to a half), and whether it lies across."""

SETTLED_JS = """(root) => document.getAnimations().every((a) => {
  const target = a.effect && a.effect.target;
  return a.playState !== 'running' || !(target && target.closest(root + ' .line-tile'));
})"""
"""Whether no tile of the line drawn under ``root`` is moving."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this test's own, which deals its first table from ``SEED`` (the shared
    one's first table is whichever test comes first)."""
    yield from serve(tmp_path_factory.mktemp("manual_line"), "--seed", str(SEED))


def shape(page: Any, root: str) -> dict[str, list[Any]]:
    # A tile just laid slides into its place (``.fresh``: 0.55 s after its delay): measure
    # once every animation has ended (a fixed 400 ms once caught the last tile halfway).
    page.wait_for_function(SETTLED_JS, arg=root)
    found: dict[str, list[Any]] = page.evaluate(SHAPE_JS, root)
    return found


def straightenings_received(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        e["straighten"]
        for f in frames
        if f.get("type") == "update"
        for e in f["events"]
        if "straighten" in e
    ]


def play_a_round(page: Any, frames: list[dict[str, Any]]) -> tuple[str, int, list[str]]:
    """A one-round ``vog-block`` game against a bot, made in the lobby and played by
    clicks: every tile that may turn is bent by its circle; once the line has bent, it is
    straightened at the first tile that offers it. The table, the tiles bent, and the
    tiles the straightening moved (none if the deal gave no chance)."""
    page.goto("/")
    page.select_option("#preset", "vog-block")
    page.select_option("#players", "2")
    page.select_option("#target", "round")  # one round (R40): its line is the game's
    page.click("#create-table")
    page.wait_for_url("**/table/**")
    page.wait_for_selector("#hand .hand-tile")
    page.uncheck("#quick")  # every tile through its circles: straight on, left or right
    table_id = page.url.rstrip("/").split("/")[-1]
    bent = 0
    moved: list[str] = []
    deadline = time.monotonic() + 120
    while not page.locator("#game-end").count():
        assert time.monotonic() < deadline, f"the game did not end ({bent} bent)"
        if not page.locator("#hand.my-turn .hand-tile.playable").count():
            page.wait_for_timeout(60)
            continue
        bendable = page.locator("#board .line-tile.bendable")
        if not moved and bent and bendable.count():
            moved = straighten_by_clicks(page, frames)
            continue
        page.locator("#hand.my-turn .hand-tile.playable").first.click()
        targets = page.locator("#board .target")
        targets.first.wait_for(timeout=5000)
        turning = page.locator("#board .target[data-turn=left], #board .target[data-turn=right]")
        if turning.count():
            turning.first.click()
            bent += 1
        else:
            targets.first.click()
    return table_id, bent, moved


def straighten_by_clicks(page: Any, frames: list[dict[str, Any]]) -> list[str]:
    """Click the first tile of the line that may be straightened at, then its first
    arrow; the tiles that moved on the table (none laid)."""
    before = shape(page, "#board")
    page.locator("#board .line-tile.bendable").first.click()
    arrow = page.locator("#board .straighten").first
    arrow.wait_for()
    arrow.click()
    for _ in range(200):
        if straightenings_received(frames):
            break
        page.wait_for_timeout(50)
    assert straightenings_received(frames), "no straightening came back"
    after = shape(page, "#board")
    assert before.keys() == after.keys()  # not a move: no tile laid
    moved = [t for t in before if before[t] != after[t]]
    assert moved, "the straightening moved no tile"
    return moved


def test_R39_the_line_bent_and_straightened_by_clicks_then_replayed_as_laid(
    new_context: Any, server: str
) -> None:
    page = new_context().new_page()
    frames: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda text: frames.append(json.loads(text))),
    )
    as_guest(page, "Wanda")
    table_id, bent, moved = play_a_round(page, frames)
    assert bent and moved, f"the deal of seed {SEED} no longer lets the line bend and straighten"
    laid = shape(page, "#board")

    record = httpx.get(f"{server}/api/games/{table_id}/record").json()
    assert record["ruleset"]["line"] == "manual"
    [played] = record["rounds"]
    events = played["events"]
    assert sum(1 for e in events if e.get("turn") and e["seat"] == 0) == bent
    assert [e["straighten"] for e in events if "straighten" in e] == straightenings_received(frames)

    # The replay: the line of the round's end as the table drew it, and the straightening
    # as its own step, which moves the same tiles and lays none.
    page.goto(f"/game/{table_id}")
    page.wait_for_selector(".move-list .move-round")
    assert "straightened the line at" in page.locator(".move-list").inner_text()
    page.click("#replay-end")
    assert shape(page, "#viewer .board") == laid
    k = next(i for i, e in enumerate(events) if "straighten" in e)
    page.click("#replay-start")
    for _ in range(k):
        page.click("#replay-forward")
    before = shape(page, "#viewer .board")
    page.click("#replay-forward")
    assert "straightened the line at" in page.locator("#replay-event").inner_text()
    after = shape(page, "#viewer .board")
    assert before.keys() == after.keys()
    assert [t for t in before if before[t] != after[t]] == moved
