"""The honesty tests' instrument: a round played at random, and the same round on another deal
that the seat to move cannot tell from it (the hidden tiles dealt again by the sampler)."""

from __future__ import annotations

import random

from doublesix.bots.inference import infer
from doublesix.bots.sampler import Sampler
from doublesix.rules.deal import Deal, RecordedDealer
from doublesix.rules.game import Game
from doublesix.rules.moves import Move, Play
from doublesix.rules.ruleset import Ruleset
from doublesix.rules.view import seat_view
from doublesix.tiles import ALL


class FixedDealer:
    """A dealer that deals one given deal."""

    def __init__(self, deal: Deal) -> None:
        self.inner = RecordedDealer([deal], [])

    def deal(self) -> Deal:
        return self.inner.deal()

    def lead_draw(self, seat: int, taken: int) -> int:
        return self.inner.lead_draw(seat, taken)


def played_at_random(rules: Ruleset, seed: int, plays: range) -> Game | None:
    """A round of ``rules`` (seed ``seed``) after a number of random moves drawn from
    ``plays``; None once it ended, or when the seat to move has no choice."""
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(plays.start, plays.stop)):
        if game.round.ending is not None:
            break
        game.play(rng.choice(game.legal_moves()))
    if game.round.ending is not None or len(game.legal_moves()) < 2:
        return None
    return game


def redealt(rules: Ruleset, game: Game, seed: int, boneyard: bool = False) -> Game:
    """``game``'s round on a deal the sampler draws for the seat to move (seeded ``seed``), its
    plays made again: the seat's view is the same, the others' hands may differ. With
    ``boneyard``, the sample's boneyard, in its order, is dealt too."""
    k = infer(seat_view(game, game.round.turn))
    sample = Sampler(k, random.Random(seed)).sample()
    hands = tuple(sample.hands[s] | k.played_by[s] for s in range(len(game.round.hands)))
    bone = tuple(sample.bone) if boneyard else ()
    out = ALL & ~sum(1 << t for t in bone)
    for hand in hands:
        out &= ~hand
    other = Game(rules, dealer=FixedDealer(Deal(hands, bone, out)))
    for e in game.round.events[len(other.round.events) :]:
        if isinstance(e, Play):
            other.play(Move(e.tile, e.end))
    return other
