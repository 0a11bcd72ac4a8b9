"""``doublesix arena``: bot A against bot B on duplicate deals, with a 95% interval and Elo."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from doublesix.bots import BOTS
from doublesix.bots.arena import ArenaResult, run_arena, summary
from doublesix.bots.arena_log import ArenaLog, ArenaLogError, run_header
from doublesix.bots.base import BUDGETS, parse_spec
from doublesix.cli.common import (
    CommandError,
    Subparsers,
    UsageError,
    add_ruleset_options,
    number,
    ruleset_from,
)


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "arena",
        help="bot A against bot B on duplicate deals",
        description="Bot A against bot B. Every deal is played in every seating (hands "
        "swapped between the sides; with 3 players, each bot alone at each seat), so luck "
        "cancels. Prints the wins, A's win rate with its 95%% interval (Wilson; a draw "
        "counts half), the Elo difference, points per game and per round, and the CPU time "
        "per move. The same --seed gives the same games.",
    )
    add_ruleset_options(parser)
    parser.add_argument(
        "--bots",
        required=True,
        metavar="A,B",
        help=f"the two bots ({', '.join(BOTS)}); they may be the same. A searching bot "
        f"({', '.join(BUDGETS)}) may carry its own budget per move as LEVEL:MS, e.g. "
        "expert:300,expert:30",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=100,
        metavar="G",
        help="games to play at least, rounded up to whole deals (default 100)",
    )
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="seed (default 1)")
    parser.add_argument(
        "--ms-per-move",
        type=number(0, 60_000, above=True),
        metavar="M",
        help="time budget per move of the searching bots given without one of their own, in "
        "ms of one core (default: each level's); counted as work, so results stay "
        "reproducible",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="play deals in N processes at once (default 1); the games and results are "
        "the same as with one",
    )
    parser.add_argument(
        "--log",
        type=Path,
        metavar="FILE",
        help="keep each played deal in FILE (JSON lines) and resume from it: a stopped run "
        "started again with the same options and code goes on where it stopped",
    )
    parser.add_argument("--json", action="store_true", help="print the result as one JSON object")
    return parser


def run(args: argparse.Namespace) -> int:
    ruleset = ruleset_from(args)
    names = [n.strip() for n in args.bots.split(",")]
    if len(names) != 2:
        raise UsageError(f"--bots: give two bots as A,B, not {args.bots!r}")
    for name in names:
        try:
            parse_spec(name)
        except ValueError as error:
            raise UsageError(f"--bots: {error}") from None
    if args.games < 1:
        raise UsageError(f"--games: {args.games}; play at least 1 game")
    if args.jobs < 1:
        raise UsageError(f"--jobs: {args.jobs}; give 1 or more processes")
    log = None
    if args.log is not None:
        header = run_header(ruleset, (names[0], names[1]), args.seed, args.ms_per_move)
        try:
            log = ArenaLog(args.log, header)
        except ArenaLogError as error:
            raise UsageError(f"--log: {error}") from None
        except OSError as error:
            raise CommandError(f"--log: {args.log}: {error.strerror}") from None
    show = sys.stderr.isatty() and not args.json

    def progress(result: ArenaResult) -> None:
        if show:
            print(
                f"\r{result.games} games, {result.bots[0]} {result.a_wins}, "
                f"{result.bots[1]} {result.b_wins}, draws {result.draws}",
                end="",
                file=sys.stderr,
            )

    result = run_arena(
        ruleset,
        names[0],
        names[1],
        args.games,
        args.seed,
        args.ms_per_move,
        progress,
        jobs=args.jobs,
        done=log.deals if log is not None else None,
        on_deal=log.append if log is not None else None,
    )
    if show:
        print(file=sys.stderr)
    if args.json:
        print(json.dumps(result.as_dict()))
    else:
        print(summary(result))
    return 0
