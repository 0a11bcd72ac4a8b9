"""doublesix: double-six dominoes — Draw, Block and Kozel.

The public API::

    from doublesix import Game, preset, seat_view

    game = Game(preset("kozel"), seed=7)
    while not game.finished:
        if game.turn is None:
            game.next_round()
            continue
        view = seat_view(game, game.turn)
        game.play(view.legal_moves[0])
"""

from doublesix.rules.deal import Deal, DealError
from doublesix.rules.game import Game, GameRound
from doublesix.rules.moves import (
    Draw,
    End,
    Event,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Pass,
    Play,
    Straighten,
    Turn,
)
from doublesix.rules.round import Ending, Round
from doublesix.rules.ruleset import (
    PRESETS,
    ROUND,
    DrawRule,
    FishCharge,
    Line,
    Opener,
    Ruleset,
    RulesetError,
    Scoring,
    preset,
)
from doublesix.rules.scoring import GameResult, ResultKind, RoundResult
from doublesix.rules.view import HiddenDraw, SeatView, seat_view
from doublesix.tiles import TILES, InvalidTileError, Tile, tile

__all__ = [
    "PRESETS",
    "ROUND",
    "TILES",
    "Deal",
    "DealError",
    "Draw",
    "DrawRule",
    "End",
    "Ending",
    "Event",
    "FishCharge",
    "Game",
    "GameResult",
    "GameRound",
    "HiddenDraw",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidTileError",
    "Line",
    "Move",
    "Opener",
    "Pass",
    "Play",
    "ResultKind",
    "Round",
    "RoundResult",
    "Ruleset",
    "RulesetError",
    "Scoring",
    "SeatView",
    "Straighten",
    "Tile",
    "Turn",
    "preset",
    "seat_view",
    "tile",
]
