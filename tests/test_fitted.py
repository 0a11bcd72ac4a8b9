"""The fitted model of the others' choices, and the levels that weigh deals by it."""

from __future__ import annotations

import math
import random

import pytest

from conftest import benchmark_script
from doublesix.bots.expert import UNITS_PER_MS as EXPERT_UNITS_PER_MS
from doublesix.bots.expert import OpponentModel
from doublesix.bots.fitted import WEIGHTS, ExpertFitBot, FittedModel
from doublesix.bots.inference import infer
from doublesix.bots.sampler import Sampler
from doublesix.rules.game import Game
from doublesix.rules.ruleset import preset
from doublesix.rules.view import SeatView, seat_view
from doublesix.tiles import Tile


def _views(name: str, players: int) -> list[SeatView]:
    out = []
    for seed in range(25):
        game = Game(preset(name, players), seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(4, 16)):
            if game.round.ending is not None:
                break
            game.play(rng.choice(game.legal_moves()))
        if game.round.ending is None:
            out.append(seat_view(game, game.round.turn))
    return out


def test_scores_are_the_fitted_logit_of_the_scripts_features() -> None:
    features = benchmark_script("fit_opponent_model").features
    model = FittedModel()
    rng = random.Random(5)
    for _ in range(300):
        hand = rng.getrandbits(28)
        left, right = rng.choice([(-1, -1), (rng.randrange(7), rng.randrange(7))])
        fs = features(hand, left, right)
        playable = sum(1 << t for t in fs)
        scores = model.scores(hand, playable, left, right)
        assert set(scores) == set(fs)
        for t, f in fs.items():
            assert scores[t] == pytest.approx(sum(w * x for w, x in zip(WEIGHTS, f, strict=True)))


@pytest.mark.parametrize(("name", "players"), [("kozel", 4), ("draw", 2), ("block", 3)])
def test_with_pips_only_it_is_the_experts_model(name: str, players: int) -> None:
    """The same hands rebuilt for every seen choice: with pips only, the same likelihood."""
    fitted = FittedModel((0.45, 0.0, 0.0, 0.0), noise=0.15)
    expert = OpponentModel(0.45, 0.15)
    checked = 0
    for view in _views(name, players):
        k = infer(view)
        sampler = Sampler(k, random.Random(1))
        for _ in range(10):
            s = sampler.sample()
            a, b = fitted.log_likelihood(k, s), expert.log_likelihood(k, s)
            assert a == pytest.approx(b, abs=1e-9)
            checked += a != 0.0
    assert checked


def test_it_expects_a_double_before_a_heavier_tile() -> None:
    """What ``expert`` does, and the pips-only model does not expect: 1-1 before 6-5."""
    model = FittedModel()
    assert model.weights[1] > 0.5  # doubles first: what ``expert`` does
    one_one, six_five = Tile(1, 1).index, Tile(6, 5).index
    hand = 1 << one_one | 1 << six_five  # on an empty line: neither keeps an answer
    scores = model.scores(hand, hand, -1, -1)
    assert scores[one_one] > scores[six_five]


def test_expert_fit_counts_its_costlier_weighing_in_its_budget() -> None:
    view = next(v for v in _views("kozel", 4) if len(v.legal_moves) > 1)
    small = ExpertFitBot(random.Random(1), ms_per_move=2)
    big = ExpertFitBot(random.Random(1), ms_per_move=8)
    small.choose(view)
    big.choose(view)
    assert 0 < small.work.units(small.cost) < big.work.units(big.cost)
    assert big.work.units(big.cost) <= 8 * EXPERT_UNITS_PER_MS + 5000
    assert big.cost.weighed > 1
    k = infer(view)
    assert math.isfinite(big.model.log_likelihood(k, Sampler(k, random.Random(2)).sample()))
