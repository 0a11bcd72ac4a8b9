"""Bots: legality, honesty (a seat's view only), determinism, budgets, the search core."""

from __future__ import annotations

import hashlib
import random

import pytest

from doublesix.bots import BOTS, MEASUREMENT_BOTS, hint, make_bot, table_bots
from doublesix.bots.arena import play_game
from doublesix.bots.choice_net import NetModel
from doublesix.bots.core import Scorer
from doublesix.bots.expert import COST as EXPERT_COST
from doublesix.bots.expert import UNITS_PER_MS, ExpertBot, OpponentModel
from doublesix.bots.hint import hint_model
from doublesix.bots.inference import infer
from doublesix.bots.ismcts import IsmctsBot
from doublesix.bots.pimc import COST as PIMC_COST
from doublesix.bots.pimc import UNITS_PER_MS as PIMC_UNITS_PER_MS
from doublesix.bots.pimc import PimcBot
from doublesix.bots.sampler import Sampler
from doublesix.bots.search import Solver, greedy_playout, smart_playout, step
from doublesix.rules.deal import Deal, RecordedDealer, SeededDealer
from doublesix.rules.game import Game
from doublesix.rules.moves import Draw, Move, Pass, Play
from doublesix.rules.round import Ending, Round
from doublesix.rules.ruleset import DrawRule, Ruleset, preset
from doublesix.rules.scoring import score_round
from doublesix.rules.view import SeatView, seat_view
from doublesix.tiles import ALL, SUIT, value_of

GAMES = [("kozel", 4), ("draw", 2), ("draw", 3), ("block", 4), ("block", 2), ("vog-talon", 4)]
FAST = {
    "expert": 3.0,
    "expert-2026": 3.0,
    "expert-fit": 3.0,
    "ismcts": 3.0,
    "ismcts-fit": 3.0,
    "ismcts-style": 3.0,
    "ismcts-style-play": 3.0,
    "ismcts-net": 3.0,
    "ismcts-net-style": 3.0,
    "ismcts-net-style96": 3.0,
    "ismcts-net-read": 3.0,
    "pimc": 3.0,
    "omniscient": 3.0,
}


DECIDING = [
    "medium",
    "pimc",
    "expert",
    "ismcts",
    "expert-fit",
    "ismcts-fit",
    "ismcts-style",
    "ismcts-style-play",
    "ismcts-net",
    "ismcts-net-style",
    "ismcts-net-style96",
    "ismcts-net-read",
]
"""The levels that think about the hidden hands: each is tested for honesty and determinism."""


def fast_bot(name: str, seed: int) -> object:
    if name == "ismcts-tree":  # the tree search down to the round's end (no expert's endgame)
        return IsmctsBot(random.Random(seed), ms_per_move=3.0, solve_at=0)
    bot = make_bot(name, seed)
    if name in FAST:
        bot.ms_per_move = FAST[name]  # type: ignore[attr-defined]
    return bot


# --- registry -------------------------------------------------------------------


def test_registry_levels_and_measurement_only() -> None:
    assert {"random", "greedy", "medium", "pimc", "expert", "omniscient"} <= set(BOTS)
    candidates = {"ismcts", "expert-fit", "ismcts-fit"}
    candidates |= {"ismcts-style", "ismcts-style-play", "ismcts-net", "ismcts-net-style"}
    candidates |= {"ismcts-net-style96", "ismcts-net-read"}
    assert {"omniscient", *candidates} <= MEASUREMENT_BOTS
    assert not {"omniscient", *candidates} & set(table_bots())
    assert table_bots()[:2] == ["random", "greedy"]
    for name in BOTS:
        assert make_bot(name, 1).name == name
    with pytest.raises(ValueError, match="no bot"):
        make_bot("grandmaster")


