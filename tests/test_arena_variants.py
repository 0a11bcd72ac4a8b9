"""The variants of ``benchmarks/arena_variants.py``: honest (the view only), sound playouts."""

from __future__ import annotations

import random
from typing import Any

import pytest

from conftest import benchmark_script
from doublesix.bots import make_bot
from doublesix.bots.arena import play_game
from doublesix.bots.base import MEASUREMENT_BOTS
from doublesix.bots.choice_net import expert_model
from doublesix.bots.expert import OpponentModel
from doublesix.bots.hint import hint
from doublesix.bots.inference import infer
from doublesix.bots.sampler import Sampler
from doublesix.bots.search import smart_playout, step
from doublesix.rules.deal import SeededDealer
from doublesix.rules.game import Game
from doublesix.rules.ruleset import preset
from doublesix.rules.view import seat_view
from redeal import played_at_random, redealt

VARIANTS = [
    "expert-fp",
    "expert-fit-fp",
    "ismcts-fit-c0.5-t4",
    "ismcts-fit-c1.5-t1.5",
    "ismcts-fit-c1.5-t4-s20",
]


def _variants() -> Any:
    module = benchmark_script("arena_variants")
    module.register_variants(["--bots", ",".join(VARIANTS)])
    return module


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("players", [3, 4])
def test_variants_decide_from_the_view_only(name: str, players: int) -> None:
    """Mid-round, the hidden tiles dealt again as the public events allow: the same move."""
    _variants()
    rules = preset("block", players)
    checked = differed = 0
    for seed in range(30):
        game = played_at_random(rules, seed, range(5, 12))
        if game is None:
            continue
        me = game.round.turn
        view = seat_view(game, me)
        other = redealt(rules, game, seed)
        other_view = seat_view(other, me)
        assert other_view == view
        differed += other.round.hands != game.round.hands
        assert make_bot(f"{name}:5", 3).choose(view) == make_bot(f"{name}:5", 3).choose(other_view)
        checked += 1
        if checked >= 3:
            break
    assert checked and differed


def test_fitted_playout_ends_rounds_like_smart_playouts_do() -> None:
    fitted_playout = _variants().fitted_playout
    rules = preset("draw", 2)
    for seed in range(100):
        deal = SeededDealer(rules, seed).deal()
        for playout in (smart_playout, fitted_playout):
            hands = list(deal.hands)
            t = hands[0].bit_length() - 1
            left, right, nxt, drawn = step(
                hands, -1, -1, 0, t, 2, deal.boneyard, 0, len(deal.boneyard), False, 2
            )
            domino, last, plays = playout(
                hands, left, right, nxt, deal.boneyard, drawn, len(deal.boneyard), False, 2
            )
            assert plays >= 1
            assert (hands[last] == 0) == domino
            if not domino:  # blocked: nobody went out
                assert all(hands)


@pytest.mark.parametrize("name", ["expert-fp", "ismcts-fit-c0.5-t4"])
def test_variants_same_seed_same_game(name: str) -> None:
    _variants()
    rules = preset("kozel", target=40)

    def scores() -> tuple[int, ...]:
        bots = [make_bot(f"{name}:3" if s % 2 else "greedy", s) for s in range(4)]
        return tuple(play_game(rules, 21, bots).scores)

    assert scores() == scores()


def _events(game: Game) -> list[Any]:
    return [e for r in game.rounds for e in r.play.events]


def test_a_peek_of_nought_plays_as_expert() -> None:
    """The wrapper changes nothing but the weights: at B = 0, ``expert``'s very moves."""
    _variants().register_variants(["--bots", "expert-peek0"])
    assert "expert-peek0" in MEASUREMENT_BOTS  # it sees the deal: never at a table
    rules = preset("kozel", target="round")
    for seed in (1, 2):
        peeking = play_game(
            rules, seed, [make_bot("expert-peek0:3", seed * 8 + s) for s in range(4)]
        )
        plain = play_game(rules, seed, [make_bot("expert:3", seed * 8 + s) for s in range(4)])
        assert _events(peeking) == _events(plain)


class _Inner:
    def weigh(self, k: Any, sample: Any) -> tuple[float, int]:
        return -1.5, 0b10


def test_a_peek_raises_each_deal_by_its_tiles_in_the_right_hands() -> None:
    variants = _variants()
    game = Game(preset("kozel", target="round"), seed=4)
    view = seat_view(game, game.round.turn)
    k = infer(view)
    peek = variants.PeekModel(_Inner(), 0.5)
    sample = Sampler(k, random.Random(1)).sample()
    with pytest.raises(RuntimeError, match="shown the game"):
        peek.weigh(k, sample)
    peek.game = game
    truth = list(game.round.hands)
    right = sum((sample.hands[s] & truth[s]).bit_count() for s in range(4) if s != k.seat)
    assert peek.weigh(k, sample) == (-1.5 + 0.5 * right, 0b10)
    sample.hands = truth
    held = sum(truth[s].bit_count() for s in range(4) if s != k.seat)
    assert held >= 20 and right < held
    assert peek.weigh(k, sample) == (-1.5 + 0.5 * held, 0b10)  # all the others' tiles right
    assert peek.log_likelihood(k, sample) == -1.5 + 0.5 * held


@pytest.mark.parametrize("name", ["hint-net", "hint-2026"])
def test_a_hint_bot_plays_the_hint_s_first_move(name: str) -> None:
    """``hint-net`` takes the hint on ``expert``'s model; ``hint-2026`` the hint as it was,
    on the 2026 expert's. Neither is a table's level."""
    _variants().register_variants(["--bots", name])
    assert name in MEASUREMENT_BOTS
    game = Game(preset("draw", 2), seed=4)
    for _ in range(5):
        game.play(game.legal_moves()[0], game.turn)
    view = seat_view(game, game.turn)
    assert len(view.legal_moves) > 1
    model = expert_model(view) if name == "hint-net" else OpponentModel()
    seed = random.Random(7).randrange(1 << 32)
    assert make_bot(f"{name}:3", 7).choose(view) == hint(view, ms=3, seed=seed, model=model)[0].move
