"""``benchmarks/tune_playout.py``: play between playout policies on duplicate deals."""

from __future__ import annotations

import random
import statistics

import pytest

from conftest import benchmark_script
from doublesix.rules.ruleset import preset


@pytest.mark.parametrize(("name", "players"), [("kozel", 4), ("draw", 2)])
def test_a_policy_against_itself_has_no_margin_on_any_deal(name: str, players: int) -> None:
    tune = benchmark_script("tune_playout")
    rng = random.Random(3)
    deals = [rng.sample(range(28), 28) for _ in range(50)]
    assert tune.margins(preset(name, players), deals, tune.HAND_MADE, tune.HAND_MADE) == [0.0] * 50


@pytest.mark.parametrize(("name", "players"), [("kozel", 4), ("draw", 2)])
def test_the_heaviest_tile_first_loses_to_the_hand_made_weights(name: str, players: int) -> None:
    tune = benchmark_script("tune_playout")
    rng = random.Random(4)
    deals = [rng.sample(range(28), 28) for _ in range(400)]
    pips_only = (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    margins = tune.margins(preset(name, players), deals, pips_only, tune.HAND_MADE)
    mean, half = tune.summary(margins)
    assert mean + half < 0, (mean, half)
    assert (
        statistics.fmean(tune.margins(preset(name, players), deals, tune.HAND_MADE, pips_only))
        == -mean
    )


def test_every_play_is_legal_and_every_tile_is_accounted_for() -> None:
    tune = benchmark_script("tune_playout")
    rules = preset("draw", 2)
    rng = random.Random(5)
    for _ in range(200):
        tiles = rng.sample(range(28), 28)
        hands = [sum(1 << x for x in tiles[s * 7 : (s + 1) * 7]) for s in range(2)]
        before = hands[0] | hands[1]
        bone = tiles[14:]
        domino, last = tune.play_round(hands, bone, rules, [tune.HAND_MADE] * 2)
        assert not hands[0] & hands[1]
        assert (hands[0] | hands[1]) & ~(before | sum(1 << x for x in bone)) == 0
        assert domino == (hands[last] == 0)
