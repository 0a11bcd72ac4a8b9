"""Searching bots that weigh deals by a *fitted* model of how the others choose their tiles.

The expert of 2026's ``OpponentModel`` assumes that the others shed heavy
tiles (a softmax over pips). ``benchmarks/fit_opponent_model.py`` measured
how that expert really chooses: it plays doubles and keeps tiles of the
number it leaves open, and a conditional logit on what the chooser saw
(pips, a double, the hand's tiles that still fit the ends, those of the open
number) predicts its choices far better than the pips-only model.
``FittedModel`` is that logit, with ``WEIGHTS`` from the script's fit, mixed
with a little uniform noise; it reads only the seat's knowledge and the
sampled deal, as ``OpponentModel`` does.

Each level here is the same search as the bot it derives from with only the
model of the others changed:

- ``expert``, the table's strongest level: ``ismcts``'s information-set tree
  search (``ismcts-fit``, its name in the arena's runs before it became
  ``expert``, stays for them);
- ``expert-fit``: the expert of 2026's weighted determinised search;
- ``ismcts-style``: ``ismcts-fit`` with ``StyleModel``, which also asks which
  style of player each seat is (as the logit, heaviest-first, or at random);
  ``ismcts-style-play`` plays each deal's heaviest-first seats as such.

All but ``expert`` are for the arena only (``MEASUREMENT_BOTS``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from doublesix.bots.base import register
from doublesix.bots.budget import Work
from doublesix.bots.expert import COST as EXPERT_COST
from doublesix.bots.expert import ExpertBot, OpponentModel
from doublesix.bots.inference import Decision, Knowledge
from doublesix.bots.ismcts import COST as ISMCTS_COST
from doublesix.bots.ismcts import IsmctsBot
from doublesix.bots.native import core as native
from doublesix.bots.sampler import Sample, choices
from doublesix.bots.tables import DOUBLES, HIGH, LOW, OTHER, SUIT, VALUE

if TYPE_CHECKING:
    from doublesix.bots import _native

WEIGHTS = (0.07, 1.021, -0.226, 0.69)
"""(pips, a double, tiles kept that fit, tiles of the open number): the conditional logit
fitted by ``python benchmarks/fit_opponent_model.py`` (its defaults: ``expert`` at 30 ms, 20
Kozel and 20 Draw-2 games; the row "both", "what the chooser saw"; its output is kept in
``benchmarks/fit_opponent_model.log``). On the choices it did not fit it scores -0.907 a
choice against -1.103 for ``OpponentModel``'s pips-only softmax and -1.025 for a uniform
choice (mean log-likelihood)."""

NOISE = 0.1
"""Share of a uniform choice mixed in (a deal is never ruled out by one odd play)."""

WEIGH_COST = 3
"""The fitted logit's CPU per seen play weighed, relative to the pips-only softmax's (2.2
against 0.75 µs on 16,100 seen plays of Kozel and Draw-2 deals, both in Python): ``expert-fit``
charges ``Work.weighed`` this many times ``expert``'s cost, so that a budget buys the same CPU
as ``expert``'s units say (those of the pure-Python core)."""


