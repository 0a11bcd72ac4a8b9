"""Fast random playouts on the round's integer API.

A playout plays a :class:`~doublesix.rules.round.Round` to its end on the
fast core — ``Round.playable()`` (a mask), ``Round.play_index(tile, end)``
and the masks of :mod:`doublesix.tiles` — without building a ``Move`` or
looking at a seat's view. The round itself does every forced event (draws
from the boneyard, passes, the end of the round), so a playout is exactly
as legal as a game played through the public API.

The default policy is **uniform over the legal moves**, the same choice as
the ``random`` bot: a tile that fits both ends counts as two moves (left and
right), as in ``Round.legal_moves()``. A bot can pass its own policy: a
function of the round and a random source that returns ``(tile index, end
code)`` for the seat to move.

Deals for playouts come from :func:`deal`, a Fisher–Yates shuffle driven by
``random.Random.random`` (``int(random() * n)``: its bias is below 2⁻⁴⁸ for
the set's 28 tiles). It is seeded, but it is not the dealer of
:class:`~doublesix.rules.game.Game`: the same seed gives other deals there.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from doublesix.rules.deal import Deal, deal_from, redeal_reason
from doublesix.rules.moves import LEFT, OPEN, RIGHT
from doublesix.rules.opening import decide_by_tiles
from doublesix.rules.round import Round
from doublesix.rules.ruleset import Opener, Ruleset
from doublesix.tiles import SUIT, TILES

Policy = Callable[[Round, random.Random], tuple[int, int]]
"""Chooses ``(tile index, end code)`` for the seat to move of a round that is not over."""

_ORDER = list(range(len(TILES)))


def random_move(rnd: Round, rng: random.Random) -> tuple[int, int]:
    """A legal move of the seat to move, uniformly over the legal moves (the default policy)."""
    playable = rnd.playable()
    if rnd.left < 0:
        return _kth_bit(playable, int(rng.random() * playable.bit_count())), OPEN
    on_left = playable & SUIT[rnd.left]
    on_right = playable & SUIT[rnd.right]
    lefts = on_left.bit_count()
    k = int(rng.random() * (lefts + on_right.bit_count()))
    if k < lefts:
        return _kth_bit(on_left, k), LEFT
    return _kth_bit(on_right, k - lefts), RIGHT


def _kth_bit(mask: int, k: int) -> int:
    """The index of the ``k``-th set bit of ``mask`` (0 is the lowest)."""
    for _ in range(k):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def playout(rnd: Round, rng: random.Random, policy: Policy | None = None) -> int:
    """Play ``rnd`` to its end, every seat by ``policy`` (default: uniform random).

    Returns the number of events the round recorded on the way (plays,
    draws and passes). The round is changed in place; play on a
    ``rnd.copy()`` to keep the original.
    """
    start = len(rnd.events)
    if policy is not None:
        while rnd.ending is None:
            t, end = policy(rnd, rng)
            rnd.play_index(t, end)
        return len(rnd.events) - start
    rand = rng.random
    play = rnd.play_index
    playable_tiles = rnd.playable
    if rnd.ending is None and rnd.left < 0:  # the opening tile: any tile of the hand
        playable = playable_tiles()
        play(_kth_bit(playable, int(rand() * playable.bit_count())), OPEN)
    while rnd.ending is None:
        # The uniform policy, inlined: this loop is the benchmark's hot path.
        playable = playable_tiles()
        on_left = playable & SUIT[rnd.left]
        lefts = on_left.bit_count()
        on_right = playable & SUIT[rnd.right]
        k = int(rand() * (lefts + on_right.bit_count()))
        if k < lefts:
            playable = on_left
            end = LEFT
        else:
            playable = on_right
            k -= lefts
            end = RIGHT
        while k:
            playable &= playable - 1
            k -= 1
        play((playable & -playable).bit_length() - 1, end)
    return len(rnd.events) - start


def deal(ruleset: Ruleset, rng: random.Random) -> Deal:
    """A seeded deal (R12); Kozel deals with too many doubles or tiles of a number are
    dealt again (R13)."""
    rand = rng.random
    while True:
        order = _ORDER.copy()
        for i in range(len(order) - 1, 0, -1):
            j = int(rand() * (i + 1))
            order[i], order[j] = order[j], order[i]
        dealt = deal_from(ruleset, order)
        if not (ruleset.redeal and redeal_reason(dealt.hands)):
            return dealt


def first_opener(
    ruleset: Ruleset, hands: Sequence[int], rng: random.Random
) -> tuple[int, int | None]:
    """Who opens a game's first round (R16, R18–R21), and the tile played for him if forced.

    ``draw_for_lead`` (R21) is symmetric between the seats, so a playout
    picks its opener uniformly instead of drawing tiles for the lead.
    """
    opener = ruleset.opener
    if opener is Opener.DRAW_FOR_LEAD:
        return int(rng.random() * ruleset.players), None
    seat, t, _ = decide_by_tiles(opener, hands)
    return seat, (t if opener in _LAID else None)


_LAID = (Opener.HIGHEST_DOUBLE, Opener.KOZEL)
"""Openers whose deciding tile is laid for its holder in the first round (R16, R18)."""


def new_round(ruleset: Ruleset, rng: random.Random) -> Round:
    """A freshly dealt first round of ``ruleset``, its forced opening tile already played."""
    dealt = deal(ruleset, rng)
    opener, opening_tile = first_opener(ruleset, dealt.hands, rng)
    return Round(ruleset, dealt.hands, dealt.boneyard, dealt.out, opener, opening_tile)


def random_rounds(ruleset: Ruleset, rounds: int, rng: random.Random) -> int:
    """Deal and play ``rounds`` random rounds; returns the number of events they recorded."""
    events = 0
    for _ in range(rounds):
        rnd = new_round(ruleset, rng)
        events += len(rnd.events) + playout(rnd, rng)
    return events
