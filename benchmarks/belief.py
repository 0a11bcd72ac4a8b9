"""How near the true hands a level's deals are: the first measure of a model of the hidden hands.

    python benchmarks/belief.py --preset kozel --rounds 20 --seed 1

Plays single rounds with ``expert`` at 30 ms in every seat (``--play``: another
level). At each decision with two moves or more, it draws the deals the searching
seat would draw (``--pool`` of them, by its sampler) and weighs them two ways: by
the sampler's own weights alone (every deal that fits what the seat saw, alike:
``uniform``), and by those times the opponent model of ``--level`` (``expert``'s
network and styles; ``OpponentModel.weigh``, as its search weighs them;
``--temper``: its log-weight times this, to ask whether the model is surer, or less
sure, than it should be; ``--peek B``: plus ``B`` for each of the others' tiles in the
hand that holds it, to score how much truer ``arena_variants.py``'s dishonest
``expert-peek<B>`` is). A deal's score is the share of the others' tiles it puts
in the hand that truly holds them; a model's score at a decision is the weighted
mean of its deals' scores. Seeing every hand would score 1. A better model of the
hands puts more weight near the truth, so its score rises above ``uniform``'s;
``omniscient``'s margin in the arena (docs/strength.md) says what all of the way to
1 is worth.

Beside it, the Brier score of the odds the weighted deals give of where each hidden
tile is (lower is better): a proper score, which ``placed`` is not (a model surer
than it knows could place more right on average and choose worse), less
``uniform``'s.

Scores are printed overall and by the stage of the round (the searching seat's own
plays so far), with 95% intervals over rounds (a round's decisions are not
independent); "less uniform" is the model's score less ``uniform``'s on the same
deals, paired round by round. The same seed plays the same rounds and draws the same
deals whatever ``--level`` is, so two levels' runs compare deal for deal.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from arena_variants import register_variants
from time_regret import interval

from doublesix.bots import make_bot
from doublesix.bots.inference import Knowledge, infer
from doublesix.bots.ismcts import IsmctsBot
from doublesix.bots.sampler import Sample, Sampler
from doublesix.rules.game import Game
from doublesix.rules.ruleset import Ruleset, preset
from doublesix.rules.view import seat_view

STAGES = ((0, 1, "before its 2nd play"), (2, 3, "its 3rd-4th"), (4, 28, "its 5th on"))
"""Stages of a round by the searching seat's plays so far: (from, to, name)."""


def placed(sample: Sample, truth: Sequence[int], me: int) -> float:
    """The share of the others' tiles that ``sample`` puts in the hand that holds them."""
    held = sum(h.bit_count() for s, h in enumerate(truth) if s != me)
    if held == 0:
        return 1.0
    right = sum((sample.hands[s] & h).bit_count() for s, h in enumerate(truth) if s != me)
    return right / held


def weights_of(logs: Sequence[float]) -> list[float]:
    """Weights from log weights, the largest 1 (no overflow)."""
    top = max(logs)
    return [math.exp(x - top) for x in logs]


def weighted(scores: Sequence[float], logs: Sequence[float]) -> float:
    """The mean of ``scores`` weighted by ``logs``'s weights."""
    weights = weights_of(logs)
    return sum(w * x for w, x in zip(weights, scores, strict=True)) / sum(weights)


def brier(
    pool: Sequence[Sample], logs: Sequence[float], truth: Sequence[int], me: int, hidden: int
) -> float:
    """The Brier score of the weighted deals' odds of where each ``hidden`` tile is (each
    other hand, or neither: the boneyard, out of play), the mean over those tiles. Lower is
    better, and unlike ``placed`` a model cannot score better by being surer than it knows."""
    weights = weights_of(logs)
    total = sum(weights)
    seats = [s for s in range(len(truth)) if s != me]
    score = 0.0
    count = 0
    for t in range(28):
        bit = 1 << t
        if not hidden & bit:
            continue
        odds = [
            sum(w for w, d in zip(weights, pool, strict=True) if d.hands[s] & bit) / total
            for s in seats
        ]
        where = [1.0 if truth[s] & bit else 0.0 for s in seats]
        score += sum((p - x) ** 2 for p, x in zip(odds, where, strict=True))
        score += (1.0 - sum(odds) - (1.0 - sum(where))) ** 2
        count += 1
    return score / count if count else 0.0


def shown(per_round: list[float]) -> str:
    """The mean, and its 95% interval once there are two rounds."""
    if len(per_round) < 2:
        return f"{statistics.fmean(per_round):.3f}"
    mean, half = interval(per_round)
    return f"{mean:.3f} ± {half:.3f}"