class FittedModel(OpponentModel):
    """A seat's chance of playing the tile it played: the fitted conditional logit."""

    def __init__(
        self, weights: tuple[float, float, float, float] = WEIGHTS, noise: float = NOISE
    ) -> None:
        super().__init__(noise=noise)
        self.weights = weights
        w_pip, w_double = weights[0], weights[1]
        self.base = [w_pip * VALUE[x] + (w_double if DOUBLES >> x & 1 else 0.0) for x in range(28)]
        self.seen: _native.Seen | None = None
        """The C core's copy of the plays seen by ``seen_by`` (a search's knowledge)."""
        self.seen_by: Knowledge | None = None

    def scores(self, hand: int, playable: int, left: int, right: int) -> dict[int, float]:
        """The logit's score of each tile of ``playable`` (``fit_opponent_model.features``)."""
        w_kept, w_open = self.weights[2], self.weights[3]
        base = self.base
        out: dict[int, float] = {}
        q = playable
        while q:
            low = q & -q
            x = low.bit_length() - 1
            q ^= low
            rest = hand ^ low
            if left < 0:
                kept = (rest & (SUIT[LOW[x]] | SUIT[HIGH[x]])).bit_count()
                opened = (rest & SUIT[HIGH[x]]).bit_count()
            else:
                kept = opened = -1
                for end, other_end in ((left, right), (right, left)):
                    if SUIT[end] & low:
                        new = OTHER[x][end]
                        k = (rest & (SUIT[new] | SUIT[other_end])).bit_count()
                        if k > kept:
                            kept, opened = k, (rest & SUIT[new]).bit_count()
            out[x] = base[x] + w_kept * kept + w_open * opened
        return out

    def log_likelihood(self, k: Knowledge, sample: Sample) -> float:
        if native is not None:
            if self.seen is None or self.seen_by is not k:
                self.seen = self.native_seen(k)
                self.seen_by = k
            return self.seen.log_likelihood(sample.hands, sample.groups)
        return self.mirrored(k, sample)

    def native_seen(self, k: Knowledge) -> _native.Seen:
        """The C core's copy of ``k``'s seen plays with this model's weights."""
        return self.seen_of(k)

    def seen_of(
        self,
        k: Knowledge,
        public: Sequence[tuple[int, int, int, int]] | None = None,
        net: tuple[Sequence[float], Sequence[float], Sequence[float]] | None = None,
        styles: tuple[Sequence[tuple[float, float, float]], float] | None = None,
    ) -> _native.Seen:
        """``Seen`` of ``k``'s plays, with the logit's weights (and a network's, if given; and
        each seat's choices mixed over the styles of players, if given: ``style_mix``'s
        ``log_styles`` and ``slip``)."""
        assert native is not None
        return native.Seen(
            k.players,
            [(d.seat, d.index, d.tile, d.left, d.right) for d in k.decisions],
            k.drawn_by,
            self.base,
            self.weights[2],
            self.weights[3],
            self.noise,
            public,
            net,
            styles,
        )

    def mirrored(self, k: Knowledge, sample: Sample) -> float:
        """``log_likelihood`` in Python: what the C core's ``Seen`` mirrors, and runs without it."""
        total = 0.0
        for d, hand, playable in choices(k, sample):
            if playable & (playable - 1):
                total += self.log_p(d, hand, playable)
        return total

    def log_p(self, d: Decision, hand: int, playable: int) -> float:
        """The log of the chance of the choice ``d`` from ``hand``, ``playable`` its tiles that
        fitted the ends (two or more)."""
        return log_chance(self.scores(hand, playable, d.left, d.right), d.tile, self.noise)


def log_chance(scores: dict[int, float], tile: int, noise: float) -> float:
    """The log of the chance of ``tile`` among the scored tiles: a softmax of their scores
    mixed with ``noise`` of a uniform choice (``seen.c``'s ``log_chance``)."""
    top = max(scores.values())
    z = 0.0
    for v in scores.values():
        z += math.exp(v - top)
    p = math.exp(scores[tile] - top) / z
    return math.log(noise / len(scores) + (1.0 - noise) * p)


STYLES = (0.7, 0.15, 0.15)
"""The prior share of each style of player a seat may be (``StyleModel``): one who chooses as
the fitted logit says, one who always sheds the heaviest tile it can (R3's order, as ``greedy``
does), one who chooses any tile alike."""

HEAVIEST_SLIP = 0.02
"""The heaviest-first style's chance of playing another tile (a seat is never ruled out)."""


class StyleModel(FittedModel):
    """Each other seat is one of ``STYLES``'s players, unknown: the deal's likelihood is, seat by
    seat, the mixture over the styles of the likelihood of all that seat's choices.

    ``FittedModel`` assumes every seat chooses as ``expert`` does. A seat that always sheds its
    heaviest playable tile tells far more: each of its plays says it held no heavier tile at
    those ends. Mixing the styles per seat (not per choice) lets a few plays show which style a
    seat is, and from then on the deals are weighed by that style's choices.
    """

    def __init__(
        self,
        styles: tuple[float, float, float] = STYLES,
        slip: float = HEAVIEST_SLIP,
        play: bool = False,
        weights: tuple[float, float, float, float] = WEIGHTS,
        noise: float = NOISE,
    ) -> None:
        super().__init__(weights, noise)
        self.log_styles = (math.log(styles[0]), math.log(styles[1]), math.log(styles[2]))
        self.slip = slip
        self.play = play
        """Whether the search plays each deal's heaviest-first seats as such (``weigh``)."""

    def log_likelihood(self, k: Knowledge, sample: Sample) -> float:
        return self.weigh(k, sample)[0]

    def weigh(self, k: Knowledge, sample: Sample) -> tuple[float, int]:
        """The deal's log-likelihood, and (if ``play``) the seats more likely heaviest-first than
        not in this deal."""
        return style_mix(self, k, sample, [self.log_styles] * k.players, self.slip, self.play)


