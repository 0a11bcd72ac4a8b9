"""What the game's earlier rounds show of each seat's style of play.

``NetModel`` with styles asks, seat by seat, which of three players a seat
is — one who chooses as the network says, one who sheds its heaviest tile,
one who chooses at random (``fitted.style_mix``) — and starts every round
from the same prior shares. But a seat keeps its style from round to round,
and once a round is over every hand is shown (R25): each play of that round
can be read against the hand it was chosen from. ``seat_styles`` turns the
rounds before into each seat's own prior for this one, so that a seat that
shed its heaviest tile all game long is a heaviest-first player from this
round's first play, and one that chose as the network says is no longer
taken for one.

A seat's hand at a play of an earlier round is known from its last draw of
that round on (its hand at the end, and the tiles it played since); plays
before a draw, and leads (which may be forced, R16–R21), are not read.

A round over stays as it was, so a game's rounds need reading once each:
``Reading`` adds the rounds it has not read to what it read, and
``Readings`` keeps the readings in the process, for bots made afresh for
every decision as the server's thinking workers make them.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Protocol

from doublesix.bots.inference import Decision, ends_after
from doublesix.bots.tables import SUIT
from doublesix.rules.moves import Draw, Play
from doublesix.rules.ruleset import Ruleset
from doublesix.rules.view import HiddenDraw, PlayedRound
from doublesix.tiles import mask_of

LogShares = tuple[float, float, float]
"""The logs of a seat's shares of the three styles: as the model says, heaviest first, at
random."""

FLOOR = 0.01
"""No style's share of a seat falls below this however many rounds it was not seen in: a
player may change, and the round's own plays must still be able to show it."""


Chance = Callable[[Decision, int, int], float]
"""The log of the chance of a choice from a hand (its tiles that fitted the ends two or more)."""


class ChoiceModel(Protocol):
    def chance_in(self, ruleset: Ruleset, played: PlayedRound) -> Chance:
        """``Chance`` of the choices of the round ``played``, by the model."""
        ...


def read_choices(played: PlayedRound, seat: int) -> list[tuple[Decision, int, int]]:
    """The others' plays of ``played`` whose hand is known, oldest first, with the hand then
    and its tiles that fitted the ends, for plays with a choice (two or more such tiles)."""
    n = len(played.hands)
    held = [mask_of(h) for h in played.hands]
    drew_after = [False] * n
    # Backwards: a seat's hand before a play is its hand after it and the tile it played.
    steps: list[tuple[Decision, int, int]] = []
    left_at: dict[int, tuple[int, int]] = {}
    left = right = -1
    for i, e in enumerate(played.events):
        if isinstance(e, Play):
            left_at[i] = (left, right)
            left, right = ends_after(e, left, right)
    for i in range(len(played.events) - 1, -1, -1):
        e = played.events[i]
        if isinstance(e, Draw | HiddenDraw):
            drew_after[e.seat] = True
        elif isinstance(e, Play):
            s = e.seat
            t = e.tile.index
            held[s] |= 1 << t
            a, b = left_at[i]
            if s == seat or drew_after[s] or a < 0:
                continue
            playable = held[s] & (SUIT[a] | SUIT[b])
            if playable & (playable - 1):
                steps.append((Decision(s, i, t, a, b), held[s], playable))
    steps.reverse()
    return steps


def seat_styles(
    ruleset: Ruleset,
    past: Sequence[PlayedRound],
    seat: int,
    prior: LogShares,
    slip: float,
    model: ChoiceModel,
) -> list[LogShares]:
    """Per seat, the logs of its shares of the styles after its plays read in the rounds
    ``past``, each at least ``FLOOR``; ``prior`` for a seat with none read (``seat`` itself)."""
    return Reading(ruleset, seat, slip).read(past, model).styles(prior)


