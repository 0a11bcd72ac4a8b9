"""A whole game consistent with what one seat knows: OpenSpiel's ``resample_from_infostate``.

The hidden tiles of the current round are drawn by the bots' sampler
(``doublesix.bots.sampler``, from the seat's view read by ``inference``):
each other seat's hand now and the boneyard. A game is more than its
hands now: it needs the hands dealt and the tile of every draw. A tile a
seat drew and kept is one it still holds or played later; which one is
found by a small matching, so that no seat ever held a tile that fits an
end where it drew or passed (R9, R10). The round is then dealt and played
again through the engine from the snapshot taken where its deal began, and
kept only if the seat's view of it is exactly the seat's view of the real
game; otherwise (R13's redeals, R19/R20's openers, which the sampler does
not know of) another sample is drawn. Among a few samples, one is picked in
proportion to its importance weight, so deals come out about uniformly.

Rounds already played and deals thrown in (R13) before the current deal
are kept as they were: nothing of them can change the play from here on
(what carries over — scores, eggs, who opens — is public).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from doublesix.bots.inference import Knowledge, infer
from doublesix.bots.sampler import Sample, Sampler
from doublesix.research.chance import ChanceGame, replay_round
from doublesix.rules.moves import Draw, Pass, Play
from doublesix.rules.view import HiddenDraw, SeatView, seat_view
from doublesix.tiles import ALL, SUIT, bits

POOL = 8
"""Samples drawn to pick one from by weight."""
TRIES = 400
"""Samples tried before giving up (a seat's view always has a consistent game: the real one)."""


class ResampleError(RuntimeError):
    """No consistent game was found in ``TRIES`` samples."""


@dataclass
class _Seat:
    """One seat's part of the round's public events."""

    held_since: list[tuple[int, int]] = field(default_factory=list)
    """(event index, pip mask) of each pass or draw: it held no tile of those numbers then."""
    kept: list[int] = field(default_factory=list)
    """Event indices of draws whose tile it kept (did not play at once)."""
    played: list[tuple[int, int]] = field(default_factory=list)
    """(event index, tile) of plays from its hand (not a tile just drawn)."""


def _timeline(view: SeatView) -> list[_Seat]:
    seats = [_Seat() for _ in range(view.ruleset.players)]
    left = right = -1
    events = view.events
    for i, e in enumerate(events):
        if isinstance(e, Play):
            t = e.tile.index
            previous = events[i - 1] if i else None
            if isinstance(previous, Draw | HiddenDraw) and previous.seat == e.seat:
                seats[e.seat].kept.remove(i - 1)  # the tile just drawn, played at once (R9)
            else:
                seats[e.seat].played.append((i, t))
            if left < 0:
                left, right = e.tile.low, e.tile.high
            elif e.end == "left":
                left = e.tile.other(left)
            else:
                right = e.tile.other(right)
        elif isinstance(e, Draw | HiddenDraw | Pass):
            lack = SUIT[left] | SUIT[right] if left >= 0 else 0
            seats[e.seat].held_since.append((i, lack))
            if not isinstance(e, Pass):
                seats[e.seat].kept.append(i)
    last = events[-1] if events else None
    if isinstance(last, Draw | HiddenDraw) and last.seat == view.turn:
        seats[last.seat].kept.pop()  # it fits: the seat must play it now (R9)
        seats[last.seat].held_since.pop()
    return seats


def _draws_of(seat: _Seat, held: int, rng: random.Random) -> dict[int, int] | None:
    """The tile of each kept draw: a tile held now or played later, never one that fit where
    the seat drew or passed while holding it. None if there is no such choice."""
    end = 10**9
    tiles = [(t, end) for t in bits(held)] + [(t, i) for i, t in seat.played]
    last_fit: dict[int, int] = {}
    for t, until in tiles:
        fits = [i for i, lack in seat.held_since if i < until and lack >> t & 1]
        last_fit[t] = max(fits, default=-1)
    options = {
        d: [t for t, until in tiles if last_fit[t] < d < until] for d in seat.kept
    }  # a tile drawn at d cannot fit there (else it is played at once), nor anywhere later
    for choices in options.values():
        rng.shuffle(choices)
    tile_of: dict[int, int] = {}  # draw -> tile
    draw_of: dict[int, int] = {}  # tile -> draw

    def give(d: int, seen: set[int]) -> bool:
        for t in options[d]:
            if t in seen:
                continue
            seen.add(t)
            if t not in draw_of or give(draw_of[t], seen):
                tile_of[d], draw_of[t] = t, d
                return True
        return False

    def take(t: int, seen: set[int]) -> bool:
        for d in options:
            if d in seen or t not in options[d]:
                continue
            seen.add(d)
            if d not in tile_of or take(tile_of[d], seen):
                tile_of[d], draw_of[t] = t, d
                return True
        return False

    for t, _ in tiles:  # a tile that fit somewhere it was held must have come later
        if last_fit[t] >= 0 and t not in draw_of and not take(t, set()):
            return None
    for d in seat.kept:
        if d not in tile_of and not give(d, set()):
            return None
    return tile_of


def _pick(sampler: Sampler, rng: random.Random) -> Sample | None:
    """One of ``POOL`` samples, in proportion to its importance weight (None if the sampler
    had to break a constraint in all of them)."""
    pool = []
    for _ in range(POOL):
        relaxed = sampler.relaxed
        sample = sampler.sample()
        if sampler.relaxed == relaxed:
            pool.append(sample)
    if not pool:
        return None
    top = max(s.log_weight for s in pool)
    weights = [math.exp(s.log_weight - top) for s in pool]
    return rng.choices(pool, weights)[0]


def _pending_draw(knowledge: Knowledge, view: SeatView) -> tuple[int, int] | None:
    """(seat, group) of a tile another seat just drew and must play now (R9), if any.

    Inference takes every draw for one that did not fit; this one did, so its
    group is told to hold a tile that fits an end instead.
    """
    last = view.events[-1] if view.events else None
    s = view.turn
    if not isinstance(last, HiddenDraw) or last.seat != s or s is None or view.ends is None:
        return None
    _, group = knowledge.drawn_by[s][-1]
    knowledge.groups[s][group].forbidden = ALL & ~(SUIT[view.ends[0]] | SUIT[view.ends[1]])
    return s, group


def resample(cg: ChanceGame, seat: int, rng: random.Random) -> ChanceGame:
    """A game with ``seat``'s view of ``cg`` whose hidden tiles are drawn from ``rng``."""
    game = cg.game
    snapshot = cg.round_snapshot
    if game is None or snapshot is None or cg.turn is None:
        raise ValueError("resample: only where a seat is to move")
    view = seat_view(game, seat)
    seats = _timeline(view)
    knowledge = infer(view)
    pending = _pending_draw(knowledge, view)
    sampler = Sampler(knowledge, rng)
    lead = [t for _, t in game.lead_draws] if len(game.rounds) == 1 else []
    for _ in range(TRIES):
        sample = _pick(sampler, rng)
        if sample is None:
            continue
        hands = list(sample.hands)
        draws = {}
        if pending is not None:
            s, group = pending
            tile = sample.groups[s][group]
            hands[s] &= ~tile
            draws[len(view.events) - 1] = tile.bit_length() - 1
        world = _rebuild(snapshot, view, seats, hands, draws, lead, rng)
        if world is not None:
            return world
    raise ResampleError(f"no game fits seat {seat}'s view in {TRIES} samples")


def _rebuild(
    snapshot: ChanceGame,
    view: SeatView,
    seats: Sequence[_Seat],
    hands: Sequence[int],
    draws: dict[int, int],
    lead: Sequence[int],
    rng: random.Random,
) -> ChanceGame | None:
    """Deal and play the round again with these hands now and these draws known (by event
    index); None unless the seat's view comes out the same."""
    me = view.seat
    order: list[int] = []
    for s, timeline in enumerate(seats):
        if s == me:
            drawn = {i: e.tile.index for i, e in enumerate(view.events) if isinstance(e, Draw)}
        else:
            found = _draws_of(timeline, hands[s], rng)
            if found is None:
                return None
            drawn = found
        draws.update(drawn)
        dealt = hands[s]
        for _, t in timeline.played:
            dealt |= 1 << t
        for t in drawn.values():
            dealt &= ~(1 << t)
        mine = list(bits(dealt))
        rng.shuffle(mine)
        order += mine
    for i, e in enumerate(view.events):
        if isinstance(e, HiddenDraw) and i not in draws:  # the drawn tile was played at once
            nxt = view.events[i + 1]
            assert isinstance(nxt, Play)
            draws[i] = nxt.tile.index
    boneyard = [draws[i] for i in sorted(draws)]
    return _replay(snapshot.fork(), view, order, lead, boneyard)


def _replay(
    world: ChanceGame,
    view: SeatView,
    order: Sequence[int],
    lead: Sequence[int],
    boneyard: Sequence[int],
) -> ChanceGame | None:
    if not replay_round(world, world.apply, order, lead, boneyard, view.events, view.round_number):
        return None
    assert world.game is not None
    return world if seat_view(world.game, view.seat) == view else None
