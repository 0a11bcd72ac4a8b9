"""``benchmarks/alphamu.py``: fronts of outcome vectors, PIMC at ``M`` = 1, fusion removed
deeper, and honesty (the move depends on the seat's view only)."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import Any

import pytest

from conftest import benchmark_script
from doublesix.bots import make_bot
from doublesix.bots.budget import Work
from doublesix.bots.choice_net import nets
from doublesix.bots.core import Scorer, moves_of
from doublesix.bots.expert import ALWAYS_SOLVE
from doublesix.bots.inference import infer
from doublesix.bots.pimc import root_moves, stop_of
from doublesix.bots.search import Solver
from doublesix.bots.tables import SUIT
from doublesix.rules.game import Game
from doublesix.rules.moves import Play
from doublesix.rules.ruleset import preset
from doublesix.rules.view import SeatView, seat_view
from redeal import played_at_random, redealt

U = 1e9  # alphamu.UNCONSTRAINED


def _alphamu() -> Any:
    return benchmark_script("alphamu")


def test_a_front_keeps_the_undominated_vectors_best_mean_first() -> None:
    am = _alphamu()
    w = (0.5, 0.5)
    assert am.pareto([(1.0, 0.0), (0.0, 0.0), (0.0, 2.0), (1.0, 0.0)], w, 8) == [
        (0.0, 2.0),
        (1.0, 0.0),
    ]
    assert am.pareto([(1.0, 0.0), (0.0, 2.0)], w, 1) == [(0.0, 2.0)]
    assert am.dominates((1.0, 1.0), (1.0, 0.0)) and not am.dominates((1.0, 0.0), (0.0, 1.0))


def test_min_answers_each_strategy_world_by_world() -> None:
    """Two strategies of Max against two moves of Min, each legal in one world only (the
    other's entries unconstrained), then a move of Min legal in both worlds."""
    am = _alphamu()
    w = (0.5, 0.5)
    first = [(3.0, U), (1.0, U)]
    second = [(U, 2.0), (U, 7.0)]
    assert am.product(first, second, w, 8) == [(3.0, 7.0)]
    assert am.product([(3.0, 7.0)], [(5.0, 0.0), (0.0, 5.0)], w, 8) == [(0.0, 5.0), (3.0, 0.0)]


def _positions(tiles_left: int, count: int) -> list[SeatView]:
    """Decisions with a choice of moves in Draw-2 rounds played by ``greedy``, each the first
    of its round with at most ``tiles_left`` tiles in the hands and the boneyard."""
    views = []
    for seed in range(40):
        view = _position(seed, tiles_left)
        if view is not None:
            views.append(view)
            if len(views) == count:
                break
    assert len(views) == count
    return views


def _position(seed: int, tiles_left: int) -> SeatView | None:
    game = Game(preset("draw", 2, target="round"), seed=seed)
    bots = [make_bot("greedy", s) for s in range(2)]
    while game.round.ending is None:
        view = seat_view(game, game.round.turn)
        k = infer(view)
        left = sum(view.hand_counts) + stop_of(view, k)
        if left <= tiles_left and len(root_moves(view)) > 1:
            return view
        game.play(bots[game.round.turn].choose(view), game.round.turn)
    return None


def _worlds(view: SeatView, count: int) -> tuple[Any, Any, Any]:
    am = _alphamu()
    worlds, weights = am.draw_worlds(view, random.Random(3), count, Work())
    return am, worlds, weights


def test_one_move_deep_is_pimc_with_exact_leaves() -> None:
    """Where every world is solved exactly, ``M`` = 1 values each move as the weighted mean of
    the solver's values of it (what ``expert-2026`` computes); deeper, never above: choosing
    one move for the worlds a seat cannot tell apart can only lose what fusion promised."""
    for view in _positions(ALWAYS_SOLVE - 2, 4):
        am, worlds, weights = _worlds(view, 12)
        search = am.Search(view, worlds, weights, Work(), 10**12)
        moves = root_moves(view)
        k = infer(view)
        rules = view.ruleset
        scorer = Scorer(rules, rules.side_of(view.seat), view.scores, view.eggs, 30.0)
        side_of = [rules.side_of(s) for s in range(2)]
        pimc = []
        for t, end in moves:
            values = []
            for world in worlds:
                solver = Solver(scorer, side_of, world.bone, stop_of(view, k), False, 2, 10**9)
                values.append(
                    solver.value_after(
                        world.hands, k.left, k.right, view.seat, t, end, 0, -1e9, 1e9
                    )
                )
            pimc.append(math.fsum(w * v for w, v in zip(weights, values, strict=True)))
        assert search.root(moves, 1) == pytest.approx(pimc)
        deep = search.root(moves, 6)
        assert not search.cut  # every line reached the round's end
        assert all(d <= p + 1e-9 for d, p in zip(deep, pimc, strict=True))


def test_deepening_stops_at_the_budget_and_plays_a_legal_move() -> None:
    (view,) = _positions(28, 1)
    for spec in ("alphamu:1", "alphamu:300"):
        bot = _variant(spec)
        move = bot.choose(view)
        assert move in view.legal_moves
        assert bot.reached >= 1
    assert _variant("alphamu-m2:1").choose(view) in view.legal_moves
    net = _variant("alphamu-n:30")
    assert net.choose(view) in view.legal_moves and net.reached >= 1


def _variant(spec: str) -> Any:
    variants = benchmark_script("arena_variants")
    variants.register_variants(["--bots", spec])
    return make_bot(spec, 11)


@pytest.mark.parametrize("name", ["alphamu", "alphamu-p", "alphamu-n"])
@pytest.mark.parametrize("rules_name", ["draw", "block"])
def test_alphamu_decides_from_the_view_only(rules_name: str, name: str) -> None:
    """Mid-round, the hidden tiles dealt again as the public events allow (in Draw, before
    anyone drew: the boneyard's order too): the same move."""
    rules = preset(rules_name, 2, target="round")
    checked = differed = 0
    for seed in range(40):
        game = played_at_random(rules, seed, range(2, 7))
        if game is None or not all(isinstance(e, Play) for e in game.round.events):
            continue
        me = game.round.turn
        view = seat_view(game, me)
        other = redealt(rules, game, seed, boneyard=True)
        other_view = seat_view(other, me)
        assert other_view == view
        differed += other.round.hands != game.round.hands
        assert _variant(f"{name}:5").choose(view) == _variant(f"{name}:5").choose(other_view)
        checked += 1
        if checked >= 3:
            break
    assert checked and differed


def _second_hands_with_a_play(seed: int, count: int) -> Iterator[tuple[list[int], int, int]]:
    """``count`` random positions of two hands of 5 and a line's ends (left, right) where the
    second hand has a play."""
    rng = random.Random(seed)
    seen = 0
    while seen < count:
        tiles = rng.sample(range(28), 10)
        hands = [sum(1 << t for t in tiles[:5]), sum(1 << t for t in tiles[5:])]
        left, right = rng.randrange(7), rng.randrange(7)
        if hands[1] & (SUIT[left] | SUIT[right]):
            yield hands, left, right
            seen += 1


def test_the_policy_s_answer_is_a_legal_play() -> None:
    """``-p``'s other seat plays ``policy_move``: a (tile, end) that ``moves_of`` allows."""
    am = _alphamu()
    for hands, left, right in _second_hands_with_a_play(5, 200):
        playable = hands[1] & (SUIT[left] | SUIT[right])
        assert am.policy_move(hands, left, right, 1) in moves_of(playable, left, right)


def test_the_network_s_answer_is_a_legal_play() -> None:
    """``-n``'s other seat plays ``net_move``: a (tile, end) that ``moves_of`` allows."""
    am = _alphamu()
    net = nets()["draw-2"]
    for hands, left, right in _second_hands_with_a_play(6, 100):
        playable = hands[1] & (SUIT[left] | SUIT[right])
        t, end, scored = am.net_move(net, hands[1], left, right, (0, 1 << left, 0, 5))
        assert (t, end) in moves_of(playable, left, right)
        assert scored == playable.bit_count()
