"""Reasons as values: the opening (R16–R21), a redeal (R13), a round's breakdown (R23–R37a).

The engine states why; the terminal, the record's text and the browser only
show it. Each test checks the value the engine gives against the rule, on
hand-built deals whose numbers are worked out in the comments.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import T, game_of, hand, make_deal, play
from doublesix import Game, preset, seat_view
from doublesix.rules import record
from doublesix.rules.breakdown import Basis, HandCount, Lone, SideScore
from doublesix.rules.opening import Opening, OpeningReason
from doublesix.rules.round import Ending
from doublesix.rules.scoring import score_round
from doublesix.rules.shapes import breakdown_json, opening_json

GOLDEN = Path(__file__).parent / "golden"


def golden(name: str) -> tuple[dict[str, Any], Game]:
    data = record.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return data, record.replay(data)


def openings(game: Game) -> list[Opening]:
    return [r.opening for r in game.rounds]


# --- the opening -------------------------------------------------------------------------


def test_R16_the_highest_double_opens_and_is_laid_R17_the_winner_opens_after_it() -> None:
    _, game = golden("r17_winner_opens_any_tile_after_a_tie_r16_again")
    assert openings(game) == [
        Opening(0, OpeningReason.HIGHEST_DOUBLE, "R16", T("6-6"), True),
        Opening(1, OpeningReason.PREVIOUS_WINNER, "R17", None, False),
        Opening(0, OpeningReason.HIGHEST_DOUBLE, "R16", T("5-5"), True),  # after the tie
    ]


def test_R16_without_a_double_the_heaviest_tile_is_laid() -> None:
    _, game = golden("r16_no_double_heaviest_tile_opens_automatically")
    assert openings(game) == [Opening(1, OpeningReason.HEAVIEST_TILE, "R16", T("3-6"), True)]


def test_R18_one_one_is_laid_then_the_last_placer_opens() -> None:
    _, game = golden("r18_kozel_one_one_then_the_last_placer_opens")
    assert openings(game) == [
        Opening(2, OpeningReason.ONE_ONE, "R18", T("1-1"), True),
        Opening(1, OpeningReason.LAST_PLACER, "R18", None, False),
    ]


def test_R19_the_lowest_double_but_0_0_then_the_lowest_tile_both_free() -> None:
    _, game = golden("r19_lowest_double_except_0_0_then_lowest_tile")
    assert openings(game) == [
        Opening(1, OpeningReason.LOWEST_DOUBLE, "R19", T("1-1"), False),
        Opening(0, OpeningReason.LOWEST_TILE, "R19", T("0-0"), False),
        Opening(1, OpeningReason.LOWEST_TILE, "R19", T("0-3"), False),
    ]


def test_R20_the_heaviest_tile_then_the_winner_then_after_a_tie_the_heaviest_again() -> None:
    _, game = golden("r20_highest_tile_then_previous_winner_after_a_tie_highest_again")
    assert openings(game) == [
        Opening(1, OpeningReason.HEAVIEST_TILE, "R20", T("5-6"), False),
        Opening(0, OpeningReason.PREVIOUS_WINNER, "R20", None, False),
        Opening(1, OpeningReason.HEAVIEST_TILE, "R20", T("6-6"), False),
    ]


def test_R21_the_lead_draw_opens_then_the_lead_passes_on() -> None:
    _, game = golden("r21_draw_for_lead_tied_redraw_then_rotation")
    # Ben's second draw, 4-6, beat Anna's 0-1 after both tied at 8
    assert openings(game) == [
        Opening(1, OpeningReason.LEAD_DRAW, "R21", T("4-6"), False),
        Opening(2, OpeningReason.LEAD_PASSES, "R21", None, False),
        Opening(0, OpeningReason.LEAD_PASSES, "R21", None, False),
    ]


def test_R19_another_seat_sees_the_deciding_tile_only_once_it_is_public_R25() -> None:
    ruleset = preset("vog-block", players=2, hand_size=2)
    game = game_of(ruleset, make_deal(ruleset, "1-1 2-6", "3-3 0-5"))
    # Anna holds 1-1, the lowest double but 0-0, and opens with any tile: 2-6
    assert game.rounds[0].opening == Opening(0, OpeningReason.LOWEST_DOUBLE, "R19", T("1-1"), False)
    assert seat_view(game, 0).opening.tile == T("1-1")  # her own tile
    assert seat_view(game, 1).opening == Opening(0, OpeningReason.LOWEST_DOUBLE, "R19", None, False)
    play(game, "2-6")  # nobody holds a 2 or a 6: blocked at once
    assert game.round.ending is Ending.BLOCKED
    assert seat_view(game, 1).opening.tile == T("1-1")  # every hand is shown now (R25)


def test_R21_the_lead_draw_tile_is_in_lead_draws_not_in_the_openings_view() -> None:
    _, game = golden("r21_draw_for_lead_tied_redraw_then_rotation")
    # the round's record is over; a view of a running round 1 hides the drawn tile
    ruleset = preset("classic", players=3)
    running = Game(ruleset, seed=4)
    assert running.rounds[0].opening.reason is OpeningReason.LEAD_DRAW
    assert running.rounds[0].opening.tile is not None
    for seat in range(3):
        view = seat_view(running, seat)
        assert view.opening.tile is None and view.lead_draws
    assert game.rounds[0].opening.tile == T("4-6")


def test_R16_a_laid_opening_tile_is_public_at_once() -> None:
    ruleset = preset("block", players=2, hand_size=2)
    game = game_of(ruleset, make_deal(ruleset, "6-6 0-1", "5-6 2-3"))
    assert seat_view(game, 1).opening == Opening(
        0, OpeningReason.HIGHEST_DOUBLE, "R16", T("6-6"), True
    )


def test_R16_to_R21_the_opening_is_written_to_the_record_and_checked_on_replay() -> None:
    data, game = golden("r19_lowest_double_except_0_0_then_lowest_tile")
    assert data["rounds"][0]["opening"] == {
        "seat": 1,
        "reason": "lowest_double",
        "rule": "R19",
        "tile": "1-1",
        "forced": False,
    }
    assert data["rounds"][1]["opening"] == opening_json(game.rounds[1].opening)
    data["rounds"][0]["opening"]["tile"] = "2-2"
    with pytest.raises(record.RecordError) as info:
        record.replay(data)
    error = info.value
    assert (error.rule, error.round, error.field) == ("R19", 1, "opening.tile")


def test_R13_a_stated_redeal_value_must_be_the_deals() -> None:
    data, _ = golden("r13_kozel_redeal_five_doubles_then_six_of_a_number")
    data["rounds"][0]["redeals"][1]["number"] = 5  # Carla's six tiles show 6
    with pytest.raises(record.RecordError) as info:
        record.replay(data)
    assert (info.value.rule, info.value.field) == ("R13", "redeals[1].number")


# --- the breakdown -----------------------------------------------------------------------


def counts(row: SideScore) -> list[tuple[int, int, int, Lone | None]]:
    return [(c.seat, c.value, c.counted, c.lone) for c in row.hands]


def test_R33_a_lone_0_0_counts_25_on_its_own_row_and_partners_are_summed_R24() -> None:
    _, game = golden("r33_kozel_lone_0_0_counts_25")
    result = game.rounds[0].result
    assert result is not None
    charged, winners = result.breakdown
    # Dmitri went out; pair 0: Anna's lone 0-0 counts 25 (its value is 0), Carla's 3-3 6
    assert counts(charged) == [(0, 0, 25, Lone.ZERO_ZERO), (2, 6, 6, None)]
    assert (charged.total, charged.basis, charged.base, charged.points) == (31, Basis.OWN, 31, 31)
    assert charged.rule == "R33"
    assert (winners.basis, winners.points, winners.rule) == (Basis.NOTHING, 0, "R33")
    assert counts(winners) == [(1, 4, 4, None), (3, 0, 0, None)]  # the winners count plain


def test_R28a_goat_rows_show_the_special_counts() -> None:
    _, game = golden("r28a_goat_lone_0_0_and_6_6_after_a_domino_plain_when_blocked")
    first, second = (r.result for r in game.rounds)
    assert first is not None and second is not None
    row = first.breakdown[1]
    assert counts(row) == [(1, 0, 25, Lone.ZERO_ZERO), (3, 12, 50, Lone.SIX_SIX)]
    assert (row.total, row.points, row.rule) == (75, 75, "R28a")
    row = second.breakdown[1]  # blocked: plain values (R28)
    assert counts(row) == [(1, 12, 12, None), (3, 0, 0, None)]
    assert (row.total, row.points, row.rule) == (12, 12, "R28")
    assert first.breakdown[0].basis is Basis.NOTHING


def test_R35_R36_eggs_are_added_on_the_row_and_the_13_rule_drops_a_charge() -> None:
    _, game = golden("r36_kozel_thirteen_rule_with_eggs")
    results = [r.result for r in game.rounds]
    assert all(results)
    dropped = results[0].breakdown[0]  # type: ignore[union-attr]
    assert (dropped.base, dropped.eggs, dropped.dropped, dropped.points) == (9, 0, 9, 0)
    eggs = results[1]
    assert eggs is not None and eggs.eggs_laid == 26 and eggs.eggs_carried == 26
    assert [(r.basis, r.total, r.rule) for r in eggs.breakdown] == [
        (Basis.NOTHING, 13, "R35"),
        (Basis.NOTHING, 13, "R35"),
    ]
    charged = results[2].breakdown[1]  # type: ignore[union-attr]
    # 5-5 + 1-1 = 12 below 13, but 12 + 26 eggs = 38 is written
    assert (charged.base, charged.eggs, charged.dropped, charged.points) == (12, 26, 0, 38)


def test_R34_a_fish_charges_all_four_hands_R37a_or_only_its_own() -> None:
    kozel = preset("kozel")
    hands = [hand("2-2 5-5"), hand("3-3 4-4"), hand("6-6"), hand("0-0")]
    result = score_round(kozel, Ending.BLOCKED, hands, 3, (0, 0), 0)
    heavy = result.breakdown[0]
    assert counts(heavy) == [(0, 14, 14, None), (2, 12, 12, None)]  # no lone count in a fish
    assert (heavy.basis, heavy.base, heavy.rule) == (Basis.ALL_HANDS, 40, "R34")
    own = score_round(kozel.replace(fish_charge="own_hands"), Ending.BLOCKED, hands, 3, (0, 0), 0)
    assert (own.breakdown[0].basis, own.breakdown[0].base, own.breakdown[0].rule) == (
        Basis.OWN,
        26,
        "R37a",
    )


def test_R26_a_blocked_winner_scores_the_others_less_its_own() -> None:
    ruleset = preset("block", players=3, hand_size=2)
    game = game_of(ruleset, make_deal(ruleset, "6-6 0-4", "5-5 0-1", "2-5 0-0"))
    result = game.rounds[0].result
    assert result is not None
    won, *others = result.breakdown
    assert (won.basis, won.total, won.base, won.points) == (Basis.OPPONENTS_LESS_OWN, 4, 14, 14)
    assert [(r.basis, r.total, r.points) for r in others] == [
        (Basis.NOTHING, 11, 0),
        (Basis.NOTHING, 7, 0),
    ]
    assert won.hands == (HandCount(0, hand("0-4"), 4, 4),)
    assert won.hands[0].tiles == [T("0-4")]


def test_R23_a_tied_round_has_no_basis_anywhere() -> None:
    ruleset = preset("block", players=3, hand_size=2)
    game = game_of(ruleset, make_deal(ruleset, "6-6 1-2", "0-3 4-5", "0-1 0-2"))
    result = game.rounds[0].result
    assert result is not None
    assert {(r.basis, r.points, r.rule) for r in result.breakdown} == {(Basis.NOTHING, 0, "R23")}


def test_R32_the_breakdown_is_written_and_a_wrong_one_is_refused() -> None:
    data, game = golden("r33_kozel_lone_0_0_counts_25")
    stated = data["rounds"][0]["result"]["breakdown"]
    assert stated == breakdown_json(game.rounds[0].result.breakdown)  # type: ignore[union-attr]
    assert stated[0]["hands"][0] == {
        "seat": 0,
        "value": 0,
        "counted": 25,
        "lone": "lone_zero_zero",
    }
    stated[0]["hands"][0]["counted"] = 0
    with pytest.raises(record.RecordError) as info:
        record.replay(data)
    assert (info.value.rule, info.value.field) == ("R33", "result.breakdown")
