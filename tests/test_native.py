"""The bots' C core (``bots/c/``) does exactly what the Python it mirrors does.

Budgets are counted in work, so the core may change how long a decision takes, never which
move it makes: for positions of every preset, ``ismcts``'s iterations must grow the same
tree (visits, availability and totals, bit for bit) with the same counts of work, and the
fitted model must give every sampled deal the same weight.
"""

from __future__ import annotations

import random

import pytest

from doublesix.bots.expert import OpponentModel
from doublesix.bots.fitted import FittedModel
from doublesix.bots.inference import infer
from doublesix.bots.ismcts import COST, UNITS_PER_MS, Search
from doublesix.bots.native import core
from doublesix.bots.sampler import Sampler
from doublesix.rules.game import Game
from doublesix.rules.ruleset import PRESETS, preset
from doublesix.rules.view import SeatView, seat_view


def test_the_c_core_is_built() -> None:
    assert core is not None, "the bots run without their C core: `make install` builds it"


def _players(name: str) -> list[int]:
    counts = []
    for n in (2, 3, 4):
        try:
            preset(name, n)
        except ValueError:
            continue
        counts.append(n)
    return counts


def _views(name: str, players: int, seed: int) -> list[SeatView]:
    """Positions with a choice from a game of random play, later rounds (and scores) too."""
    game = Game(preset(name, players), seed=seed)
    rng = random.Random(seed)
    views = []
    while not game.finished and len(views) < 6:
        if game.turn is None:
            game.next_round()
            continue
        legal = game.legal_moves()
        if len(legal) > 1 and rng.random() < 0.15:
            views.append(seat_view(game, game.turn))
        game.play(rng.choice(legal))
    return views


def _root(search: Search) -> dict[int, tuple[int, int, float]]:
    return {k: (e.visits, e.avail, e.total) for k, e in search.edges().items()}


@pytest.mark.parametrize("name", list(PRESETS))
def test_both_cores_grow_the_same_tree(name: str) -> None:
    checked = 0
    for players in _players(name):
        for seed in range(2):
            for view in _views(name, players, seed):
                k = infer(view)
                searches = [
                    Search(view, k, random.Random(seed), FittedModel(), 30.0, compiled=c)
                    for c in (False, True)
                ]
                assert searches[0].tree is None and searches[1].tree is not None
                for search in searches:
                    search.run(3 * UNITS_PER_MS, COST)
                python, native = searches
                assert _root(native) == _root(python)
                assert native.work == python.work
                checked += 1
    assert checked >= 4


def test_both_cores_agree_where_seats_play_their_heaviest_tile() -> None:
    """The ``heavy`` mask (``ismcts-style-play``) and draws from the boneyard, deal by deal."""
    for seed in range(6):
        view = _views("draw", 2 + seed % 3, seed)[0]
        k = infer(view)
        python = Search(view, k, random.Random(seed), OpponentModel(), 30.0, compiled=False)
        native = Search(view, k, random.Random(seed), OpponentModel(), 30.0)
        assert native.tree is not None
        sampler = Sampler(k, random.Random(seed))
        rng = random.Random(seed)
        for _ in range(200):
            s = sampler.sample()
            heavy = rng.randrange(1 << view.ruleset.players)
            for move in python.moves:
                python.iterate(s, move, heavy)
            native.tree.deal(s.hands, s.bone, native.moves, heavy)
        assert _root(native) == _root(python)
        assert native.tree.work() == (python.work.tree, python.work.plays, python.work.played)


def test_bad_input_is_refused_with_the_tree_unchanged() -> None:
    view = _views("kozel", 4, 1)[0]
    search = Search(view, infer(view), random.Random(1), OpponentModel(), 30.0)
    tree = search.tree
    assert tree is not None
    s = Sampler(search.k, random.Random(1)).sample()
    with pytest.raises(ValueError, match="hands"):
        tree.deal(s.hands[:2], s.bone, search.moves, 0)
    with pytest.raises(TypeError):
        tree.deal(s.hands, s.bone, [("a", 0)], 0)
    not_held = next(t for t in range(28) if not s.hands[view.seat] >> t & 1)
    with pytest.raises(ValueError, match="not a play of the seat's hand"):
        tree.deal(s.hands, s.bone, [*search.moves, (not_held, 0)], 0)
    with pytest.raises(ValueError, match="not a play of the seat's hand"):
        tree.deal(s.hands, s.bone, [(search.moves[0][0], 7)], 0)
    assert tree.root() == {} and tree.work() == (0, 0, 0)
    tree.deal(s.hands, s.bone, search.moves, 0)
    assert sum(visits for visits, _, _ in tree.root().values()) == len(search.moves)


def test_a_tree_is_made_from_sound_arguments_only() -> None:
    prior = [1.0] * 128
    kozel = (0, True, False, False, True, True, 101, 0, 25, 50, (0, 0), 30.0)
    with pytest.raises(ValueError, match="out of range"):
        core.Tree(5, 0, [0] * 5, -1, -1, 0, False, 1.5, prior, True, [kozel])
    with pytest.raises(ValueError, match="the ends"):
        core.Tree(4, 0, [0, 1, 0, 1], 3, -1, 0, False, 1.5, prior, True, [kozel])
    with pytest.raises(ValueError, match="scorers"):
        core.Tree(4, 0, [0, 1, 0, 1], 3, 4, 0, False, 1.5, prior, True, [kozel, kozel])
    with pytest.raises(ValueError, match="scorers"):
        core.Tree(4, 1, [0, 1, 0, 1], 3, 4, 0, False, 1.5, prior, True, [kozel])
    with pytest.raises(ValueError, match="prior"):
        core.Tree(4, 0, [0, 1, 0, 1], 3, 4, 0, False, 1.5, prior[:5], True, [kozel])
    unmade = core.Tree.__new__(core.Tree)
    with pytest.raises(RuntimeError, match="not made"):
        unmade.deal([1, 2, 4, 8], [], [(0, 0)], 0)
    with pytest.raises(RuntimeError, match="not made"):
        unmade.root()


@pytest.mark.parametrize("name", ["kozel", "draw", "block", "vog-talon"])
def test_both_cores_weigh_every_deal_alike(name: str) -> None:
    model = FittedModel()
    weighed = 0
    for players in _players(name):
        for seed in range(3):
            for view in _views(name, players, seed):
                k = infer(view)
                sampler = Sampler(k, random.Random(seed))
                for _ in range(100):
                    s = sampler.sample()
                    assert model.log_likelihood(k, s) == model.mirrored(k, s)
                    weighed += len(k.decisions)
    assert weighed > 1000


def test_a_seen_play_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match="decision"):
        core.Seen(4, [(0, 3, 28, 1, 2)], [[], [], [], []], [0.0] * 28, 0.1, 0.2, 0.1)
    with pytest.raises(ValueError, match="drawn_by"):
        core.Seen(4, [], [[]], [0.0] * 28, 0.1, 0.2, 0.1)
