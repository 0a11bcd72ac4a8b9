"""Deals (R12–R15): where the 28 tiles are when a round starts, and who deals them.

A game takes its tiles from a dealer: ``SeededDealer`` shuffles with a
seed (R15), ``RecordedDealer`` hands out the deals of a record in order, so
a replay goes through exactly the same code as a live game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from doublesix.rules.ruleset import Ruleset
from doublesix.tiles import ALL, DOUBLES, PIPS, SUIT, TILES


class DealError(ValueError):
    """A deal or lead draw that the rules do not allow; ``rule`` names the rule."""

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule


@dataclass(frozen=True)
class Deal:
    """Each seat's hand (a mask), the boneyard in draw order, the tiles out of play."""

    hands: tuple[int, ...]
    boneyard: tuple[int, ...]
    out: int

    def check(self, ruleset: Ruleset) -> None:
        """R1, R12, R14: the deal is the whole set, shared out as the ruleset says."""
        if len(self.hands) != ruleset.players:
            raise DealError(f"{len(self.hands)} hands for {ruleset.players} players", "R12")
        seen = 0
        pieces = [*self.hands, *(1 << t for t in self.boneyard), self.out]
        total = sum(h.bit_count() for h in pieces)
        for piece in pieces:
            seen |= piece
        if total != len(TILES) or seen != ALL:
            raise DealError("the deal is not the 28-tile set, each tile once", "R1")
        for seat, hand in enumerate(self.hands):
            if hand.bit_count() != ruleset.hand_size:
                raise DealError(
                    f"seat {seat} holds {hand.bit_count()} tiles, not {ruleset.hand_size}", "R12"
                )
        if self.boneyard and not ruleset.boneyard:
            raise DealError("this game has no boneyard; the rest is out of play", "R12")
        if self.out and ruleset.boneyard:
            raise DealError("in a draw game the rest is the boneyard, not out of play", "R12")

    def redeal_reason(self) -> Redeal | None:
        """R13: why Kozel throws this deal in, or None."""
        return redeal_reason(self.hands)


class RedealKind(StrEnum):
    """R13: what a thrown-in hand held too much of."""

    DOUBLES = "doubles"
    """5 doubles or more."""
    NUMBER = "number"
    """6 tiles or more that show the same number."""


@dataclass(frozen=True)
class Redeal:
    """R13: why a deal was thrown in — ``seat`` held ``count`` doubles, or ``count`` tiles
    showing ``number``."""

    seat: int
    kind: RedealKind
    count: int
    number: int | None = None
    """The number shown (``kind`` NUMBER); None for doubles."""

    def __str__(self) -> str:
        """The sentence records have carried since their first version (``redeals[].reason``)."""
        if self.kind is RedealKind.DOUBLES:
            return f"seat {self.seat} holds {self.count} doubles"
        return f"seat {self.seat} holds {self.count} tiles showing {self.number}"


def redeal_reason(hands: Sequence[int]) -> Redeal | None:
    """R13: a hand with 5 or more doubles, or 6 or more tiles showing one number; else None."""
    for seat, hand in enumerate(hands):
        doubles = (hand & DOUBLES).bit_count()
        if doubles >= 5:
            return Redeal(seat, RedealKind.DOUBLES, doubles)
        for pip in PIPS:
            count = (hand & SUIT[pip]).bit_count()
            if count >= 6:
                return Redeal(seat, RedealKind.NUMBER, count, pip)
    return None


class Dealer(Protocol):
    def deal(self) -> Deal:
        """The next deal (redeals included)."""
        ...

    def lead_draw(self, seat: int, taken: int) -> int:
        """R21: the tile ``seat`` draws to decide the first opener; ``taken`` are gone."""
        ...


def deal_from(ruleset: Ruleset, order: Sequence[int]) -> Deal:
    """Share a shuffled order out: hands seat by seat, then the boneyard or out of play."""
    size = ruleset.hand_size
    hands = tuple(
        sum(1 << t for t in order[s * size : (s + 1) * size]) for s in range(ruleset.players)
    )
    rest = order[ruleset.dealt :]
    if ruleset.boneyard:
        return Deal(hands, tuple(rest), 0)
    return Deal(hands, (), sum(1 << t for t in rest))


class SeededDealer:
    """R15: every shuffle of a game comes from its seed."""

    def __init__(self, ruleset: Ruleset, seed: int) -> None:
        self.ruleset = ruleset
        self.rng = random.Random(seed)
        self._lead_pile: list[int] = []

    def deal(self) -> Deal:
        order = list(range(len(TILES)))
        self.rng.shuffle(order)
        return deal_from(self.ruleset, order)

    def lead_draw(self, seat: int, taken: int) -> int:
        if not self._lead_pile:
            left = [t for t in range(len(TILES)) if not taken >> t & 1]
            self._lead_pile = left or list(range(len(TILES)))
            self.rng.shuffle(self._lead_pile)
        return self._lead_pile.pop()


class RecordedDealer:
    """Hands out the deals and lead draws of a record, in order."""

    def __init__(self, deals: Sequence[Deal], lead_draws: Sequence[tuple[int, int]] = ()) -> None:
        self._deals: Iterator[Deal] = iter(deals)
        self._lead: Iterator[tuple[int, int]] = iter(lead_draws)

    def deal(self) -> Deal:
        try:
            return next(self._deals)
        except StopIteration:
            raise DealError("the record has no further deal", "R32") from None

    def lead_draw(self, seat: int, taken: int) -> int:
        try:
            drawn_by, t = next(self._lead)
        except StopIteration:
            raise DealError(f"the lead draws end before seat {seat} draws", "R21") from None
        if drawn_by != seat:
            raise DealError(f"seat {drawn_by} draws for the lead where seat {seat} must", "R21")
        if taken >> t & 1:
            raise DealError(f"{TILES[t]} is drawn twice for the lead", "R21")
        return t
