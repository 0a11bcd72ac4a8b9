"""``benchmarks/value_model.py``: positions of real play, and features odd in the sides."""

from __future__ import annotations

import dataclasses

import pytest

from conftest import benchmark_script
from doublesix.rules.ruleset import preset


@pytest.mark.parametrize(("name", "players"), [("kozel", 4), ("draw", 2)])
def test_swapping_the_sides_negates_every_feature(name: str, players: int) -> None:
    script = benchmark_script("value_model")
    rules = preset(name, players, target="round")
    positions, outcome = script.play(rules, 3, 5, 2.0)
    assert positions and len(outcome) == len(positions)
    for p in positions:
        # one seat on: every seat's hand now sits on the other side, the mover too
        hands = p.hands[-1:] + p.hands[:-1]
        swapped = dataclasses.replace(p, hands=hands, turn=(p.turn + 1) % players)
        f = script.features(rules, p)
        assert script.features(rules, swapped) == [-x for x in f]


def test_each_position_is_a_choice_of_its_round_and_carries_its_outcome() -> None:
    script = benchmark_script("value_model")
    rules = preset("draw", 2, target="round")
    positions, outcome = script.play(rules, 4, 6, 2.0)
    by_round: dict[int, set[float]] = {}
    for p, v in zip(positions, outcome, strict=True):
        assert p.left >= 0 and p.hands[p.turn]
        by_round.setdefault(p.round_id, set()).add(v)
    assert all(len(values) == 1 for values in by_round.values())
