"""``expert-race``: the race's statistics, what it drops, its budget and its honesty."""

from __future__ import annotations

import math
import random

import pytest

from doublesix.bots.expert import COST, UNITS_PER_MS, ExpertBot
from doublesix.bots.pimc import root_moves
from doublesix.bots.racing import Race, RaceBot, Z
from doublesix.rules.game import Game
from doublesix.rules.ruleset import preset
from doublesix.rules.view import SeatView, seat_view


def _direct(values: list[float], leader: list[float], weights: list[float]) -> bool:
    total = sum(weights)
    diffs = [v - u for v, u in zip(values, leader, strict=True)]
    mean = sum(w * d for w, d in zip(weights, diffs, strict=True)) / total
    var = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) / total
    n_eff = total * total / sum(w * w for w in weights)
    return mean < 0 and mean + Z * math.sqrt(var / n_eff) < 0


def test_running_sums_give_the_paired_test_of_any_leader() -> None:
    rng = random.Random(3)
    for _ in range(200):
        moves = rng.randrange(2, 6)
        deals = rng.randrange(2, 40)
        shift = [rng.uniform(-3, 3) for _ in range(moves)]
        values = [[rng.gauss(shift[i], 5) for _ in range(deals)] for i in range(moves)]
        weights = [math.exp(rng.uniform(-4, 2)) for _ in range(deals)]
        race = Race(moves)
        for d in range(deals):
            race.add(weights[d], {i: values[i][d] for i in range(moves)})
        for i in range(moves):
            for leader in range(moves):
                if i != leader:
                    expected = _direct(values[i], values[leader], weights)
                    assert race.beaten(i, leader) == expected


def test_a_move_worse_on_every_deal_is_beaten_an_equal_one_never() -> None:
    race = Race(3)
    rng = random.Random(1)
    for _ in range(20):
        v = rng.uniform(-20, 20)
        race.add(rng.uniform(0.1, 2.0), {0: v, 1: v - 1.0, 2: v})
    assert race.beaten(1, 0)
    assert not race.beaten(2, 0) and not race.beaten(0, 2)
    assert not race.beaten(0, 1)


def _views(name: str, players: int, count: int) -> list[SeatView]:
    out = []
    for seed in range(60):
        game = Game(preset(name, players), seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(2, 10)):
            if game.round.ending is not None:
                break
            game.play(rng.choice(game.legal_moves()))
        if game.round.ending is None and len(root_moves(seat_view(game, game.round.turn))) > 2:
            out.append(seat_view(game, game.round.turn))
        if len(out) == count:
            break
    return out


@pytest.mark.parametrize(("name", "players"), [("kozel", 4), ("draw", 2)])
def test_dropped_moves_free_deals_for_the_rest_within_the_budget(name: str, players: int) -> None:
    dropped = 0
    for view in _views(name, players, 4):
        race = RaceBot(random.Random(1), ms_per_move=10)
        plain = ExpertBot(random.Random(1), ms_per_move=10)
        move = race.choose(view)
        plain.choose(view)
        assert race.work.units(COST) <= 10 * UNITS_PER_MS + 5000
        assert move in view.legal_moves
        moves = root_moves(view)
        assert (move.tile.index, move.end_code) in [moves[i] for i in race.active]
        if len(race.active) < len(moves):
            dropped += 1
            if len(race.active) > 1:  # the budget went to fewer moves: more deals each
                assert race.samples > plain.samples
    assert dropped
