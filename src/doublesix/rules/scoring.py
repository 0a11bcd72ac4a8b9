"""Scoring of a finished round (R23–R29, R33–R37a) and the end of a game (R30, R37, R40).

Pure functions of the hands left, how the round ended and the scores so
far: the game feeds them, the record replay checks against them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from doublesix.rules.round import Ending
from doublesix.rules.ruleset import FishCharge, Ruleset, Scoring
from doublesix.tiles import tile, value_of

_LONE_ZERO_ZERO = tile(0, 0).bit
_LONE_SIX_SIX = tile(6, 6).bit


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

    @property
    def tied(self) -> bool:
        return self.winner_seat is None


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


def lone_hand_value(ruleset: Ruleset, hand: int) -> int:
    """R28a, R33: what a losing hand counts after a domino under goat or kozel scoring.

    A hand of exactly 0-0 counts ``lone_zero_zero``, one of exactly 6-6
    ``lone_six_six`` (R37a); any other hand its plain value (R2).
    """
    if hand == _LONE_ZERO_ZERO:
        return ruleset.lone_zero_zero
    if hand == _LONE_SIX_SIX:
        return ruleset.lone_six_six
    return value_of(hand)


def score_round(
    ruleset: Ruleset,
    ending: Ending,
    hands: Sequence[int],
    last_seat: int,
    scores: Sequence[int],
    eggs: int,
) -> RoundResult:
    """Score a round that ended by ``ending``, given the hands left and the scores before it."""
    hand_values = tuple(value_of(h) for h in hands)
    sides = side_values(ruleset, hand_values)
    if ending is Ending.DOMINO:
        winner: int | None = last_seat
    else:
        winner = blocked_winner(ruleset, hand_values, last_seat)
    if ruleset.scoring is Scoring.KOZEL:
        return _score_kozel(ruleset, ending, hands, hand_values, winner, scores, eggs)
    points = [0] * ruleset.sides
    if winner is None:
        kind = ResultKind.TIED
    else:
        kind = ResultKind.DOMINO if ending is Ending.DOMINO else ResultKind.BLOCKED
        won = ruleset.side_of(winner)
        others = sum(sides) - sides[won]
        if ruleset.scoring is Scoring.GOAT:
            if kind is ResultKind.DOMINO:  # R28a
                sides = [0] * ruleset.sides
                for seat, hand in enumerate(hands):
                    sides[ruleset.side_of(seat)] += lone_hand_value(ruleset, hand)
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
    )


def _score_kozel(
    ruleset: Ruleset,
    ending: Ending,
    hands: Sequence[int],
    hand_values: tuple[int, ...],
    winner: int | None,
    scores: Sequence[int],
    eggs: int,
) -> RoundResult:
    sides = side_values(ruleset, hand_values)
    points = [0, 0]
    dropped = [0, 0]
    if ending is Ending.DOMINO:
        assert winner is not None
        kind = ResultKind.DOMINO
        loser = 1 - ruleset.side_of(winner)
        charge = sum(lone_hand_value(ruleset, hands[s]) for s in ruleset.seats_of(loser))
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
    )


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
