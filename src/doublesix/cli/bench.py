"""``doublesix bench``: random-playout throughput, through the fast core and the public API.

Both measure random play, uniform over the legal moves (``doublesix.playout``):

- the fast core deals with ``playout.new_round`` and plays with
  ``playout.playout`` on ``Round.playable`` / ``Round.play_index``: rounds are
  first rounds, dealt and opened by the preset's rules;
- the public API plays whole games: ``Game(ruleset, seed)``, ``legal_moves()``,
  ``Game.play(Move)``, ``next_round()``, every event kept in the game's rounds.

Each figure is the median of several timed runs.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from doublesix.cli.common import (
    Subparsers,
    UsageError,
    add_ruleset_options,
    number,
    ruleset_from,
)
from doublesix.playout import random_rounds
from doublesix.rules.game import Game
from doublesix.rules.ruleset import Ruleset

Run = Callable[[Ruleset, float, random.Random], tuple[int, int, float]]


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "bench",
        help="measure random-playout speed",
        description="Random play (uniform over the legal moves) as fast as it goes: rounds and "
        "events per second through the fast core (Round.play_index) and through the "
        "public API (Game.play with Moves from legal_moves()); medians of several runs.",
    )
    add_ruleset_options(parser)
    parser.add_argument(
        "--seconds",
        type=number(0, 3600, above=True),
        default=5.0,
        metavar="S",
        help="total time, split over the runs of both measurements (default 5)",
    )
    parser.add_argument("--runs", type=int, default=5, metavar="R", help="runs each (default 5)")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="seed (default 1)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    return parser


def core_run(ruleset: Ruleset, seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """Random rounds through the fast core for about ``seconds``: (rounds, events, elapsed)."""
    rounds = events = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        events += random_rounds(ruleset, 50, rng)
        rounds += 50
        now = time.perf_counter()
        if now >= deadline:
            return rounds, events, now - start


def api_game(ruleset: Ruleset, seed: int, rng: random.Random) -> tuple[int, int]:
    """One whole game of random moves through the public API: (rounds, events)."""
    rand = rng.random
    game = Game(ruleset, seed=seed)
    while not game.finished:
        if game.turn is None:
            game.next_round()
            continue
        moves = game.legal_moves()
        game.play(moves[int(rand() * len(moves))])
    return len(game.rounds), sum(len(r.play.events) for r in game.rounds)


def api_run(ruleset: Ruleset, seconds: float, rng: random.Random) -> tuple[int, int, float]:
    """Whole random games through the public API for ``seconds``: (rounds, events, elapsed)."""
    rounds = events = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        r, e = api_game(ruleset, rng.getrandbits(32), rng)
        rounds += r
        events += e
        now = time.perf_counter()
        if now >= deadline:
            return rounds, events, now - start


def median_rates(
    run: Run, ruleset: Ruleset, seconds: float, runs: int, rng: random.Random
) -> tuple[float, float]:
    """Median rounds/s and events/s over ``runs`` runs of ``seconds`` each."""
    rates = [run(ruleset, seconds, rng) for _ in range(runs)]
    return (
        statistics.median(r / t for r, _, t in rates),
        statistics.median(e / t for _, e, t in rates),
    )


def measure(ruleset: Ruleset, seconds: float, runs: int, seed: int) -> dict[str, Any]:
    """Both measurements, ``seconds`` in all: the figures of ``doublesix bench --json``."""
    rng = random.Random(seed)
    each = seconds / (2 * runs)
    core = median_rates(core_run, ruleset, each, runs, rng)
    api = median_rates(api_run, ruleset, each, runs, rng)
    return {
        "preset": ruleset.preset,
        "players": ruleset.players,
        "rounds_per_second": round(core[0]),
        "events_per_second": round(core[1]),
        "api_rounds_per_second": round(api[0]),
        "api_events_per_second": round(api[1]),
        "runs": runs,
        "seconds_per_run": round(each, 3),
        "policy": "uniform over the legal moves",
    }


def run(args: argparse.Namespace) -> int:
    ruleset = ruleset_from(args)
    if args.runs < 1:
        raise UsageError(f"--runs: {args.runs}; at least 1 run")
    if not args.seconds > 0:
        raise UsageError(f"--seconds: {args.seconds}; give a positive time")
    figures = measure(ruleset, args.seconds, args.runs, args.seed)
    if args.json:
        print(json.dumps(figures))
        return 0
    print(
        f"bench: {ruleset.preset}, {ruleset.players} players — random play, uniform over the "
        f"legal moves; medians of {args.runs} runs of {figures['seconds_per_run']} s"
    )
    rows = [
        ("fast core (Round.play_index)", "rounds_per_second", "events_per_second"),
        ("public API (Game.play)", "api_rounds_per_second", "api_events_per_second"),
    ]
    for label, rounds, events in rows:
        print(f"  {label:<30} {figures[rounds]:>9,} rounds/s  {figures[events]:>11,} events/s")
    return 0
