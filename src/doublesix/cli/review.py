"""``doublesix review FILE``: each move of one seat beside the expert's choice and its cost."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from doublesix.cli.common import CommandError, Subparsers, UsageError, number
from doublesix.cli.replay import read_record_text
from doublesix.review import review
from doublesix.rules import record


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "review",
        help="a seat's moves beside the expert's",
        description="Replays a doublesix/1 record and prints, for one seat, each of its "
        "moves with the expert's best move and the loss where they differ: the expected "
        "points of the round for the seat's side (the hint's unit; penalties count "
        "negative, by the expert's search from that seat's view only) that the best move "
        "would have added.",
    )
    parser.add_argument("file", metavar="FILE", help="a doublesix/1 record (JSON)")
    parser.add_argument("--seat", type=int, default=0, metavar="N", help="the seat (default 0)")
    parser.add_argument(
        "--ms",
        type=number(0, 60_000, above=True),
        default=300.0,
        metavar="M",
        help="search per move in ms (default 300)",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="search seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    return parser


def run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    text = read_record_text(args.file)
    try:
        game = record.replay(record.loads(text))
    except record.RecordError as e:
        raise CommandError(f"{path}: {e}") from None
    if not 0 <= args.seat < game.ruleset.players:
        raise UsageError(f"--seat: no seat {args.seat} at a table of {game.ruleset.players}")
    rows = review(game, args.seat, args.ms, args.seed)
    total = sum(r.loss for r in rows)
    if args.json:
        print(
            json.dumps(
                {"seat": args.seat, "moves": [r.as_dict() for r in rows], "total_loss": total}
            )
        )
        return 0
    print(f"review of seat {args.seat} ({game.ruleset.preset}, {game.ruleset.players} players)")
    for r in rows:
        where = f"R{r.round} · {r.event + 1}."
        if r.choices == 1:
            print(f"{where} {r.played} (forced)")
        elif r.loss <= 0:
            print(
                f"{where} {r.played} — the expert agrees ({r.points:+.1f} expected points, "
                f"round won {r.win_chance:.0%})"
            )
        else:
            print(
                f"{where} {r.played} — expert: {r.best}, loss {r.loss:.1f} points "
                f"({r.points:+.1f} expected instead of {r.best_points:+.1f}; "
                f"round won {r.win_chance:.0%} vs {r.best_win_chance:.0%})"
            )
    differ = sum(1 for r in rows if r.loss > 0)
    print(f"{len(rows)} moves, {differ} differ from the expert, loss {total:.1f} expected points")
    return 0
