"""``medium``: a hand-written club player's strategy — no search, well under 5 ms a move.

Each legal move gets a score from rules of thumb a good club player would
recognise:

- shed heavy tiles early (their pips count against you), the lone 6-6 and
  0-0 of Kozel most of all;
- play doubles while their number is still open — a double fits only one
  number and gets stranded;
- keep the numbers you hold many of: leave ends that your own hand can
  answer, so you are not the one who passes;
- use what the others have shown they lack (a pass or a draw at ends a and
  b: that seat holds neither a nor b): leave ends the next opponent cannot
  answer, and in pair play ends your partner can;
- in pair play, answer the numbers your partner has been playing.
"""

from __future__ import annotations

import random

from doublesix.bots.base import register
from doublesix.bots.core import moves_of
from doublesix.bots.inference import infer
from doublesix.bots.pimc import to_move
from doublesix.rules.moves import Move
from doublesix.rules.ruleset import Scoring
from doublesix.rules.view import SeatView
from doublesix.tiles import DOUBLES, HIGH, LOW, OTHER, SUIT, TILES, VALUE

_SIX_SIX = TILES[27].index
_ZERO_ZERO = TILES[0].index


class MediumBot:
    name = "medium"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Move:
        rules = view.ruleset
        left, right = view.ends if view.ends is not None else (-1, -1)
        playable = 0
        for m in view.legal_moves:
            playable |= 1 << m.tile.index
        moves = moves_of(playable, left, right)
        if len(moves) == 1:
            return to_move(view, *moves[0])
        k = infer(view)
        n = rules.players
        me = view.seat
        hand = k.hand
        nxt = (me + 1) % n
        pairs = rules.pairs
        partner = (me + 2) % n if pairs else -1
        opponents = [s for s in range(n) if rules.side_of(s) != rules.side_of(me)]
        voids = [k.void(s) for s in range(n)]
        kozel = rules.scoring is Scoring.KOZEL
        # numbers the partner has been playing (he likes them)
        partner_pips = [0] * 7
        if partner >= 0:
            for d in k.decisions:
                if d.seat == partner:
                    partner_pips[LOW[d.tile]] += 1
                    partner_pips[HIGH[d.tile]] += 1
        unseen = k.unknown
        best = -1e9
        choice = moves[0]
        for t, end in moves:
            rest = hand & ~(1 << t)
            if left < 0:
                nl, nr = LOW[t], HIGH[t]
            elif end == 0:
                nl, nr = OTHER[t][left], right
            else:
                nl, nr = left, OTHER[t][right]
            ends_mask = SUIT[nl] | SUIT[nr]
            score = 1.0 * VALUE[t]
            if DOUBLES >> t & 1:
                score += 6.0
            if kozel and t == _SIX_SIX:
                score += 25.0
            if kozel and t == _ZERO_ZERO:
                score += 10.0
            # my answers to the new ends, and the numbers I hold many of
            answers = (rest & ends_mask).bit_count()
            score += 4.0 * answers
            for pip in (nl, nr):
                mine = (rest & SUIT[pip]).bit_count()
                out = (unseen & SUIT[pip]).bit_count()
                score += 1.5 * mine - 0.5 * out
            # the next seat: an opponent who lacks both new ends must pass
            for s in opponents:
                lack = voids[s]
                both = lack >> nl & 1 and lack >> nr & 1
                one = lack >> nl & 1 or lack >> nr & 1
                weight = 2.0 if s == nxt else 1.0
                if both:
                    score += 9.0 * weight
                elif one:
                    score += 2.0 * weight
            if partner >= 0:
                lack = voids[partner]
                if lack >> nl & 1 and lack >> nr & 1:
                    score -= 8.0
                score += 1.5 * (partner_pips[nl] + partner_pips[nr])
            # nobody can answer: the line is blocked — good only if we are light
            if not (unseen & ends_mask) and not (rest & ends_mask):
                mine = sum(VALUE[x] for x in range(28) if rest >> x & 1)
                hidden = sum(VALUE[x] for x in range(28) if unseen >> x & 1)
                others = max(1, sum(view.hand_counts) - hand.bit_count())
                per_tile = hidden / max(1, unseen.bit_count())
                score += 20.0 if mine < per_tile * others / max(1, n - 1) else -20.0
            if score > best:
                best = score
                choice = (t, end)
        return to_move(view, *choice)


register("medium")(MediumBot)
