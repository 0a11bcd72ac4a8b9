"""What the commands share: errors and exit codes, ruleset options, bot lists, seeds, names."""

from __future__ import annotations

import argparse
import hashlib
import math
import random
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

from doublesix.rules.ruleset import (
    PRESETS,
    ROUND,
    RULES_DOC,
    Ruleset,
    RulesetError,
    Target,
    preset,
)

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

Subparsers: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""What ``add_parser`` receives: ``argparse``'s ``add_subparsers()``."""


class CommandError(Exception):
    """A failure to report on stderr as ``doublesix COMMAND: error: MESSAGE``, with an exit code."""

    def __init__(self, message: str, code: int = EXIT_FAILED) -> None:
        super().__init__(message)
        self.code = code


class UsageError(CommandError):
    """Bad options: exit code 2, like argparse's own errors."""

    def __init__(self, message: str) -> None:
        super().__init__(message, EXIT_USAGE)


def number(low: float, high: float, *, above: bool = False) -> Callable[[str], float]:
    """An argparse ``type``: a finite number from ``low`` (or above it, ``above=True``) to
    ``high``; anything else (NaN, infinity, out of range) is a usage error naming the flag."""
    shown = f"above {low:g}" if above else f"from {low:g}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if not math.isfinite(value) or value < low or (above and value == low) or value > high:
            raise argparse.ArgumentTypeError(f"{text}: give a number {shown} to {high:g}")
        return value

    parse.__name__ = "number"
    return parse


SEEDS = 2**62
"""Seeds given on the command line are below this: a table's seed is stored as a 64-bit
integer, and a server counts up from the one it is given."""


def seed(text: str) -> int:
    """An argparse ``type``: a whole number from 0 below ``SEEDS``, else a usage error."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value < SEEDS:
        raise argparse.ArgumentTypeError(f"{text}: give a seed from 0 to {SEEDS - 1}")
    return value


def add_ruleset_options(parser: argparse.ArgumentParser, *, target: bool = True) -> None:
    """--preset, --players, --target and --set OPTION=VALUE."""
    group = parser.add_argument_group("rules (docs/rules.md)")
    group.add_argument(
        "--preset",
        required=True,
        metavar="P",
        help=f"the variant: {', '.join(PRESETS)}",
    )
    group.add_argument(
        "--players", type=int, metavar="N", help="players at the table (default: the preset's)"
    )
    if target:
        group.add_argument(
            "--target",
            type=_target,
            metavar="T",
            help="points that decide the game, 1 to 10000 (default 100; R30), or 'round': "
            "the game is one round (R40)",
        )
    group.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        dest="options",
        help="change any other option, e.g. hand_size=6, draw_rule=draw_one, "
        "keep_in_boneyard=2, fish_charge=own_hands, lone_zero_zero=10 (repeatable)",
    )


def _target(text: str) -> Target:
    """``--target``: a whole number, or ``round`` (R40); the range is the ruleset's to check."""
    if text.strip().lower() == ROUND:
        return ROUND
    try:
        return int(text)
    except ValueError:
        shown = text if len(text) <= 40 else text[:37] + "…"
        message = f"{shown!r} is neither a whole number nor 'round'"
        raise argparse.ArgumentTypeError(message) from None


def ruleset_from(args: argparse.Namespace) -> Ruleset:
    """The ruleset of the options; an impossible one is a usage error naming option and rule."""
    try:
        base = preset(args.preset, args.players)
        options: dict[str, Any] = {}
        if getattr(args, "target", None) is not None:
            options["target"] = args.target
        for text in args.options:
            name, value = _option(text, base)
            options[name] = value
        return preset(args.preset, args.players, **options) if options else base
    except RulesetError as e:
        raise UsageError(str(e)) from None


def _option(text: str, base: Ruleset) -> tuple[str, Any]:
    name, sep, raw = text.partition("=")
    name, raw = name.strip().replace("-", "_"), raw.strip()
    current = base.to_dict()
    if not sep or not name:
        raise UsageError(f"--set {text!r}: write OPTION=VALUE, e.g. hand_size=6")
    if name not in current or name in ("preset", "players"):
        settable = ", ".join(k for k in current if k not in ("preset", "players"))
        raise UsageError(f"--set {name}: no such option; options are {settable} ({RULES_DOC})")
    kind = type(current[name])
    if name == "target":
        try:
            return name, _target(raw)
        except argparse.ArgumentTypeError as e:
            raise UsageError(f"--set target: {e}") from None
    if kind is bool:
        flags = {"true": True, "yes": True, "on": True, "1": True}
        flags |= {"false": False, "no": False, "off": False, "0": False}
        if raw.lower() not in flags:
            raise UsageError(f"--set {name}: {raw!r} is not true or false")
        return name, flags[raw.lower()]
    if kind is int:
        try:
            return name, int(raw)
        except ValueError:
            shown = raw if len(raw) <= 40 else raw[:37] + "…"
            raise UsageError(f"--set {name}: {shown!r} is not a whole number") from None
    return name, raw


def parse_bots(text: str, seats: int, known: Sequence[str]) -> list[str]:
    """``random,greedy,…``: one bot per seat, or one name for all of them."""
    names = [n.strip() for n in text.split(",")]
    for name in names:
        if name not in known:
            raise UsageError(f"--bots: no bot {name!r}; choose from {', '.join(known)}")
    if len(names) == 1:
        return names * seats
    if len(names) != seats:
        raise UsageError(
            f"--bots: {len(names)} names for {seats} seats; give one per seat or one for all"
        )
    return names


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the game of ``game_seed`` (a stable hash of both)."""
    digest = hashlib.sha256(f"doublesix bot {game_seed} {seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def new_seed() -> int:
    """A fresh seed for when none is given (it is shown, so the game can be played again)."""
    return random.SystemRandom().randrange(1_000_000_000)


def side_name(ruleset: Ruleset, names: Sequence[str], side: int) -> str:
    """A scoring side by its players: ``Anna & Carla`` for a pair, else the seat's name."""
    if ruleset.pairs:
        return " & ".join(names[s] for s in ruleset.seats_of(side))
    return names[side]
