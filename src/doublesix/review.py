"""Post-game review: each move one seat chose, beside the expert's choice and its cost.

The review replays a finished game and, at every decision of the seat
(two legal moves or more), asks ``hint`` — the expert's search from that
seat's view only, so the review knows no more than the player did — to
rank the moves. Every figure is in one unit, the hint's: the expected
points of the round for the seat's side (gained minus conceded; penalties
count negative). The best move is the one with the most expected points,
and the loss of a move is what the best move would have added to them; 0
where they agree. ``doublesix review`` prints
it; the game page of the web table shows it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from doublesix.bots.hint import hint
from doublesix.rules.deal import RecordedDealer
from doublesix.rules.game import Game
from doublesix.rules.moves import Move, Play, Straighten
from doublesix.rules.view import seat_view

LOSS_DIGITS = 2
"""Places a loss is kept to, as a review shows and records it."""


@dataclass(frozen=True)
class Reviewed:
    """One move of the reviewed seat (``event`` counts the round's events from 0)."""

    round: int
    event: int
    seat: int
    played: Move
    best: Move
    loss: float
    """Expected points lost against the best move (0 when they agree to ``LOSS_DIGITS``
    places, or the move was forced)."""
    choices: int
    win_chance: float
    best_win_chance: float
    points: float
    """Expected points of the round for the seat's side after the played move."""
    best_points: float
    """The same after the best move (``points + loss``)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "event": self.event,
            "seat": self.seat,
            "played": _move_json(self.played),
            "best": _move_json(self.best),
            "loss": round(self.loss, LOSS_DIGITS),
            "choices": self.choices,
            "win_chance": round(self.win_chance, 3),
            "best_win_chance": round(self.best_win_chance, 3),
            "points": round(self.points, 2),
            "best_points": round(self.best_points, 2),
        }


def _move_json(move: Move) -> dict[str, Any]:
    return {"tile": str(move.tile), "end": None if move.end is None else move.end.value}


def review(game: Game, seat: int, ms: float = 300.0, seed: int = 0) -> list[Reviewed]:
    """Walk the (replayed) ``game`` again and review every move ``seat`` chose."""
    deals = [d for r in game.rounds for d in (*(deal for deal, _ in r.redeals), r.deal)]
    again = Game(game.ruleset, dealer=RecordedDealer(deals, game.lead_draws))
    out: list[Reviewed] = []
    for number, played_round in enumerate(game.rounds, 1):
        if number > 1:
            again.next_round()
        rnd = again.round
        for index, event in enumerate(played_round.play.events):
            if index < len(rnd.events):
                continue  # forced: the engine made it itself
            if isinstance(event, Straighten):
                rnd.straighten(event.at, event.turn)
                continue
            assert isinstance(event, Play)
            move = Move(event.tile, event.end)
            if event.seat == seat:
                out.append(_reviewed(again, seat, move, number, index, ms, seed + index))
            again.play(move, turn=event.turn)
    return out


def _reviewed(
    game: Game, seat: int, move: Move, number: int, index: int, ms: float, seed: int
) -> Reviewed:
    view = seat_view(game, seat)
    choices = len(view.legal_moves)
    ranked = hint(view, ms=ms, seed=seed) if choices > 1 else []
    if not ranked:
        return Reviewed(number, index, seat, move, move, 0.0, choices, 0.0, 0.0, 0.0, 0.0)
    best = ranked[0]
    mine = next(h for h in ranked if h.move == move)
    loss = max(0.0, best.expected_points - mine.expected_points)
    if round(loss, LOSS_DIGITS) == 0:
        # as good as the best, to the places a review shows: it agrees, so that the moves
        # counted as differing are the rows that show a loss
        loss, best = 0.0, mine
    return Reviewed(
        number,
        index,
        seat,
        move,
        best.move,
        loss,
        choices,
        mine.win_chance,
        best.win_chance,
        mine.expected_points,
        best.expected_points,
    )
