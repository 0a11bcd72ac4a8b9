"""Every option of docs/rules.md as one immutable value, the presets, and validation."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any, Final, Literal

from doublesix.tiles import TILES


class Opener(StrEnum):
    """Who opens a round (R16–R21)."""

    HIGHEST_DOUBLE = "highest_double"
    KOZEL = "kozel"
    LOWEST_DOUBLE = "lowest_double"
    HIGHEST_TILE = "highest_tile"
    DRAW_FOR_LEAD = "draw_for_lead"


class Scoring(StrEnum):
    """How a round is scored (R26–R29)."""

    WINNER_TAKES = "winner_takes"
    WINNER_TAKES_ALL = "winner_takes_all"
    GOAT = "goat"
    KOZEL = "kozel"

    @property
    def penalties(self) -> bool:
        """Points are penalties: reaching the target loses."""
        return self in (Scoring.GOAT, Scoring.KOZEL)


class DrawRule(StrEnum):
    """R11: how a player who cannot play draws from the boneyard."""

    DRAW_UNTIL_PLAYABLE = "draw_until_playable"
    DRAW_ONE = "draw_one"


class FishCharge(StrEnum):
    """R37a: who pays for a Kozel fish."""

    ALL_HANDS = "all_hands"
    OWN_HANDS = "own_hands"


class Line(StrEnum):
    """R38, R39: how the line is laid on the table."""

    AUTO = "auto"
    """R38: the client draws it as a snake."""
    MANUAL = "manual"
    """R39: the player chooses each tile's turn and may straighten the line."""


ROUND: Final = "round"
"""R40: the ``target`` of a game of one round."""
Target = int | Literal["round"]

RULES_DOC = "docs/rules.md"
RECORD_DOC = "docs/record.md"


class RulesetError(ValueError):
    """An impossible or unknown setting; names the option and the rule."""

    def __init__(self, option: str, message: str, rule: str) -> None:
        super().__init__(f"{option}: {message} ({rule})")
        self.option = option
        self.rule = rule


