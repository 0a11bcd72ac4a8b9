"""Ratings: the variant family of a ruleset, and a finished game's rating update.

Pure (no I/O): ``server/rating_store.py`` keeps the ratings, this module
says what they become.

The model is openskill's Plackett–Luce (Weng & Lin 2011). Every game of
doublesix ends in a ranking of sides — the winners, then the others, a pair
of Kozel partners being one side — and Plackett–Luce rates exactly that: any
number of teams, each of any size, ranked with ties, at a cost linear in the
teams (Bradley–Terry and Thurstone–Mosteller "full" compare every pair of
teams). It is openskill's default and the model its authors recommend.

The scale is the one people know from Elo: a new player has 1500, and
``BETA`` is chosen so that between two sure ratings a difference of 400
means 10 to 1 odds, as in Elo (Plackett–Luce with two teams is a logistic of
the difference over ``c = √(σa² + σb² + 2β²)``; with σ → 0, ``c = √2·β``
must be ``400 / ln 10``). ``SIGMA`` and ``TAU`` keep openskill's proportions
(σ₀ = 2β, τ = σ₀/100). The number shown is ``mu``; a rating is provisional
(shown with "?") until ``PROVISIONAL_GAMES`` rated games.

Bots take part with fixed ratings (``BOT_RATINGS``), never updated: they
are calibrated from the arena by ``benchmarks/bot_ratings.py``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from openskill.models import PlackettLuce

from doublesix.rules.ruleset import Ruleset, Scoring

START = 1500.0
"""A new player's rating."""
BETA = 400 / (math.log(10) * math.sqrt(2))
"""Skill's spread within one game: Elo's scale for two sure ratings (see the module)."""
SIGMA = 2 * BETA
"""A new player's uncertainty (openskill's σ₀ = 2β)."""
TAU = SIGMA / 100
"""The uncertainty a rating gains before each game, so it never freezes."""
PROVISIONAL_GAMES = 10
"""A rating counts as known (no "?") after this many rated games."""

MODEL = PlackettLuce(mu=START, sigma=SIGMA, beta=BETA, tau=TAU)


class Family(StrEnum):
    """A rating's variant: games alike enough to share one rating.

    Draw and Block are the two ways of the classic game (with and without a
    boneyard, whichever preset they start from); Kozel is its own. The VOG
    presets are rated each apart: a hand-laid line, the lowest double's
    opening and winner-takes-all (or goat) scoring make them other games.
    """

    DRAW = "draw"
    BLOCK = "block"
    KOZEL = "kozel"
    VOG_TALON = "vog-talon"
    VOG_BLOCK = "vog-block"
    VOG_GOAT = "vog-goat"


_VOG = {f.value: f for f in (Family.VOG_TALON, Family.VOG_BLOCK, Family.VOG_GOAT)}


def family_of(ruleset: Ruleset) -> Family:
    """The family a game of ``ruleset`` is rated in."""
    if ruleset.preset in _VOG:
        return _VOG[ruleset.preset]
    if ruleset.scoring is Scoring.KOZEL:
        return Family.KOZEL
    return Family.DRAW if ruleset.boneyard else Family.BLOCK


def family_named(name: str) -> Family | None:
    """The family of that name (``/leaderboard/{variant}``), None if there is none."""
    try:
        return Family(name)
    except ValueError:
        return None


class Outcome(StrEnum):
    WIN = "win"
    LOSS = "loss"
    DRAW = "draw"
    """Nobody won (R40: a tied single round)."""


@dataclass(frozen=True)
class Skill:
    """A rating as openskill keeps it: its mean and its uncertainty."""

    mu: float = START
    sigma: float = SIGMA


@dataclass(frozen=True)
class ShownRating:
    """A rating as people see it: ``1712`` or, provisional, ``1712?``."""

    rating: int
    provisional: bool
    games: int

    @property
    def text(self) -> str:
        return f"{self.rating}?" if self.provisional else str(self.rating)

    def to_json(self) -> dict[str, Any]:
        return {"rating": self.rating, "provisional": self.provisional, "games": self.games}


def shown(skill: Skill, games: int) -> ShownRating:
    return ShownRating(round(skill.mu), games < PROVISIONAL_GAMES, games)


BOT_RATINGS: Mapping[str, Skill] = {
    "random": Skill(1126.0, 25.0),
    "greedy": Skill(1228.0, 25.0),
    "medium": Skill(1500.0, 25.0),
    "pimc": Skill(1661.0, 25.0),
    "expert": Skill(1857.0, 25.0),
}
"""Each table level's fixed rating and its uncertainty, every family alike: the output of
``python benchmarks/bot_ratings.py > benchmarks/bot_ratings.log`` (a weighted fit of the
arena's logs in benchmarks/arena/, ``medium`` at a new player's 1500)."""


def bot_skill(level: str | None) -> Skill:
    """A bot's fixed rating; a level the arena never measured counts as ``greedy``."""
    return BOT_RATINGS.get(level or "", BOT_RATINGS["greedy"])


def side_ranks(ruleset: Ruleset, result: Mapping[str, Any]) -> list[int]:
    """Each side's place in a finished game (0 is first; equal places tie).

    The winners share the first place; the other sides follow by their scores
    (more points are better, or fewer where points are penalties: Kozel's and
    the goat's losers are the sides that passed the target). A game nobody
    won (R40's tied round) is a draw: every side ties.
    """
    sides = ruleset.sides
    winners = set(result.get("winners") or ())
    if not winners:
        return [0] * sides
    scores = list(result.get("scores") or [0] * sides)
    losers = set(result.get("losers") or ())
    sign = 1 if ruleset.scoring.penalties else -1

    def key(side: int) -> tuple[int, int]:
        if side in winners:
            return (0, 0)
        return (2 if side in losers else 1, sign * scores[side])

    keys = [key(s) for s in range(sides)]
    order = sorted(set(keys))
    return [order.index(k) for k in keys]


def side_outcomes(ruleset: Ruleset, result: Mapping[str, Any]) -> list[Outcome]:
    """Each side's outcome: a winner wins, every other side loses, nobody won: a draw."""
    winners = set(result.get("winners") or ())
    if not winners:
        return [Outcome.DRAW] * ruleset.sides
    return [Outcome.WIN if s in winners else Outcome.LOSS for s in range(ruleset.sides)]


def seat_outcomes(ruleset: Ruleset, result: Mapping[str, Any]) -> list[Outcome]:
    """Each seat's outcome: its side's."""
    sides = side_outcomes(ruleset, result)
    return [sides[ruleset.side_of(seat)] for seat in range(ruleset.players)]


def rate_game(
    ruleset: Ruleset,
    result: Mapping[str, Any],
    skills: Sequence[Skill],
    fixed: Sequence[bool],
) -> list[Skill]:
    """Every seat's rating after the game: ``skills`` per seat before it, ``fixed`` the
    seats whose rating does not move (bots). The teams are the ruleset's sides."""
    if len(skills) != ruleset.players or len(fixed) != ruleset.players:
        raise ValueError(f"{ruleset.players} seats expected")
    teams = [
        [MODEL.rating(mu=skills[s].mu, sigma=skills[s].sigma) for s in ruleset.seats_of(side)]
        for side in range(ruleset.sides)
    ]
    rated = MODEL.rate(teams, ranks=[float(r) for r in side_ranks(ruleset, result)])
    after = list(skills)
    for side, team in enumerate(rated):
        for seat, player in zip(ruleset.seats_of(side), team, strict=True):
            if not fixed[seat]:
                after[seat] = Skill(player.mu, player.sigma)
    return after