def _plays_signature(name: str, preset_name: str, players: int, seed: int) -> str:
    """A hash of every play of a whole game of ``name`` (even seats) against greedy."""
    rules = preset(preset_name, players, target=40)
    bots = [make_bot(name if s % 2 == 0 else "greedy", seed * 10 + s) for s in range(players)]
    game = play_game(rules, seed, bots)
    plays = [
        (e.seat, e.tile.index, str(e.end))
        for r in game.rounds
        for e in r.play.events
        if isinstance(e, Play)
    ]
    return hashlib.sha256(repr(plays).encode()).hexdigest()[:16]


@pytest.mark.parametrize(
    ("spec", "preset_name", "players", "seed", "signature"),
    [
        ("expert-2026:5", "kozel", 4, 1, "26b3ee200c7ed6a1"),
        ("expert-2026:20", "draw", 2, 2, "0690c238d60b388c"),
        ("expert-2026:10", "block", 4, 3, "93365bbaa54cd27b"),
    ],
)
def test_expert_2026_is_frozen(
    spec: str, preset_name: str, players: int, seed: int, signature: str
) -> None:
    """The yardstick plays exactly the games the expert of 2026 played (budgets are work)."""
    assert "expert-2026" in MEASUREMENT_BOTS and "expert-2026" not in table_bots()
    assert make_bot("expert-2026").ms_per_move == 300.0  # type: ignore[attr-defined]
    assert _plays_signature(spec, preset_name, players, seed) == signature


def test_omniscient_refuses_to_play_blind() -> None:
    game = Game(preset("draw", 2), seed=3)
    bot = make_bot("omniscient")
    with pytest.raises(RuntimeError):
        bot.choose(seat_view(game, game.round.turn))


# --- legality: whole games of every level ------------------------------------------


@pytest.mark.parametrize("name", ["medium", "pimc", "expert", "omniscient"])
@pytest.mark.parametrize(("preset_name", "players"), GAMES)
def test_bots_play_legal_whole_rounds(name: str, preset_name: str, players: int) -> None:
    rules = preset(preset_name, players, target=30)
    bots = [fast_bot(name if s % 2 == 0 else "greedy", 7 + s) for s in range(players)]
    game = play_game(rules, 11, bots)  # Game.play checks every move (IllegalMoveError)
    assert game.finished


# --- the search core agrees with the engine ---------------------------------------------


def _random_round_agrees(rules: Ruleset, seed: int) -> None:
    rng = random.Random(seed)
    deal = SeededDealer(rules, seed).deal()
    rnd = Round(rules, deal.hands, deal.boneyard, deal.out, seed % rules.players)
    hands = list(deal.hands)
    bone = list(deal.boneyard)
    stop = len(bone) - rules.keep_in_boneyard
    left = right = -1
    drawn = 0
    turn = rnd.turn
    draw_one = rules.draw_rule is DrawRule.DRAW_ONE
    while rnd.ending is None:
        move = rng.choice(rnd.legal_moves())
        t, end = move.tile.index, move.end_code
        seat = rnd.turn
        assert seat == turn
        rnd.play(move)
        left, right, nxt, drawn = step(
            hands, left, right, seat, t, end, bone, drawn, stop, draw_one, rules.players
        )
        assert hands == rnd.hands
        assert drawn == rnd.drawn
        if nxt == -2:
            assert rnd.ending is Ending.DOMINO
        elif nxt == -1:
            assert rnd.ending is Ending.BLOCKED
        else:
            assert rnd.ending is None and nxt == rnd.turn
            assert (left, right) == rnd.ends
            turn = nxt
    scorer = Scorer(rules, 0, [0] * rules.sides, 0)
    expected = score_round(rules, rnd.ending, rnd.hands, rnd.last_seat, [0] * rules.sides, 0)
    assert scorer.points(rnd.ending is Ending.DOMINO, hands, rnd.last_seat) == list(expected.points)


