"""Why bot A lost: replay the games of an arena log that A lost, round by round.

    python benchmarks/arena_losses.py benchmarks/arena/kozel-expert-greedy.jsonl [--with omniscient]

A deal's games depend only on its number, so every game A lost can be
played again exactly. For each, this prints the rounds: how each ended
(domino or fish), the pips of each side and the points written down. With
``--with BOT`` it also plays the same deal and seating with BOT in A's
seats (``omniscient``: does a bot that sees every hand win it? ``expert`` with a
larger ``--with-ms``: would more time have won it?).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from doublesix.bots import make_bot
from doublesix.bots.arena import configure, deal_seed, play_game, seatings
from doublesix.bots.base import budget_of
from doublesix.rules.game import Game
from doublesix.rules.ruleset import Ruleset


def replay(
    ruleset: Ruleset,
    names: tuple[str, str],
    seed: int,
    seating: tuple[int, ...],
    ms: float | None,
    reseed: int = 0,
) -> Game:
    """The game of ``seed`` in ``seating``; ``reseed`` shifts the seeds of A's bots.

    ``ms`` is the budget of a bot given without one of its own (``level:ms``).
    """
    bots = [
        configure(
            make_bot(names[who], seed * 97 + s + (reseed if who == 0 else 0)),
            budget_of(names[who], ms),
        )
        for s, who in enumerate(seating)
    ]
    return play_game(ruleset, seed, bots)


def a_lost(ruleset: Ruleset, game: Game, seating: tuple[int, ...]) -> bool:
    winners = {s for side in game.result.winners for s in ruleset.seats_of(side)}
    return not any(seating[s] == 0 for s in winners)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--with", dest="other", metavar="BOT")
    parser.add_argument(
        "--with-ms", type=float, metavar="M", help="BOT's budget (default: the log's)"
    )
    parser.add_argument(
        "--reseed",
        type=int,
        default=0,
        metavar="K",
        help="seed BOT differently (K added to its seeds): the control for --with-ms, since "
        "games lost by a hair often turn on any change at all",
    )
    args = parser.parse_args()
    lines = args.log.read_text().splitlines()
    header = json.loads(lines[0])
    ruleset = Ruleset.from_dict(header["ruleset"])
    a, b = header["bots"]
    ms = header["ms_per_move"]
    deals = [json.loads(line) for line in lines[1:]]
    lost = [d["deal"] for d in deals if d["result"]["b_wins"] or d["result"]["draws"]]
    kinds: Counter[str] = Counter()
    charged: Counter[str] = Counter()
    rescued = 0
    games = 0
    for deal in lost:
        seed = deal_seed(header["seed"], deal)
        for seating in seatings(ruleset):
            game = replay(ruleset, (a, b), seed, seating, ms)
            if not a_lost(ruleset, game, seating):
                continue
            games += 1
            a_seats = [s for s in range(ruleset.players) if seating[s] == 0]
            a_sides = {ruleset.side_of(s) for s in a_seats}
            print(f"deal {deal}, {a} at seats {a_seats}: scores {game.scores}")
            for number, rnd in enumerate(game.rounds, 1):
                res = rnd.result
                if res is None:
                    continue
                sides = [0] * ruleset.sides
                for seat, pips in enumerate(res.hand_values):
                    sides[ruleset.side_of(seat)] += pips
                to_a = sum(res.points[s] for s in a_sides)
                to_b = sum(p for s, p in enumerate(res.points) if s not in a_sides)
                kind = res.kind.value
                kinds[kind] += 1
                charged[f"{kind} to {a}"] += to_a
                charged[f"{kind} to {b}"] += to_b
                print(f"  round {number}: {kind:6} pips by side {sides}, points {list(res.points)}")
            if args.other:
                names = (args.other, b)
                again = replay(ruleset, names, seed, seating, args.with_ms or ms, args.reseed)
                won = not a_lost(ruleset, again, seating)
                rescued += won
                print(f"  the same with {args.other}: {'won' if won else 'lost'} ({again.scores})")
    print(f"{games} games lost by {a} in {len(lost)} deals; rounds by ending: {dict(kinds)}")
    print(f"points written in those games: {dict(charged)}")
    if args.other:
        print(f"{args.other} in {a}'s seats won {rescued} of them")


if __name__ == "__main__":
    main()
