"""A game: rounds until the target decides it (R16–R21 openers, R30 and R40 target, R32)."""

from __future__ import annotations

from dataclasses import dataclass, field

from doublesix.rules.deal import Deal, Dealer, Redeal, SeededDealer
from doublesix.rules.moves import Event, IllegalMoveError, Move, Straighten, Turn
from doublesix.rules.opening import Opening, OpeningReason, opening_by_tiles
from doublesix.rules.round import Round
from doublesix.rules.ruleset import Opener, Ruleset
from doublesix.rules.scoring import GameResult, RoundResult, game_result, score_round
from doublesix.tiles import TILES, VALUE, Tile


@dataclass
class GameRound:
    """One round of a game: its deal, the deals thrown in before it, its play and result."""

    deal: Deal
    opening: Opening
    play: Round
    redeals: list[tuple[Deal, Redeal]] = field(default_factory=list)
    result: RoundResult | None = None

    @property
    def opener(self) -> int:
        return self.opening.seat


class Game:
    """Rounds of one ruleset, dealt by a seed or by a dealer, until the target decides.

    After a round ends, the game waits for :meth:`next_round` (R25: every
    player has seen the hands), unless the game is over.
    """

    def __init__(
        self, ruleset: Ruleset, seed: int | None = None, *, dealer: Dealer | None = None
    ) -> None:
        if (seed is None) == (dealer is None):
            raise ValueError("give either a seed or a dealer")
        self.ruleset = ruleset
        self.seed = seed
        self.dealer: Dealer = dealer if dealer is not None else SeededDealer(ruleset, seed or 0)
        self.scores: list[int] = [0] * ruleset.sides
        self.eggs = 0
        self.rounds: list[GameRound] = []
        self.lead_draws: list[tuple[int, int]] = []
        self.result = GameResult(False, (), (), tuple(self.scores))
        self._start_round()

    @property
    def round(self) -> Round:
        return self.rounds[-1].play

    @property
    def finished(self) -> bool:
        return self.result.finished

    @property
    def turn(self) -> int | None:
        """The seat to move, or None between rounds and after the game."""
        rnd = self.round
        return None if rnd.ending is not None else rnd.turn

    def legal_moves(self) -> list[Move]:
        return self.round.legal_moves()

    def play(self, move: Move, seat: int | None = None, turn: Turn | None = None) -> list[Event]:
        """Play ``move`` (for ``seat``, checked when given); returns the play and forced events.

        ``turn`` (R39, a hand-laid line): the tile turns left or right; None: straight on.
        """
        if self.finished:
            raise IllegalMoveError("the game is over", "R30")
        rnd = self.round
        if seat is not None and rnd.ending is None and seat != rnd.turn:
            raise IllegalMoveError(f"it is seat {rnd.turn}'s turn, not seat {seat}'s", "R6")
        events = rnd.play(move, turn)
        if rnd.ending is not None:
            self._score()
        return events

    def straighten(self, seat: int, at: Tile, turn: Turn) -> Straighten:
        """R39: ``seat``, in its turn, rotates the tail of the line beyond ``at``; not a move."""
        if self.finished:
            raise IllegalMoveError("the game is over", "R30")
        rnd = self.round
        if rnd.ending is None and seat != rnd.turn:
            raise IllegalMoveError(f"it is seat {rnd.turn}'s turn, not seat {seat}'s", "R39")
        return rnd.straighten(at, turn)

    def next_round(self) -> None:
        """R25: deal the next round once the last one has been seen."""
        if self.finished:
            raise IllegalMoveError("the game is over", "R30")
        if self.round.ending is None:
            raise IllegalMoveError("the round is still being played", "R25")
        self._start_round()

    # --- dealing and opening ------------------------------------------------

    def _start_round(self) -> None:
        redeals: list[tuple[Deal, Redeal]] = []
        while True:
            deal = self.dealer.deal()
            deal.check(self.ruleset)
            reason = deal.redeal_reason() if self.ruleset.redeal else None
            if reason is None:
                break
            redeals.append((deal, reason))
        opening = self._opening(deal)
        first = opening.tile.index if opening.forced and opening.tile is not None else None
        rnd = Round(self.ruleset, deal.hands, deal.boneyard, deal.out, opening.seat, first)
        self.rounds.append(GameRound(deal, opening, rnd, redeals))
        if rnd.ending is not None:
            self._score()

    def _opening(self, deal: Deal) -> Opening:
        """R16–R21: who opens this round and why, and whether the tile is laid for them."""
        previous = self.rounds[-1] if self.rounds else None
        after_tie = previous is None or previous.result is None or previous.result.tied
        opener = self.ruleset.opener
        if opener is Opener.KOZEL and previous is not None:
            seat = previous.play.last_seat
            return Opening(seat, OpeningReason.LAST_PLACER, "R18", None, False)
        if opener in (Opener.HIGHEST_DOUBLE, Opener.HIGHEST_TILE) and not after_tie:
            rule = "R17" if opener is Opener.HIGHEST_DOUBLE else "R20"
            winner = self._previous_winner()
            return Opening(winner, OpeningReason.PREVIOUS_WINNER, rule, None, False)
        if opener is Opener.DRAW_FOR_LEAD:
            if previous is None:
                seat = self._draw_for_lead()
                drawn = TILES[next(t for s, t in reversed(self.lead_draws) if s == seat)]
                return Opening(seat, OpeningReason.LEAD_DRAW, "R21", drawn, False)
            seat = (previous.opener + 1) % self.ruleset.players
            return Opening(seat, OpeningReason.LEAD_PASSES, "R21", None, False)
        return opening_by_tiles(opener, deal.hands)

    def _previous_winner(self) -> int:
        result = self.rounds[-1].result
        assert result is not None and result.winner_seat is not None
        return result.winner_seat

    def _draw_for_lead(self) -> int:
        """R21: every player draws a tile face up; the highest opens, the tied draw again."""
        contenders = list(range(self.ruleset.players))
        taken = 0
        while True:
            drawn = []
            for seat in contenders:
                t = self.dealer.lead_draw(seat, taken)
                taken |= 1 << t
                self.lead_draws.append((seat, t))
                drawn.append((seat, VALUE[t]))
            best = max(v for _, v in drawn)
            contenders = [s for s, v in drawn if v == best]
            if len(contenders) == 1:
                return contenders[0]

    # --- scoring -------------------------------------------------------------

    def _score(self) -> None:
        current = self.rounds[-1]
        rnd = current.play
        assert rnd.ending is not None
        result = score_round(
            self.ruleset, rnd.ending, rnd.hands, rnd.last_seat, self.scores, self.eggs
        )
        current.result = result
        self.scores = list(result.scores_after)
        self.eggs = result.eggs_carried
        self.result = game_result(self.ruleset, self.scores, result)
