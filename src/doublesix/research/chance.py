"""A doublesix game whose randomness comes in as explicit chance outcomes, one tile at a time.

OpenSpiel (and any tree search) wants every random event as a chance node
with its outcomes: here the deal is dealt one tile at a time (tile ``k`` of
a deal goes to seat ``k // hand_size``, as ``deal_from`` shares out an
order), R21's lead draws are one tile each, and every draw from the
boneyard is one chance node over the tiles not drawn yet — its order is
decided only when a tile is drawn.

The rules stay the engine's: a ``ChanceGame`` holds a ``Game`` and feeds it
the outcomes through a dealer. When the engine needs an outcome that has
not come yet (a deal, a lead draw, a boneyard tile), the step is taken back
and the game waits at a chance node; once the outcome is given, the same
step is taken again. Whether a deal is thrown in (R13), who opens (R16–R21),
what is drawn and passed, scoring and the end of the game: all decided by
``Game`` and ``Round``.

Actions of the players are integers: ``3 * tile index + end code`` (left 0,
right 1, the round's first tile 2), so 84 in all. A chance outcome is a
tile index (0–27).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Sequence
from enum import StrEnum

from doublesix.rules.deal import Deal, deal_from
from doublesix.rules.game import Game
from doublesix.rules.moves import MOVES, Move, Play
from doublesix.rules.ruleset import Ruleset
from doublesix.tiles import TILES

NUM_ACTIONS = 3 * len(TILES)
"""Player actions: ``3 * tile + end`` (end 0 left, 1 right, 2 the first tile of a round)."""


def action_of(move: Move) -> int:
    return 3 * move.tile.index + move.end_code


def move_of(action: int) -> Move:
    """The move an action names; ``ValueError`` if it names none."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action}: not between 0 and {NUM_ACTIONS - 1}")
    return MOVES[action // 3][action % 3]


class Need(StrEnum):
    """What the game waits for at a chance node."""

    DEAL = "deal"
    """The next tile of a deal."""
    LEAD = "lead"
    """A tile drawn face up for the first lead (R21)."""
    DRAW = "draw"
    """The next tile of the boneyard (R9)."""


class _Wait(Exception):
    """Raised by the dealer when the engine asks for an outcome that has not come yet."""

    def __init__(self, need: Need, taken: int = 0) -> None:
        super().__init__(need.value)
        self.need = need
        self.taken = taken


class _Dealer:
    """Deals the rounds' deals and lead draws given so far, in order; waits for the rest."""

    def __init__(self, deals: Sequence[Deal], lead: Sequence[int]) -> None:
        self._deals = list(deals)
        self._lead = list(lead)

    def deal(self) -> Deal:
        if not self._deals:
            raise _Wait(Need.DEAL)
        return self._deals.pop(0)

    def lead_draw(self, seat: int, taken: int) -> int:
        if not self._lead:
            raise _Wait(Need.LEAD, taken)
        return self._lead.pop(0)


def copy_game(game: Game) -> Game:
    """A copy of ``game`` that plays on independently (finished rounds are shared: they never
    change again)."""
    new = copy.copy(game)
    new.scores = list(game.scores)
    new.lead_draws = list(game.lead_draws)
    last = game.rounds[-1]
    new.rounds = [
        *game.rounds[:-1],
        dataclasses.replace(last, play=last.play.copy(), redeals=list(last.redeals)),
    ]
    return new


class ChanceGame:
    """A game of ``ruleset``: one round (``whole=False``) or rounds until the target decides."""

    def __init__(self, ruleset: Ruleset, whole: bool = True, max_rounds: int = 100) -> None:
        self.ruleset = ruleset
        self.whole = whole
        self.max_rounds = max_rounds
        self.game: Game | None = None
        self.need: Need | None = None
        self._order: list[int] = []
        """The tiles of the deal being dealt, in order."""
        self._deals: list[Deal] = []
        """The round's complete deals so far (thrown-in ones first)."""
        self._lead: list[int] = []
        self._taken = 0
        """Lead draws: the tiles taken so far when a lead draw is awaited."""
        self._bone: list[int] = []
        """The current round's boneyard tiles drawn so far, in order."""
        self._move: Move | None = None
        """A move waiting for a boneyard tile to be decided."""
        self.history: list[int] = []
        """Every action and chance outcome so far."""
        self.round_snapshot: ChanceGame | None = None
        """The game as it was where the current round's last deal began (``fork`` it to use it)."""
        self._deal_snapshot: ChanceGame | None = None
        self._settle()

    def __deepcopy__(self, memo: dict[int, object]) -> ChanceGame:
        """A game that plays on independently (snapshots are shared: they are only forked)."""
        new = copy.copy(self)
        new.game = copy_game(self.game) if self.game is not None else None
        new._order = list(self._order)
        new._deals = list(self._deals)
        new._lead = list(self._lead)
        new._bone = list(self._bone)
        new.history = list(self.history)
        return new

    def fork(self) -> ChanceGame:
        """An independent copy without snapshots."""
        new = copy.deepcopy(self)
        new.round_snapshot = new._deal_snapshot = None
        return new

    # --- where the game is ----------------------------------------------------

    @property
    def over(self) -> bool:
        game = self.game
        if game is None or self.need is not None:
            return False
        if game.finished:
            return True
        return game.round.ending is not None  # one round, or the last round allowed

    @property
    def turn(self) -> int | None:
        """The seat to move; None at a chance node or at the end."""
        if self.need is not None or self.game is None or self.game.round.ending is not None:
            return None
        return self.game.round.turn

    @property
    def dealing_starts(self) -> bool:
        """The next outcome is the first tile of a deal."""
        return self.need is Need.DEAL and not self._order

    def outcomes(self) -> list[int]:
        """The tiles that can come at this chance node, each as likely (empty at no chance node)."""
        if self.need is Need.DEAL:
            dealt = 0
            for t in self._order:
                dealt |= 1 << t
            return [t for t in range(len(TILES)) if not dealt >> t & 1]
        if self.need is Need.LEAD:
            free = [t for t in range(len(TILES)) if not self._taken >> t & 1]
            return free or list(range(len(TILES)))
        if self.need is Need.DRAW:
            return self._unrevealed()
        return []

    def legal_actions(self) -> list[int]:
        if self.turn is None:
            return []
        assert self.game is not None
        return sorted(action_of(m) for m in self.game.legal_moves())

    # --- steps --------------------------------------------------------------------

    def apply(self, action: int) -> None:
        """A chance outcome at a chance node, else a player's action; ``ValueError`` if illegal."""
        if self.need is not None:
            if action not in self.outcomes():
                raise ValueError(f"{action} is not an outcome of this {self.need} chance node")
            if self.dealing_starts:
                self._deal_snapshot = self.fork()
            self._chance(action)
        else:
            if self.turn is None:
                raise ValueError("the game is over")
            assert self.game is not None
            move = move_of(action)
            self.game.round.check(move)  # IllegalMoveError (a ValueError) names the rule
            self._play(move)
        self.history.append(action)
        self._settle()

    def _chance(self, t: int) -> None:
        need = self.need
        self.need = None
        if need is Need.DEAL:
            self._order.append(t)
            if len(self._order) == self.ruleset.dealt:
                self._deals.append(self._deal(self._order))
                self._order = []
        elif need is Need.LEAD:
            self._lead.append(t)
        else:
            self._bone.append(t)
            if self._move is not None:
                self._reveal()
                move, self._move = self._move, None
                self._play(move)

    def _deal(self, order: Sequence[int]) -> Deal:
        """A deal of the hands in ``order``; its boneyard is decided later, tile by tile."""
        dealt = set(order)
        return deal_from(self.ruleset, [*order, *(t for t in range(len(TILES)) if t not in dealt)])

    def _play(self, move: Move) -> None:
        game = self.game
        assert game is not None
        risky = game.round.stop > len(self._bone)
        trial = copy_game(game) if risky else game
        trial.play(move)
        if trial.round.drawn > len(self._bone):  # it drew a tile chance has not decided yet
            self.need = Need.DRAW
            self._move = move
            return
        self.game = trial

    def _settle(self) -> None:
        """Start rounds until a player is to move, a chance outcome is needed, or the game ends."""
        while self.need is None:
            game = self.game
            if game is not None:
                if game.round.ending is None or game.finished or not self.whole:
                    return
                if len(game.rounds) >= self.max_rounds:
                    return
            self._start(game)

    def _start(self, game: Game | None) -> None:
        """Try to start the first or the next round with the outcomes given so far."""
        if not self._deals and not self._order:
            self._bone = []  # a new round: nothing of its boneyard is decided yet
        deals = [*self._deals[:-1], self._with_boneyard(self._deals[-1])] if self._deals else []
        dealer = _Dealer(deals, self._lead)
        try:
            if game is None:
                trial = Game(self.ruleset, dealer=dealer)
            else:
                trial = copy_game(game)
                trial.dealer = dealer
                trial.next_round()
        except _Wait as wait:
            self.need = wait.need
            self._taken = wait.taken
            return
        if trial.round.drawn > len(self._bone):
            self.need = Need.DRAW
            return
        self.game = trial
        self.round_snapshot = self._deal_snapshot
        self._deals = []
        self._lead = []

    def _with_boneyard(self, deal: Deal) -> Deal:
        """``deal`` with the boneyard tiles drawn so far first, the undecided ones after."""
        if not self.ruleset.boneyard:
            return deal
        rest = [t for t in sorted(deal.boneyard) if t not in self._bone]
        return Deal(deal.hands, (*self._bone, *rest), deal.out)

    def _unrevealed(self) -> list[int]:
        game = self.game
        if self._deals:  # a round waits to start
            pile = self._deals[-1].boneyard
        else:
            assert game is not None
            pile = game.rounds[-1].deal.boneyard
        drawn = set(self._bone)
        return sorted(t for t in pile if t not in drawn)

    def _reveal(self) -> None:
        """Put the boneyard tiles decided so far in the playing round's draw order."""
        game = self.game
        assert game is not None
        current = game.rounds[-1]
        deal = self._with_boneyard(current.deal)
        current.deal = deal
        current.play.boneyard = list(deal.boneyard)


def replay_round(
    table: ChanceGame,
    apply: Callable[[int], None],
    order: Sequence[int],
    lead: Sequence[int],
    boneyard: Sequence[int],
    events: Sequence[object],
    number: int,
) -> bool:
    """Deal round ``number`` from ``order`` (thrown-in deals first), draw ``lead`` for R21 and
    the ``boneyard`` tiles in turn, and make the plays of ``events``, through ``apply`` (which
    applies an action to ``table``). False if the game does not come out that way."""
    outcomes = {Need.DEAL: list(order), Need.LEAD: list(lead), Need.DRAW: list(boneyard)}
    try:
        while True:
            if table.need is not None:
                pending = outcomes[table.need]
                if pending:
                    apply(pending.pop(0))
                    continue
                if table.need is not Need.DEAL or table.game is None:
                    return False
                # the round is over and the next one waits to be dealt
            game = table.game
            if game is None or len(game.rounds) != number:
                return False
            done = len(game.round.events)
            if done >= len(events) or game.round.ending is not None:
                return done == len(events)
            event = events[done]
            if not isinstance(event, Play) or event.seat != table.turn:
                return False
            apply(action_of(Move(event.tile, event.end)))
    except ValueError:  # a move or an outcome these tiles do not allow
        return False
