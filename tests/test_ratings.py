"""doublesix.ratings: families, places from a game's result, openskill's update, bots."""

from __future__ import annotations

import json
from typing import Any

import pytest
from openskill.models import PlackettLuce

from conftest import benchmark_script
from doublesix.ratings import (
    BETA,
    BOT_RATINGS,
    MODEL,
    PROVISIONAL_GAMES,
    Family,
    Outcome,
    Skill,
    family_named,
    family_of,
    rate_game,
    shown,
    side_outcomes,
    side_ranks,
)
from doublesix.rules.ruleset import PRESETS, preset


@pytest.mark.parametrize(
    ("name", "players", "family"),
    [
        ("draw", 2, Family.DRAW),
        ("classic", 3, Family.DRAW),
        ("block", 4, Family.BLOCK),
        ("classic-block", 2, Family.BLOCK),
        ("international", 4, Family.BLOCK),
        ("international-2", 2, Family.BLOCK),
        ("kozel", 4, Family.KOZEL),
        ("vog-talon", 2, Family.VOG_TALON),
        ("vog-block", 3, Family.VOG_BLOCK),
        ("vog-goat", 4, Family.VOG_GOAT),
    ],
)
def test_each_preset_has_its_family(name: str, players: int, family: Family) -> None:
    assert family_of(preset(name, players)) is family


def test_every_preset_is_covered_and_options_decide() -> None:
    assert {family_of(preset(name)) for name in PRESETS} == set(Family)
    assert family_of(preset("draw", 2, boneyard=False)) is Family.BLOCK  # a draw game no more
    assert family_of(preset("block", 2, boneyard=True)) is Family.DRAW
    assert family_of(preset("vog-talon", 2, boneyard=False)) is Family.VOG_TALON
    assert family_named("kozel") is Family.KOZEL and family_named("chess") is None


def _result(winners: list[int], losers: list[int], scores: list[int]) -> dict[str, Any]:
    return {"finished": True, "winners": winners, "losers": losers, "scores": scores}


def test_places_from_the_result() -> None:
    draw4 = preset("draw", 4)
    # the winner first, the others by their points (a tie shares a place)
    assert side_ranks(draw4, _result([2], [0, 1, 3], [40, 70, 104, 40])) == [2, 1, 0, 2]
    assert side_ranks(draw4, _result([0, 3], [1, 2], [100, 5, 9, 100])) == [0, 2, 1, 0]
    # a single round nobody won: everybody ties
    assert side_ranks(preset("draw", 3), _result([], [], [0, 0, 0])) == [0, 0, 0]
    assert side_outcomes(preset("draw", 3), _result([], [], [0, 0, 0])) == [Outcome.DRAW] * 3
    # Kozel's goat: the side past the target loses; two sides
    kozel = preset("kozel")
    assert side_ranks(kozel, _result([1], [0], [104, 30])) == [1, 0]
    assert side_outcomes(kozel, _result([1], [0], [104, 30])) == [Outcome.LOSS, Outcome.WIN]
    # vog-goat's penalties: fewer points are better among those that did not win
    goat = preset("draw", 3, scoring="goat")
    assert side_ranks(goat, _result([1], [0], [101, 20, 60])) == [2, 0, 1]


def test_the_update_is_openskills_with_sides_as_teams() -> None:
    direct = PlackettLuce(mu=1500, sigma=2 * BETA, beta=BETA, tau=2 * BETA / 100)
    kozel = preset("kozel")
    skills = [Skill(1500, 200), Skill(1600, 150), Skill(1450, 220), Skill(1700, 90)]
    after = rate_game(kozel, _result([0], [1], [20, 110]), skills, [False] * 4)
    r = [direct.rating(mu=s.mu, sigma=s.sigma) for s in skills]
    [[a, c], [b, d]] = direct.rate([[r[0], r[2]], [r[1], r[3]]], ranks=[0.0, 1.0])
    for got, want in zip(after, [a, b, c, d], strict=True):
        assert got.mu == pytest.approx(want.mu) and got.sigma == pytest.approx(want.sigma)
    assert after[0].mu > skills[0].mu and after[1].mu < skills[1].mu


def test_bots_never_move() -> None:
    expert = BOT_RATINGS["expert"]
    after = rate_game(
        preset("draw", 2), _result([0], [1], [100, 3]), [Skill(), expert], [False, True]
    )
    assert after[1] == expert and after[0].mu > 1500


def test_a_new_rating_and_provisional() -> None:
    assert MODEL.rating().mu == 1500
    assert shown(Skill(), 0).text == "1500?"
    assert shown(Skill(1612.4, 80), PROVISIONAL_GAMES).text == "1612"


def test_bot_ratings_are_the_fit_of_the_arena_logs() -> None:
    module = benchmark_script("bot_ratings")
    fitted = module.fit(module.matches())
    assert set(fitted) == set(BOT_RATINGS) | set(module.LINKS)
    for level, (mu, se) in fitted.items():
        if level in module.LINKS:
            continue  # a level no table offers: its runs link the others'
        assert BOT_RATINGS[level].mu == round(mu), level
        assert BOT_RATINGS[level].sigma == max(25, round(se)), level
    assert BOT_RATINGS["expert"].mu > BOT_RATINGS["pimc"].mu > BOT_RATINGS["medium"].mu
    assert BOT_RATINGS["medium"].mu > BOT_RATINGS["greedy"].mu > BOT_RATINGS["random"].mu


def test_the_runs_left_out_of_the_bot_ratings_are_named_and_the_rest_count() -> None:
    """``MYPYC_CORE`` names ``ismcts-fit``'s logs of then, and single rounds never count."""
    module = benchmark_script("bot_ratings")
    for stem in module.MYPYC_CORE:
        header = json.loads((module.ARENA / f"{stem}.jsonl").read_text().splitlines()[0])
        assert "ismcts-fit" in {spec.partition(":")[0] for spec in header["bots"]}, stem
    counted = {m.log for m in module.matches()}
    assert not counted & module.MYPYC_CORE
    assert not {stem for stem in counted if stem.startswith("round-")}
    assert {"kozel-net30-expert30", "kozel-ismctsfit100-greedy-native"} <= counted
