"""doublesix against the PyPI package ``dominoes``: 4-player Block, random moves, one process.

Both sides play whole rounds (a deal and its play to domino or block) with
random moves, as fast as they go, and count rounds and events (plays and
passes; Block has no draws) per second; each figure is the median of several
timed runs, interleaved so that a busy machine slows every side alike.

- doublesix, fast core: ``doublesix.playout`` (``Round.playable`` /
  ``Round.play_index``), uniform over the legal moves.
- doublesix, public API: whole games through ``Game.play(Move)`` with moves
  from ``legal_moves()``, every event kept (``doublesix bench``'s API figure).
- dominoes, as its documentation plays a random game: ``Game.new(starting_domino=
  Domino(6, 6))``, then ``players.random(game)`` (which shuffles
  ``valid_moves`` by sorting on random keys) and ``game.make_move(*game.valid_moves[0])``.
- dominoes, lighter: the same game with ``random.choice(game.valid_moves)``,
  which skips the sort; the ratios use the faster of the two dominoes figures.

Both games are the same Block game: 28 tiles dealt to 4 players, 6-6 opens,
a player who cannot play passes. Run with ``make bench`` or
``.venv/bin/python benchmarks/compare_dominoes.py [--seconds S] [--runs R] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from doublesix import preset
from doublesix.cli.bench import api_run, core_run
from doublesix.rules.ruleset import Ruleset

Run = Callable[[float], tuple[int, int, float]]


def dominoes_run(seconds: float, light: bool) -> tuple[int, int, float]:
    """Random rounds of the ``dominoes`` package for ``seconds``: (rounds, events, elapsed)."""
    import dominoes  # type: ignore[import-not-found, unused-ignore]

    six_six = dominoes.Domino(6, 6)
    choose = random.choice
    rounds = events = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(20):
            game = dominoes.Game.new(starting_domino=six_six)
            if light:
                while game.result is None:
                    game.make_move(*choose(game.valid_moves))
            else:
                while game.result is None:
                    dominoes.players.random(game)
                    game.make_move(*game.valid_moves[0])
            rounds += 1
            events += len(game.moves)
        now = time.perf_counter()
        if now >= deadline:
            return rounds, events, now - start


def measure(seconds: float, runs: int, seed: int) -> dict[str, Any]:
    ruleset: Ruleset = preset("block", 4)
    rng = random.Random(seed)
    random.seed(seed)  # dominoes deals and chooses with the module's own generator
    sides: dict[str, Run] = {
        "doublesix fast core": lambda s: core_run(ruleset, s, rng),
        "doublesix public API": lambda s: api_run(ruleset, s, rng),
        "dominoes (players.random)": lambda s: dominoes_run(s, light=False),
        "dominoes (random.choice)": lambda s: dominoes_run(s, light=True),
    }
    samples: dict[str, list[tuple[int, int, float]]] = {name: [] for name in sides}
    for _ in range(runs):  # interleaved runs
        for name, run in sides.items():
            samples[name].append(run(seconds))
    figures = {
        name: {
            "rounds_per_second": round(statistics.median(r / t for r, _, t in runs_)),
            "events_per_second": round(statistics.median(e / t for _, e, t in runs_)),
        }
        for name, runs_ in samples.items()
    }
    best_dominoes = max(
        figures["dominoes (players.random)"]["rounds_per_second"],
        figures["dominoes (random.choice)"]["rounds_per_second"],
    )
    core = figures["doublesix fast core"]["rounds_per_second"]
    api = figures["doublesix public API"]["rounds_per_second"]
    return {
        "variant": "block, 4 players, random moves",
        "runs": runs,
        "seconds_per_run": seconds,
        "python": platform.python_version(),
        "figures": figures,
        "ratio_fast_core": round(core / best_dominoes, 1),
        "ratio_public_api": round(api / best_dominoes, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=1.0, help="per run (default 1)")
    parser.add_argument("--runs", type=int, default=5, help="runs per side (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.runs < 1 or not args.seconds > 0:
        parser.error("--runs and --seconds must be positive")
    try:
        import dominoes  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        print(
            "compare_dominoes: the PyPI package 'dominoes' is not installed; "
            "install it with: .venv/bin/pip install -e '.[bench]'",
            file=sys.stderr,
        )
        return 1
    result = measure(args.seconds, args.runs, args.seed)
    if args.json:
        print(json.dumps(result))
        return 0
    print(
        f"4-player Block, random moves — medians of {args.runs} interleaved runs of "
        f"{args.seconds:g} s (Python {result['python']})"
    )
    for name, f in result["figures"].items():
        rounds, events = f["rounds_per_second"], f["events_per_second"]
        print(f"  {name:<27} {rounds:>9,} rounds/s  {events:>11,} events/s")
    print(f"  fast core  / dominoes: {result['ratio_fast_core']}×")
    print(f"  public API / dominoes: {result['ratio_public_api']}×")
    return 0


if __name__ == "__main__":
    sys.exit(main())