@pytest.mark.parametrize(
    "rules",
    [
        preset("kozel"),
        preset("draw", 2),
        preset("draw", 3),
        preset("draw", 4, draw_rule="draw_one"),
        preset("draw", 2, keep_in_boneyard=2),
        preset("block", 3),
        preset("vog-goat"),
        preset("international"),
        preset("kozel", fish_charge="own_hands", lone_six_six=12),
    ],
    ids=lambda r: f"{r.preset}-{r.players}-{r.draw_rule}-{r.keep_in_boneyard}-{r.fish_charge}",
)
def test_search_core_matches_round(rules: Ruleset) -> None:
    for seed in range(150):
        _random_round_agrees(rules, seed)


def test_playouts_end_rounds_like_the_engine() -> None:
    rules = preset("draw", 2)
    for seed in range(100):
        deal = SeededDealer(rules, seed).deal()
        for playout in (greedy_playout, smart_playout):
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
            held = sum(h.bit_count() for h in hands)
            assert held + (28 - held) == 28


def test_solver_value_is_exact_on_a_tiny_endgame() -> None:
    # Seat 0 holds 6-6 and 0-1, seat 1 holds 1-1; ends 6 and 0. Playing 6-6 first loses to
    # nothing: seat 1 cannot answer 6 or 0, so seat 0 plays 0-1 next and goes out.
    rules = preset("block", 2)
    t66, t01, t11 = 27, 1, 2
    hands = [1 << t66 | 1 << t01, 1 << t11]
    scorer = Scorer(rules, 0, [0, 0], 0)
    solver = Solver(scorer, [0, 1], [], 0, False, 2, 10_000)
    v = solver.value_after(hands, 6, 0, 0, t66, 0, 0, -1e9, 1e9)
    assert v == 2  # winner takes the opponent's 1-1
    # playing 0-1 first (at the 0 end) opens 1 for seat 1, who plays 1-1 and goes out
    v2 = solver.value_after(hands, 6, 0, 0, t01, 1, 0, -1e9, 1e9)
    assert v2 == -12


# --- inference and sampling ----------------------------------------------------------


def _view_after(rules: Ruleset, seed: int, plies: int, seat: int | None = None) -> SeatView:
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if game.round.ending is not None:
            break
        game.play(rng.choice(game.legal_moves()))
    s = game.round.turn if seat is None else seat
    return seat_view(game, s)


def test_inference_voids_and_samples_are_consistent() -> None:
    for seed in range(60):
        rules = preset("draw", 3) if seed % 2 else preset("kozel")
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(4, 20)):
            if game.round.ending is not None:
                break
            game.play(rng.choice(game.legal_moves()))
        if game.round.ending is not None:
            continue
        me = game.round.turn
        view = seat_view(game, me)
        k = infer(view)
        hands = game.round.hands
        for s in range(rules.players):
            if s == me:
                continue
            # the truth never breaks what was inferred
            assert not hands[s] & ~k.allowed(s) & ~k.hand & ~k.played
            assert sum(g.count for g in k.groups[s]) == hands[s].bit_count()
        sampler = Sampler(k, random.Random(1))
        assert sampler.consistent
        for _ in range(20):
            sample = sampler.sample()
            assert sample.hands[me] == hands[me]
            for s in range(rules.players):
                assert sample.hands[s].bit_count() == hands[s].bit_count()
            placed = 0
            for h in sample.hands:
                assert not placed & h
                placed |= h
            for t in sample.bone:
                placed |= 1 << t
            assert not placed & k.played
            assert len(sample.bone) == game.round.boneyard_count
        assert sampler.relaxed == 0


def test_a_pass_proves_a_void() -> None:
    rules = preset("block", 4)
    for seed in range(200):
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        while game.round.ending is None:
            game.play(rng.choice(game.legal_moves()))
            events = game.round.events
            passes = [e for e in events if isinstance(e, Pass)]
            if passes and game.round.ending is None:
                seat = passes[-1].seat
                me = game.round.turn
                if me == seat:
                    continue
                k = infer(seat_view(game, me))
                assert k.void(seat)
                for pip in range(7):
                    if k.void(seat) >> pip & 1:
                        assert not game.round.hands[seat] & SUIT[pip]
                return
    pytest.fail("no pass seen")