class Reading:
    """``seat_styles`` kept from decision to decision: each round of the game is read once.

    The evidence of the rounds added is summed in the same order as a reading from the
    first round would sum it, so the shares are the same to the last bit.
    """

    def __init__(self, ruleset: Ruleset, seat: int, slip: float) -> None:
        self.ruleset = ruleset
        self.seat = seat
        self.slip = slip
        self.rounds: list[PlayedRound] = []
        """The rounds read, in the game's order."""
        self.evidence: list[list[float] | None] = [None] * ruleset.players
        """Per seat, the logs of its plays' chances by each style (``None``: none read)."""

    def continues(self, ruleset: Ruleset, seat: int, past: Sequence[PlayedRound]) -> bool:
        """Whether ``past`` is the rounds read and perhaps more, of the same game and seat."""
        n = len(self.rounds)
        return (
            ruleset == self.ruleset
            and seat == self.seat
            and len(past) >= n
            and list(past[:n]) == self.rounds
        )

    def read(self, past: Sequence[PlayedRound], model: ChoiceModel) -> Reading:
        """Read the rounds of ``past`` after those read (``past`` continues them) by
        ``model``, the model that read those."""
        slip_hit = math.log(1.0 - self.slip)
        for played in past[len(self.rounds) :]:
            chance = model.chance_in(self.ruleset, played)
            for d, hand, playable in read_choices(played, self.seat):
                count = playable.bit_count()
                e = self.evidence[d.seat]
                if e is None:
                    e = self.evidence[d.seat] = [0.0, 0.0, 0.0]
                e[0] += chance(d, hand, playable)
                e[1] += (
                    slip_hit
                    if playable.bit_length() - 1 == d.tile
                    else math.log(self.slip / (count - 1))
                )
                e[2] -= math.log(count)
            self.rounds.append(played)
        return self

    def styles(self, prior: LogShares) -> list[LogShares]:
        """``seat_styles`` of the rounds read."""
        return [prior if e is None else _posterior(prior, e) for e in self.evidence]


KEPT = 512
"""Readings ``Readings`` keeps: one holds the rounds it read (eleven Kozel rounds, as a
worker unpickles them, take some 21 kB), so at most some 11 MB."""


class Readings:
    """The readings of one model's bots in this process, each game's seat's found again.

    A bot made for a single decision (the server's thinking workers make one a move, from
    the table's seed) would read every round before again at every decision. Its model
    takes the reading from here instead, where the bot of its seat's decision before left
    it, and reads only the rounds since. A reading is found by the seat, the rules and the
    first round's hands, and continued only if it read the same rounds (``continues``); the
    least recently used are forgotten beyond ``size``. Every model reading with one
    ``Readings`` must give the same chances (one bot level's), since their rounds are
    summed together; a lock keeps threads that share it apart.
    """

    def __init__(self, slip: float, size: int = KEPT) -> None:
        self.slip = slip
        self.size = size
        self._kept: OrderedDict[Hashable, Reading] = OrderedDict()
        self._lock = threading.Lock()

    def styles(
        self,
        ruleset: Ruleset,
        seat: int,
        past: Sequence[PlayedRound],
        prior: LogShares,
        model: ChoiceModel,
    ) -> list[LogShares]:
        """``seat_styles`` of ``past`` for ``seat``, reading only what was not read here."""
        if not past:
            return [prior] * ruleset.players
        key = (seat, ruleset, past[0].hands)
        with self._lock:
            reading = self._kept.pop(key, None)
            if reading is None or not reading.continues(ruleset, seat, past):
                reading = Reading(ruleset, seat, self.slip)
            self._kept[key] = reading.read(past, model)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
            return reading.styles(prior)

    def __len__(self) -> int:
        return len(self._kept)


def _posterior(prior: LogShares, evidence: Sequence[float]) -> LogShares:
    logs = [p + e for p, e in zip(prior, evidence, strict=True)]
    top = max(logs)
    shares = [math.exp(x - top) for x in logs]
    total = sum(shares)
    shares = [x / total for x in shares]
    low = [False] * 3
    while True:  # raise the shares below FLOOR to it, taking it from the others in proportion
        low = [lo or x < FLOOR for lo, x in zip(low, shares, strict=True)]
        rest = sum(x for lo, x in zip(low, shares, strict=True) if not lo)
        scale = (1.0 - FLOOR * sum(low)) / rest
        shares = [FLOOR if lo else x * scale for lo, x in zip(low, shares, strict=True)]
        if min(shares) >= FLOOR:
            break
    a, b, c = (math.log(x) for x in shares)
    return a, b, c
