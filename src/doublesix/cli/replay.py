"""``doublesix replay FILE``: check a ``doublesix/1`` record by replaying it through the engine."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from doublesix.cli.common import CommandError, Subparsers
from doublesix.record_bounds import MAX_BYTES, RecordTooLarge, read_bounded, too_many_bytes
from doublesix.rules import record
from doublesix.rules.record import RecordError
from doublesix.rules.text import record_lines


def add_parser(subparsers: Subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "replay",
        help="replay a game record and check it",
        description="Replay a doublesix/1 record (docs/record.md) through the engine and print the "
        "game. Exit 0 if every event is legal and every stated result follows; exit 1 "
        "with the round, event and rule otherwise.",
    )
    parser.add_argument("file", metavar="FILE", help="the record (JSON); - reads stdin")
    parser.add_argument(
        "--json", action="store_true", help="print the whole record, every result recomputed"
    )
    return parser


def read_record_text(name: str) -> str:
    """The text of the record file ``name`` (``-``: stdin), ``record_bounds.MAX_BYTES`` at
    most: a larger file, or an endless one, is refused before it fills the memory."""
    try:
        if name == "-":
            binary = getattr(sys.stdin, "buffer", None)
            if binary is None:  # a text stream (a test's): bounded all the same
                text = sys.stdin.read(MAX_BYTES + 1)
                if len(text) > MAX_BYTES:
                    raise too_many_bytes()
                return text
            return read_bounded(binary).decode("utf-8")
        with Path(name).open("rb") as stream:
            return read_bounded(stream).decode("utf-8")
    except RecordTooLarge as e:
        raise CommandError(f"{name}: not a record: {e}") from None
    except FileNotFoundError:
        raise CommandError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise CommandError(f"{name}: is a directory, not a record") from None
    except UnicodeDecodeError:
        raise CommandError(f"{name}: not UTF-8 text, so not a record (docs/record.md)") from None
    except OSError as e:
        raise CommandError(f"{name}: cannot read: {e.strerror or e}") from None


def run(args: argparse.Namespace) -> int:
    text = read_record_text(args.file)
    try:
        data = record.loads(text)
        game = record.replay(data)
        players = data["players"]
        recomputed = record.game_record(game, players, data.get("bots"))
        lines = [] if args.json else record_lines(recomputed)
    except RecordError as e:
        raise CommandError(f"{args.file}: invalid record: {e}") from None
    if args.json:
        sys.stdout.write(record.dumps(recomputed))
        return 0
    for line in lines:
        print(line)
    rounds = len(game.rounds)
    print(f"{args.file}: valid {record.FORMAT} record, {rounds} round{'s' * (rounds != 1)}")
    return 0