def test_r16_opening_tells_nobody_holds_a_higher_double() -> None:
    rules = preset("block", 4)
    game = Game(rules, seed=5)
    first = game.round.events[0]
    assert isinstance(first, Play)
    me = game.round.turn
    k = infer(seat_view(game, me))
    higher = [d for d in (0, 2, 5, 9, 14, 20, 27) if d > first.tile.index]
    for s in range(4):
        if s != me:
            for d in higher:
                assert not k.allowed(s) >> d & 1


def test_draws_are_hidden_but_counted() -> None:
    rules = preset("draw", 2)
    for seed in range(100):
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        while game.round.ending is None:
            game.play(rng.choice(game.legal_moves()))
            draws = [e for e in game.round.events if isinstance(e, Draw)]
            if draws and game.round.ending is None and game.round.turn != draws[-1].seat:
                me = game.round.turn
                k = infer(seat_view(game, me))
                other = 1 - me
                assert sum(g.count for g in k.groups[other]) == game.round.hands[other].bit_count()
                return
    pytest.fail("no draw seen")


# --- honesty: a bot sees its view only -------------------------------------------------


def _shuffled_hidden(rules: Ruleset, seed: int, seat: int, rng: random.Random) -> Deal:
    """The same deal for ``seat``; every other hand, the boneyard and the rest reshuffled."""
    deal = SeededDealer(rules, seed).deal()
    hidden = [t for s, h in enumerate(deal.hands) if s != seat for t in range(28) if h >> t & 1]
    hidden += list(deal.boneyard) + [t for t in range(28) if deal.out >> t & 1]
    rng.shuffle(hidden)
    hands = []
    i = 0
    for s in range(rules.players):
        if s == seat:
            hands.append(deal.hands[s])
        else:
            size = deal.hands[s].bit_count()
            hands.append(sum(1 << t for t in hidden[i : i + size]))
            i += size
    bone = hidden[i : i + len(deal.boneyard)]
    out = sum(1 << t for t in hidden[i + len(deal.boneyard) :])
    return Deal(tuple(hands), tuple(bone), out)


@pytest.mark.parametrize("name", ["random", "greedy", "expert-2026", *DECIDING])
@pytest.mark.parametrize(("preset_name", "players"), [("draw", 2), ("block", 3), ("block", 4)])
def test_bots_decide_from_the_view_only(name: str, preset_name: str, players: int) -> None:
    """Shuffling the hidden tiles, with the same seed, never changes the bot's first move."""
    rules = preset(preset_name, players, opener="draw_for_lead")
    checked = 0
    for seed in range(40):
        game = Game(rules, seed=seed)
        seat = game.round.turn
        deal = game.rounds[-1].deal
        if game.round.ending is not None:
            continue
        moves = []
        for variant in range(4):
            if variant == 0:
                d = deal
            else:
                d = _shuffled_hidden(rules, seed, seat, random.Random(variant))
                d = Deal(d.hands, d.boneyard, d.out)
            g = Game(rules, dealer=_Fixed(d, game.lead_draws))
            assert g.round.turn == seat
            view = seat_view(g, seat)
            bot = fast_bot(name, 99)
            moves.append(bot.choose(view))  # type: ignore[attr-defined]
        assert len(set(moves)) == 1, moves
        checked += 1
        if checked >= 3:
            break
    assert checked


class _Fixed:
    """A dealer that deals one given deal, and replays given lead draws."""

    def __init__(self, deal: Deal, lead: list[tuple[int, int]]) -> None:
        self.inner = RecordedDealer([deal], lead)

    def deal(self) -> Deal:
        return self.inner.deal()

    def lead_draw(self, seat: int, taken: int) -> int:
        return self.inner.lead_draw(seat, taken)


# --- determinism and budgets --------------------------------------------------------


@pytest.mark.parametrize("name", DECIDING)
def test_same_seed_same_game(name: str) -> None:
    rules = preset("kozel", target=40)

    def scores() -> tuple[int, ...]:
        bots = [fast_bot(name if s % 2 else "greedy", s) for s in range(4)]
        return tuple(play_game(rules, 21, bots).scores)

    assert scores() == scores()


