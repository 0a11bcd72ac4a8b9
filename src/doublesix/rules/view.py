"""A seat's view: exactly what one seat may know, and nothing else.

Bots decide from it and the server sends nothing that is not built from it.
It holds the seat's own hand, the others' tile counts, the line and its
ends, the boneyard's count, the scores and the public events of the round
(a draw by another seat shows no tile). Other hands become visible only
when the round is over (R25); the rounds before stay in view as the seat
saw them, with the hands shown at their ends. The boneyard's order, the
tiles out of play and the seed never appear.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import NamedTuple

from doublesix.rules.deal import Redeal
from doublesix.rules.game import Game
from doublesix.rules.moves import Draw, Event, Move, Pass, Play, Straighten, Turn
from doublesix.rules.opening import Opening, OpeningReason
from doublesix.rules.round import Round
from doublesix.rules.ruleset import Ruleset
from doublesix.rules.scoring import GameResult, RoundResult
from doublesix.tiles import TILES, Tile, tiles_of


class HiddenDraw(NamedTuple):
    """Another seat drew a tile from the boneyard; which one is not known."""

    seat: int


PublicEvent = Play | Draw | HiddenDraw | Pass | Straighten


@dataclass(frozen=True)
class PlayedRound:
    """A round of this game that is over, as the seat saw it: its public events and the hands
    every seat showed at its end (R25)."""

    events: tuple[PublicEvent, ...]
    hands: tuple[tuple[Tile, ...], ...]
    boneyard_count: int
    """Tiles left in the boneyard at the round's end."""


@dataclass(frozen=True)
class SeatView:
    seat: int
    ruleset: Ruleset
    round_number: int
    """1 for the first round."""
    hand: tuple[Tile, ...]
    hand_counts: tuple[int, ...]
    line: tuple[tuple[int, int], ...]
    """The line from its left end to its right end, each tile as (left pip, right pip)."""
    ends: tuple[int, int] | None
    boneyard_count: int
    turn: int | None
    """The seat to move; None when the round is over."""
    legal_moves: tuple[Move, ...]
    """This seat's legal moves; empty unless it is this seat's turn."""
    may_turn: tuple[bool, ...]
    """R39: for each legal move, whether it may turn left or right (a hand-laid line)."""
    straightenings: tuple[tuple[Tile, Turn], ...]
    """R39: where and which way this seat may straighten the line now (its turn only)."""
    events: tuple[PublicEvent, ...]
    opening: Opening
    """Who opens this round and why (R16–R21). Its tile is shown once it is on the line,
    when it is in this seat's hand, and after the round (R25); otherwise None here, and
    always None for a lead draw (R21), which is in ``lead_draws``."""
    scores: tuple[int, ...]
    eggs: int
    past_results: tuple[RoundResult, ...]
    round_result: RoundResult | None
    revealed_hands: tuple[tuple[Tile, ...], ...] | None
    """Every hand, once the round is over (R25)."""
    game_result: GameResult
    redeals: tuple[Redeal, ...] = ()
    """R13: why deals of this round were thrown in (the thrown-in hands stay hidden)."""
    lead_draws: tuple[tuple[int, Tile], ...] = ()
    """R21: the tiles drawn face up for the first lead, in order, redraws included."""
    past_rounds: tuple[PlayedRound, ...] = ()
    """The game's rounds before this one, oldest first: what the seat saw of how each seat
    plays (``bots.reading`` reads the others' styles from them)."""

    @property
    def opener(self) -> int:
        return self.opening.seat

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat

    @property
    def played(self) -> tuple[Tile, ...]:
        """The tiles on the line, in the order they were played."""
        return tuple(e.tile for e in self.events if isinstance(e, Play))


def _public(event: Event, seat: int) -> PublicEvent:
    if isinstance(event, Draw) and event.seat != seat:
        return HiddenDraw(event.seat)
    return event


def seen_opening(opening: Opening, seat: int | None, over: bool) -> Opening:
    """The opening as ``seat`` may see it while the round is played: the deciding tile
    once laid (R16, R18), or when it is in the seat's own hand (R19, R20). A tile turned
    up for the lead (R21) went back into the set: it is in ``lead_draws``, not here.
    ``seat`` None is a spectator, who holds no hand."""
    if opening.tile is None or opening.forced:
        return opening
    if opening.reason is OpeningReason.LEAD_DRAW:  # it may lie in the boneyard now
        return dataclasses.replace(opening, tile=None)
    if over or opening.seat == seat:
        return opening
    return dataclasses.replace(opening, tile=None)


def seat_view(game: Game, seat: int) -> SeatView:
    """Build ``seat``'s view of ``game``."""
    if not 0 <= seat < game.ruleset.players:
        raise ValueError(f"no seat {seat} at a table of {game.ruleset.players}")
    current = game.rounds[-1]
    rnd = current.play
    over = rnd.ending is not None
    mine = not over and rnd.turn == seat
    legal = tuple(rnd.legal_moves()) if mine else ()
    return SeatView(
        seat=seat,
        ruleset=game.ruleset,
        round_number=len(game.rounds),
        hand=tuple(tiles_of(rnd.hands[seat])),
        hand_counts=tuple(h.bit_count() for h in rnd.hands),
        line=tuple(rnd.laid_line()),
        ends=rnd.ends,
        boneyard_count=rnd.boneyard_count,
        turn=None if over else rnd.turn,
        legal_moves=legal,
        may_turn=tuple(rnd.may_turn(m) for m in legal),
        straightenings=tuple(rnd.straightenings()) if mine else (),
        events=tuple(_public(e, seat) for e in rnd.events),
        opening=seen_opening(current.opening, seat, over),
        scores=tuple(game.scores),
        eggs=game.eggs,
        past_results=tuple(r.result for r in game.rounds[:-1] if r.result is not None),
        round_result=current.result,
        revealed_hands=_shown(rnd) if over else None,
        game_result=game.result,
        redeals=tuple(reason for _, reason in current.redeals),
        lead_draws=tuple((s, TILES[t]) for s, t in game.lead_draws),
        past_rounds=tuple(_played(r.play, seat) for r in game.rounds[:-1]),
    )


def _played(rnd: Round, seat: int) -> PlayedRound:
    return PlayedRound(
        events=tuple(_public(e, seat) for e in rnd.events),
        hands=_shown(rnd),
        boneyard_count=rnd.boneyard_count,
    )


def _shown(rnd: Round) -> tuple[tuple[Tile, ...], ...]:
    """Every hand of ``rnd`` as shown at its end (R25)."""
    return tuple(tuple(tiles_of(h)) for h in rnd.hands)
