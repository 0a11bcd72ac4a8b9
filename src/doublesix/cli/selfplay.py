"""``doublesix selfplay``: whole games between bots, one record per game."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from doublesix.bots import make_bot, table_bots
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
from doublesix.rules.ruleset import Ruleset, Scoring
from doublesix.rules.view import seat_view


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "selfplay",
        help="bots play whole games against each other",
        description="Bots play whole games; prints who won. The same --seed gives the same "
        "games: game i is dealt from seed S + i - 1 and each bot's seed is derived from it.",
    )
    add_ruleset_options(parser)
    parser.add_argument("--games", type=int, default=10, metavar="G", help="games (default 10)")
    parser.add_argument("--seed", type=int, metavar="S", help="seed of the first game")
    parser.add_argument(
        "--bots",
        default="random",
        metavar="NAMES",
        help=f"one bot per seat, comma-separated, or one for all ({', '.join(table_bots())}; "
        "default random)",
    )
    parser.add_argument(
        "--records", metavar="DIR", help="write each game's record to DIR/game-0001.json, …"
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    return parser


def play_game(ruleset: Ruleset, seed: int, bots: Sequence[str]) -> Game:
    """A whole game between ``bots`` (one name per seat), dealt from ``seed``.

    Each bot decides from its seat's view only; its seed is ``bot_seed(seed, seat)``.
    """
    players = [make_bot(name, bot_seed(seed, seat)) for seat, name in enumerate(bots)]
    game = Game(ruleset, seed=seed)
    while not game.finished:
        seat = game.turn
        if seat is None:
            game.next_round()
            continue
        game.play(players[seat].choose(seat_view(game, seat)), seat)
    return game


def player_names(bots: Sequence[str]) -> list[str]:
    """The record's display names: ``Bot 0``, ``Bot 1`` …; the levels go in its ``bots``."""
    return [bot_name(seat) for seat in range(len(bots))]


def side_label(ruleset: Ruleset, side: int) -> str:
    if ruleset.pairs:
        return "seats " + " & ".join(str(s) for s in ruleset.seats_of(side))
    return f"seat {side}"


def run(args: argparse.Namespace) -> int:
    ruleset = ruleset_from(args)
    if args.games < 1:
        raise UsageError(f"--games: {args.games}; play at least 1 game")
    bots = parse_bots(args.bots, ruleset.players, table_bots())
    seed = new_seed() if args.seed is None else args.seed
    folder = Path(args.records) if args.records else None
    if folder is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise CommandError(f"--records: cannot create {folder}: {e.strerror or e}") from None

    wins = [0] * ruleset.sides
    dry_wins = rounds = 0
    for number in range(1, args.games + 1):
        game = play_game(ruleset, seed + number - 1, bots)
        rounds += len(game.rounds)
        dry_wins += game.result.dry_win
        for side in game.result.winners:
            wins[side] += 1
        if folder is not None:
            path = folder / f"game-{number:04d}.json"
            text = record.dumps(record.game_record(game, player_names(bots), bots))
            try:
                path.write_text(text, encoding="utf-8")
            except OSError as e:
                raise CommandError(f"--records: cannot write {path}: {e.strerror or e}") from None

    sides = [side_label(ruleset, side) for side in range(ruleset.sides)]
    summary = {
        "preset": ruleset.preset,
        "players": ruleset.players,
        "target": ruleset.target,
        "seed": seed,
        "games": args.games,
        "bots": bots,
        "sides": sides,
        "wins": wins,
        "dry_wins": dry_wins,
        "mean_rounds": round(rounds / args.games, 2),
        "records": str(folder) if folder is not None else None,
        "ruleset": ruleset.to_dict(),
    }
    if args.json:
        print(json.dumps(summary))
        return 0
    print(
        f"selfplay: {args.games} game{'s' * (args.games != 1)} of {ruleset.preset}, "
        f"{ruleset.players} players, target {ruleset.target}, seed {seed}"
    )
    print("bots: " + ", ".join(f"seat {s} {name}" for s, name in enumerate(bots)))
    print("wins: " + ", ".join(f"{label} {n}" for label, n in zip(sides, wins, strict=True)))
    if ruleset.scoring is Scoring.KOZEL:
        print(f"dry wins: {dry_wins}")
    print(f"mean rounds per game: {summary['mean_rounds']}")
    if folder is not None:
        last = f" … game-{args.games:04d}.json" if args.games > 1 else ""
        print(f"records: {folder}/game-0001.json{last}")
    return 0
