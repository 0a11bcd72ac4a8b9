"""``StyleModel``: which style of player each other seat is, from its choices in the round."""

from __future__ import annotations

import math
import random

from doublesix.bots import make_bot
from doublesix.bots.fitted import FittedModel, StyleModel
from doublesix.bots.inference import infer
from doublesix.bots.sampler import Sampler
from doublesix.bots.search import smart_playout, step
from doublesix.rules.deal import SeededDealer
from doublesix.rules.game import Game
from doublesix.rules.ruleset import preset
from doublesix.rules.view import seat_view
from doublesix.tiles import SUIT


def _heavy_share(seed: int) -> tuple[float, float]:
    """Weighted share of seat 0's sampled deals in which seat 1 (``greedy``), and seat 3
    (``random``), are taken for heaviest-first players, some plays into a Kozel round."""
    rules = preset("kozel")
    game = Game(rules, seed=seed)
    bots = [make_bot("random", 1), make_bot("greedy", 2), make_bot("random", 3)]
    bots.append(make_bot("random", 4))
    while game.round.ending is None and len(game.round.events) < 24:
        seat = game.round.turn
        game.play(bots[seat].choose(seat_view(game, seat)))
    if game.round.ending is not None:
        return math.nan, math.nan
    view = seat_view(game, 0)
    k = infer(view)
    model = StyleModel(play=True)
    sampler = Sampler(k, random.Random(seed))
    pool = [sampler.sample() for _ in range(200)]
    weighed = [model.weigh(k, s) for s in pool]
    logs = [s.log_weight + w[0] for s, w in zip(pool, weighed, strict=True)]
    top = max(logs)
    weights = [math.exp(x - top) for x in logs]
    total = sum(weights)
    greedy = sum(w for w, (_, heavy) in zip(weights, weighed, strict=True) if heavy >> 1 & 1)
    other = sum(w for w, (_, heavy) in zip(weights, weighed, strict=True) if heavy >> 3 & 1)
    return greedy / total, other / total


def test_a_heaviest_first_seat_is_recognised_and_a_random_one_is_not() -> None:
    shares = [_heavy_share(seed) for seed in range(12)]
    greedy = [g for g, _ in shares if not math.isnan(g)]
    other = [o for _, o in shares if not math.isnan(o)]
    assert len(greedy) >= 8
    assert sum(greedy) / len(greedy) > 0.6
    assert sum(other) / len(other) < 0.1


def test_without_play_no_seat_is_played_heaviest_first_and_the_weights_are_the_same() -> None:
    rules = preset("kozel")
    game = Game(rules, seed=5)
    greedy = make_bot("greedy", 1)
    while len(game.round.events) < 12 and game.round.ending is None:
        game.play(greedy.choose(seat_view(game, game.round.turn)))
    k = infer(seat_view(game, game.round.turn))
    sampler = Sampler(k, random.Random(2))
    for _ in range(50):
        s = sampler.sample()
        assert StyleModel().weigh(k, s) == (StyleModel(play=True).weigh(k, s)[0], 0)
        assert StyleModel().log_likelihood(k, s) == StyleModel().weigh(k, s)[0]
    # the styles change the weights: a deal is not weighed by the fitted logit alone
    deals = [sampler.sample() for _ in range(50)]
    assert any(
        StyleModel().log_likelihood(k, s) != FittedModel().log_likelihood(k, s) for s in deals
    )


def test_heavy_seats_play_their_heaviest_tile_in_playouts() -> None:
    rules = preset("block", 2)
    checked = differed = 0
    for seed in range(100):
        deal = SeededDealer(rules, seed).deal()
        ends = []
        for heavy in (0, 0b10):
            hands = list(deal.hands)
            t = hands[0].bit_length() - 1
            left, right, nxt, drawn = step(hands, -1, -1, 0, t, 2, (), 0, 0, False, 2)
            playable = hands[1] & (SUIT[left] | SUIT[right])
            domino, last, _ = smart_playout(hands, left, right, nxt, (), drawn, 0, False, 2, heavy)
            assert (hands[last] == 0) == domino
            ends.append(tuple(hands))
        if nxt == 1 and playable & (playable - 1):
            # seat 1 had a choice at once: played heaviest-first, its heaviest tile went first
            assert not ends[1][1] >> (playable.bit_length() - 1) & 1
            checked += 1
        differed += ends[0] != ends[1]
    assert checked and differed