def style_mix(
    model: FittedModel,
    k: Knowledge,
    sample: Sample,
    log_styles: Sequence[tuple[float, float, float]],
    slip: float,
    play: bool = False,
) -> tuple[float, int]:
    """The deal's log-likelihood with each other seat one of three players, unknown — as
    ``model`` says, heaviest first (but for ``slip``), at random; ``log_styles`` per seat the
    logs of their prior shares — and (if ``play``) the seats more likely heaviest-first than
    not."""
    n = k.players
    fitted = [0.0] * n
    heaviest = [0.0] * n
    uniform = [0.0] * n
    slip_hit = math.log(1.0 - slip)
    for d, hand, playable in choices(k, sample):
        s = d.seat
        if playable & (playable - 1) == 0:
            continue
        count = playable.bit_count()
        fitted[s] += model.log_p(d, hand, playable)
        if playable.bit_length() - 1 == d.tile:
            heaviest[s] += slip_hit
        else:
            heaviest[s] += math.log(slip / (count - 1))
        uniform[s] -= math.log(count)
    total = 0.0
    heavy = 0
    for s in range(n):
        a, b, c = log_styles[s]
        x, y, w = a + fitted[s], b + heaviest[s], c + uniform[s]
        top = max(x, y, w)
        z = math.exp(x - top) + math.exp(y - top) + math.exp(w - top)
        total += top + math.log(z)
        if play and s != k.seat and math.exp(y - top) > z / 2:
            heavy |= 1 << s
    return total, heavy


ISMCTS_FIT_COST = Work(
    attempts=ISMCTS_COST.attempts,
    weighed=12,
    plays=ISMCTS_COST.plays,
    played=ISMCTS_COST.played,
    tree=ISMCTS_COST.tree,
)
"""``ismcts``'s costs, but for the fitted logit's weighing, which runs in the C core (``Seen``):
0.1–0.3 µs a seen play in the fits of ``benchmarks/calibrate_ismcts_fit.log``, against some
0.75 µs for ``ismcts``'s pips-only softmax in Python."""


class ExpertFitBot(ExpertBot):
    """``expert``'s search, weighing deals by ``FittedModel``."""

    name = "expert-fit"

    def __init__(
        self, rng: random.Random, ms_per_move: float = 100.0, model: OpponentModel | None = None
    ) -> None:
        super().__init__(rng, ms_per_move, model=model if model is not None else FittedModel())
        c = EXPERT_COST
        self.cost = Work(
            attempts=c.attempts,
            weighed=c.weighed * WEIGH_COST,
            nodes=c.nodes,
            solved=c.solved,
            plays=c.plays,
            played=c.played,
        )


class IsmctsFitBot(IsmctsBot):
    """``ismcts``'s tree search, drawing deals by ``FittedModel``."""

    name = "ismcts-fit"
    cost = ISMCTS_FIT_COST

    def __init__(
        self, rng: random.Random, ms_per_move: float = 100.0, model: FittedModel | None = None
    ) -> None:
        super().__init__(rng, ms_per_move, model=model if model is not None else FittedModel())

    def endgame(self) -> ExpertBot:
        """The fitted expert, weighing by the tree's own model (``NetModel`` in ``expert``)."""
        return ExpertFitBot(self.rng, self.ms_per_move, self.model)


class IsmctsStyleBot(IsmctsFitBot):
    """``ismcts-fit`` drawing deals by ``StyleModel``: which style of player each seat is.

    ``ismcts-style-play`` also plays, in each deal, the seats that deal shows heaviest-first
    as ``greedy`` would, in the tree and in the playouts.
    """

    name = "ismcts-style"

    def __init__(self, rng: random.Random, ms_per_move: float = 100.0, play: bool = False) -> None:
        super().__init__(rng, ms_per_move, StyleModel(play=play))
        if play:
            self.name = "ismcts-style-play"


@register("expert-fit", table=False, ms=100.0)
def _make_expert(rng: random.Random) -> ExpertFitBot:
    return ExpertFitBot(rng)


@register("ismcts-fit", table=False, ms=100.0)
def _make_ismcts(rng: random.Random) -> IsmctsFitBot:
    return IsmctsFitBot(rng)


@register("ismcts-style", table=False, ms=100.0)
def _make_style(rng: random.Random) -> IsmctsStyleBot:
    return IsmctsStyleBot(rng)


@register("ismcts-style-play", table=False, ms=100.0)
def _make_style_play(rng: random.Random) -> IsmctsStyleBot:
    return IsmctsStyleBot(rng, play=True)