def test_budgets_are_counted_in_work_not_seconds() -> None:
    view = _view_after(preset("kozel"), 3, 6)
    assert view.turn is not None and len(view.legal_moves) > 1
    small = ExpertBot(random.Random(1), ms_per_move=2)
    big = ExpertBot(random.Random(1), ms_per_move=8)
    small.choose(view)
    big.choose(view)
    assert 0 < small.work.units(EXPERT_COST) < big.work.units(EXPERT_COST)
    # the budget, overshot by one sample at most
    assert big.work.units(EXPERT_COST) <= 8 * UNITS_PER_MS + 5000
    p_small = PimcBot(random.Random(1), ms_per_move=2)
    p_big = PimcBot(random.Random(1), ms_per_move=8)
    p_small.choose(view)
    p_big.choose(view)
    assert 0 < p_small.work.units(PIMC_COST) < p_big.work.units(PIMC_COST)
    assert p_big.work.units(PIMC_COST) <= 8 * PIMC_UNITS_PER_MS + 2000


def test_medium_needs_no_search() -> None:
    # medium scores each legal move once: no sampling, no playouts
    view = _view_after(preset("kozel"), 4, 5)
    bot = make_bot("medium", 1)
    assert bot.choose(view) in view.legal_moves
    assert not hasattr(bot, "ms_per_move")


# --- hints ------------------------------------------------------------------------------


def test_hint_ranks_every_legal_move() -> None:
    view = _view_after(preset("kozel"), 8, 6)
    hints = hint(view, ms=5)
    assert {h.move for h in hints} == set(view.legal_moves)
    points = [h.expected_points for h in hints]  # ranked in the unit the player is shown
    assert points == sorted(points, reverse=True)
    for h in hints:
        assert 0.0 <= h.win_chance <= 1.0
    assert hint(view, ms=5, seed=3) == hint(view, ms=5, seed=3)


@pytest.mark.parametrize(("name", "players", "network"), [("draw", 2, True), ("block", 4, False)])
def test_the_hint_weighs_by_expert_s_network_where_it_has_one(
    name: str, players: int, network: bool
) -> None:
    """A network of the others' choices for the game kind: ``expert``'s model; none: the 2026
    expert's own, which hints better than ``expert``'s logit (``hint``'s text)."""
    view = _view_after(preset(name, players), 8, 4)
    model = hint_model(view)
    assert type(model) is (NetModel if network else OpponentModel)
    assert hint(view, ms=3, seed=2) == hint(view, ms=3, seed=2, model=model)


def test_hint_is_empty_when_not_your_turn() -> None:
    game = Game(preset("kozel"), seed=8)
    other = (game.round.turn + 1) % 4
    assert hint(seat_view(game, other), ms=5) == []


@pytest.mark.parametrize("name", [*DECIDING, "ismcts-tree"])
@pytest.mark.parametrize(("preset_name", "players"), [("block", 3), ("block", 4), ("kozel", 4)])
def test_bots_decide_from_the_view_only_in_mid_round(
    name: str, preset_name: str, players: int
) -> None:
    """Mid-round, deal the hidden tiles again in any way the public events allow: same move.

    The other deal comes from the sampler (so it also proves the sampler's deals
    consistent: replaying the same moves on it gives the very same public events). Kozel's
    plays seen are weighed by ``ismcts-net``'s network, which Block has none of.
    """
    rules = preset(preset_name, players)
    checked = differed = 0
    for seed in range(30):
        game = Game(rules, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(5, 12)):
            if game.round.ending is not None:
                break
            game.play(rng.choice(game.legal_moves()))
        if game.round.ending is not None or len(game.legal_moves()) < 2:
            continue
        me = game.round.turn
        view = seat_view(game, me)
        k = infer(view)
        sample = Sampler(k, random.Random(seed)).sample()
        hands = tuple(sample.hands[s] | k.played_by[s] for s in range(players))
        out = ALL
        for h in hands:
            out &= ~h
        other = Game(rules, dealer=_Fixed(Deal(hands, (), out), []))
        for e in game.round.events[len(other.round.events) :]:
            if isinstance(e, Play):
                other.play(Move(e.tile, e.end))
        assert other.round.events == game.round.events
        differed += other.round.hands != game.round.hands
        other_view = seat_view(other, me)
        assert other_view == view
        assert fast_bot(name, 3).choose(view) == fast_bot(name, 3).choose(  # type: ignore[attr-defined]
            other_view
        )
        checked += 1
        if checked >= 3:
            break
    assert checked and differed


