"""How a round's points were made up, side by side, as values (R23–R37a).

Scoring states its reasons: for each side, every hand with the value it
counted for (a lone 0-0 counts 25 on its own row, not 0), the partners'
sum, what the side's points rest on, the eggs added, the charge the 13-rule
dropped, and the points written down. The terminal, the record's text and
the browser display these rows; none of them works a rule out again.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from doublesix.tiles import Tile, tiles_of


class Lone(StrEnum):
    """R28a, R33: a losing hand of exactly one double that counts specially; the value is
    the ruleset option that gives its count (R37a)."""

    ZERO_ZERO = "lone_zero_zero"
    SIX_SIX = "lone_six_six"


class Basis(StrEnum):
    """What a side's points rest on."""

    NOTHING = "nothing"
    """The side neither scores nor is charged this round."""
    OPPONENTS = "opponents"
    """R26, R27: the winner scores the other sides' hands."""
    OPPONENTS_LESS_OWN = "opponents_less_own"
    """R26, blocked: the other sides' hands less the winner's own."""
    OWN = "own"
    """R28, R28a, R33, R37a: the side is charged its own hands."""
    ALL_HANDS = "all_hands"
    """R34: the side is charged every hand at the table (a Kozel fish)."""


class HandCount(NamedTuple):
    """One seat's hand at the end of the round and what it counted for.

    (Named tuples, not dataclasses: every round of every game is scored, and these
    are made several times a round.)
    """

    seat: int
    hand: int
    """The tiles left, as a mask (``tiles`` lists them)."""
    value: int
    """Its plain value (R2)."""
    counted: int
    """What it counted for this round's points: ``value`` unless ``lone`` applies."""
    lone: Lone | None = None

    @property
    def tiles(self) -> list[Tile]:
        return tiles_of(self.hand)


class SideScore(NamedTuple):
    """One side's row: its hands, their sum, and how its points follow."""

    side: int
    hands: tuple[HandCount, ...]
    total: int
    """The partners' counted hands summed (R24)."""
    basis: Basis
    base: int
    """The points the basis gives, before eggs and the 13-rule."""
    eggs: int
    """Eggs of earlier rounds added to the charge (R35)."""
    dropped: int
    """The charge (``base`` + ``eggs``) left unwritten by the 13-rule (R36)."""
    points: int
    """Written down this round: ``base`` + ``eggs`` − ``dropped``."""
    rule: str
    """The rule that gives ``base``: R23, R26–R28a, R33–R35, R37a."""
