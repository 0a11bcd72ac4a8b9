"""What a seat knows of the others, from its view's public events only.

A pass, or a draw, at ends ``a`` and ``b`` proves that the seat held
neither number at that moment (R7, R9, R10). Tiles drawn later may show
those numbers again, so each seat's hidden hand is kept as *groups*: the
tiles it was dealt, and each tile it drew and kept, every group with the
tiles it cannot be. An older group always excludes at least what a newer
one does, so when a seat plays a tile that could come from several groups,
taking it from the oldest one that allows it is the relaxation that never
rules out a deal that could really be (see ``remove_played``).

R16 tells more at the first tile of a round opened by the highest double:
nobody else was dealt a heavier double (or, without doubles, a heavier
tile).

Each of a seat's decisions is kept too (the tile it chose, the ends, and
when it chose), so the expert can weigh a sampled deal by how likely it
makes the moves that were actually seen.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from doublesix.rules.moves import Draw, End, Pass, Play
from doublesix.rules.ruleset import Opener
from doublesix.rules.view import HiddenDraw, SeatView
from doublesix.tiles import ALL, DOUBLES, SUIT, TILES, mask_of


@dataclass
class Group:
    """``count`` hidden tiles of one seat that came in together; none is in ``forbidden``."""

    count: int
    forbidden: int
    since: int
    """Index of the event that brought them in (-1: dealt)."""


@dataclass(frozen=True)
class Decision:
    """A play another seat chose: ``tile`` at event ``index``, the ends it faced then."""

    seat: int
    index: int
    tile: int
    left: int
    right: int


@dataclass
class Knowledge:
    """Everything a seat's view says about where the hidden tiles are."""

    seat: int
    players: int
    hand: int
    played: int
    unknown: int
    """Tiles that are neither in the seat's hand nor on the line."""
    groups: list[list[Group]]
    """Per seat, the groups of its hidden tiles (empty for the seat itself)."""
    counts: tuple[int, ...]
    boneyard: int
    """Tiles left in the boneyard."""
    out: int
    """Tiles out of play (Block) — never seen this round."""
    left: int
    right: int
    decisions: list[Decision] = field(default_factory=list)
    drawn_by: list[list[tuple[int, int]]] = field(default_factory=list)
    """Per seat, (event index, group) of each hidden draw it kept."""
    played_by: list[int] = field(default_factory=list)
    """Per seat, the mask of tiles it put on the line."""
    events: int = 0

    def void(self, seat: int) -> int:
        """The numbers ``seat`` is known to hold none of now, as a pip mask (bit p = pip p)."""
        return void_of(self.groups[seat])

    def allowed(self, seat: int) -> int:
        """Tiles that ``seat`` could hold (its newest group's freedom)."""
        forbidden = ALL
        for g in self.groups[seat]:
            if g.count:
                forbidden &= g.forbidden
        return self.unknown & ~forbidden


def void_of(groups: list[Group]) -> int:
    """The numbers none of ``groups``' tiles can be, as a pip mask (bit p = pip p)."""
    live = [g for g in groups if g.count]
    if not live:
        return 0
    forbidden = ALL
    for g in live:
        forbidden &= g.forbidden
    return sum(1 << p for p in range(7) if forbidden & SUIT[p] == SUIT[p])


def ends_after(play: Play, left: int, right: int) -> tuple[int, int]:
    """The line's ends after ``play`` (both -1 on an empty line)."""
    if left < 0:
        return play.tile.low, play.tile.high
    if play.end is End.LEFT:
        return play.tile.other(left), right
    return left, play.tile.other(right)


def remove_played(groups: list[Group], t: int) -> None:
    """Take a played tile out of the oldest group that allows it (the sound relaxation)."""
    bit = 1 << t
    for g in groups:
        if g.count and not g.forbidden & bit:
            g.count -= 1
            return
    for g in reversed(groups):
        if g.count:
            g.count -= 1
            return


def infer(view: SeatView) -> Knowledge:
    """Read ``view``'s public events into groups, voids and decisions."""
    n = view.ruleset.players
    me = view.seat
    size = view.ruleset.hand_size
    hand = mask_of(view.hand)
    groups: list[list[Group]] = [[] if s == me else [Group(size, 0, -1)] for s in range(n)]
    decisions: list[Decision] = []
    drawn_by: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    played_by = [0] * n
    played = 0
    left = right = -1
    last_draw_seat = -1
    events = view.events
    for i, e in enumerate(events):
        if isinstance(e, Play):
            t = e.tile.index
            s = e.seat
            if s != me:
                if last_draw_seat == s:
                    groups[s].pop()  # the drawn tile that fitted is played at once (R9)
                    drawn_by[s].pop()
                else:
                    if i > 0 or not _automatic_first(view):
                        decisions.append(Decision(s, i, t, left, right))
                    remove_played(groups[s], t)
            played |= 1 << t
            played_by[s] |= 1 << t
            left, right = ends_after(e, left, right)
            last_draw_seat = -1
        elif isinstance(e, HiddenDraw | Draw):
            s = e.seat
            if s != me and left >= 0:
                lack = SUIT[left] | SUIT[right]
                for g in groups[s]:
                    g.forbidden |= lack
                groups[s].append(Group(1, lack, i))
                drawn_by[s].append((i, len(groups[s]) - 1))
            last_draw_seat = s
        elif isinstance(e, Pass):
            s = e.seat
            if s != me and left >= 0:
                lack = SUIT[left] | SUIT[right]
                for g in groups[s]:
                    g.forbidden |= lack
            last_draw_seat = -1
    unknown = ALL & ~hand & ~played
    if events and _forced_opening(view):
        first = events[0]
        if isinstance(first, Play):
            higher = _heavier_openers(first.tile.index)
            for s in range(n):
                if s != me:
                    groups[s][0].forbidden |= higher
    for s in range(n):
        for g in groups[s]:
            g.forbidden &= ALL
    dealt = view.ruleset.dealt
    out = 0 if view.ruleset.boneyard else len(TILES) - dealt
    return Knowledge(
        seat=me,
        players=n,
        hand=hand,
        played=played,
        unknown=unknown,
        groups=groups,
        counts=view.hand_counts,
        boneyard=view.boneyard_count,
        out=out,
        left=left,
        right=right,
        decisions=decisions,
        drawn_by=drawn_by,
        played_by=played_by,
        events=len(events),
    )


def _forced_opening(view: SeatView) -> bool:
    """Was this round's first tile played automatically by R16 (the highest double)?"""
    if view.ruleset.opener is not Opener.HIGHEST_DOUBLE:
        return False
    if view.round_number == 1:
        return True
    return bool(view.past_results) and view.past_results[-1].tied


def _automatic_first(view: SeatView) -> bool:
    """Was the first tile played for its holder (R16, R18), so no choice of his?"""
    if view.ruleset.opener is Opener.KOZEL:
        return view.round_number == 1
    return _forced_opening(view)


def _heavier_openers(t: int) -> int:
    """Tiles that would have opened instead of ``t`` under R16, had they been dealt."""
    if DOUBLES >> t & 1:
        return DOUBLES & ~((2 << t) - 1)
    return ALL & ~((2 << t) - 1) | DOUBLES
