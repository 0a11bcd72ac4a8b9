"""Weighing deals by a small network's model of how the others choose their tiles.

``FittedModel``'s logit sees four features of a tile and tells the search
little about the others' hands. ``benchmarks/choice_model.py`` fits a
network with one layer of 16 tanh units on fourteen features of a tile —
those four and what the chooser saw of the table then: the unseen tiles of
the number it opens and of the other end, whether its next seat or its
partner was known to lack them, its hand's size and doubles, the boneyard —
to the choices of ``ismcts-fit`` (``expert`` then). On choices it did not see (a mean
log-likelihood, ``benchmarks/choice_model.log``) it scores -0.639 a Kozel
choice and -0.602 a Draw-2 one, against -0.792 and -0.921 for the logit
refitted on the same games and -0.983 and -1.053 for a uniform choice: its
likeliest tile is the one chosen 70% and 74% of the time.

``NetModel`` weighs a sampled deal by it (in the C core's ``Seen``), one
network per game kind, and ``NetBot`` (``ismcts-net``) is ``ismcts-fit``
drawing its deals so; in Block, which has no network, it is ``ismcts-fit``
itself. ``ismcts-net-style`` also asks which style of player each other seat
is (``fitted.style_mix``), and the table's ``expert`` reads each seat's
style from the game's earlier rounds first (``reading``).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from doublesix.bots.base import register
from doublesix.bots.budget import Work
from doublesix.bots.fitted import (
    HEAVIEST_SLIP,
    ISMCTS_FIT_COST,
    STYLES,
    FittedModel,
    IsmctsFitBot,
    log_chance,
    style_mix,
)
from doublesix.bots.inference import Decision, Group, Knowledge, ends_after, remove_played, void_of
from doublesix.bots.reading import Chance, LogShares, Readings
from doublesix.bots.sampler import Sample
from doublesix.bots.tables import DOUBLES, HIGH, LOW, OTHER, SUIT, VALUE
from doublesix.rules.moves import Draw, Pass, Play
from doublesix.rules.ruleset import Ruleset
from doublesix.rules.view import HiddenDraw, PlayedRound, PublicEvent, SeatView
from doublesix.tiles import ALL

if TYPE_CHECKING:
    from doublesix.bots import _native

HIDDEN = 16
FEATURES = 14

Public = tuple[int, int, int, int]
"""What everyone saw when a play was chosen: (tiles on the line, the numbers the chooser's
next seat and its partner were known to lack as pip masks, tiles in the boneyard)."""

Net = tuple[list[float], list[float], list[float]]
"""(w1 row by row, ``FEATURES`` rows of ``HIDDEN``; b1; w2)."""

NETS = Path(__file__).with_name("choice_net.json")
"""The networks ``ismcts-net`` weighs by: ``python benchmarks/choice_model.py --save`` (its
output is kept in ``benchmarks/choice_model.log``)."""


def load(path: str | Path) -> dict[str, Net]:
    """The networks of ``choice_model.py --save``, by game kind ("kozel-4", "draw-2")."""
    with open(path) as f:
        raw = json.load(f)
    return {
        kind: ([w for row in p["w1"] for w in row], list(p["b1"]), list(p["w2"]))
        for kind, p in raw.items()
    }


def public_rows(view: SeatView) -> dict[int, Public]:
    """Per event index of a play of the round, what everyone saw just before it (``Public``)."""
    return rows_of(view.ruleset, view.events, view.boneyard_count)


def rows_of(
    ruleset: Ruleset, events: Sequence[PublicEvent], boneyard_left: int
) -> dict[int, Public]:
    """``public_rows`` of a round's ``events``, ``boneyard_left`` tiles left in the boneyard.

    The voids are read as ``infer`` reads them for the seats it does not see, here for
    every seat: each seat's hidden tiles in groups, a pass or a draw forbidding the ends.
    """
    n = ruleset.players
    groups = [[Group(ruleset.hand_size, 0, -1)] for _ in range(n)]
    boneyard = boneyard_left + sum(isinstance(e, Draw | HiddenDraw) for e in events)
    played = 0
    left = right = -1
    last_draw_seat = -1
    rows: dict[int, Public] = {}

    for i, e in enumerate(events):
        if isinstance(e, Play):
            s = e.seat
            partner = void_of(groups[(s + 2) % n]) if n == 4 else 0
            rows[i] = (played, void_of(groups[(s + 1) % n]), partner, boneyard)
            t = e.tile.index
            if last_draw_seat == s:
                groups[s].pop()
            else:
                remove_played(groups[s], t)
            played |= 1 << t
            left, right = ends_after(e, left, right)
            last_draw_seat = -1
        elif isinstance(e, HiddenDraw | Draw):
            s = e.seat
            boneyard -= 1
            if left >= 0:
                lack = SUIT[left] | SUIT[right]
                for g in groups[s]:
                    g.forbidden |= lack
                groups[s].append(Group(1, lack, i))
            last_draw_seat = s
        elif isinstance(e, Pass):
            s = e.seat
            if left >= 0:
                lack = SUIT[left] | SUIT[right]
                for g in groups[s]:
                    g.forbidden |= lack
            last_draw_seat = -1
    return rows


def features(
    hand: int, playable: int, left: int, right: int, public: Public
) -> list[tuple[int, list[float]]]:
    """Each tile of ``playable`` with its features (at its better end), as the C core's."""
    played, next_void, partner_void, boneyard = public
    unseen = ALL & ~hand & ~played
    size = float(hand.bit_count())
    doubles = float((hand & DOUBLES).bit_count())
    out = []
    q = playable
    while q:
        low = q & -q
        t = low.bit_length() - 1
        q ^= low
        rest = hand ^ low
        if left < 0:
            options = [(HIGH[t], LOW[t])]
        else:
            options = []
            if SUIT[left] & low:
                options.append((OTHER[t][left], right))
            if SUIT[right] & low:
                options.append((OTHER[t][right], left))
        best, best_kept = 0, -1
        for i, (fresh, other_end) in enumerate(options):
            k = (rest & (SUIT[fresh] | SUIT[other_end])).bit_count()
            if k > best_kept:
                best, best_kept = i, k
        fresh, other_end = options[best]
        x = [
            VALUE[t] / 6.0,
            1.0 if DOUBLES & low else 0.0,
            best_kept / 7.0,
            (rest & SUIT[fresh]).bit_count() / 7.0,
            (unseen & SUIT[fresh]).bit_count() / 7.0,
            (unseen & SUIT[other_end]).bit_count() / 7.0,
            1.0 if next_void >> fresh & 1 and next_void >> other_end & 1 else 0.0,
            1.0 if next_void >> fresh & 1 else 0.0,
            1.0 if partner_void >> fresh & 1 else 0.0,
            size / 7.0,
            VALUE[t] / 6.0 * size / 7.0,
            doubles / 7.0,
            (rest & (SUIT[LOW[t]] | SUIT[HIGH[t]])).bit_count() / 7.0,
            boneyard / 14.0,
        ]
        out.append((t, x))
    return out


