"""The fast random playout: legal, complete, uniform, and faithful to the round's rules."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from doublesix import Game, Move, preset
from doublesix.playout import deal, first_opener, new_round, playout, random_move, random_rounds
from doublesix.rules.deal import RecordedDealer
from doublesix.rules.moves import Play
from doublesix.rules.round import Ending, Round
from doublesix.rules.ruleset import PRESETS, Opener, Ruleset
from doublesix.tiles import ALL, SUIT

RULESETS = [preset(name, players) for name, p in PRESETS.items() for players in p.players] + [
    preset("draw", 3, draw_rule="draw_one"),
    preset("classic", 2, keep_in_boneyard=3),
    preset("block", 3, hand_size=4),
]


def ids(r: Ruleset) -> str:
    return f"{r.preset}-{r.players}-{r.hand_size}-{r.draw_rule}-{r.keep_in_boneyard}"


@pytest.mark.parametrize("ruleset", RULESETS, ids=ids)
def test_playouts_end_by_the_rules(ruleset: Ruleset) -> None:
    rng = random.Random(3)
    for _ in range(200):
        rnd = new_round(ruleset, rng)
        events = len(rnd.events)
        assert playout(rnd, rng) == len(rnd.events) - events
        # the 28 tiles are all accounted for
        on_line = sum(1 << t for t, _, _ in rnd.line)
        in_hands = sum(rnd.hands)
        left = sum(1 << t for t in rnd.boneyard[rnd.drawn :])
        assert on_line + in_hands + left + rnd.out == ALL
        assert on_line & in_hands == 0
        if rnd.ending is Ending.DOMINO:
            assert rnd.hands[rnd.last_seat] == 0
        else:
            assert rnd.ending is Ending.BLOCKED
            suits = SUIT[rnd.left] | SUIT[rnd.right]
            assert not any(h & suits for h in rnd.hands)
            assert rnd.drawn >= rnd.stop


@pytest.mark.parametrize("ruleset", RULESETS, ids=ids)
def test_playout_moves_are_legal_through_the_public_api(ruleset: Ruleset) -> None:
    """Every play of a playout, replayed with ``Round.play(Move)``, gives the same events."""
    rng = random.Random(5)
    for _ in range(50):
        dealt = deal(ruleset, rng)
        hands, boneyard, out = dealt.hands, dealt.boneyard, dealt.out
        opener, opening = first_opener(ruleset, hands, rng)
        fast = Round(ruleset, hands, boneyard, out, opener, opening)
        playout(fast, rng)
        checked = Round(ruleset, hands, boneyard, out, opener, opening)
        k = len(checked.events)
        while k < len(fast.events):
            event = fast.events[k]
            assert isinstance(event, Play), "forced events come from the round itself"
            assert checked.turn == event.seat
            assert Move(event.tile, event.end) in checked.legal_moves()
            checked.play(Move(event.tile, event.end))
            k = len(checked.events)
        assert checked.events == fast.events
        assert checked.ending == fast.ending


def test_inlined_policy_equals_random_move() -> None:
    """The hot loop makes exactly the choices of ``random_move``, the documented policy."""
    for ruleset in RULESETS:
        for seed in range(20):
            rnd = new_round(ruleset, random.Random(seed))
            inlined, explicit = rnd.copy(), rnd.copy()
            playout(inlined, random.Random(seed))
            playout(explicit, random.Random(seed), random_move)
            assert inlined.events == explicit.events


def test_random_move_is_uniform_over_the_legal_moves() -> None:
    ruleset = preset("block", 2)
    rng = random.Random(11)
    for _ in range(20):
        rnd = new_round(ruleset, rng)
        while not rnd.over and len(rnd.legal_moves()) < 3:
            rnd.play_index(*random_move(rnd, rng))
        if rnd.over:
            continue
        legal = rnd.legal_moves()
        counts = Counter(random_move(rnd, rng) for _ in range(3000 * len(legal)))
        assert {(m.tile.index, m.end_code) for m in legal} == set(counts)
        assert max(counts.values()) < 1.2 * min(counts.values())
        return
    pytest.fail("no position with three legal moves")


def test_a_policy_decides_every_move() -> None:
    def heaviest(rnd: Round, rng: random.Random) -> tuple[int, int]:
        moves = rnd.legal_moves()
        best = max(moves, key=lambda m: m.tile.index)
        return best.tile.index, best.end_code

    rnd = new_round(preset("kozel"), random.Random(2))
    playout(rnd, random.Random(2), heaviest)
    assert rnd.over


@pytest.mark.parametrize("ruleset", RULESETS, ids=ids)
def test_deals_are_seeded_and_complete(ruleset: Ruleset) -> None:
    first = deal(ruleset, random.Random(9))
    assert first == deal(ruleset, random.Random(9))
    assert first != deal(ruleset, random.Random(10))
    first.check(ruleset)  # R1, R12: the whole set, shared out as the ruleset says
    assert sum(first.hands) + sum(1 << t for t in first.boneyard) + first.out == ALL
    assert (not first.boneyard) == (not ruleset.boneyard)
    if ruleset.redeal:
        assert first.redeal_reason() is None


@pytest.mark.parametrize(
    "ruleset", [r for r in RULESETS if r.opener is not Opener.DRAW_FOR_LEAD], ids=ids
)
def test_first_opener_is_the_games(ruleset: Ruleset) -> None:
    """R16, R18–R20: the playout's first round opens like a game's first round."""
    rng = random.Random(21)
    for _ in range(100):
        dealt = deal(ruleset, rng)
        opener, opening = first_opener(ruleset, dealt.hands, rng)
        game = Game(ruleset, dealer=RecordedDealer([dealt]))
        assert game.rounds[0].opener == opener
        played = game.round.plays
        assert (played[0].tile.index if played else None) == opening


def test_random_rounds_counts_events() -> None:
    ruleset = preset("block", 4)
    events = random_rounds(ruleset, 30, random.Random(1))
    assert 30 * 7 <= events <= 30 * 60