@dataclass(frozen=True)
class Ruleset:
    """All options of a game, written out: a record never depends on a preset's defaults."""

    preset: str
    players: int
    hand_size: int
    boneyard: bool
    opener: Opener
    scoring: Scoring
    target: Target
    """Points that decide the game (R30), or ``"round"``: the game is one round (R40)."""
    pairs: bool = False
    draw_rule: DrawRule = DrawRule.DRAW_UNTIL_PLAYABLE
    keep_in_boneyard: int = 0
    redeal: bool = False
    """R13: throw in a deal with 5 doubles or 6 tiles of a number in one hand."""
    fish_charge: FishCharge = FishCharge.ALL_HANDS
    lone_zero_zero: int = 25
    """R28a, R33, R37a: what a losing hand of exactly 0-0 counts after a domino."""
    lone_six_six: int = 50
    """R28a, R33, R37a: what a losing hand of exactly 6-6 counts after a domino."""
    line: Line = Line.AUTO

    def __post_init__(self) -> None:
        for name, kind in _ENUMS.items():
            value = getattr(self, name)
            if not isinstance(value, kind):
                object.__setattr__(self, name, _coerce(name, value))
        _validate(self)

    @property
    def sides(self) -> int:
        """Scoring sides: the two pairs, or every seat on its own."""
        return 2 if self.pairs else self.players

    @property
    def single_round(self) -> bool:
        """R40: the game is one round."""
        return self.target == ROUND

    @property
    def lone_doubles(self) -> bool:
        """R28a, R33: a losing hand of exactly 0-0 or 6-6 counts specially after a domino."""
        return self.scoring in (Scoring.GOAT, Scoring.KOZEL)

    def side_of(self, seat: int) -> int:
        """R6: partners sit opposite, seats 0 & 2 are side 0."""
        return seat % 2 if self.pairs else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        return self.seating[side]

    @cached_property
    def seating(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side, side 0 first (kept: every round's scoring asks)."""
        return tuple(
            tuple(s for s in range(self.players) if self.side_of(s) == side)
            for side in range(self.sides)
        )

    @property
    def dealt(self) -> int:
        return self.players * self.hand_size

    @property
    def drawable(self) -> int:
        """How many tiles can be drawn in a round (R9, R11)."""
        if not self.boneyard:
            return 0
        return len(TILES) - self.dealt - self.keep_in_boneyard

    def replace(self, **changes: Any) -> Ruleset:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            f.name: (v.value if isinstance(v, StrEnum) else v)
            for f in dataclasses.fields(self)
            for v in [getattr(self, f.name)]
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Ruleset:
        """Read a record's ruleset; every option without a default must be present."""
        if not isinstance(data, Mapping):
            raise RulesetError("ruleset", "must be an object", RECORD_DOC)
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name not in data:
                if f.default is dataclasses.MISSING:
                    raise RulesetError(f.name, "missing", RECORD_DOC)
                continue
            values[f.name] = _coerce(f.name, data[f.name])
        return cls(**values)


_ENUMS: dict[str, type[StrEnum]] = {
    "opener": Opener,
    "scoring": Scoring,
    "draw_rule": DrawRule,
    "fish_charge": FishCharge,
    "line": Line,
}
_ENUM_RULES = {
    "opener": "R16–R21",
    "scoring": "R26–R29",
    "draw_rule": "R11",
    "fish_charge": "R37a",
    "line": "R39",
}
_BOOLS = {"boneyard": "R9", "pairs": "R6", "redeal": "R13"}
_INTS = {
    "players": "R12",
    "hand_size": "R14",
    "target": "R30",
    "keep_in_boneyard": "R11",
    "lone_zero_zero": "R37a",
    "lone_six_six": "R37a",
}
_RANGES = {
    "players": (2, 4),
    "hand_size": (2, len(TILES) // 2),
    "target": (1, 10_000),
    "keep_in_boneyard": (0, len(TILES)),
    "lone_zero_zero": (0, 1_000),
    "lone_six_six": (0, 1_000),
}
"""The widest range of each whole-number option; ``_validate`` narrows some further."""
_RANGE_WHY = {
    "players": "a table seats 2 to 4",
    "hand_size": "a hand has at least 2 tiles and at most 14 (half the set)",
    "target": "the target is a whole number from 1 to 10,000, or 'round' (R40)",
    "keep_in_boneyard": "it cannot be negative nor more than the set",
    "lone_zero_zero": "a lone tile counts 0 to 1,000",
    "lone_six_six": "a lone tile counts 0 to 1,000",
}


def _shown(value: Any) -> str:
    """``value`` for a message: short, whatever it is (a huge number or text is cut)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**12:
        return f"{'-' if value < 0 else ''}a number of {_digits(abs(value))} digits"
    try:
        text = repr(value)
    except Exception:  # anything at all may come from a request body
        text = f"a {type(value).__name__}"
    return text if len(text) <= 40 else text[:37] + "…"


def _digits(n: int) -> str:
    """The number of decimal digits of ``n`` > 0, without converting it to text."""
    count = max(1, int(n.bit_length() * 0.30103))
    while 10**count <= n:
        count += 1
    while count > 1 and 10 ** (count - 1) > n:
        count -= 1
    return f"{count:,}"


def _coerce(name: str, value: Any) -> Any:
    """``value`` as option ``name``'s type; RulesetError unless it is exactly of that type."""
    if name in _ENUMS:
        kind = _ENUMS[name]
        if isinstance(value, str):
            try:
                return kind(value)
            except ValueError:
                pass
        choices = ", ".join(m.value for m in kind)
        raise RulesetError(name, f"{_shown(value)} is not one of {choices}", _ENUM_RULES[name])
    if name in _BOOLS:
        if not isinstance(value, bool):
            raise RulesetError(name, f"{_shown(value)} is not true or false", _BOOLS[name])
        return value
    if name == "target" and value == ROUND and isinstance(value, str):
        return ROUND
    if name in _INTS:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesetError(name, f"{_shown(value)} is not a whole number", _INTS[name])
        low, high = _RANGES[name]
        if not low <= value <= high:
            raise RulesetError(name, f"{_shown(value)}; {_RANGE_WHY[name]}", _INTS[name])
        return int(value)
    if name == "preset":
        if not isinstance(value, str) or value not in PRESETS:
            raise RulesetError(
                name, f"{_shown(value)} is not one of {', '.join(PRESETS)}", RULES_DOC
            )
        return value
    raise RulesetError(name, "no such option", RULES_DOC)


def _validate(r: Ruleset) -> None:
    for name in ("preset", *_INTS, *_BOOLS):
        _coerce(name, getattr(r, name))  # raises unless well typed and in range
    if r.dealt > len(TILES):
        raise RulesetError(
            "hand_size",
            f"{r.players} × {r.hand_size} = {r.dealt} tiles, more than the set's 28",
            "R14",
        )
    if r.boneyard:
        if r.dealt >= len(TILES):
            raise RulesetError(
                "hand_size",
                f"{r.players} × {r.hand_size} deals every tile; a draw game keeps "
                "at least one in the boneyard",
                "R14",
            )
        if r.drawable < 1:
            raise RulesetError(
                "keep_in_boneyard",
                f"keeping {r.keep_in_boneyard} of {len(TILES) - r.dealt} leaves nothing to draw",
                "R11",
            )
    elif r.keep_in_boneyard:
        raise RulesetError("keep_in_boneyard", "there is no boneyard to keep tiles in", "R11")
    if r.scoring is Scoring.KOZEL and not (r.pairs and r.players == 4):
        why = f"not {r.players} players" if r.players != 4 else "turn pairs on"
        raise RulesetError("scoring", f"Kozel is played by 4 players in two pairs; {why}", "R33")
    if r.pairs and r.players != 4:
        raise RulesetError("pairs", f"pair play needs 4 players, not {r.players}", "R6")
    if r.opener is Opener.KOZEL and r.dealt != len(TILES):
        raise RulesetError("opener", "the kozel opener needs every tile dealt (1-1 opens)", "R18")


@dataclass(frozen=True)
class _Preset:
    players: tuple[int, ...]
    hands: Mapping[int, int]
    boneyard: bool
    opener: Opener
    scoring: Scoring
    pairs: bool = False
    redeal: bool = False
    line: Line = Line.AUTO


PRESETS: Mapping[str, _Preset] = {
    "draw": _Preset(
        (2, 3, 4), {2: 7, 3: 5, 4: 5}, True, Opener.HIGHEST_DOUBLE, Scoring.WINNER_TAKES
    ),
    "block": _Preset(
        (2, 3, 4), {2: 7, 3: 6, 4: 7}, False, Opener.HIGHEST_DOUBLE, Scoring.WINNER_TAKES
    ),
    "kozel": _Preset((4,), {4: 7}, False, Opener.KOZEL, Scoring.KOZEL, pairs=True, redeal=True),
    "vog-talon": _Preset(
        (2, 3, 4),
        {2: 7, 3: 5, 4: 5},
        True,
        Opener.LOWEST_DOUBLE,
        Scoring.WINNER_TAKES_ALL,
        line=Line.MANUAL,
    ),
    "vog-block": _Preset(
        (2, 3, 4),
        {2: 7, 3: 6, 4: 7},
        False,
        Opener.LOWEST_DOUBLE,
        Scoring.WINNER_TAKES_ALL,
        line=Line.MANUAL,
    ),
    "vog-goat": _Preset(
        (4,), {4: 7}, False, Opener.LOWEST_DOUBLE, Scoring.GOAT, pairs=True, line=Line.MANUAL
    ),
    "international": _Preset(
        (4,), {4: 7}, False, Opener.HIGHEST_TILE, Scoring.WINNER_TAKES_ALL, pairs=True
    ),
    "international-2": _Preset((2,), {2: 7}, False, Opener.HIGHEST_TILE, Scoring.WINNER_TAKES_ALL),
    "classic": _Preset(
        (2, 3, 4), {2: 7, 3: 5, 4: 5}, True, Opener.DRAW_FOR_LEAD, Scoring.WINNER_TAKES
    ),
    "classic-block": _Preset(  # R41
        (2, 3, 4), {2: 7, 3: 7, 4: 7}, False, Opener.DRAW_FOR_LEAD, Scoring.WINNER_TAKES
    ),
}


NAMES: Mapping[str, str] = {
    "draw": "Draw",
    "block": "Block",
    "kozel": "Kozel",
    "vog-talon": "VOG with boneyard",
    "vog-block": "VOG without boneyard",
    "vog-goat": "VOG Goat",
    "international": "International",
    "international-2": "International for two",
    "classic": "Classic",
    "classic-block": "Classic Block",
}
"""Each preset's name in English, as the site's pages call it (``web/i18n/en.json``,
``preset.<id>``)."""


def preset(name: str, players: int | None = None, **options: Any) -> Ruleset:
    """The ruleset of a preset (docs/rules.md's table), with any option changed.

    ``players`` picks the preset's hand size for that many players (R12);
    every other option can be given by name.
    """
    name = _coerce("preset", name)
    p = PRESETS[name]
    count = p.players[-1] if players is None else _coerce("players", players)
    if count not in p.players:
        seats = str(p.players[0]) if len(p.players) == 1 else f"{p.players[0]} to {p.players[-1]}"
        how = " (two pairs)" if p.pairs else ""
        raise RulesetError(
            "players", f"the {name} preset is played by {seats} players{how}, not {count}", "R12"
        )
    unknown = set(options) - {f.name for f in dataclasses.fields(Ruleset)} - {"preset"}
    if unknown:
        raise RulesetError(sorted(unknown)[0], "no such option", RULES_DOC)
    defaults: dict[str, Any] = {
        "preset": name,
        "players": count,
        "hand_size": p.hands.get(count, p.hands[p.players[-1]]),
        "boneyard": p.boneyard,
        "opener": p.opener,
        "scoring": p.scoring,
        "target": 100,
        "pairs": p.pairs,
        "redeal": p.redeal,
        "line": p.line,
    }
    defaults.update(options)
    for name_, kind in _ENUMS.items():
        if name_ in defaults and not isinstance(defaults[name_], kind):
            defaults[name_] = _coerce(name_, defaults[name_])
    return Ruleset(**defaults)
