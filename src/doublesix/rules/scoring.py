"""Scoring of a finished round (R23–R29, R33–R37a) and the end of a game (R30, R37, R40).

Pure functions of the hands left, how the round ended and the scores so
far: the game feeds them, the record replay checks against them. Every
result carries its breakdown (``doublesix.rules.breakdown``), side by side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import NamedTuple

from doublesix.rules.breakdown import Basis, HandCount, Lone, SideScore
from doublesix.rules.round import Ending
from doublesix.rules.ruleset import FishCharge, Ruleset, Scoring
from doublesix.tiles import tile, value_of

_LONE_ZERO_ZERO = tile(0, 0).bit
_LONE_SIX_SIX = tile(6, 6).bit
_LONE = {_LONE_ZERO_ZERO: Lone.ZERO_ZERO, _LONE_SIX_SIX: Lone.SIX_SIX}


class ResultKind(StrEnum):
    DOMINO = "domino"
    BLOCKED = "blocked"
    TIED = "tied"
    """Blocked with the lowest value shared by different sides (R23)."""
    FISH = "fish"
    """Kozel: blocked, the heavier pair is charged (R34)."""
    EGGS = "eggs"
    """Kozel: a fish with equal pips; the charge is carried (R35)."""


@dataclass(frozen=True)
class RoundResult:
    """How a round was scored; ``points``, ``scores_after`` and ``dropped`` are per side."""

    kind: ResultKind
    winner_seat: int | None
    """R17's winner: who went out, or the lowest hand of the winning side; None if tied."""
    hand_values: tuple[int, ...]
    points: tuple[int, ...]
    eggs_carried: int
    """Kozel eggs carried into the next round (R35)."""
    scores_after: tuple[int, ...]
    eggs_used: int = 0
    """Eggs of earlier rounds added to this round's charge (R35)."""
    dropped: tuple[int, ...] = ()
    """Kozel charges not written under the 13-rule (R36), per side."""
    eggs_laid: int = 0
    """R35: the pips this round (a tied fish) adds to the eggs; 0 for any other round."""
    scored: Scored | None = field(default=None, compare=False, repr=False)
    """What the round was scored from, for ``breakdown``."""

    @property
    def tied(self) -> bool:
        return self.winner_seat is None

    @cached_property
    def breakdown(self) -> tuple[SideScore, ...]:
        """How each side's points were made up, side 0 first.

        Worked out when first asked (every round of every game is scored, few are
        explained); its points agree with ``points`` and ``dropped``.
        """
        if self.scored is None:
            return ()
        ruleset, hands, scores, eggs = self.scored
        won = None if self.winner_seat is None else ruleset.side_of(self.winner_seat)
        plain = side_values(ruleset, self.hand_values)
        return tuple(
            _side_score(ruleset, self.kind, side, won, hands, self.hand_values, plain, score, eggs)
            for side, score in enumerate(scores)
        )


class Scored(NamedTuple):
    """The inputs of a round's scoring: the ruleset, the hands left, scores and eggs before."""

    ruleset: Ruleset
    hands: tuple[int, ...]
    scores: tuple[int, ...]
    eggs: int


def side_values(ruleset: Ruleset, hand_values: Sequence[int]) -> list[int]:
    """R24: partners' hands added together."""
    values = [0] * ruleset.sides
    for seat, v in enumerate(hand_values):
        values[ruleset.side_of(seat)] += v
    return values


def blocked_winner(ruleset: Ruleset, hand_values: Sequence[int], last_seat: int) -> int | None:
    """R23, R17: the winning seat of a blocked round, None when the lowest value is shared.

    The winning side has the lowest value; its seat with the lowest hand wins,
    equal hands going to the first of them clockwise after ``last_seat``.
    """
    values = side_values(ruleset, hand_values)
    low = min(values)
    if values.count(low) > 1:
        return None
    side = values.index(low)
    n = ruleset.players
    order = [(last_seat + k) % n for k in range(1, n + 1)]
    seats = [s for s in order if ruleset.side_of(s) == side]
    return min(seats, key=lambda s: hand_values[s])


def hand_count(
    ruleset: Ruleset, seat: int, hand: int, value: int, charged_after_domino: bool
) -> HandCount:
    """One hand's row (``value``: its plain value, R2). R28a, R33: a hand charged after a
    domino under goat or kozel scoring that is exactly 0-0 counts ``lone_zero_zero``,
    exactly 6-6 ``lone_six_six`` (R37a); every other hand counts its plain value."""
    if charged_after_domino and ruleset.lone_doubles and hand in _LONE:
        return HandCount(seat, hand, value, _lone_value(ruleset, hand, value), _LONE[hand])
    return HandCount(seat, hand, value, value)


