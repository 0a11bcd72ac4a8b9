"""The information-set tree search's pieces: prior, values, availability, budget."""

from __future__ import annotations

import random

from doublesix.bots import make_bot
from doublesix.bots.core import Scorer, moves_of
from doublesix.bots.expert import ALWAYS_SOLVE, POOL, OpponentModel
from doublesix.bots.inference import infer
from doublesix.bots.ismcts import COST, REUSE, UNITS_PER_MS, IsmctsBot, Search, Values
from doublesix.bots.pimc import root_moves, to_move
from doublesix.bots.tree import Node, Puct, key, moves, policy_score
from doublesix.rules.game import Game
from doublesix.rules.ruleset import preset
from doublesix.rules.view import SeatView, seat_view
from doublesix.tiles import TILES


def _tile(a: int, b: int) -> int:
    return next(t.index for t in TILES if {t.low, t.high} == {a, b})


def _view_after(preset_name: str, players: int, seed: int, plies: int) -> SeatView:
    game = Game(preset(preset_name, players), seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        game.play(rng.choice(game.legal_moves()))
    return seat_view(game, game.round.turn)


def test_policy_score_is_the_playout_policys() -> None:
    # ends 6 and 3; the hand holds 6-6, 6-1 and 3-1; the next seat holds only 5-5
    hand = 1 << _tile(6, 6) | 1 << _tile(6, 1) | 1 << _tile(3, 1)
    nxt = 1 << _tile(5, 5)
    # 6-6 on the 6: 12 pips + 4 (a double) + 3 for each of 6-1 and 3-1 still fitting (6, 3),
    # and the next seat cannot answer 6 or 3: + 12
    assert policy_score(hand, _tile(6, 6), 0, 6, 3, nxt) == 12 + 4 + 6 + 12
    # 6-1 on the 6 leaves ends 1 and 3: 7 pips, 6-6 fits neither, 3-1 fits both: + 3
    assert policy_score(hand, _tile(6, 1), 0, 6, 3, nxt) == 7 + 3 + 12
    # a next seat holding 5-3 answers the 3 that 6-6 leaves: no + 12
    assert policy_score(hand, _tile(6, 6), 0, 6, 3, 1 << _tile(5, 3)) == 12 + 4 + 6
    # the first tile of a round: both its numbers become the ends
    assert policy_score(hand, _tile(6, 1), 2, -1, -1, nxt) == 7 + 3 + 3 + 12


def test_two_sides_values_are_one_sides_gain_and_the_others_loss() -> None:
    view = _view_after("kozel", 4, 3, 2)
    values = Values(view.ruleset, view, 30.0)
    hands = [1 << _tile(6, 6), 1 << _tile(1, 2), 0, 1 << _tile(0, 0)]
    v = values.of(True, hands, 2)
    mine = Scorer(view.ruleset, view.ruleset.side_of(view.seat), view.scores, view.eggs, 30.0)
    assert v[values.me] == mine.value(True, hands, 2)
    assert v[0] == -v[1]


def test_four_sides_values_are_each_sides_own() -> None:
    view = _view_after("block", 4, 3, 2)
    values = Values(view.ruleset, view, 30.0)
    hands = [1 << _tile(6, 6), 1 << _tile(1, 2), 0, 1 << _tile(0, 0)]
    v = values.of(True, hands, 2)
    for side in range(4):
        scorer = Scorer(view.ruleset, side, view.scores, view.eggs, 30.0)
        assert v[side] == scorer.value(True, hands, 2)
    assert v[2] > 0 > v[0]


def test_every_root_move_is_tried_on_every_deal_and_the_tree_grows_below() -> None:
    view = _view_after("draw", 2, 5, 3)
    legal = root_moves(view)
    assert len(legal) > 1
    # the Python core, whose nodes can be walked (the C core grows the same tree)
    search = Search(view, infer(view), random.Random(1), OpponentModel(), 30.0, compiled=False)
    edges = search.run(20 * UNITS_PER_MS, COST)
    root = [edges[key(view.seat, t, end)] for t, end in legal]
    iterations = search.returns.n
    assert iterations > 50 * len(legal)
    assert all(e.visits == e.avail == iterations // len(legal) for e in root)
    assert max(e.child.edges[k].visits for e in root if e.child for k in e.child.edges) > 10

    def check(edges_: dict[int, object]) -> None:
        for e in edges_.values():
            assert e.visits <= e.avail  # type: ignore[attr-defined]
            child = e.child  # type: ignore[attr-defined]
            if child is not None:
                assert sum(c.visits for c in child.edges.values()) <= e.visits  # type: ignore[attr-defined]
                check(child.edges)

    check(edges)


def test_budget_is_counted_in_work() -> None:
    view = next(
        v for seed in range(20) if len((v := _view_after("kozel", 4, seed, 1)).legal_moves) > 1
    )
    small = IsmctsBot(random.Random(1), ms_per_move=2)
    big = IsmctsBot(random.Random(1), ms_per_move=8)
    small.choose(view)
    big.choose(view)
    assert 0 < small.work.units(COST) < big.work.units(COST)
    assert big.work.units(COST) <= 8 * UNITS_PER_MS + 5000


def test_puct_follows_the_prior_first_then_the_values() -> None:
    # ends 6 and 3; 6-6 scores far above 3-1 for the playout policy
    hand = 1 << _tile(6, 6) | 1 << _tile(3, 1)
    legal = [(_tile(6, 6), 0), (_tile(3, 1), 1)]
    puct = Puct(4.0)
    node = Node()
    t, _, edge = puct.select(node, legal, 0, hand, 0, 6, 3, 10.0)
    assert t == _tile(6, 6) and edge.avail == 1
    edge.visits, edge.total = 40, -400.0  # tried often: the other play gets its turn
    t, _, other = puct.select(node, legal, 0, hand, 0, 6, 3, 10.0)
    assert t == _tile(3, 1) and other.avail == 2 and edge.avail == 2
    other.visits, other.total = 1, 10.0  # and it did better: it is chosen again
    t, _, _ = puct.select(node, legal, 0, hand, 0, 6, 3, 10.0)
    assert t == _tile(3, 1)


def test_moves_are_cores_moves() -> None:
    rng = random.Random(4)
    for _ in range(300):
        playable = rng.getrandbits(28)
        left, right = rng.choice([(-1, -1), (rng.randrange(7), rng.randrange(7))])
        assert moves(playable, left, right) == moves_of(playable, left, right)


def test_a_decision_whose_every_move_ends_the_round_counts_its_iterations() -> None:
    """One tile left that fits both ends: each iteration ends at the root, and is counted as
    work, so the budget is not spent on sampling alone (once: 0.8 s for a 300 ms budget)."""
    found = 0
    for seed in range(400):
        game = Game(preset("block", 2), seed=seed)
        rng = random.Random(seed)
        while game.round.ending is None:
            view = seat_view(game, game.round.turn)
            if len(view.hand) == 1 and len(root_moves(view)) == 2:
                break
            game.play(rng.choice(game.legal_moves()))
        else:
            continue
        bot = IsmctsBot(random.Random(1), ms_per_move=3.0, solve_at=0)
        assert bot.choose(view) in view.legal_moves
        budget = 3 * UNITS_PER_MS
        assert bot.work.units(COST) >= budget
        # every draw of every pool but the last played both root moves, each a counted step
        assert bot.work.tree >= 2 * REUSE * (bot.work.attempts - POOL) > 0
        found += 1
        if found == 3:
            break
    assert found


def test_the_move_chosen_is_the_root_value_s_best_and_the_endgame_has_none() -> None:
    """``choose`` plays the first best of ``root_values`` (what benchmarks read of a
    decision, after ``prepare``), for the plain search and for ``expert``."""
    views = [
        v
        for name, players, plies in (("kozel", 4, 3), ("draw", 2, 2), ("block", 4, 5))
        for seed in range(6)
        if len(root_moves(v := _view_after(name, players, seed, plies))) > 1
    ]
    assert len(views) >= 6
    for i, view in enumerate(views):
        for spec in ("ismcts:4", "expert:4"):
            valuer, chooser = make_bot(spec, i), make_bot(spec, i)
            assert isinstance(valuer, IsmctsBot)
            valuer.prepare(view)
            values = valuer.root_values(view)
            assert values is not None and len(values) == len(root_moves(view))
            best = values.index(max(values))
            assert chooser.choose(view) == to_move(view, *root_moves(view)[best])
    late = next(
        v
        for seed in range(20)
        for plies in range(14)
        if sum((v := _view_after("block", 2, seed, plies)).hand_counts) <= ALWAYS_SOLVE
    )
    assert IsmctsBot(random.Random(1)).root_values(late) is None