def score(net: Net, x: Sequence[float]) -> float:
    """The network's score of one tile's features."""
    w1, b1, w2 = net
    total = 0.0
    for j in range(HIDDEN):
        a = b1[j]
        for i in range(FEATURES):
            a += x[i] * w1[i * HIDDEN + j]
        total += math.tanh(a) * w2[j]
    return total


class NetModel(FittedModel):
    """A seat's chance of playing the tile it played: the network of its game kind.

    Call ``prepare`` with the view before a decision's deals are weighed: the network reads
    what everyone saw at each play (``public_rows``). Game kinds without a network are
    weighed by ``FittedModel``'s logit. With ``styles`` (their prior shares, as ``STYLES``),
    each other seat is one of three players, unknown — as the network says, heaviest first,
    at random (``fitted.style_mix``) — so that a seat that sheds its heaviest tile is weighed
    as one; with ``readings`` too, each seat's shares are first read from the game's earlier
    rounds, each round once in the process (``reading.Readings``).
    """

    def __init__(
        self,
        nets: dict[str, Net],
        styles: tuple[float, float, float] | None = None,
        readings: Readings | None = None,
    ) -> None:
        super().__init__()
        self.nets = nets
        self.prior: LogShares | None = None
        if styles is not None:
            a, b, c = styles
            self.prior = (math.log(a), math.log(b), math.log(c))
        self.readings = readings
        self.seat_styles: list[LogShares] = []
        """Per seat, the logs of its styles' shares for this decision (with ``styles``)."""
        self.net: Net | None = None
        self.rows: dict[int, Public] = {}

    def prepare(self, view: SeatView) -> None:
        self.net = self.net_of(view.ruleset)
        self.rows = public_rows(view) if self.net is not None else {}
        self.seen_by = None
        if self.prior is None:
            return
        if self.readings is not None:
            self.seat_styles = self.readings.styles(
                view.ruleset, view.seat, view.past_rounds, self.prior, self
            )
        else:
            self.seat_styles = [self.prior] * view.ruleset.players

    def net_of(self, ruleset: Ruleset) -> Net | None:
        """The network of the game kind of ``ruleset``, if it has one."""
        return self.nets.get(kind_of(ruleset))

    def native_seen(self, k: Knowledge) -> _native.Seen:
        styles = None if self.prior is None else (self.seat_styles, HEAVIEST_SLIP)
        if self.net is None:
            return self.seen_of(k, styles=styles)
        return self.seen_of(k, [self.rows[d.index] for d in k.decisions], self.net, styles)

    def mirrored(self, k: Knowledge, sample: Sample) -> float:
        if self.prior is None:
            return super().mirrored(k, sample)
        return style_mix(self, k, sample, self.seat_styles, HEAVIEST_SLIP)[0]

    def chance_in(self, ruleset: Ruleset, played: PlayedRound) -> Chance:
        net = self.net_of(ruleset)
        if net is None:
            return lambda d, hand, playable: FittedModel.log_p(self, d, hand, playable)
        rows = rows_of(ruleset, played.events, played.boneyard_count)
        return lambda d, hand, playable: self.net_log_p(net, d, hand, playable, rows[d.index])

    def log_p(self, d: Decision, hand: int, playable: int) -> float:
        if self.net is None:
            return super().log_p(d, hand, playable)
        return self.net_log_p(self.net, d, hand, playable, self.rows[d.index])

    def net_log_p(self, net: Net, d: Decision, hand: int, playable: int, public: Public) -> float:
        """The log of the chance of the choice ``d`` from ``hand`` by ``net``, ``public`` what
        everyone saw then."""
        scores = {t: score(net, x) for t, x in features(hand, playable, d.left, d.right, public)}
        return log_chance(scores, d.tile, self.noise)


