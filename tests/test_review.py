"""The post-game review and the hint say one thing, in one unit (issue 14).

Every figure is the expected points of the round for the reviewed seat's
side: the best move has the most of them, the loss of a played move is the
best move's expected points minus its own, and the review's best move is
the hint's first one.
"""

from __future__ import annotations

import pytest

from doublesix import Game, preset
from doublesix.bots import hint, make_bot
from doublesix.bots.hint import Hint
from doublesix.review import review
from doublesix.rules.view import SeatView, seat_view


def played_game(name: str, seed: int) -> Game:
    """A game of one round between greedy bots (the review replays it again)."""
    game = Game(preset(name, 4), seed=seed)
    bots = [make_bot("greedy", seed + s) for s in range(4)]
    while game.round.ending is None:
        seat = game.turn
        assert seat is not None
        game.play(bots[seat].choose(seat_view(game, seat)), seat)
    return game


@pytest.mark.parametrize("name", ["kozel", "block"])
def test_review_losses_are_expected_points_against_the_best_move(name: str) -> None:
    game = played_game(name, 5)
    rows = review(game, 0, ms=3)
    assert any(r.choices > 1 for r in rows)
    for r in rows:
        assert r.loss == pytest.approx(r.best_points - r.points) and r.loss >= 0
        assert (r.loss == 0) == (r.best == r.played)
        as_json = r.as_dict()
        assert as_json["points"] == round(r.points, 2)
        assert as_json["best_points"] == round(r.best_points, 2)


def test_the_hints_best_move_has_the_most_expected_points() -> None:
    game = Game(preset("kozel"), seed=8)
    view = seat_view(game, game.round.turn)
    moves = hint(view, ms=5)
    assert len(moves) > 1
    assert moves[0].expected_points == max(h.expected_points for h in moves)


@pytest.mark.parametrize(("behind", "differs"), [(0.004, False), (0.02, True)])
def test_a_loss_below_what_a_review_shows_agrees(
    monkeypatch: pytest.MonkeyPatch, behind: float, differs: bool
) -> None:
    """A review shows a loss to the hundredth: one that rounds to nothing is no mistake, so
    the summary's count of moves that differ is the count of rows that show a loss."""

    def ranked(view: SeatView, *, ms: float | None = None, seed: int = 0) -> list[Hint]:
        """The first legal move ``behind`` expected points ahead of every other."""
        return [
            Hint(m, 0.5, 1.0 if i else 1.0 + behind, 0.0) for i, m in enumerate(view.legal_moves)
        ]

    monkeypatch.setattr("doublesix.review.hint", ranked)
    rows = [r for r in review(played_game("kozel", 5), 0, ms=3) if r.choices > 1]
    assert any(r.best != r.played for r in rows) == differs
    for r in rows:
        if r.best != r.played:
            assert r.loss == pytest.approx(behind) and r.as_dict()["loss"] == 0.02
        else:
            assert r.loss == 0 and r.as_dict()["loss"] == 0
