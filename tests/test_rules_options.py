"""Every ruleset option has a range (docs/rules.md, "Every option and its range").

Hostile values — huge numbers, floats, NaN, text where a number belongs,
true where a number belongs — are refused with a RulesetError that names the
option and the rule, through every door: ``preset`` (the CLI and the lobby),
``Ruleset`` itself and ``Ruleset.from_dict`` (records, the API).
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from doublesix import PRESETS, Ruleset, RulesetError, preset

HOSTILE: list[Any] = [2**64, 10**400, -1, math.nan, math.inf, "x", True, 1e300, None, [], {}]

RULES = {
    "players": "R12",
    "hand_size": "R14",
    "target": "R30",
    "keep_in_boneyard": "R11",
    "lone_zero_zero": "R37a",
    "lone_six_six": "R37a",
    "boneyard": "R9",
    "pairs": "R6",
    "redeal": "R13",
    "opener": "R16–R21",
    "scoring": "R26–R29",
    "draw_rule": "R11",
    "fish_charge": "R37a",
    "line": "R39",
}


def refused(option: str, value: Any, name: str = "draw") -> RulesetError:
    """The error of every door for ``option=value``: the same option and rule at each."""
    errors = []
    base = preset(name).to_dict()
    for attempt in (
        lambda: preset(name, **{option: value}),
        lambda: Ruleset.from_dict({**base, option: value}),
        lambda: Ruleset(**{**base, option: value}),
    ):
        with pytest.raises(RulesetError) as info:
            attempt()
        errors.append(info.value)
    assert {(e.option, e.rule) for e in errors} == {(errors[0].option, errors[0].rule)}
    message = str(errors[0])
    assert message.startswith(f"{errors[0].option}: ") and len(message) < 200, message
    return errors[0]


@pytest.mark.parametrize("option", sorted(RULES))
@pytest.mark.parametrize("value", HOSTILE, ids=repr)
def test_R14_hostile_values_are_refused_naming_the_option_and_the_rule(
    option: str, value: Any
) -> None:
    if option in ("boneyard", "pairs", "redeal") and value is True:
        return  # a real true: allowed or refused by another rule, not by its type
    if option == "players" and value is None:
        return  # preset(name, players=None) means the preset's own count
    error = refused(option, value)
    assert (error.option, error.rule) == (option, RULES[option])


@pytest.mark.parametrize(
    ("option", "value", "rule"),
    [
        ("target", 0, "R30"),
        ("target", 10_001, "R30"),
        ("players", 1, "R12"),
        ("players", 5, "R12"),
        ("hand_size", 1, "R14"),
        ("hand_size", 15, "R14"),
        ("lone_zero_zero", 1_001, "R37a"),
        ("lone_six_six", -1, "R37a"),
        ("keep_in_boneyard", -1, "R11"),
        ("keep_in_boneyard", 29, "R11"),
    ],
)
def test_R14_whole_numbers_have_a_range(option: str, value: int, rule: str) -> None:
    error = refused(option, value, "block" if option == "hand_size" else "draw")
    assert (error.option, error.rule) == (option, rule)


def test_R14_the_edges_of_each_range_are_allowed() -> None:
    assert preset("draw", target=1).target == 1
    assert preset("draw", target=10_000).target == 10_000
    assert preset("kozel", lone_zero_zero=0, lone_six_six=1_000).lone_six_six == 1_000
    assert preset("block", players=2, hand_size=14).hand_size == 14
    assert preset("draw", players=2, keep_in_boneyard=13).drawable == 1


def test_R11_keep_in_boneyard_stays_within_the_deal() -> None:
    # 2 players × 7 leave 14 in the boneyard: keeping all 14 leaves nothing to draw
    error = refused("keep_in_boneyard", 14)
    assert (error.option, error.rule) == ("keep_in_boneyard", "R11")
    error = refused("keep_in_boneyard", 1, "block")
    assert "no boneyard" in str(error)


def test_R14_a_huge_number_is_named_by_its_size_not_printed() -> None:
    error = refused("target", 10**5000)  # more digits than Python turns into text
    assert "a number of 5,001 digits" in str(error)
    error = refused("lone_zero_zero", -(2**64))
    assert "-a number of 20 digits" in str(error)


def test_R14_enum_options_take_their_values_only() -> None:
    for option, good in (("opener", "kozel"), ("line", "manual"), ("draw_rule", "draw_one")):
        assert getattr(preset("block", players=4, **{option: good}), option) == good
        error = refused(option, good.upper())
        assert "is not one of" in str(error) and error.rule == RULES[option]
    assert refused("scoring", "x" * 10_000).rule == "R26–R29"


def test_the_preset_must_be_one_of_the_presets() -> None:
    for value in ("chess", 7, None, ["draw"]):
        with pytest.raises(RulesetError) as info:
            preset(value)  # type: ignore[arg-type]
        assert info.value.option == "preset"
        with pytest.raises(RulesetError):
            Ruleset.from_dict({**preset("draw").to_dict(), "preset": value})
    assert set(PRESETS) >= {"classic-block"}


@pytest.mark.parametrize("players", [2**64, 10**400, -1, 1.5, "4", True])
def test_R12_preset_refuses_hostile_player_counts(players: Any) -> None:
    with pytest.raises(RulesetError) as info:
        preset("draw", players)
    assert (info.value.option, info.value.rule) == ("players", "R12")
    assert len(str(info.value)) < 200
