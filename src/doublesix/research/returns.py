"""Zero-sum returns in the preset's points, for OpenSpiel and PettingZoo.

A seat gets its side's points minus the mean of the other sides' points
(two sides: ``+p`` and ``−p``); where points are penalties (Kozel, goat)
the signs turn, so the pair charged gets ``−charge`` and the other
``+charge``. A whole game counts the scores so far; a single round its
points (Kozel: its charge, written or dropped under R36's 13-rule).
"""

from __future__ import annotations

from doublesix.research.chance import ChanceGame
from doublesix.rules.game import Game


def returns(table: ChanceGame) -> list[float]:
    """The zero-sum returns of every seat (see the module's text)."""
    ruleset = table.ruleset
    game = table.game
    if game is None:
        return [0.0] * ruleset.players
    points = _points(game, table.whole)
    sides = ruleset.sides
    sign = -1.0 if ruleset.scoring.penalties else 1.0
    total = sum(points)
    side_returns = [sign * (p - (total - p) / (sides - 1)) for p in points]
    return [side_returns[ruleset.side_of(s)] for s in range(ruleset.players)]


def _points(game: Game, whole: bool) -> list[float]:
    if whole:
        return [float(s) for s in game.scores]
    result = game.rounds[0].result
    if result is None:
        return [0.0] * game.ruleset.sides
    return [float(p + d) for p, d in zip(result.points, result.dropped, strict=True)]