def score_round(
    ruleset: Ruleset,
    ending: Ending,
    hands: Sequence[int],
    last_seat: int,
    scores: Sequence[int],
    eggs: int,
) -> RoundResult:
    """Score a round that ended by ``ending``, given the hands left and the scores before it.

    The points are worked out here directly (it is done for every round); the
    result's ``breakdown`` explains them from the same inputs when asked.
    """
    hand_values = tuple(value_of(h) for h in hands)
    sides = side_values(ruleset, hand_values)
    scored = Scored(ruleset, tuple(hands), tuple(scores), eggs)
    if ending is Ending.DOMINO:
        winner: int | None = last_seat
    else:
        winner = blocked_winner(ruleset, hand_values, last_seat)
    if ruleset.scoring is Scoring.KOZEL:
        return _score_kozel(ruleset, ending, hands, hand_values, winner, scores, eggs, scored)
    points = [0] * ruleset.sides
    if winner is None:
        kind = ResultKind.TIED
    else:
        kind = ResultKind.DOMINO if ending is Ending.DOMINO else ResultKind.BLOCKED
        won = ruleset.side_of(winner)
        others = sum(sides) - sides[won]
        if ruleset.scoring is Scoring.GOAT:
            if kind is ResultKind.DOMINO:  # R28a: a lone 0-0 or 6-6 counts specially
                sides = [0] * ruleset.sides
                for seat, hand in enumerate(hands):
                    sides[ruleset.side_of(seat)] += _lone_value(ruleset, hand, hand_values[seat])
            points = [0 if s == won else v for s, v in enumerate(sides)]
        elif ruleset.scoring is Scoring.WINNER_TAKES and kind is ResultKind.BLOCKED:
            points[won] = others - sides[won]
        else:
            points[won] = others
    return RoundResult(
        kind=kind,
        winner_seat=winner,
        hand_values=hand_values,
        points=tuple(points),
        eggs_carried=0,
        scores_after=tuple(s + p for s, p in zip(scores, points, strict=True)),
        dropped=(0,) * ruleset.sides,
        scored=scored,
    )


def _lone_value(ruleset: Ruleset, hand: int, value: int) -> int:
    """R28a, R33: a losing hand after a domino; exactly 0-0 or 6-6 count specially."""
    if hand == _LONE_ZERO_ZERO:
        return ruleset.lone_zero_zero
    if hand == _LONE_SIX_SIX:
        return ruleset.lone_six_six
    return value


def _score_kozel(
    ruleset: Ruleset,
    ending: Ending,
    hands: Sequence[int],
    hand_values: tuple[int, ...],
    winner: int | None,
    scores: Sequence[int],
    eggs: int,
    scored: Scored,
) -> RoundResult:
    sides = side_values(ruleset, hand_values)
    points = [0, 0]
    dropped = [0, 0]
    if ending is Ending.DOMINO:
        assert winner is not None
        kind = ResultKind.DOMINO
        loser = 1 - ruleset.side_of(winner)
        charge = sum(_lone_value(ruleset, hands[s], hand_values[s]) for s in ruleset.seating[loser])
    else:
        kind = ResultKind.FISH
        pips = sum(sides) if ruleset.fish_charge is FishCharge.ALL_HANDS else max(sides)
        if winner is None:
            return RoundResult(
                kind=ResultKind.EGGS,
                winner_seat=None,
                hand_values=hand_values,
                points=(0, 0),
                eggs_carried=eggs + pips,
                scores_after=tuple(scores),
                dropped=(0, 0),
                eggs_laid=pips,
                scored=scored,
            )
        loser = 1 - ruleset.side_of(winner)
        charge = pips
    charge += eggs
    if scores[loser] == 0 and charge < 13:
        dropped[loser] = charge
    else:
        points[loser] = charge
    return RoundResult(
        kind=kind,
        winner_seat=winner,
        hand_values=hand_values,
        points=(points[0], points[1]),
        eggs_carried=0,
        scores_after=(scores[0] + points[0], scores[1] + points[1]),
        eggs_used=eggs,
        dropped=(dropped[0], dropped[1]),
        scored=scored,
    )


