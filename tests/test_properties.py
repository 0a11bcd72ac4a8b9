"""Property tests over random games of every preset and player count.

Each property plays whole games with random (legal) moves and checks, at
every step, what docs/rules.md says must hold. The expectations are computed by
small reference models written here from docs/rules.md, independently of the
engine's bit sets: the legal moves (R4, R5, R9), the forced draws and passes
and the end of a round (R9–R11, R22, R23), who opens (R13, R16–R21) and how a
round is scored (R23–R37a).
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import allowed_tiles, snapshot, view_tiles
from doublesix import (
    PRESETS,
    Draw,
    DrawRule,
    End,
    Event,
    FishCharge,
    Game,
    HiddenDraw,
    IllegalMoveError,
    Move,
    Opener,
    Pass,
    Play,
    Ruleset,
    Scoring,
    Tile,
    preset,
    seat_view,
)
from doublesix.rules.game import GameRound
from doublesix.rules.round import Ending, Round
from doublesix.rules.scoring import ResultKind
from doublesix.tiles import TILES, heaviest, lowest, tiles_of

COMBOS = [(name, n) for name in PRESETS for n in PRESETS[name].players]
MAX_ROUNDS = 400
"""No game needs more rounds than this (every target is at most 100 here)."""

PROPERTY = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# --- random rulesets ------------------------------------------------------------------------


@st.composite
def rulesets(draw: st.DrawFn, name: str, players: int) -> Ruleset:
    """The preset with some of its options changed, within what the rules allow."""
    base = preset(name, players=players)
    changes: dict[str, Any] = {"target": draw(st.sampled_from([100, 50, 30, "round"]))}
    if base.opener is not Opener.KOZEL and draw(st.booleans()):
        largest = len(TILES) // players - (1 if base.boneyard else 0)
        if base.boneyard and players * largest >= len(TILES):
            largest -= 1
        changes["hand_size"] = draw(st.integers(2, largest))
    if base.boneyard:
        changes["draw_rule"] = draw(st.sampled_from(list(DrawRule)))
        left = len(TILES) - players * changes.get("hand_size", base.hand_size)
        changes["keep_in_boneyard"] = draw(st.integers(0, min(3, left - 1)))
    dealt = players * changes.get("hand_size", base.hand_size)
    if draw(st.integers(0, 3)) == 0:  # now and then another opener or scoring than the preset's
        openers = [o for o in Opener if o is not Opener.KOZEL or dealt == len(TILES)]
        changes["opener"] = draw(st.sampled_from(openers))
        scorings = [s for s in Scoring if s is not Scoring.KOZEL or base.pairs]
        changes["scoring"] = draw(st.sampled_from(scorings))
        changes["redeal"] = draw(st.booleans()) and dealt <= players * 7
    scoring = changes.get("scoring", base.scoring)
    if scoring is Scoring.KOZEL:
        changes["fish_charge"] = draw(st.sampled_from(list(FishCharge)))
    if scoring in (Scoring.KOZEL, Scoring.GOAT):  # R28a, R37a
        changes["lone_zero_zero"] = draw(st.sampled_from([25, 10]))
        changes["lone_six_six"] = draw(st.sampled_from([50, 12]))
    return preset(name, players=players, **changes)


# --- reference models from docs/rules.md ----------------------------------------------------


def side_of(ruleset: Ruleset, seat: int) -> int:
    return seat % 2 if ruleset.pairs else seat  # R6


def expected_moves(rnd: Round) -> set[Move]:
    """R4, R5, R9: every tile of the hand × every end it fits; the drawn tile only after a draw."""
    seat = rnd.turn
    hand = rnd.hand(seat)
    ends = rnd.ends
    if ends is None:
        return {Move(t, None) for t in hand}
    last = rnd.events[-1] if rnd.events else None
    if isinstance(last, Draw) and last.seat == seat:
        hand = [last.tile]
    return {Move(t, end) for t in hand for end, pip in zip(End, ends, strict=True) if t.shows(pip)}


@dataclass
class RefRound:
    """R4–R11, R22, R23 by hand: hands as sets of tiles, the drawable tiles in order."""

    ruleset: Ruleset
    hands: list[set[Tile]]
    drawable: list[Tile]
    ends: tuple[int, int] | None = None
    events: list[Event] = field(default_factory=list)

    @classmethod
    def of(cls, rnd: Round) -> RefRound:
        stop = len(rnd.boneyard) - rnd.ruleset.keep_in_boneyard
        return cls(
            rnd.ruleset,
            [set(rnd.hand(s)) for s in range(rnd.ruleset.players)],
            [TILES[t] for t in rnd.boneyard[rnd.drawn : stop]],
            rnd.ends,
        )

    def fits(self, t: Tile) -> bool:
        return self.ends is None or any(t.shows(p) for p in self.ends)

    def can_play(self, seat: int) -> bool:
        return any(self.fits(t) for t in self.hands[seat])

    def blocked(self) -> bool:
        return not self.drawable and not any(self.can_play(s) for s in range(len(self.hands)))

    def play(self, seat: int, move: Move) -> tuple[list[Event], Ending | None, int | None]:
        """The play and every forced event after it; the ending or the next seat to move."""
        t = move.tile
        self.hands[seat].remove(t)
        self.events = [Play(seat, t, move.end)]
        if self.ends is None:
            self.ends = (t.low, t.high)
        elif move.end is End.LEFT:
            self.ends = (t.other(self.ends[0]), self.ends[1])
        else:
            self.ends = (self.ends[0], t.other(self.ends[1]))
        if not self.hands[seat]:
            return self.events, Ending.DOMINO, None
        n = len(self.hands)
        s = (seat + 1) % n
        drew = False
        while True:
            # R23: the round ends the moment nobody can play and nothing can be drawn.
            if self.blocked():
                return self.events, Ending.BLOCKED, None
            if self.can_play(s):
                return self.events, None, s
            one = self.ruleset.draw_rule is DrawRule.DRAW_ONE
            if self.drawable and not (one and drew):
                drawn = self.drawable.pop(0)
                self.hands[s].add(drawn)
                self.events.append(Draw(s, drawn))
                drew = True
                if self.fits(drawn):
                    return self.events, None, s
                continue
            self.events.append(Pass(s))
            s = (s + 1) % n
            drew = False


def redeal_reason(hands: Sequence[int]) -> bool:
    """R13: 5 doubles or 6 tiles showing one number in a hand."""
    for mask in hands:
        held = tiles_of(mask)
        if sum(t.is_double for t in held) >= 5:
            return True
        if any(sum(t.shows(p) for t in held) >= 6 for p in range(7)):
            return True
    return False


def lead_winner(players: int, draws: list[tuple[int, int]]) -> int:
    """R21: everybody draws; the highest value opens; the tied draw again."""
    contenders, rest = list(range(players)), list(draws)
    while True:
        group, rest = rest[: len(contenders)], rest[len(contenders) :]
        assert [s for s, _ in group] == contenders
        best = max(TILES[t].value for _, t in group)
        contenders = [s for s, t in group if TILES[t].value == best]
        if len(contenders) == 1:
            assert rest == []
            return contenders[0]


def expected_opening(game: Game, index: int) -> tuple[int, Tile | None]:
    """R16–R21: the opener of round ``index`` and the tile played for him, if any."""
    ruleset = game.ruleset
    deal = game.rounds[index].deal
    dealt = [t for mask in deal.hands for t in tiles_of(mask)]

    def holder(t: Tile) -> int:
        return next(s for s, mask in enumerate(deal.hands) if mask & t.bit)

    prev: GameRound | None = game.rounds[index - 1] if index else None
    winner = None if prev is None or prev.result is None else prev.result.winner_seat
    opener = ruleset.opener
    if opener is Opener.HIGHEST_DOUBLE:
        if winner is not None:
            return winner, None
        doubles = [t for t in dealt if t.is_double]
        first = max(doubles, key=lambda t: t.value) if doubles else heaviest(dealt)
        return holder(first), first
    if opener is Opener.KOZEL:
        if prev is None:
            return holder(Tile(1, 1)), Tile(1, 1)
        plays = [e for e in prev.play.events if isinstance(e, Play)]
        return plays[-1].seat, None
    if opener is Opener.LOWEST_DOUBLE:
        doubles = [t for t in dealt if t.is_double and t.value > 0]
        return holder(min(doubles, key=lambda t: t.value) if doubles else lowest(dealt)), None
    if opener is Opener.HIGHEST_TILE:
        return (holder(heaviest(dealt)) if winner is None else winner), None
    if prev is None:
        return lead_winner(ruleset.players, game.lead_draws), None
    return (prev.opener + 1) % ruleset.players, None


@dataclass(frozen=True)
class Expected:
    kind: ResultKind
    winner_seat: int | None
    points: tuple[int, ...]
    eggs: int
    dropped: tuple[int, ...]


def expected_score(ruleset: Ruleset, rnd: Round, scores: Sequence[int], eggs: int) -> Expected:
    """R22–R37a by hand."""
    n, sides = ruleset.players, (2 if ruleset.pairs else ruleset.players)
    hands = [rnd.hand(s) for s in range(n)]
    values = [sum(t.value for t in h) for h in hands]
    side_values = [
        sum(values[s] for s in range(n) if side_of(ruleset, s) == k) for k in range(sides)
    ]
    last = [e for e in rnd.events if isinstance(e, Play)][-1].seat
    points = [0] * sides
    dropped = [0] * sides
    if not hands[last]:
        kind, winner = ResultKind.DOMINO, last
    else:
        kind = ResultKind.FISH if ruleset.scoring is Scoring.KOZEL else ResultKind.BLOCKED
        low = min(side_values)
        if side_values.count(low) > 1:
            winner = None
            kind = ResultKind.EGGS if ruleset.scoring is Scoring.KOZEL else ResultKind.TIED
        else:
            side = side_values.index(low)
            order = [(last + k) % n for k in range(1, n + 1)]
            mine = [s for s in order if side_of(ruleset, s) == side]
            winner = min(mine, key=lambda s: values[s])  # first of equal values clockwise

    def counted(h: list[Tile]) -> int:
        """R28a, R33: a losing hand after a domino; exactly 0-0 or exactly 6-6 count specially."""
        if h == [Tile(0, 0)]:
            return ruleset.lone_zero_zero
        if h == [Tile(6, 6)]:
            return ruleset.lone_six_six
        return sum(t.value for t in h)

    if ruleset.scoring is Scoring.KOZEL:
        fish = sum(side_values) if ruleset.fish_charge is FishCharge.ALL_HANDS else max(side_values)
        if winner is None:
            return Expected(kind, None, (0, 0), eggs + fish, (0, 0))
        loser = 1 - side_of(ruleset, winner)
        if kind is ResultKind.DOMINO:
            charge = sum(counted(hands[s]) for s in range(n) if side_of(ruleset, s) == loser)
        else:
            charge = fish
        charge += eggs
        if scores[loser] == 0 and charge < 13:
            dropped[loser] = charge
        else:
            points[loser] = charge
        return Expected(kind, winner, tuple(points), 0, tuple(dropped))
    if winner is not None:
        won = side_of(ruleset, winner)
        others = sum(side_values) - side_values[won]
        if ruleset.scoring is Scoring.GOAT:
            charged = side_values
            if kind is ResultKind.DOMINO:  # R28a
                charged = [
                    sum(counted(hands[s]) for s in range(n) if side_of(ruleset, s) == k)
                    for k in range(sides)
                ]
            points = [0 if k == won else charged[k] for k in range(sides)]
        elif ruleset.scoring is Scoring.WINNER_TAKES and kind is ResultKind.BLOCKED:
            points[won] = others - side_values[won]
        else:
            points[won] = others
    return Expected(kind, winner, tuple(points), 0, tuple(dropped))


def expected_outcome(
    ruleset: Ruleset, scores: Sequence[int], winner_seat: int | None
) -> tuple[bool, set[int], set[int]]:
    """R30, R37, R40: finished, winners, losers (``winner_seat``: the last round's winner)."""
    sides = range(len(scores))
    if ruleset.target == "round":  # R40: the one round decides; nobody wins a tie
        if winner_seat is None:
            return True, set(), set()
        won = side_of(ruleset, winner_seat)
        return True, {won}, set(sides) - {won}
    t = ruleset.target
    assert isinstance(t, int)
    if ruleset.scoring is Scoring.KOZEL:
        goats = {s for s in sides if scores[s] > t}
        return bool(goats), set(sides) - goats if goats else set(), goats
    reached = {s for s in sides if scores[s] >= t}
    if not reached:
        return False, set(), set()
    if ruleset.scoring is Scoring.GOAT:
        return True, {s for s in sides if scores[s] == min(scores)}, reached
    return True, reached, set(sides) - reached


# --- the checks ---------------------------------------------------------------------------


def check_tiles_accounted(game: Game) -> None:
    """R1: hands + line + boneyard left + out of play are the 28 tiles, each once."""
    rnd = game.round
    pieces: list[Tile] = [t for s in range(game.ruleset.players) for t in rnd.hand(s)]
    pieces += [e.tile for e in rnd.events if isinstance(e, Play)]
    pieces += [TILES[t] for t in rnd.boneyard[rnd.drawn :]]
    pieces += tiles_of(rnd.out)
    assert len(pieces) == 28 and set(pieces) == set(TILES)
    assert rnd.boneyard_count == len(rnd.boneyard) - rnd.drawn
    drawn = [e.tile for e in rnd.events if isinstance(e, Draw)]
    assert [TILES[t] for t in rnd.boneyard[: rnd.drawn]] == drawn


def check_line(game: Game) -> None:
    """R4, R5: the laid line's outer pips are the ends; neighbours match."""
    rnd = game.round
    laid = rnd.laid_line()
    played = [e.tile for e in rnd.events if isinstance(e, Play)]
    assert len(laid) == len(played)
    assert sorted(Tile(a, b).index for a, b in laid) == sorted(t.index for t in played)
    if not laid:
        assert rnd.ends is None
        return
    assert rnd.ends == (laid[0][0], laid[-1][1])
    for (_, right), (left, _) in itertools.pairwise(laid):
        assert right == left


def check_legal_moves(game: Game) -> None:
    rnd = game.round
    if game.turn is None:
        assert game.legal_moves() == []
        return
    legal = game.legal_moves()
    assert len(legal) == len(set(legal))
    assert set(legal) == expected_moves(rnd)
    assert legal, "R7: a seat is only given the turn when it can play"


def check_views(game: Game) -> None:
    """No view holds another seat's tiles (before the round ends), the boneyard or the seed."""
    rnd = game.round
    over = rnd.ending is not None
    for seat in range(game.ruleset.players):
        view = seat_view(game, seat)
        assert set(view.hand) == set(rnd.hand(seat))
        assert set(view_tiles(view)) <= allowed_tiles(game, view)
        if not over:
            others = {t for s in range(game.ruleset.players) if s != seat for t in rnd.hand(s)}
            # the lead draws (R21) are public and then shuffled back, and the hands of earlier
            # rounds were shown to everyone (R25): they name no holder of this round
            now = dataclasses.replace(view, lead_draws=(), past_results=(), past_rounds=())
            assert not others & set(view_tiles(now))
            assert view.revealed_hands is None
        for mine, real in zip(view.events, rnd.events, strict=True):
            if isinstance(real, Draw) and real.seat != seat:
                assert mine == HiddenDraw(real.seat)
            else:
                assert mine == real
        assert view.boneyard_count == rnd.boneyard_count
        assert view.legal_moves == (tuple(rnd.legal_moves()) if view.my_turn else ())
    names = {f.name for f in dataclasses.fields(seat_view(game, 0))}
    assert not names & {"seed", "boneyard", "out", "deal"}


def check_illegal_moves_refused(game: Game, rng: random.Random) -> None:
    """A move that is not legal raises IllegalMoveError naming a rule and changes nothing."""
    legal = set(game.legal_moves())
    before = snapshot(game)
    for _ in range(3):
        move = Move(rng.choice(TILES), rng.choice([End.LEFT, End.RIGHT, None]))
        if move in legal:
            continue
        with pytest.raises(IllegalMoveError) as err:
            game.play(move)
        assert err.value.rule.startswith("R")
        assert snapshot(game) == before
    if game.turn is not None and legal:
        other = (game.turn + 1) % game.ruleset.players
        with pytest.raises(IllegalMoveError, match="R6"):
            game.play(next(iter(legal)), seat=other)
        assert snapshot(game) == before


# --- the driver ---------------------------------------------------------------------------

Check = Callable[[Game], None]


def play_game(
    ruleset: Ruleset,
    seed: int,
    choice_seed: int,
    checks: Sequence[Check] = (),
    *,
    forced: bool = False,
    scoring: bool = False,
    illegal: bool = False,
) -> Game:
    """Play a whole game with random legal moves, checking after every step."""
    rng = random.Random(choice_seed)
    game = Game(ruleset, seed=seed)

    def start_of_round() -> RefRound | None:
        index = len(game.rounds) - 1
        current = game.rounds[index]
        if forced:
            assert bool(current.redeals) <= ruleset.redeal
            assert all(redeal_reason(d.hands) for d, _ in current.redeals)
            assert not (ruleset.redeal and redeal_reason(current.deal.hands))
            opener, first = expected_opening(game, index)
            assert current.opener == opener
            fresh = Round(
                ruleset, current.deal.hands, current.deal.boneyard, current.deal.out, opener
            )
            ref = RefRound.of(fresh)
            if first is None:
                assert current.play.events == []
                assert current.play.turn == opener
            else:
                events, ending, turn = ref.play(opener, Move(first))
                assert current.play.events == events
                assert current.play.ending == ending
                if turn is not None:
                    assert current.play.turn == turn
            return ref
        return None

    def after_round(scores: list[int], eggs: int) -> None:
        if not scoring:
            return
        current = game.rounds[-1]
        result = current.result
        assert result is not None
        exp = expected_score(ruleset, current.play, scores, eggs)
        assert (result.kind, result.winner_seat, result.points) == (
            exp.kind,
            exp.winner_seat,
            exp.points,
        )
        assert result.eggs_carried == exp.eggs and result.dropped == exp.dropped
        # the breakdown explains the same points, each side's hands summed (R24)
        rows = result.breakdown
        assert tuple(r.points for r in rows) == result.points
        assert tuple(r.dropped for r in rows) == result.dropped
        assert all(r.points == r.base + r.eggs - r.dropped for r in rows)
        assert all(r.total == sum(c.counted for c in r.hands) for r in rows)
        assert sorted(c.value for r in rows for c in r.hands) == sorted(result.hand_values)
        assert list(result.scores_after) == [s + p for s, p in zip(scores, exp.points, strict=True)]
        assert game.scores == list(result.scores_after)
        finished, winners, losers = expected_outcome(ruleset, game.scores, exp.winner_seat)
        assert game.finished == finished
        if finished:
            assert set(game.result.winners) == winners and set(game.result.losers) == losers
            if ruleset.scoring is Scoring.KOZEL and ruleset.target != "round":
                assert game.result.dry_win == all(game.scores[s] == 0 for s in winners)

    ref = start_of_round()
    scores, eggs = [0] * ruleset.sides, 0
    events_cap = 28 * (ruleset.players + 2)
    while True:
        for check in checks:
            check(game)
        if illegal:
            check_illegal_moves_refused(game, rng)
        rnd = game.round
        assert len(rnd.events) <= events_cap
        if rnd.ending is None:
            assert (game.scores, game.eggs) == (scores, eggs)  # scores change only after a round
        if rnd.ending is not None:
            after_round(scores, eggs)
            scores, eggs = list(game.scores), game.eggs
            if game.finished:
                break
            assert len(game.rounds) < MAX_ROUNDS
            game.next_round()
            ref = start_of_round()
            continue
        seat = rnd.turn
        move = rng.choice(game.legal_moves())
        events = game.play(move, seat=seat)
        if ref is not None:
            expected, ending, turn = ref.play(seat, move)
            assert events == expected
            assert rnd.ending == ending
            if turn is not None:
                assert rnd.turn == turn
    if illegal:
        before = snapshot(game)
        with pytest.raises(IllegalMoveError, match="R30"):
            game.next_round()
        with pytest.raises(IllegalMoveError):
            game.play(Move(TILES[0], None))
        assert snapshot(game) == before
    return game


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@pytest.mark.parametrize(("name", "players"), COMBOS)
@PROPERTY
@given(data=st.data(), seed=SEEDS, choices=SEEDS)
def test_property_all_28_tiles_are_always_accounted_for_and_the_ends_match_the_line(
    name: str, players: int, data: st.DataObject, seed: int, choices: int
) -> None:
    ruleset = data.draw(rulesets(name, players))
    play_game(ruleset, seed, choices, [check_tiles_accounted, check_line])


@pytest.mark.parametrize(("name", "players"), COMBOS)
@PROPERTY
@given(data=st.data(), seed=SEEDS, choices=SEEDS)
def test_property_legal_moves_and_forced_events_follow_the_rules(
    name: str, players: int, data: st.DataObject, seed: int, choices: int
) -> None:
    ruleset = data.draw(rulesets(name, players))
    play_game(ruleset, seed, choices, [check_legal_moves], forced=True)


@pytest.mark.parametrize(("name", "players"), COMBOS)
@PROPERTY
@given(data=st.data(), seed=SEEDS, choices=SEEDS)
def test_property_no_view_shows_what_its_seat_may_not_know(
    name: str, players: int, data: st.DataObject, seed: int, choices: int
) -> None:
    ruleset = data.draw(rulesets(name, players))
    play_game(ruleset.replace(target=30), seed, choices, [check_views])


@pytest.mark.parametrize(("name", "players"), COMBOS)
@PROPERTY
@given(data=st.data(), seed=SEEDS, choices=SEEDS)
def test_property_every_game_ends_and_scores_change_only_by_the_rules(
    name: str, players: int, data: st.DataObject, seed: int, choices: int
) -> None:
    ruleset = data.draw(rulesets(name, players))
    game = play_game(ruleset, seed, choices, scoring=True)
    assert game.finished and game.turn is None
    assert len(game.rounds) <= MAX_ROUNDS


@pytest.mark.parametrize(("name", "players"), COMBOS)
@PROPERTY
@given(data=st.data(), seed=SEEDS, choices=SEEDS)
def test_property_illegal_moves_are_refused_and_change_nothing(
    name: str, players: int, data: st.DataObject, seed: int, choices: int
) -> None:
    ruleset = data.draw(rulesets(name, players))
    play_game(ruleset.replace(target=30), seed, choices, illegal=True)
