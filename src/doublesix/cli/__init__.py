"""The ``doublesix`` command line.

Every command is a module of this package with two functions::

    def add_parser(subparsers) -> argparse.ArgumentParser   # adds and returns its parser
    def run(args: argparse.Namespace) -> int                # the exit code

and one line in ``COMMANDS`` below. ``run`` reports bad input by raising
``CommandError`` (exit 1) or ``UsageError`` (exit 2) from ``cli.common``;
``main`` prints the message on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from doublesix.cli import (
    account,
    arena,
    bench,
    games,
    loadtest,
    play,
    replay,
    reports,
    review,
    selfplay,
    serve,
)
from doublesix.cli.common import EXIT_FAILED, EXIT_USAGE, CommandError
from doublesix.rules.ruleset import RECORD_DOC, RULES_DOC

COMMANDS: list[ModuleType] = [
    play,
    selfplay,
    replay,
    bench,
    serve,
    loadtest,
    arena,
    review,
    account,
    reports,
    games,
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="doublesix",
        description="Double-six dominoes: Draw, Block and Kozel.",
        epilog=f"The rules, rule by rule (R1, R2 …): {RULES_DOC}. The game record "
        f"(doublesix/1): {RECORD_DOC}. Both are in the source tree and on the project's page.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.add_parser(subparsers).set_defaults(_run=command.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``doublesix`` with ``argv`` (default: the process's arguments); returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help (0) or a usage error argparse has already printed (2)
        return e.code if isinstance(e.code, int) else EXIT_USAGE
    try:
        code: int = args._run(args)
        return code
    except CommandError as e:
        print(f"doublesix {args.command}: error: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print(f"\ndoublesix {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `doublesix replay game.json | head`: stop quietly
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILED
