"""R38, R39: the snake layout (web/js/layout.js) and the hand-laid line (web/js/manual.js),
run in the browser on random lines of play.

For narrow, wide and phone-sized boxes: every tile inside the box, no two
tiles overlapping, each tile touching the next, doubles crosswise and the
tile after a double straight on, and both open ends reachable (the spot
for the next tile is inside the box and free).
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from .browser_helpers import Requests

EPS = 0.5


def _script(name: str) -> str:
    lines = (Path(__file__).parent / name).read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines if not line.startswith("//"))


LINES_JS = _script("layout_cases.js")
MANUAL_JS = _script("manual_cases.js")

BOXES = [
    {"width": 330, "height": 300},  # a phone, portrait
    {"width": 620, "height": 480},  # the desktop table
    {"width": 1100, "height": 300},  # wide and low
    {"width": 300, "height": 640},  # narrow and tall
]


@pytest.fixture(scope="module")
def layouts(browser: Any, server: str) -> list[dict[str, Any]]:
    context = browser.new_context(base_url=server, bypass_csp=True)  # see conftest.py
    requests = Requests()
    requests.watch(context)
    page = context.new_page()
    page.goto("/replay")
    seeds = list(range(1, 41))
    result: list[dict[str, Any]] = page.evaluate(LINES_JS, {"boxes": BOXES, "seeds": seeds})
    manual: list[dict[str, Any]] = page.evaluate(MANUAL_JS, {"boxes": BOXES, "seeds": seeds})
    context.close()
    assert requests.outside(server) == []
    for case in manual:
        case["manual"] = True
    return result + manual


def snakes(layouts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [c for c in layouts if not c.get("manual")]


def rect(t: dict[str, Any]) -> tuple[float, float, float, float]:
    return t["x"], t["y"], t["x"] + t["w"], t["y"] + t["h"]


def overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    ax0, ay0, ax1, ay1 = rect(a)
    bx0, by0, bx1, by1 = rect(b)
    return ax0 < bx1 - EPS and bx0 < ax1 - EPS and ay0 < by1 - EPS and by0 < ay1 - EPS


def touch(a: dict[str, Any], b: dict[str, Any]) -> bool:
    ax0, ay0, ax1, ay1 = rect(a)
    bx0, by0, bx1, by1 = rect(b)
    share_x = min(ax1, bx1) - max(ax0, bx0)
    share_y = min(ay1, by1) - max(ay0, by0)
    return (abs(share_x) < EPS and share_y > EPS) or (abs(share_y) < EPS and share_x > EPS)


def test_R38_R39_every_tile_inside_the_box_and_none_overlap(layouts: list[dict[str, Any]]) -> None:
    for case in layouts:
        box, tiles = case["box"], case["layout"]["tiles"]
        assert not case["layout"].get("fallback"), case["seed"]
        assert len(tiles) == len(case["line"])
        for t in tiles:
            x0, y0, x1, y1 = rect(t)
            assert x0 >= -EPS and y0 >= -EPS, (box, case["seed"], t)
            assert x1 <= box["width"] + EPS and y1 <= box["height"] + EPS, (box, case["seed"], t)
        for i, a in enumerate(tiles):
            for b in tiles[i + 1 :]:
                assert not overlap(a, b), (box, case["seed"], a, b)


def test_R38_R39_the_line_is_connected_doubles_lie_crosswise(layouts: list[dict[str, Any]]) -> None:
    for case in layouts:
        tiles = sorted(case["layout"]["tiles"], key=lambda t: t["index"])
        for t, (a, b) in zip(tiles, case["line"], strict=True):
            assert t["double"] == (a == b)
            assert sorted(t["pips"]) == sorted([a, b])
        for a, b in itertools.pairwise(tiles):
            assert touch(a, b), (case["box"], case["seed"], a, b)
            if a["double"] or b["double"]:
                # crosswise: a double stands across its neighbour, which is never a turn.
                assert a["orient"] != b["orient"], (case["seed"], a, b)
        first = case["first"]
        for k, t in enumerate(tiles):
            if not t["double"]:
                continue
            assert not t["turn"]
            # the next tile away from the first one goes straight on (both ways from a first double)
            after = [k + 1, k - 1] if k == first else [k + 1] if k > first else [k - 1]
            for n in after:
                if 0 <= n < len(tiles):
                    assert not tiles[n]["turn"], ("straight on after a double", case["seed"])


def test_R38_both_ends_stay_open(layouts: list[dict[str, Any]]) -> None:
    for case in snakes(layouts):
        box, lay = case["box"], case["layout"]
        unit = lay["unit"]
        for side in ("left", "right"):
            end = lay["ends"][side]
            assert end is not None
            where = (case["seed"], side)
            assert unit / 2 - EPS <= end["x"] <= box["width"] - unit / 2 + EPS, where
            assert unit / 2 - EPS <= end["y"] <= box["height"] - unit / 2 + EPS, where
            spot = {"x": end["x"] - unit / 2, "y": end["y"] - unit / 2, "w": unit, "h": unit}
            for t in lay["tiles"]:
                assert not overlap(spot, t), ("an end is shut in", box, case["seed"], side)


def test_R38_tiles_stay_large_enough_to_read(layouts: list[dict[str, Any]]) -> None:
    for case in snakes(layouts):
        assert case["layout"]["unit"] >= 9, (case["box"], case["seed"], case["layout"]["unit"])


def test_R39_a_hand_laid_line_turns_and_is_straightened(layouts: list[dict[str, Any]]) -> None:
    """The random hand-laid lines did turn and were straightened, on every table."""
    manual = [c for c in layouts if c.get("manual")]
    assert len(manual) == len(BOXES) * 40
    turned = sum(t["turn"] for c in manual for t in c["layout"]["tiles"])
    assert turned > len(manual)  # more than one turn a line on average
    assert sum(c["straightened"] for c in manual) > len(manual) / 2
    for case in manual:
        assert case["layout"]["unit"] >= 9, (case["box"], case["seed"])