def test_scorer_follows_kozel_scoring() -> None:
    rules = preset("kozel")
    six_six, zero_zero, one_two = 1 << 27, 1 << 0, 1 << 4
    hands = [0, six_six, one_two, zero_zero]  # seat 0 went out: pair 1 is charged 50 + 25
    for scores, eggs in [((0, 0), 0), ((20, 30), 7), ((0, 5), 0)]:
        scorer = Scorer(rules, 0, scores, eggs)
        expected = score_round(rules, Ending.DOMINO, hands, 0, scores, eggs)
        assert scorer.points(True, hands, 0) == list(expected.points)
        assert scorer.value(True, hands, 0) == expected.points[1] - expected.points[0]
        assert scorer.outcome(True, hands, 0)[2]  # the round is won
    # the 13-rule: a small charge to a pair still at 0 is not written down
    small = [0, 1 << 1, 0, 0]  # 0-1 left: 1 point
    scorer = Scorer(rules, 1, (0, 0), 0)
    assert scorer.points(True, small, 0) == [0, 0]
    assert not scorer.outcome(True, small, 0)[2]
    # a fish with equal pips is eggs: nobody scores now
    even = [1 << 4, 1 << 3, 1 << 5, 1 << 6]
    assert Scorer(rules, 0, (20, 20), 0).points(False, even, 0) == list(
        score_round(rules, Ending.BLOCKED, even, 0, (20, 20), 0).points
    )


@pytest.mark.parametrize("name,players", [("kozel", 4), ("draw", 2), ("block", 3), ("vog-goat", 4)])
def test_scorer_outcome_is_value_points_and_won_from_one_scoring(name: str, players: int) -> None:
    rules = preset(name, players)
    rng = random.Random(players)
    for _ in range(300):
        tiles = rng.sample(range(28), rng.randrange(0, 12))
        hands = [0] * players
        for t in tiles:
            hands[rng.randrange(players)] |= 1 << t
        domino = rng.random() < 0.5
        last = rng.randrange(players)
        if domino:
            hands[last] = 0
        scores = tuple(rng.choice((0, 40, 90)) for _ in range(rules.sides))
        side = rules.side_of(rng.randrange(players))
        eggs = rng.choice((0, 12))
        scorer = Scorer(rules, side, scores, eggs, bonus=30)
        plain = Scorer(rules, side, scores, eggs)
        v, points, won = scorer.outcome(domino, hands, last)
        assert v == scorer.value(domino, hands, last)
        assert points == plain.value(domino, hands, last)
        values = [0] * rules.sides
        for seat, h in enumerate(hands):
            values[rules.side_of(seat)] += value_of(h)
        lowest = values[side] == min(values) and values.count(min(values)) == 1
        assert won == (rules.side_of(last) == side if domino else lowest)


def test_scorer_bonus_when_the_round_decides_the_game() -> None:
    rules = preset("draw", 2)
    hands = [0, 1 << 27]  # seat 0 goes out, takes 12
    near = Scorer(rules, 0, (95, 0), 0, bonus=30)
    far = Scorer(rules, 0, (10, 0), 0, bonus=30)
    assert near.value(True, hands, 0) == 12 + 30
    assert far.value(True, hands, 0) == 12
    losing = Scorer(rules, 1, (95, 0), 0, bonus=30)
    assert losing.value(True, hands, 0) == -12 - 30
