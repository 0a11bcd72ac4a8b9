"""A lean copy of the round's rules for search: plain ints and lists, no events.

``Round`` is the reference; this core plays the same rules (R5, R9–R11,
R22, R23) on a deal a bot has imagined, without recording events, so that
playouts and exact solves run as fast as pure Python allows. A test plays
thousands of random rounds through both and checks they agree.

A search state is ``(hands, left, right, turn, bone, drawn, stop)``: the
hands as masks (a list, mutated in place), the ends, the seat to move (who
can play), the boneyard in draw order with ``drawn`` of it gone and drawing
stopping at ``stop``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from doublesix.bots.tables import OTHER, SUIT, VALUE
from doublesix.rules.ruleset import FishCharge, Ruleset, Scoring
from doublesix.tiles import TILES, bits

_ZERO_ZERO: Final = TILES[0].bit
_SIX_SIX: Final = TILES[27].bit

BLOCKED: Final = -1
"""``advance`` returns it when the round is blocked (R23)."""


def advance(
    hands: list[int],
    suits: int,
    seat: int,
    bone: Sequence[int],
    drawn: int,
    stop: int,
    draw_one: bool,
    n: int,
) -> tuple[int, int]:
    """The seat that moves next from ``seat`` on, drawing for those who cannot play.

    Returns ``(seat, drawn)``, or ``(BLOCKED, drawn)`` when nobody can play
    and nothing can be drawn — exactly ``Round._advance``.
    """
    while True:
        if hands[seat] & suits:
            return seat, drawn
        if drawn < stop:
            t = bone[drawn]
            drawn += 1
            hands[seat] |= 1 << t
            if suits >> t & 1:
                return seat, drawn
            if not draw_one:
                continue
        if drawn >= stop:
            for h in hands:
                if h & suits:
                    break
            else:
                return BLOCKED, drawn
        seat = (seat + 1) % n


def play(
    hands: list[int],
    left: int,
    right: int,
    t: int,
    end: int,
) -> tuple[int, int]:
    """The ends after tile ``t`` is played at ``end`` (0 left, 1 right); hands are not touched."""
    if left < 0:
        return TILES[t].low, TILES[t].high
    if end == 0:
        return OTHER[t][left], right
    return left, OTHER[t][right]


def moves_of(playable: int, left: int, right: int) -> list[tuple[int, int]]:
    """Every (tile, end) pair for a playable mask; one entry per end a tile fits."""
    if left < 0:
        return [(t, 2) for t in bits(playable)]
    out = []
    sl, sr = SUIT[left], SUIT[right]
    for t in bits(playable):
        if sl >> t & 1:
            out.append((t, 0))
        if sr >> t & 1 and (left != right or not sl >> t & 1):
            out.append((t, 1))
    return out


class Scorer:
    """Turns the end of an imagined round into a value for one side.

    The value is the round's points as the side gains them (penalties count
    negative), with a bonus when those points decide the game (R30, R37):
    the target in sight changes what is worth risking.
    """

    __slots__ = (
        "bonus",
        "eggs",
        "fish_all",
        "goat",
        "kozel",
        "lone00",
        "lone66",
        "n",
        "penalties",
        "scores",
        "side",
        "side_of",
        "sides",
        "target",
        "winner_takes",
    )

    def __init__(
        self, ruleset: Ruleset, side: int, scores: Sequence[int], eggs: int, bonus: float = 0.0
    ) -> None:
        self.n = ruleset.players
        self.sides = ruleset.sides
        self.side_of = tuple(ruleset.side_of(s) for s in range(self.n))
        self.side = side
        kind = ruleset.scoring
        self.kozel = kind is Scoring.KOZEL
        self.goat = kind is Scoring.GOAT
        self.winner_takes = kind is Scoring.WINNER_TAKES
        self.penalties = kind.penalties
        """The scoring kind as flags: an enum member read on every ending is slow, compiled too."""
        self.target = ruleset.target if isinstance(ruleset.target, int) else 0
        self.scores = tuple(scores)
        self.eggs = eggs
        self.fish_all = ruleset.fish_charge is FishCharge.ALL_HANDS
        self.lone00 = ruleset.lone_zero_zero
        self.lone66 = ruleset.lone_six_six
        self.bonus = 0.0 if ruleset.single_round else bonus
        """No bonus in a game of one round (R40): its points alone are worth playing for."""

    def points(self, domino: bool, hands: Sequence[int], last: int) -> list[int]:
        """Points per side for this ending (penalties for goat and kozel), as the rules score."""
        return self._points(domino, hands, last, self._side_values(hands))

    def _side_values(self, hands: Sequence[int]) -> list[int]:
        side_of = self.side_of
        values = [0] * self.sides
        for seat, h in enumerate(hands):
            values[side_of[seat]] += _value(h)
        return values

    def _points(
        self, domino: bool, hands: Sequence[int], last: int, values: list[int]
    ) -> list[int]:
        side_of = self.side_of
        points = [0] * self.sides
        if domino:
            won = side_of[last]
        else:
            low = min(values)
            if values.count(low) > 1:
                return points  # tied / eggs: nobody scores now
            won = values.index(low)
        if self.kozel:
            loser = 1 - won
            if domino:
                charge = 0
                for seat, h in enumerate(hands):
                    if side_of[seat] == loser:
                        charge += self._counted(h)
            else:
                charge = sum(values) if self.fish_all else max(values)
            charge += self.eggs
            if self.scores[loser] == 0 and charge < 13:
                return points
            points[loser] = charge
            return points
        others = sum(values) - values[won]
        if self.goat:
            if domino:  # R28a: a lone 0-0 or 6-6 counts specially
                values = [0] * self.sides
                for seat, h in enumerate(hands):
                    values[side_of[seat]] += self._counted(h)
            return [0 if s == won else v for s, v in enumerate(values)]
        if self.winner_takes and not domino:
            points[won] = others - values[won]
        else:
            points[won] = others
        return points

    def _counted(self, hand: int) -> int:
        """R28a, R33: a losing hand's count after a domino."""
        if hand == _ZERO_ZERO:
            return self.lone00
        if hand == _SIX_SIX:
            return self.lone66
        return _value(hand)

    def value(self, domino: bool, hands: Sequence[int], last: int) -> float:
        """The side's gain: its points minus the best other side's (sign flipped for penalties)."""
        return self._gain(self.points(domino, hands, last), self.bonus)

    def outcome(self, domino: bool, hands: Sequence[int], last: int) -> tuple[float, float, bool]:
        """``value``, the value without the bonus, and ``won``, from one scoring of the ending."""
        values = self._side_values(hands)
        pts = self._points(domino, hands, last, values)
        if domino:
            won = self.side_of[last] == self.side
        else:
            low = min(values)
            won = values[self.side] == low and values.count(low) == 1
        return self._gain(pts, self.bonus), self._gain(pts, 0.0), won

    def _gain(self, pts: list[int], bonus: float) -> float:
        me = self.side
        mine = pts[me]
        other = max(p for s, p in enumerate(pts) if s != me)
        if self.penalties:
            v = float(other - mine) if self.sides == 2 else float(-mine)
            if bonus:
                if self.scores[me] + mine > self.target and mine:
                    v -= bonus
                elif self.sides == 2 and other and self.scores[1 - me] + other > self.target:
                    v += bonus
            return v
        v = float(mine - other)
        if bonus:
            if mine and self.scores[me] + mine >= self.target:
                v += bonus
            elif other and max(self.scores[s] + pts[s] for s in range(self.sides) if s != me) >= (
                self.target
            ):
                v -= bonus
        return v


_PIPS = [
    [sum(VALUE[7 * k + i] for i in range(7) if m >> i & 1) for m in range(128)] for k in range(4)
]
_P0: Final = _PIPS[0]
_P1: Final = _PIPS[1]
_P2: Final = _PIPS[2]
_P3: Final = _PIPS[3]


def _value(mask: int) -> int:
    """The pips of the tiles in ``mask``: four table look-ups, seven tiles at a time."""
    return _P0[mask & 127] + _P1[mask >> 7 & 127] + _P2[mask >> 14 & 127] + _P3[mask >> 21]
