"""``omniscient``: sees every hand and the boneyard's order — a ceiling, for measurement only.

It is registered with ``table=False``: ``make_bot`` makes it, but no table
offers it. Before each move the arena shows it the game (``see``); it then
searches the true deal: an exact solve when it is small enough, otherwise
alpha–beta to a depth that fits the budget with playouts below it.
"""

from __future__ import annotations

import random

from doublesix.bots.base import register
from doublesix.bots.core import Scorer
from doublesix.bots.pimc import root_moves, to_move
from doublesix.bots.search import Exhausted, Solver
from doublesix.rules.game import Game
from doublesix.rules.moves import Move
from doublesix.rules.ruleset import DrawRule
from doublesix.rules.view import SeatView

NODES_PER_MS = 550
BUDGET_MS = 300.0
"""Its budget per move (ms of one core) unless one is given."""


class OmniscientBot:
    """Plays the true deal with a depth-limited search (iterative deepening)."""

    name = "omniscient"
    omniscient = True

    def __init__(
        self, rng: random.Random, ms_per_move: float = BUDGET_MS, bonus: float = 30.0
    ) -> None:
        self.rng = rng
        self.ms_per_move = ms_per_move
        self.bonus = bonus
        self.game: Game | None = None

    def see(self, game: Game) -> None:
        """Show it the whole game (every hand, the boneyard): it is not an honest seat."""
        self.game = game

    def choose(self, view: SeatView) -> Move:
        if self.game is None:
            raise RuntimeError("the omniscient bot must be shown the game (see) before it moves")
        moves = root_moves(view)
        if len(moves) == 1:
            return to_move(view, *moves[0])
        rnd = self.game.round
        rules = view.ruleset
        n = rules.players
        side = rules.side_of(view.seat)
        scorer = Scorer(rules, side, view.scores, view.eggs, self.bonus)
        side_of = [rules.side_of(s) for s in range(n)]
        draw_one = rules.draw_rule is DrawRule.DRAW_ONE
        bone = rnd.boneyard
        budget = max(1000, int(self.ms_per_move * NODES_PER_MS))
        left = rnd.left
        right = rnd.right
        best_move = moves[0]
        spent = 0
        for depth in range(1, 40):
            values = []
            solver = Solver(scorer, side_of, bone, rnd.stop, draw_one, n, budget - spent)
            try:
                for t, end in moves:
                    v = solver.value_after(
                        list(rnd.hands),
                        left,
                        right,
                        view.seat,
                        t,
                        end,
                        rnd.drawn,
                        -1e9,
                        1e9,
                        depth,
                    )
                    values.append(v)
            except Exhausted:
                break
            spent += solver.nodes
            best = max(range(len(moves)), key=lambda i: (values[i], -i))
            best_move = moves[best]
            if depth > sum(h.bit_count() for h in rnd.hands) + rnd.stop - rnd.drawn:
                break  # the whole round is searched: exact
        return to_move(view, *best_move)


@register("omniscient", table=False, ms=BUDGET_MS)
def _make(rng: random.Random) -> OmniscientBot:
    return OmniscientBot(rng)