@dataclass
class Moment:
    """A decision with two moves or more, in a round that ``decisions`` plays."""

    round: int
    game: Game
    seat: int
    plays: int
    """The seat's own plays so far this round."""
    k: Knowledge
    judge: IsmctsBot
    """The level's bot, prepared for the seat's view."""
    sampler: Sampler
    """The seat's sampler, drawing with the round's own random numbers."""


def decisions(rules: Ruleset, rounds: int, seed: int, play: str, level: str) -> Iterator[Moment]:
    """Each decision with two moves or more of ``rounds`` single rounds of ``play`` in every
    seat; the move is played when the caller asks for the next. A seed plays the same rounds
    whatever else is asked, and the sampler draws the same deals for callers that draw alike."""
    for r in range(rounds):
        game_seed = seed * 10_000 + r
        game = Game(rules, seed=game_seed)
        players = [make_bot(play, game_seed * 8 + s) for s in range(rules.players)]
        judge = make_bot(level, game_seed)
        assert isinstance(judge, IsmctsBot), f"{level} is no tree search"
        rng = random.Random(game_seed)
        own_plays = [0] * rules.players
        while game.round.ending is None:
            me = game.round.turn
            view = seat_view(game, me)
            if len(game.legal_moves()) > 1:
                k = infer(view)
                judge.prepare(view)
                yield Moment(r, game, me, own_plays[me], k, judge, Sampler(k, rng))
            game.play(players[me].choose(view))
            own_plays[me] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="kozel")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pool", type=int, default=200, help="deals drawn a decision")
    parser.add_argument("--play", default="expert:30", help="the level that plays the rounds")
    parser.add_argument("--level", default="expert", help="the level whose model weighs deals")
    parser.add_argument(
        "--temper", type=float, default=1.0, help="the model's log-weight times this (1: as is)"
    )
    parser.add_argument(
        "--peek",
        type=float,
        default=0.0,
        help="the model's log-weight plus this for each of the others' tiles in the right hand "
        "(arena_variants.py's expert-peek<B>: how much truer a model that peeks is)",
    )
    args = parser.parse_args()
    register_variants(["--bots", f"{args.play},{args.level}"])
    rules = preset(args.preset, args.players, target="round")
    # per round, per stage, per model: each decision's score
    per_round: dict[int, dict[str, dict[str, list[float]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list))
    )
    count = 0
    for m in decisions(rules, args.rounds, args.seed, args.play, args.level):
        pool = [m.sampler.sample() for _ in range(args.pool)]
        truth = m.game.round.hands
        right = [placed(s, truth, m.seat) for s in pool]
        uniform = [s.log_weight for s in pool]
        held = sum(h.bit_count() for o, h in enumerate(truth) if o != m.seat)
        model = [
            s.log_weight + args.temper * m.judge.model.weigh(m.k, s)[0] + args.peek * held * share
            for s, share in zip(pool, right, strict=True)
        ]
        now = {
            "uniform": weighted(right, uniform),
            args.level: weighted(right, model),
            "brier": brier(pool, model, truth, m.seat, m.k.unknown)
            - brier(pool, uniform, truth, m.seat, m.k.unknown),
        }
        stage = next(name for lo, hi, name in STAGES if lo <= m.plays <= hi)
        for key in (stage, "all"):
            for name, value in now.items():
                per_round[m.round][key][name].append(value)
        count += 1
    # per stage, per model: each round's mean score
    rounds: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for scores in per_round.values():
        for key, by_model in scores.items():
            for name, values in by_model.items():
                rounds[key][name].append(statistics.fmean(values))
            gains = [m - u for m, u in zip(by_model[args.level], by_model["uniform"], strict=True)]
            rounds[key]["gain"].append(statistics.fmean(gains))
    print(
        f"{rules.preset}, {rules.players} players: {args.rounds} rounds of {args.play}, "
        f"{count} decisions, {args.pool} deals each (seed {args.seed})"
        + (f", {args.level}'s log-weight times {args.temper:g}" if args.temper != 1 else "")
        + (f", plus {args.peek:g} a tile in the right hand" if args.peek else "")
    )
    print(
        f"| stage | rounds | placed: uniform | {args.level} | {args.level} less uniform "
        f"| Brier score: {args.level} less uniform |"
    )
    print("|---|---:|---|---|---|---|")
    for key in ["all", *(name for _, _, name in STAGES)]:
        if key not in rounds:
            continue
        by_model = rounds[key]
        print(
            f"| {key} | {len(by_model['uniform'])} | {shown(by_model['uniform'])} | "
            f"{shown(by_model[args.level])} | {shown(by_model['gain'])} | "
            f"{shown(by_model['brier'])} |"
        )


if __name__ == "__main__":
    main()
