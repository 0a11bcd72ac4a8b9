"""Every option of RULES.md as one immutable value, the presets, and validation."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

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
    target: int
    pairs: bool = False
    draw_rule: DrawRule = DrawRule.DRAW_UNTIL_PLAYABLE
    keep_in_boneyard: int = 0
    redeal: bool = False
    """R13: throw in a deal with 5 doubles or 6 tiles of a number in one hand."""
    fish_charge: FishCharge = FishCharge.ALL_HANDS
    lone_zero_zero: int = 25
    lone_six_six: int = 50

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

    def side_of(self, seat: int) -> int:
        """R6: partners sit opposite, seats 0 & 2 are side 0."""
        return seat % 2 if self.pairs else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        return tuple(s for s in range(self.players) if self.side_of(s) == side)

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
        """Read a record's ruleset; every option must be present and well typed."""
        if not isinstance(data, Mapping):
            raise RulesetError("ruleset", "must be an object", "RECORD.md")
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name not in data:
                if f.default is dataclasses.MISSING:
                    raise RulesetError(f.name, "missing", "RECORD.md")
                continue
            values[f.name] = _coerce(f.name, data[f.name])
        return cls(**values)


_ENUMS: dict[str, type[StrEnum]] = {
    "opener": Opener,
    "scoring": Scoring,
    "draw_rule": DrawRule,
    "fish_charge": FishCharge,
}
_BOOLS = {"boneyard", "pairs", "redeal"}
_INTS = {"players", "hand_size", "target", "keep_in_boneyard", "lone_zero_zero", "lone_six_six"}


def _coerce(name: str, value: Any) -> Any:
    if name in _ENUMS:
        try:
            return _ENUMS[name](value)
        except ValueError:
            choices = ", ".join(m.value for m in _ENUMS[name])
            raise RulesetError(name, f"{value!r} is not one of {choices}", "RULES.md") from None
    if name in _BOOLS:
        if not isinstance(value, bool):
            raise RulesetError(name, f"{value!r} is not true or false", "RECORD.md")
        return value
    if name in _INTS:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesetError(name, f"{value!r} is not a whole number", "RECORD.md")
        return value
    if not isinstance(value, str):
        raise RulesetError(name, f"{value!r} is not a name", "RECORD.md")
    return value


def _validate(r: Ruleset) -> None:
    for name in (*_INTS, *_BOOLS):
        _coerce(name, getattr(r, name))  # raises unless a whole number / true or false
    if not 2 <= r.players <= 4:
        raise RulesetError("players", f"{r.players} players; a table seats 2 to 4", "R12")
    if r.hand_size < 2:
        tiles = "tile" if r.hand_size == 1 else "tiles"
        raise RulesetError("hand_size", f"{r.hand_size} {tiles}; a hand has at least 2", "R14")
    if r.dealt > len(TILES):
        raise RulesetError(
            "hand_size",
            f"{r.players} × {r.hand_size} = {r.dealt} tiles, more than the set's 28",
            "R14",
        )
    if r.keep_in_boneyard < 0:
        raise RulesetError("keep_in_boneyard", "cannot be negative", "R11")
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
    if r.target < 1:
        raise RulesetError("target", f"{r.target}; the target is a positive number", "R30")
    if r.scoring is Scoring.KOZEL and not (r.pairs and r.players == 4):
        why = f"not {r.players} players" if r.players != 4 else "turn pairs on"
        raise RulesetError("scoring", f"Kozel is played by 4 players in two pairs; {why}", "R33")
    if r.pairs and r.players != 4:
        raise RulesetError("pairs", f"pair play needs 4 players, not {r.players}", "R6")
    if r.opener is Opener.KOZEL and r.dealt != len(TILES):
        raise RulesetError("opener", "the kozel opener needs every tile dealt (1-1 opens)", "R18")
    for name in ("lone_zero_zero", "lone_six_six"):
        if getattr(r, name) < 0:
            raise RulesetError(name, "a lone tile cannot count below 0", "R37a")


@dataclass(frozen=True)
class _Preset:
    players: tuple[int, ...]
    hands: Mapping[int, int]
    boneyard: bool
    opener: Opener
    scoring: Scoring
    pairs: bool = False
    redeal: bool = False


PRESETS: Mapping[str, _Preset] = {
    "draw": _Preset(
        (2, 3, 4), {2: 7, 3: 5, 4: 5}, True, Opener.HIGHEST_DOUBLE, Scoring.WINNER_TAKES
    ),
    "block": _Preset(
        (2, 3, 4), {2: 7, 3: 6, 4: 7}, False, Opener.HIGHEST_DOUBLE, Scoring.WINNER_TAKES
    ),
    "kozel": _Preset((4,), {4: 7}, False, Opener.KOZEL, Scoring.KOZEL, pairs=True, redeal=True),
    "vog-talon": _Preset(
        (2, 3, 4), {2: 7, 3: 5, 4: 5}, True, Opener.LOWEST_DOUBLE, Scoring.WINNER_TAKES_ALL
    ),
    "vog-block": _Preset(
        (2, 3, 4), {2: 7, 3: 6, 4: 7}, False, Opener.LOWEST_DOUBLE, Scoring.WINNER_TAKES_ALL
    ),
    "vog-goat": _Preset((4,), {4: 7}, False, Opener.LOWEST_DOUBLE, Scoring.GOAT, pairs=True),
    "international": _Preset(
        (4,), {4: 7}, False, Opener.HIGHEST_TILE, Scoring.WINNER_TAKES_ALL, pairs=True
    ),
    "international-2": _Preset((2,), {2: 7}, False, Opener.HIGHEST_TILE, Scoring.WINNER_TAKES_ALL),
    "classic": _Preset(
        (2, 3, 4), {2: 7, 3: 5, 4: 5}, True, Opener.DRAW_FOR_LEAD, Scoring.WINNER_TAKES
    ),
}


def preset(name: str, players: int | None = None, **options: Any) -> Ruleset:
    """The ruleset of a preset (RULES.md's table), with any option changed.

    ``players`` picks the preset's hand size for that many players (R12);
    every other option can be given by name.
    """
    if name not in PRESETS:
        raise RulesetError("preset", f"{name!r} is not one of {', '.join(PRESETS)}", "RULES.md")
    p = PRESETS[name]
    count = p.players[-1] if players is None else players
    if count not in p.players:
        seats = str(p.players[0]) if len(p.players) == 1 else f"{p.players[0]} to {p.players[-1]}"
        how = " (two pairs)" if p.pairs else ""
        raise RulesetError(
            "players", f"the {name} preset is played by {seats} players{how}, not {count}", "R12"
        )
    unknown = set(options) - {f.name for f in dataclasses.fields(Ruleset)} - {"preset"}
    if unknown:
        raise RulesetError(sorted(unknown)[0], "no such option", "RULES.md")
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
    }
    defaults.update(options)
    for name_, kind in _ENUMS.items():
        if name_ in defaults and not isinstance(defaults[name_], kind):
            defaults[name_] = _coerce(name_, defaults[name_])
    return Ruleset(**defaults)
