"""The pages honour the reader's wish for less motion (``prefers-reduced-motion``): with it,
every animation and transition is over at once (the other browser tests read the pages so);
without it, a tile still lands and our turn still glows."""

from __future__ import annotations

from typing import Any

import pytest

MOTION_JS = """() => {
  const shown = (className) => {
    const el = document.createElement('div');
    el.className = className;
    document.body.appendChild(el);
    const style = getComputedStyle(el);
    const found = [style.animationDuration, style.animationIterationCount,
                   style.transitionDuration];
    el.remove();
    return found;
  };
  return { glow: shown('status-line mine'), tile: shown('line-tile fresh'),
           toast: shown('toast') };
}"""


@pytest.mark.parametrize(
    ("motion", "expected"),
    [
        (
            "reduce",
            {
                "glow": ["0.001s", "1", "0.001s"],
                "tile": ["0.001s", "1", "0.001s"],
                "toast": ["0.001s", "1", "0.001s"],
            },
        ),
        (
            "no-preference",
            {
                "glow": ["1.8s", "infinite", "0s"],
                "tile": ["0.55s", "1", "0s"],
                "toast": ["0s", "1", "0.5s"],
            },
        ),
    ],
)
def test_less_motion_ends_every_animation_at_once(
    new_context: Any, motion: str, expected: dict[str, list[str]]
) -> None:
    page = new_context(reduced_motion=motion).new_page()
    page.goto("/rules")
    assert page.evaluate(MOTION_JS) == expected