NET_COST = Work(
    attempts=ISMCTS_FIT_COST.attempts,
    weighed=36,
    plays=ISMCTS_FIT_COST.plays,
    played=ISMCTS_FIT_COST.played,
    tree=ISMCTS_FIT_COST.tree,
)
"""``ismcts-fit``'s costs, but for the network's weighing: some 0.85 µs a seen play in the C
core against 0.1 µs for the logit (both measured on Kozel and Draw-2 deals), so three times
the logit's 12 units (which overcharge it)."""


class NetBot(IsmctsFitBot):
    """``ismcts-fit`` drawing its deals by ``NetModel``; where its game kind has no network,
    ``ismcts-fit`` itself (the logit's weighing, charged as the logit's)."""

    name = "ismcts-net"

    def __init__(
        self,
        rng: random.Random,
        nets: dict[str, Net],
        ms_per_move: float = 100.0,
        styles: tuple[float, float, float] | None = None,
        readings: Readings | None = None,
    ) -> None:
        self.net_model = NetModel(nets, styles, readings)
        super().__init__(rng, ms_per_move, self.net_model)

    def prepare(self, view: SeatView) -> None:
        """The network and the styles for ``view``'s game kind and seat, and their costs."""
        self.net_model.prepare(view)
        self.cost = NET_COST if self.net_model.net is not None else ISMCTS_FIT_COST


_loaded: dict[str, Net] = {}
"""``NETS``, read once (an arena makes a bot for every seat of every game)."""


def nets() -> dict[str, Net]:
    """``NETS``'s networks, read on first use."""
    if not _loaded:
        _loaded.update(load(NETS))
    return _loaded


@register("ismcts-net", table=False, ms=100.0)
def _make(rng: random.Random) -> NetBot:
    return NetBot(rng, nets())


EXPERT_MS = 30.0
"""``expert``'s budget per move at a table (README: "Default budgets")."""


_readings: dict[str, Readings] = {}
"""Per reading level, what its bots in this process read of the games' rounds."""


def _reading(rng: random.Random, name: str) -> NetBot:
    readings = _readings.setdefault(name, Readings(HEAVIEST_SLIP))
    bot = NetBot(rng, nets(), EXPERT_MS, styles=STYLES, readings=readings)
    bot.name = name
    return bot


def kind_of(ruleset: Ruleset) -> str:
    """The name of ``ruleset``'s game kind among the networks: ``kozel-4``, ``draw-2``."""
    return f"{ruleset.preset}-{ruleset.players}"


def expert_model(view: SeatView) -> NetModel:
    """``expert``'s model of the others' hands, made ready for ``view``: the network, and
    the styles the seats have shown in the game's rounds before (read with ``expert``'s)."""
    model = NetModel(nets(), STYLES, _readings.setdefault("expert", Readings(HEAVIEST_SLIP)))
    model.prepare(view)
    return model


@register("expert", ms=EXPERT_MS)
def _make_level(rng: random.Random) -> NetBot:
    """The table's strongest level: ``ismcts-net`` asking which style of player each seat is,
    read first from the game's earlier rounds (``reading``): shown stronger than
    ``ismcts-net`` (the expert before it) at the table's budget and against ``greedy``
    (README: "Strength that grows with time"), under the level's name."""
    return _reading(rng, "expert")


@register("ismcts-net-read", table=False, ms=EXPERT_MS)
def _make_reading(rng: random.Random) -> NetBot:
    """``expert`` under the name its runs before it took the level's were played by."""
    return _reading(rng, "ismcts-net-read")


@register("ismcts-net-style", table=False, ms=100.0)
def _make_style(rng: random.Random) -> NetBot:
    """``ismcts-net`` asking which style of player each seat is (``NetModel``'s ``styles``)."""
    bot = NetBot(rng, nets(), styles=STYLES)
    bot.name = "ismcts-net-style"
    return bot


WARY = (0.96, 0.02, 0.02)
"""``ismcts-net-style96``'s prior shares of the styles: ``STYLES``'s 15% on a heaviest-first
seat pulls an expert-like seat's deals away from the network's weights; a ``greedy`` seat
shows itself in a few plays at a smaller prior too."""


@register("ismcts-net-style96", table=False, ms=100.0)
def _make_wary(rng: random.Random) -> NetBot:
    """``ismcts-net-style`` with ``WARY``'s prior."""
    bot = NetBot(rng, nets(), styles=WARY)
    bot.name = "ismcts-net-style96"
    return bot
