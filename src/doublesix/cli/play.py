"""``doublesix play``: a human (seat 0) plays in the terminal against bots."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from doublesix.bots import make_bot, table_bots
from doublesix.bots.base import Bot
from doublesix.cli.common import (
    CommandError,
    Subparsers,
    UsageError,
    add_ruleset_options,
    bot_seed,
    new_seed,
    parse_bots,
    ruleset_from,
)
from doublesix.names import bot_name
from doublesix.rules import record
from doublesix.rules.game import Game
from doublesix.terminal import TerminalGame


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "play",
        help="play in the terminal against bots",
        description="Play a whole game in the terminal, seat 0 against bots. Choose a move by "
        "its number or by its tile (2-5, 2-5 left); q or Ctrl-D leaves.",
    )
    add_ruleset_options(parser)
    parser.add_argument(
        "--bots",
        default="greedy",
        metavar="NAMES",
        help="the bots of seats 1, 2, …: comma-separated, or one name for all "
        f"({', '.join(table_bots())}; default greedy)",
    )
    parser.add_argument("--seed", type=int, metavar="S", help="seed of the game (default: new)")
    parser.add_argument("--name", default="You", help="your name (default: You)")
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="save the game's record (docs/record.md) to FILE at the end",
    )
    return parser


def run(args: argparse.Namespace) -> int:
    ruleset = ruleset_from(args)
    others = parse_bots(args.bots, ruleset.players - 1, table_bots())
    name = args.name.strip()
    if not name:
        raise UsageError("--name: give a name")
    seed = new_seed() if args.seed is None else args.seed
    bots: list[Bot | None] = [None]
    bots += [make_bot(level, bot_seed(seed, seat)) for seat, level in enumerate(others, 1)]
    names = [name, *(bot_name(seat) for seat in range(1, ruleset.players))]
    levels: list[str | None] = [None, *others]
    target = Path(args.record) if args.record else None
    if target is not None and target.is_dir():
        raise CommandError(f"--record: {target} is a directory; give a file name")

    def save(game: Game) -> str | None:
        if target is None:
            return None
        try:
            text = record.dumps(record.game_record(game, names, levels))
            target.write_text(text, encoding="utf-8")
        except OSError as e:
            return f"Could not save the record to {target}: {e.strerror or e}"
        return f"Record saved to {target}."

    game = TerminalGame(
        ruleset, bots, names, seed=seed, input=sys.stdin, output=sys.stdout, on_exit=save
    )
    return game.run()