_WINNER_RULES = {Scoring.WINNER_TAKES: "R26", Scoring.WINNER_TAKES_ALL: "R27"}


def _side_score(
    ruleset: Ruleset,
    kind: ResultKind,
    side: int,
    won: int | None,
    hands: Sequence[int],
    hand_values: Sequence[int],
    plain: Sequence[int],
    score: int,
    eggs: int,
) -> SideScore:
    """One side's row of the breakdown: what its points rest on, eggs, the 13-rule."""
    charged = won is not None and side != won
    lone = charged and kind is ResultKind.DOMINO
    counts = tuple(
        hand_count(ruleset, s, hands[s], hand_values[s], lone) for s in ruleset.seating[side]
    )
    total = sum(c.counted for c in counts)
    scoring = ruleset.scoring
    if won is None:
        rule = "R35" if kind is ResultKind.EGGS else "R23"
        return SideScore(side, counts, total, Basis.NOTHING, 0, 0, 0, 0, rule)
    if scoring in _WINNER_RULES:
        rule = _WINNER_RULES[scoring]
        if charged:
            return SideScore(side, counts, total, Basis.NOTHING, 0, 0, 0, 0, rule)
        others = sum(plain) - plain[side]
        if scoring is Scoring.WINNER_TAKES and kind is ResultKind.BLOCKED:
            base = others - plain[side]
            return SideScore(side, counts, total, Basis.OPPONENTS_LESS_OWN, base, 0, 0, base, rule)
        return SideScore(side, counts, total, Basis.OPPONENTS, others, 0, 0, others, rule)
    if scoring is Scoring.GOAT:
        if not charged:
            return SideScore(side, counts, total, Basis.NOTHING, 0, 0, 0, 0, "R28")
        rule = "R28a" if any(c.lone for c in counts) else "R28"
        return SideScore(side, counts, total, Basis.OWN, total, 0, 0, total, rule)
    # Kozel (R33–R37a): the winning pair pays nothing; the other pays, eggs included,
    # unless the 13-rule drops it.
    domino = kind is ResultKind.DOMINO
    if not charged:
        return SideScore(side, counts, total, Basis.NOTHING, 0, 0, 0, 0, "R33" if domino else "R34")
    if domino:
        basis, base, rule = Basis.OWN, total, "R33"
    elif ruleset.fish_charge is FishCharge.ALL_HANDS:
        basis, base, rule = Basis.ALL_HANDS, sum(plain), "R34"
    else:
        basis, base, rule = Basis.OWN, plain[side], "R37a"
    charge = base + eggs
    dropped = charge if score == 0 and charge < 13 else 0
    return SideScore(side, counts, total, basis, base, eggs, dropped, charge - dropped, rule)


@dataclass(frozen=True)
class GameResult:
    """R30, R37: winners and losers are sides; ``dry_win`` is Kozel's whitewash."""

    finished: bool
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    scores: tuple[int, ...]
    dry_win: bool = False


def game_result(
    ruleset: Ruleset, scores: Sequence[int], last: RoundResult | None = None
) -> GameResult:
    """R30: decide the game from the scores, or say it goes on.

    R40: in a game of one round, ``last`` (that round's result) decides: the
    side of its winner wins; after a tie (or eggs) nobody does.
    """
    sides = range(ruleset.sides)
    running = GameResult(False, (), (), tuple(scores))
    if ruleset.single_round:
        if last is None:
            return running
        if last.winner_seat is None:
            return GameResult(True, (), (), tuple(scores))
        won = ruleset.side_of(last.winner_seat)
        return GameResult(True, (won,), tuple(s for s in sides if s != won), tuple(scores))
    target = ruleset.target
    assert isinstance(target, int)
    if ruleset.scoring is Scoring.KOZEL:
        goats = tuple(s for s in sides if scores[s] > target)
        if not goats:
            return running
        winners = tuple(s for s in sides if s not in goats)
        dry = bool(winners) and all(scores[s] == 0 for s in winners)
        return GameResult(True, winners, goats, tuple(scores), dry)
    reached = tuple(s for s in sides if scores[s] >= target)
    if not reached:
        return running
    if ruleset.scoring is Scoring.GOAT:
        low = min(scores)
        return GameResult(True, tuple(s for s in sides if scores[s] == low), reached, tuple(scores))
    return GameResult(True, reached, tuple(s for s in sides if s not in reached), tuple(scores))
