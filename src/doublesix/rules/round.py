"""One round: hands, the line and its ends, the boneyard, the turn, legal moves.

The state is kept as integers — a hand is a 28-bit mask (see ``tiles``), an
end is a pip, a tile an index — so bots can search on it directly through
``play_index``, ``playable`` and ``copy``. ``legal_moves``, ``play`` and
``events`` offer the same round as typed values.

The round does every forced event itself (R9, R10): after each play it
moves the turn on, drawing and passing for seats that cannot play, until a
seat can play or the round is over (R22, R23).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from doublesix.rules.layout import straighten_refusal, straightenings, turn_refusal
from doublesix.rules.moves import (
    DRAWS,
    LEFT,
    MOVES,
    OPEN,
    PASSES,
    PLAYS,
    RIGHT,
    Event,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Play,
    Straighten,
    Turn,
)
from doublesix.rules.ruleset import DrawRule, Ruleset
from doublesix.tiles import HIGH, LOW, OTHER, SUIT, TILES, Tile, bits, tiles_of, value_of


class Ending(StrEnum):
    DOMINO = "domino"
    """R22: a player played his last tile."""
    BLOCKED = "blocked"
    """R23: nobody can play and nothing can be drawn."""


class Round:
    """The play of one deal, from its first tile to domino or block."""

    __slots__ = (
        "_draw_one",
        "_suits",
        "boneyard",
        "drawn",
        "ending",
        "events",
        "forced",
        "hands",
        "last_seat",
        "left",
        "line",
        "out",
        "players",
        "right",
        "ruleset",
        "stop",
        "turn",
    )

    def __init__(
        self,
        ruleset: Ruleset,
        hands: Sequence[int],
        boneyard: Sequence[int],
        out: int,
        opener: int,
        opening_tile: int | None = None,
    ) -> None:
        """Start a round that ``opener`` opens; a given ``opening_tile`` is played for him."""
        self.ruleset = ruleset
        self.players = ruleset.players
        self.hands = list(hands)
        self.boneyard = list(boneyard)
        """The boneyard in draw order; ``drawn`` of them have been drawn."""
        self.drawn = 0
        self.stop = len(self.boneyard) - ruleset.keep_in_boneyard
        """Drawing stops when ``drawn`` reaches it (R11 keep_in_boneyard)."""
        self.out = out
        self._draw_one = ruleset.draw_rule is DrawRule.DRAW_ONE
        self._suits = 0
        self.left = self.right = -1
        self.line: list[tuple[int, int, int]] = []
        """Tiles in the order played: (tile index, end code, pip shown outward)."""
        self.turn = opener
        self.forced = 0
        """A drawn tile that must be played now (R9), as a bit; 0 if none."""
        self.events: list[Event] = []
        self.ending: Ending | None = None
        self.last_seat = -1
        """The seat that placed the last tile."""
        if opening_tile is not None:
            if not self.hands[opener] >> opening_tile & 1:
                raise IllegalMoveError(
                    f"seat {opener} does not hold the opening tile {TILES[opening_tile]}", "R16"
                )
            self.play_index(opening_tile, OPEN)

    # --- the fast core -------------------------------------------------------

    def copy(self) -> Round:
        other = Round.__new__(Round)
        for name in Round.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = self.hands.copy()
        other.line = self.line.copy()
        other.events = self.events.copy()
        return other

    @property
    def over(self) -> bool:
        return self.ending is not None

    def playable(self) -> int:
        """The tiles the seat to move may play, as a mask."""
        if self.forced:
            return self.forced
        if self.left < 0:
            return self.hands[self.turn]
        return self.hands[self.turn] & self._suits

    def play_index(self, t: int, end: int) -> None:
        """Play tile index ``t`` at end code ``end`` for the seat to move; no checks."""
        seat = self.turn
        hand = self.hands[seat] ^ (1 << t)
        self.hands[seat] = hand
        self.forced = 0
        if self.left < 0:
            end = OPEN
            self.left, self.right = LOW[t], HIGH[t]
            self.line.append((t, OPEN, HIGH[t]))
        elif end == LEFT:
            self.left = OTHER[t][self.left]
            self.line.append((t, LEFT, self.left))
        else:
            self.right = OTHER[t][self.right]
            self.line.append((t, RIGHT, self.right))
        self._suits = SUIT[self.left] | SUIT[self.right]
        self.events.append(PLAYS[seat][t][end])
        self.last_seat = seat
        if not hand:
            self.ending = Ending.DOMINO
            return
        self._advance((seat + 1) % self.players)

    def _advance(self, seat: int) -> None:
        """Give the turn to the next seat that can play, drawing and passing for the others."""
        suits = self._suits
        hands = self.hands
        while True:
            if hands[seat] & suits:
                self.turn = seat
                return
            if self.drawn < self.stop:
                t = self.boneyard[self.drawn]
                self.drawn += 1
                hands[seat] |= 1 << t
                self.events.append(DRAWS[seat][t])
                if suits >> t & 1:
                    self.turn = seat
                    self.forced = 1 << t
                    return
                if not self._draw_one:
                    continue
            if self.drawn >= self.stop and not any(h & suits for h in hands):
                self.turn = seat
                self.ending = Ending.BLOCKED
                return
            self.events.append(PASSES[seat])
            seat = (seat + 1) % self.players

    # --- the typed API -------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every move of the seat to move (a tile that fits both ends gives two)."""
        if self.ending is not None:
            return []
        if self.left < 0:
            return [MOVES[t][OPEN] for t in bits(self.playable())]
        left, right = SUIT[self.left], SUIT[self.right]
        moves = []
        playable = self.playable()
        while playable:
            bit = playable & -playable
            playable ^= bit
            t = bit.bit_length() - 1
            if left & bit:
                moves.append(MOVES[t][LEFT])
            if right & bit:
                moves.append(MOVES[t][RIGHT])
        return moves

    def check(self, move: Move) -> None:
        """Raise IllegalMoveError, naming the rule, unless ``move`` is legal now."""
        if self.ending is not None:
            raise IllegalMoveError("the round is over", "R22" if self.ending == "domino" else "R23")
        if not isinstance(move.tile, Tile):
            raise InvalidMoveError(f"not a tile: {move.tile!r}")
        t, end = move.tile.index, move.end_code
        seat = self.turn
        if not self.hands[seat] >> t & 1:
            raise IllegalMoveError(f"seat {seat} does not hold {move.tile}", "R8")
        if self.forced and not self.forced >> t & 1:
            drawn = TILES[self.forced.bit_length() - 1]
            raise IllegalMoveError(f"seat {seat} must play the drawn tile {drawn}", "R9")
        if self.left < 0:
            if end != OPEN:
                raise IllegalMoveError(f"{move.tile} opens the line; it has no end yet", "R4")
            return
        if end == OPEN:
            raise IllegalMoveError(f"say at which end {move.tile} goes", "R5")
        pip = self.left if end == LEFT else self.right
        if not SUIT[pip] >> t & 1:
            raise IllegalMoveError(f"{move.tile} does not fit the {move.end} end ({pip})", "R5")

    def play(self, move: Move, turn: Turn | None = None) -> list[Event]:
        """Play ``move`` for the seat to move; returns it and the forced events after it.

        ``turn`` (R39, a hand-laid line only): the tile turns left or right from the
        end it extends; None lays it straight on.
        """
        self.check(move)
        if turn is not None:
            self._check_turn(move, turn)
        start, seat = len(self.events), self.turn
        self.play_index(move.tile.index, move.end_code)
        if turn is not None:
            self.events[start] = Play(seat, move.tile, move.end, turn)
        return self.events[start:]

    def _check_turn(self, move: Move, turn: object) -> None:
        if not isinstance(turn, Turn):
            raise InvalidMoveError(f"not a turn: {turn!r} (left or right)")
        why = turn_refusal(self.ruleset, self.line, move.tile, move.end_code)
        if why is not None:
            raise IllegalMoveError(why, "R39")

    def may_turn(self, move: Move) -> bool:
        """R39: whether ``move`` (a legal move now) may turn left or right."""
        return turn_refusal(self.ruleset, self.line, move.tile, move.end_code) is None

    def straighten(self, at: Tile, turn: Turn) -> Straighten:
        """R39: the seat to move rotates the tail of the line beyond ``at`` a quarter ``turn``.

        Not a move: nothing but the drawing changes, and the same seat plays on.
        Refused at the round's first tile, at a double or where the tail starts with
        one, where nothing lies beyond ``at``, and where the tail would fold back.
        """
        if self.ending is not None:
            raise IllegalMoveError("the round is over", "R39")
        if not isinstance(at, Tile):
            raise InvalidMoveError(f"not a tile: {at!r}")
        if not isinstance(turn, Turn):
            raise InvalidMoveError(f"not a turn: {turn!r} (left or right)")
        why = straighten_refusal(self.ruleset, self.line, self.events, at, turn)
        if why is not None:
            raise IllegalMoveError(why, "R39")
        event = Straighten(self.turn, at, turn)
        self.events.append(event)
        return event

    def straightenings(self) -> list[tuple[Tile, Turn]]:
        """R39: every (tile, turn) the seat to move may straighten the line at now."""
        if self.ending is not None:
            return []
        return straightenings(self.ruleset, self.line, self.events)

    def hand(self, seat: int) -> list[Tile]:
        return tiles_of(self.hands[seat])

    def hand_value(self, seat: int) -> int:
        return value_of(self.hands[seat])

    @property
    def ends(self) -> tuple[int, int] | None:
        """The pips at the left and right end; None before the first tile."""
        return None if self.left < 0 else (self.left, self.right)

    def laid_line(self) -> list[tuple[int, int]]:
        """The line from its left end to its right end, each tile as (left pip, right pip)."""
        left: list[tuple[int, int]] = []
        right: list[tuple[int, int]] = []
        for t, end, outward in self.line:
            inward = OTHER[t][outward]
            if end == LEFT:
                left.append((outward, inward))
            else:
                right.append((inward, outward) if end == RIGHT else (LOW[t], HIGH[t]))
        return left[::-1] + right

    @property
    def boneyard_count(self) -> int:
        return len(self.boneyard) - self.drawn

    @property
    def plays(self) -> list[Play]:
        return [e for e in self.events if isinstance(e, Play)]
