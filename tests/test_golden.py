"""Golden records: hand-built deals and events in ``tests/golden/``, replayed by the engine.

Each file is a whole ``doublesix/1`` record (docs/record.md) named after what it
shows. The deals were built by hand (the Kozel ones found by a search for the
corner they show, since 4 × 7 tiles are hard to script by hand); the events
are the moves played plus the forced events. Every expected number below is
worked out by hand from docs/rules.md, with the sum written next to it, from the
hands left at the end of the round — which ``hands_left`` reads from the
record's own deal and events, independently of the engine.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from doublesix import Draw, End, Game, Pass, Play, ResultKind, Tile
from doublesix.rules import record
from doublesix.rules.deal import Redeal, RedealKind
from doublesix.rules.text import record_lines

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def load(name: str) -> tuple[dict[str, Any], Game]:
    data = record.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return data, record.replay(data)


def tiles(text: str) -> set[Tile]:
    return {Tile.parse(t) for t in text.split()}


def hands_left(data: dict[str, Any], number: int) -> list[set[Tile]]:
    """The hands at the end of round ``number`` (1-based): the deal, plus draws, minus plays."""
    rnd = data["rounds"][number - 1]
    hands = [{Tile.parse(t) for t in h} for h in rnd["deal"]["hands"]]
    for event in rnd["events"]:
        if "draw" in event:
            hands[event["seat"]].add(Tile.parse(event["draw"]))
        elif "play" in event:
            hands[event["seat"]].remove(Tile.parse(event["play"]))
    return hands


def left(*hands: str) -> list[set[Tile]]:
    """``left("1-3", "", "2-5 5-6")``: the expected hands, seat by seat."""
    return [tiles(h) for h in hands]


def result(game: Game, number: int) -> tuple[Any, ...]:
    """Round ``number``'s (kind, winner seat, hand values, points, scores after)."""
    r = game.rounds[number - 1].result
    assert r is not None
    return (r.kind, r.winner_seat, r.hand_values, r.points, r.scores_after)


def first_event(game: Game, number: int) -> Any:
    return game.rounds[number - 1].play.events[0]


def opener(game: Game, number: int) -> int:
    return game.rounds[number - 1].opener


# --- every golden record ------------------------------------------------------------


def test_the_golden_records_are_there() -> None:
    assert len(FILES) >= 24


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_R32_each_golden_record_replays_to_exactly_itself(path: Path) -> None:
    """A record is canonical: replaying it and writing the game again gives the same record."""
    data = record.loads(path.read_text(encoding="utf-8"))
    game = record.replay(data)
    assert record.game_record(game, data["players"]) == data
    assert record.loads(record.dumps(data)) == data
    assert record_lines(data)[-1].startswith("Game ")


# --- openers (R16–R21) --------------------------------------------------------------


def test_R16_the_highest_double_dealt_opens_automatically() -> None:
    # block, 3 players of 2 tiles; 6-6 is out of play, so 5-5 (Carla) is the highest double
    data, game = load("r16_highest_double_dealt_opens_automatically")
    assert opener(game, 1) == 2
    assert game.rounds[0].play.events == [
        Play(2, Tile(5, 5), None),  # played for her (R16)
        Pass(0),  # 0-1 2-4: no 5 (R10)
        Play(1, Tile(3, 5), End.LEFT),
        Pass(2),  # 0-2 against 3 and 5
        Pass(0),
        Play(1, Tile(1, 3), End.LEFT),  # Ben's last tile (R22)
    ]
    assert hands_left(data, 1) == left("0-1 2-4", "", "0-2")
    # R26 domino: 0-1 + 2-4 = 7, 0-2 = 2 → Ben scores 7 + 2 = 9
    assert result(game, 1) == (ResultKind.DOMINO, 1, (7, 0, 2), (0, 9, 0), (0, 9, 0))


def test_R16_without_a_double_the_heaviest_tile_opens_automatically_R3_larger_half() -> None:
    # 4-5 and 3-6 both weigh 9; R3 breaks the tie by the larger half: 3-6 (Ben)
    data, game = load("r16_no_double_heaviest_tile_opens_automatically")
    assert opener(game, 1) == 1
    assert first_event(game, 1) == Play(1, Tile(3, 6), None)
    assert data["rounds"][0]["events"] == [
        {"seat": 1, "play": "3-6"},
        {"seat": 0, "play": "1-6", "end": "right"},
    ]
    # ends 3 and 1: 4-5 and 0-2 fit neither, so the round is blocked after 1-6 (R23)
    assert hands_left(data, 1) == left("4-5", "0-2")
    # R26 blocked: Ben holds 2, Anna 9 → 9 − 2 = 7
    assert result(game, 1) == (ResultKind.BLOCKED, 1, (9, 2), (0, 7), (0, 7))


def test_R17_the_winner_opens_with_any_tile_and_after_a_tie_R16_again() -> None:
    data, game = load("r17_winner_opens_any_tile_after_a_tie_r16_again")
    # round 1: R16, Anna's 6-6 automatically; Ben goes out with 3-6 and 4-6, Anna keeps 1-2 = 3
    assert first_event(game, 1) == Play(0, Tile(6, 6), None)
    assert result(game, 1) == (ResultKind.DOMINO, 1, (3, 0), (0, 3), (0, 3))
    # round 2: Ben won, so Ben opens with a tile of his choice (2-3; no automatic play)
    assert opener(game, 2) == 1
    assert data["rounds"][1]["events"] == [{"seat": 1, "play": "2-3"}]
    # nobody holds a 2 or a 3: blocked at once; 0-0 + 1-4 = 5 against 0-5 = 5 → tied (R23)
    assert hands_left(data, 2) == left("0-0 1-4", "0-5")
    assert result(game, 2) == (ResultKind.TIED, None, (5, 5), (0, 0), (0, 3))
    # round 3: after the tie R16 again: the highest double 5-5 (Anna), played automatically
    assert opener(game, 3) == 0
    assert first_event(game, 3) == Play(0, Tile(5, 5), None)
    # Ben plays 1-5; ends 5 and 1 → blocked; Anna 0-2 = 2 wins, 4-4 = 8 → 8 − 2 = 6 (R26)
    assert hands_left(data, 3) == left("0-2", "4-4")
    assert result(game, 3) == (ResultKind.BLOCKED, 0, (2, 8), (6, 0), (6, 3))
    assert not game.finished


def test_R18_kozel_1_1_opens_round_1_then_the_last_placer_opens_with_any_tile() -> None:
    data, game = load("r18_kozel_one_one_then_the_last_placer_opens")
    assert Tile(1, 1) in tiles(" ".join(data["rounds"][0]["deal"]["hands"][2]))
    assert opener(game, 1) == 2
    assert first_event(game, 1) == Play(2, Tile(1, 1), None)  # automatic (R18)
    last = data["rounds"][0]["events"][-1]
    assert last == {"seat": 1, "play": "2-6", "end": "right"}  # Ben goes out
    # R33 domino by Ben: Anna 2-3 = 5 and Carla 2-2 = 4 → 9, under 13 at 0 points: dropped (R36)
    assert hands_left(data, 1) == left("2-3", "", "2-2", "6-6")
    assert result(game, 1) == (ResultKind.DOMINO, 1, (5, 0, 4, 12), (0, 0), (0, 0))
    # round 2: Ben placed the last tile, so Ben opens, with 0-4 — Anna holds the 1-1 now
    assert Tile(1, 1) in tiles(" ".join(data["rounds"][1]["deal"]["hands"][0]))
    assert opener(game, 2) == 1
    assert first_event(game, 2) == Play(1, Tile(0, 4), None)
    # the game is still running, in the middle of round 2
    assert "result" not in data["rounds"][1]
    assert data["result"] == {
        "finished": False,
        "losers": [],
        "winners": [],
        "dry_win": False,
        "scores": [0, 0],
    }
    assert game.turn == 3


def test_R19_lowest_double_other_than_0_0_then_the_lowest_tile() -> None:
    data, game = load("r19_lowest_double_except_0_0_then_lowest_tile")
    # round 1: Anna holds 0-0, Ben 1-1: 0-0 does not count, Ben opens — with any tile (1-4)
    assert opener(game, 1) == 1
    assert first_event(game, 1) == Play(1, Tile(1, 4), None)
    assert isinstance(game.rounds[0].play.events[1], Pass)  # Anna: 0-0 2-6 3-5 against 1 and 4
    # Ben goes out; Anna keeps 0-0 3-5 = 8 (R27: the winner takes the opponents' hands)
    assert hands_left(data, 1) == left("0-0 3-5", "")
    assert result(game, 1) == (ResultKind.DOMINO, 1, (8, 0), (0, 8), (0, 8))
    # round 2 (R19 in every round): 0-0 is the only double; the lowest tile opens: 0-0 itself
    assert opener(game, 2) == 0
    assert first_event(game, 2) == Play(0, Tile(1, 2), None)  # any tile
    # blocked with ends 1 and 4: Anna 0-0 = 0, Ben 0-3 = 3 → Anna scores 3 (R27, no subtraction)
    assert hands_left(data, 2) == left("0-0", "0-3")
    assert result(game, 2) == (ResultKind.BLOCKED, 0, (0, 3), (3, 0), (3, 8))
    # round 3: no double at all; 1-2 and 0-3 weigh 3, R3: the smaller half → 0-3 (Ben)
    assert opener(game, 3) == 1
    assert first_event(game, 3) == Play(1, Tile(1, 6), None)
    assert hands_left(data, 3) == left("4-5", "")
    assert result(game, 3) == (ResultKind.DOMINO, 1, (9, 0), (0, 9), (3, 17))


def test_R20_highest_tile_opens_then_the_previous_winner_and_after_a_tie_the_heaviest() -> None:
    data, game = load("r20_highest_tile_then_previous_winner_after_a_tie_highest_again")
    # round 1: Ben holds the heaviest tile 5-6 and opens with any tile: 1-5
    assert opener(game, 1) == 1
    assert first_event(game, 1) == Play(1, Tile(1, 5), None)
    # blocked (ends 2 and 2): Anna 3-4 = 7, Ben 5-6 = 11 → Anna takes 11 (R27)
    assert hands_left(data, 1) == left("3-4", "5-6")
    assert result(game, 1) == (ResultKind.BLOCKED, 0, (7, 11), (11, 0), (11, 0))
    # round 2: Anna won and opens (2-3), though she holds nothing heavier than 4-4
    assert opener(game, 2) == 0
    assert first_event(game, 2) == Play(0, Tile(2, 3), None)
    # blocked at once: 0-1 + 4-4 = 9 against 0-0 + 0-4 + 0-5 = 9 → tied
    assert hands_left(data, 2) == left("0-1 4-4", "0-0 0-4 0-5")
    assert result(game, 2) == (ResultKind.TIED, None, (9, 9), (0, 0), (11, 0))
    # round 3: after the tie the heaviest tile again: 6-6 (Ben), who opens with 2-3
    assert opener(game, 3) == 1
    assert first_event(game, 3) == Play(1, Tile(2, 3), None)
    # Anna goes out, Ben keeps 6-6 = 12 → 11 + 12 = 23 ≥ target 20: Anna wins (R30)
    assert hands_left(data, 3) == left("", "6-6")
    assert result(game, 3) == (ResultKind.DOMINO, 0, (0, 12), (12, 0), (23, 0))
    assert (game.result.finished, game.result.winners, game.result.losers) == (True, (0,), (1,))


def test_R21_draw_for_lead_a_tie_is_redrawn_and_the_lead_then_rotates() -> None:
    data, game = load("r21_draw_for_lead_tied_redraw_then_rotation")
    # 3-5 = 8 and 2-6 = 8 tie above 1-4 = 5; Anna and Ben draw again: 0-1 = 1, 4-6 = 10 → Ben
    assert data["lead_draws"] == [
        {"seat": 0, "tile": "3-5"},
        {"seat": 1, "tile": "2-6"},
        {"seat": 2, "tile": "1-4"},
        {"seat": 0, "tile": "0-1"},
        {"seat": 1, "tile": "4-6"},
    ]
    assert opener(game, 1) == 1
    assert first_event(game, 1) == Play(1, Tile(2, 5), None)  # any tile, not forced
    # Carla draws 4-4 (no fit) then 1-2 and must play it (R9)
    assert game.rounds[0].play.events[1:4] == [
        Draw(2, Tile(4, 4)),
        Draw(2, Tile(1, 2)),
        Play(2, Tile(1, 2), End.LEFT),
    ]
    # Anna goes out: Ben 3-3 + 0-3 = 9, Carla 0-0 + 4-4 = 8 → 17 (R26)
    assert hands_left(data, 1) == left("", "0-3 3-3", "0-0 4-4")
    assert result(game, 1) == (ResultKind.DOMINO, 0, (0, 9, 8), (17, 0, 0), (17, 0, 0))
    # round 2: the lead passes one seat on from Ben to Carla, not to the winner Anna
    assert opener(game, 2) == 2
    assert first_event(game, 2) == Play(2, Tile(3, 4), None)
    # Ben goes out: Anna 0-1 + 0-2 = 3, Carla 4-6 = 10 → 13
    assert hands_left(data, 2) == left("0-1 0-2", "", "4-6")
    assert result(game, 2) == (ResultKind.DOMINO, 1, (3, 0, 10), (0, 13, 0), (17, 13, 0))
    # round 3: Anna's lead; Ben draws 0-5, then 1-4, which he must now play
    assert opener(game, 3) == 0
    assert game.rounds[2].play.events[1:] == [Draw(1, Tile(0, 5)), Draw(1, Tile(1, 4))]
    assert game.rounds[2].result is None
    assert game.turn == 1
    assert [str(m) for m in game.legal_moves()] == ["1-4 left"]


# --- scoring (R23, R26–R30) ---------------------------------------------------------


def test_R26_winner_takes_domino_the_winner_scores_all_opponents_hands() -> None:
    data, game = load("r26_winner_takes_domino")
    assert [e for e in game.rounds[0].play.events if isinstance(e, Pass)] == [Pass(1), Pass(2)]
    assert hands_left(data, 1) == left("", "2-5 4-4", "0-1 1-2")
    # (2-5 + 4-4) + (0-1 + 1-2) = 15 + 4 = 19
    assert result(game, 1) == (ResultKind.DOMINO, 0, (0, 15, 4), (19, 0, 0), (19, 0, 0))


def test_R26_winner_takes_blocked_opponents_11_and_7_winner_4_scores_14() -> None:
    data, game = load("r26_winner_takes_blocked_11_and_7_against_4_scores_14")
    # the seed's example: 6-6, 0-6, 4-6 leave ends 0 and 4, which nobody holds
    assert hands_left(data, 1) == left("1-3", "5-6", "2-5")
    # 11 + 7 − 4 = 14, and 14 reaches the target 14: Anna wins (R30 "reaches or passes")
    assert result(game, 1) == (ResultKind.BLOCKED, 0, (4, 11, 7), (14, 0, 0), (14, 0, 0))
    assert (game.result.finished, game.result.winners, game.result.losers) == (True, (0,), (1, 2))


def test_R27_winner_takes_all_scores_the_opponents_hands_blocked_and_domino() -> None:
    data, game = load("r27_winner_takes_all_blocked_and_domino")
    # round 1: the same deal and play as R26's example, but nothing is subtracted: 11 + 7 = 18
    assert hands_left(data, 1) == left("1-3", "5-6", "2-5")
    assert result(game, 1) == (ResultKind.BLOCKED, 0, (4, 11, 7), (18, 0, 0), (18, 0, 0))
    # round 2 (R19: 2-2, Ben; Anna's 0-0 does not count): Ben goes out
    assert opener(game, 2) == 1
    # Anna 0-0 + 5-6 = 11, Carla 0-3 + 4-6 = 13 → 24; 24 ≥ 20 ends the game, 18 < 20
    assert hands_left(data, 2) == left("0-0 5-6", "", "0-3 4-6")
    assert result(game, 2) == (ResultKind.DOMINO, 1, (11, 0, 13), (0, 24, 0), (18, 24, 0))
    assert (game.result.finished, game.result.winners) == (True, (1,))


def test_R28_goat_the_winners_score_nothing_the_losing_pair_pays_its_own_hands() -> None:
    data, game = load("r28_goat_losing_pair_charged_its_own_hands")
    # Anna (pair 0 with Carla) goes out; pair 1: Ben 2-6 + 3-4 = 15, Dmitri 0-6 + 2-3 = 11
    assert hands_left(data, 1) == left("", "2-6 3-4", "0-2 4-5", "0-6 2-3")
    # pair 1 is charged 15 + 11 = 26 (R24 adds partners); Carla's 11 is not charged
    assert result(game, 1) == (ResultKind.DOMINO, 0, (0, 15, 11, 11), (0, 26), (0, 26))
    # 26 reaches the target 26: pair 1 loses, the lowest (pair 0, 0 points) wins (R30)
    assert (game.result.finished, game.result.winners, game.result.losers) == (True, (0,), (1,))


def test_R30_goat_target_reached_by_two_sides_at_once_both_lose_the_lowest_wins() -> None:
    data, game = load("r30_goat_two_sides_reach_the_target_at_once")
    # round 1: Ben goes out; Anna pays 0-0 + 0-3 = 3, Carla 0-4 + 2-2 = 8
    assert hands_left(data, 1) == left("0-0 0-3", "", "0-4 2-2")
    assert result(game, 1) == (ResultKind.DOMINO, 1, (3, 0, 8), (3, 0, 8), (3, 0, 8))
    # round 2: Anna goes out; Ben pays 0-0 + 4-6 = 10, Carla 0-2 + 2-3 = 7
    assert hands_left(data, 2) == left("", "0-0 4-6", "0-2 2-3")
    assert result(game, 2) == (ResultKind.DOMINO, 0, (0, 10, 7), (0, 10, 7), (3, 10, 15))
    # target 10: Ben is at it (10), Carla over it (8 + 7 = 15): both lose; Anna's 3 is lowest
    assert game.result.finished
    assert (game.result.winners, game.result.losers) == ((0,), (1, 2))
    assert data["result"]["scores"] == [3, 10, 15]


def test_R23_a_draw_game_blocked_after_the_boneyard_ran_out_ends_with_the_last_draw() -> None:
    data, game = load("r23_draw_game_blocked_when_the_boneyard_ran_out")
    rnd = game.rounds[0].play
    # all seven 6s are on the line and both ends show 6; Carla cannot play, draws the
    # boneyard's last tile 3-5, which does not fit, and nobody can play: the round ends
    # right after that draw, with no pass after it
    assert data["rounds"][0]["deal"]["boneyard"] == ["5-5", "0-1", "4-5", "3-5"]
    assert rnd.events[-1] == Draw(2, Tile(3, 5))
    assert len(rnd.events) == 14
    assert not any(isinstance(e, Pass) for e in rnd.events)
    assert rnd.ends == (6, 6)
    assert rnd.boneyard_count == 0
    assert hands_left(data, 1) == left(
        "0-0 0-2 1-2 2-2", "0-3 0-4 4-4", "0-5 1-5 2-4 2-5 3-5", "1-1 1-3 1-4 3-3 3-4 5-5"
    )
    # values 0+2+3+4 = 9, 3+4+8 = 15, 5+6+6+7+8 = 32, 2+4+5+6+7+10 = 34;
    # Anna holds the lowest: 15 + 32 + 34 − 9 = 72 (R26)
    assert result(game, 1) == (ResultKind.BLOCKED, 0, (9, 15, 32, 34), (72, 0, 0, 0), (72, 0, 0, 0))


# --- Kozel (R13, R33–R37a) ----------------------------------------------------------


def test_R33_lone_zero_zero_counts_25() -> None:
    data, game = load("r33_kozel_lone_0_0_counts_25")
    # Dmitri goes out; pair 0: Anna holds exactly 0-0 → 25, Carla 3-3 = 6 → 31
    assert hands_left(data, 1) == left("0-0", "2-2", "3-3", "")
    assert result(game, 1) == (ResultKind.DOMINO, 3, (0, 4, 6, 0), (31, 0), (31, 0))


def test_R33_lone_six_six_counts_50() -> None:
    data, game = load("r33_kozel_lone_6_6_counts_50")
    # Anna goes out; pair 1: Ben 3-3 = 6, Dmitri holds exactly 6-6 → 50 → 56
    assert hands_left(data, 1) == left("", "3-3", "0-3", "6-6")
    assert result(game, 1) == (ResultKind.DOMINO, 0, (0, 6, 3, 12), (0, 56), (0, 56))


def test_R34_fish_the_heavier_pair_pays_all_four_hands() -> None:
    data, game = load("r34_kozel_fish_charges_all_four_hands")
    # pair 0: 2-2 + 5-5 = 14 and a lone 6-6 = 12 (plain in a fish) → 26;
    # pair 1: 3-3 + 4-4 = 14 and a lone 0-0 = 0 → 14; pair 0 pays 26 + 14 = 40
    assert hands_left(data, 1) == left("2-2 5-5", "3-3 4-4", "6-6", "0-0")
    # the winner (R17) is the lowest hand of the winning pair: Dmitri's 0
    assert result(game, 1) == (ResultKind.FISH, 3, (14, 14, 12, 0), (40, 0), (40, 0))


def test_R37a_fish_own_hands_the_heavier_pair_pays_only_its_own_pips() -> None:
    data, game = load("r37a_kozel_fish_own_hands_charges_the_heavier_pair_its_own")
    fish = json.loads((GOLDEN / "r34_kozel_fish_charges_all_four_hands.json").read_text())
    assert data["ruleset"]["fish_charge"] == "own_hands"
    assert data["rounds"][0]["deal"] == fish["rounds"][0]["deal"]
    assert data["rounds"][0]["events"] == fish["rounds"][0]["events"]
    # the same fish, but pair 0 pays only its own 14 + 12 = 26
    assert result(game, 1) == (ResultKind.FISH, 3, (14, 14, 12, 0), (26, 0), (26, 0))


def test_R35_eggs_carried_over_twice_in_a_row_then_charged() -> None:
    data, game = load("r35_kozel_eggs_twice_then_charged")
    # round 1: pair 0 0-0 2-2 (4) + 0-1 0-2 1-4 2-4 (14) = 18; pair 1 4-4 (8) + 5-5 (10) = 18
    assert hands_left(data, 1) == left("0-0 2-2", "4-4", "0-1 0-2 1-4 2-4", "5-5")
    assert result(game, 1) == (ResultKind.EGGS, None, (4, 8, 14, 10), (0, 0), (0, 0))
    assert game.rounds[0].result.eggs_carried == 36  # type: ignore[union-attr]
    # round 2 (the last placer of round 1, Ben, opens): 25 + 21 = 46 against 20 + 26 = 46
    assert opener(game, 2) == 1
    assert hands_left(data, 2) == left(
        "0-0 2-2 3-6 6-6", "0-2 0-3 1-3 2-3 3-3", "1-2 2-6 5-5", "0-1 1-1 1-5 0-6 5-6"
    )
    assert result(game, 2) == (ResultKind.EGGS, None, (25, 20, 21, 26), (0, 0), (0, 0))
    assert game.rounds[1].result.eggs_carried == 36 + 92  # type: ignore[union-attr]
    # round 3: Ben goes out; pair 0 pays 0-2 0-6 (8) + 1-3 3-6 (13) = 21, plus 128 eggs = 149
    assert opener(game, 3) == 2
    assert hands_left(data, 3) == left("0-2 0-6", "", "1-3 3-6", "1-6 6-6")
    assert result(game, 3) == (ResultKind.DOMINO, 1, (8, 0, 13, 19), (149, 0), (149, 0))
    r3 = data["rounds"][2]["result"]
    assert (r3["eggs_used"], r3["eggs_carried"]) == (128, 0)
    # 149 does not pass the target 150 (R30: 151 would), so the game goes on
    assert not game.finished


def test_R36_the_13_rule_drops_a_small_charge_at_0_and_counts_the_eggs() -> None:
    data, game = load("r36_kozel_thirteen_rule_with_eggs")
    # round 1: Ben goes out; pair 0 would pay 0-0 1-4 (5, not a lone 0-0) + 2-2 (4) = 9:
    # below 13 while pair 0 has 0 → dropped
    assert hands_left(data, 1) == left("0-0 1-4", "", "2-2", "2-4")
    assert result(game, 1) == (ResultKind.DOMINO, 1, (5, 0, 4, 6), (0, 0), (0, 0))
    assert data["rounds"][0]["result"]["dropped"] == [9, 0]
    # round 2: eggs, 12 + 1 = 13 against 6 + 7 = 13 → 26 carried
    assert result(game, 2) == (ResultKind.EGGS, None, (12, 6, 1, 7), (0, 0), (0, 0))
    assert data["rounds"][1]["result"]["eggs_carried"] == 26
    # round 3: Carla goes out; pair 1 holds 5-5 + 1-1 = 12, below 13 — but with the eggs
    # 12 + 26 = 38, which is written although pair 1 still had 0
    assert hands_left(data, 3) == left("0-3", "5-5", "", "1-1")
    assert result(game, 3) == (ResultKind.DOMINO, 2, (3, 10, 0, 2), (0, 38), (0, 38))
    # round 4: Anna goes out; pair 1 pays 4-4 + 0-3 = 11 < 13, written: pair 1 is not at 0
    assert hands_left(data, 4) == left("", "4-4", "2-3", "0-3")
    assert result(game, 4) == (ResultKind.DOMINO, 0, (0, 8, 5, 3), (0, 11), (0, 49))
    assert data["rounds"][3]["result"]["dropped"] == [0, 0]


def test_R37_dry_win_the_goat_passes_the_target_while_the_winners_have_0() -> None:
    data, game = load("r37_kozel_dry_win")
    assert data["ruleset"]["target"] == 20
    # round 1: Anna goes out; pair 1 would pay 0-0 0-5 (5) + 0-3 (3) = 8 → dropped (R36)
    assert hands_left(data, 1) == left("", "0-0 0-5", "2-2 3-3 5-5", "0-3")
    assert result(game, 1) == (ResultKind.DOMINO, 0, (0, 5, 20, 3), (0, 0), (0, 0))
    # round 2: Ben goes out; pair 0 pays 3-3 (6) + 4-5 5-6 (20) = 26, passing 20
    assert hands_left(data, 2) == left("3-3", "", "4-5 5-6", "2-2 4-6 6-6")
    assert result(game, 2) == (ResultKind.DOMINO, 1, (6, 0, 20, 26), (26, 0), (26, 0))
    # pair 0 is the Goat; pair 1 wins with 0 points: a dry win
    assert data["result"] == {
        "finished": True,
        "losers": [0],
        "winners": [1],
        "dry_win": True,
        "scores": [26, 0],
    }
    assert "dry win" in record_lines(data)[-1]


def test_R13_kozel_redeal_five_doubles_then_six_tiles_of_a_number() -> None:
    data, game = load("r13_kozel_redeal_five_doubles_then_six_of_a_number")
    redeals = data["rounds"][0]["redeals"]
    # Anna holds 0-0 1-1 2-2 3-3 4-4: five doubles
    assert tiles("0-0 1-1 2-2 3-3 4-4") <= tiles(" ".join(redeals[0]["hands"][0]))
    # Carla holds 0-6 1-6 2-6 3-6 4-6 5-6: six tiles showing 6
    assert tiles("0-6 1-6 2-6 3-6 4-6 5-6") <= tiles(" ".join(redeals[1]["hands"][2]))
    assert [r["reason"] for r in redeals] == [
        "seat 0 holds 5 doubles",
        "seat 2 holds 6 tiles showing 6",
    ]
    # the third deal is played: Dmitri holds 1-1 and opens with it (R18)
    assert Tile(1, 1) in tiles(" ".join(data["rounds"][0]["deal"]["hands"][3]))
    assert first_event(game, 1) == Play(3, Tile(1, 1), None)
    assert [reason for _, reason in game.rounds[0].redeals] == [
        Redeal(0, RedealKind.DOUBLES, 5),
        Redeal(2, RedealKind.NUMBER, 6, 6),
    ]
    assert [(r["seat"], r["kind"], r["count"], r["number"]) for r in redeals] == [
        (0, "doubles", 5, None),
        (2, "number", 6, 6),
    ]
    lines = record_lines(data)
    assert lines[:2] == [
        "R1 · redeal: seat 0 holds 5 doubles (R13)",
        "R1 · redeal: seat 2 holds 6 tiles showing 6 (R13)",
    ]
    assert not game.finished


# --- goat's special doubles, single rounds, the general page's Block (R28a, R40, R41) -----


def test_R28a_goat_a_lone_0_0_counts_25_and_a_lone_6_6_50_after_a_domino_plain_when_blocked() -> (
    None
):
    data, game = load("r28a_goat_lone_0_0_and_6_6_after_a_domino_plain_when_blocked")
    assert data["ruleset"]["scoring"] == "goat" and data["ruleset"]["hand_size"] == 2
    # round 1: Anna opens with 1-1 (R19, the lowest double but 0-0) and goes out with 1-2
    assert opener(game, 1) == 0
    assert hands_left(data, 1) == left("", "0-0", "2-5", "6-6")
    # pair 1 is charged Ben's lone 0-0 as 25 and Dmitri's lone 6-6 as 50: 75, not 0 + 12
    assert result(game, 1) == (ResultKind.DOMINO, 0, (0, 0, 7, 12), (0, 75), (0, 75))
    # round 2: 2-2, 2-4, Carla knocks, 4-5: ends 2 and 5, nobody can play (R23)
    assert hands_left(data, 2) == left("0-1", "6-6", "0-3 1-3", "0-0")
    # pair 0 holds 1 + 7 = 8 against 12 + 0 = 12: blocked, plain values, pair 1 pays 12
    assert result(game, 2) == (ResultKind.BLOCKED, 0, (1, 12, 7, 0), (0, 12), (0, 87))
    # 87 reaches the target 80: pair 1 loses (R30)
    assert (game.result.finished, game.result.winners, game.result.losers) == (True, (0,), (1,))


def test_R40_a_single_round_that_is_tied_is_won_by_nobody() -> None:
    data, game = load("r40_single_round_tied_nobody_wins")
    assert data["ruleset"]["target"] == "round"
    # 6-6 opens for Anna (R16), Ben plays 5-6; 0-2 and 1-1 fit neither 6 nor 5: blocked
    assert hands_left(data, 1) == left("0-2", "1-1")
    assert result(game, 1) == (ResultKind.TIED, None, (2, 2), (0, 0), (0, 0))
    assert data["result"] == {
        "finished": True,
        "losers": [],
        "winners": [],
        "dry_win": False,
        "scores": [0, 0],
    }
    assert record_lines(data)[-1] == (
        "Game over: the round is tied, nobody wins (R40); scores Anna (seat 0) 0, Ben (seat 1) 0"
    )


def test_R41_classic_block_seven_tiles_each_the_rest_out_the_lead_drawn() -> None:
    data, game = load("r41_classic_block_seven_each_rest_out_draw_for_lead_one_round")
    deal = data["rounds"][0]["deal"]
    # 3 players × 7 tiles; the other 7 stay out of play, and there is no boneyard
    assert [len(h) for h in deal["hands"]] == [7, 7, 7]
    assert len(deal["out"]) == 7 and deal["boneyard"] == []
    # R21: Ben's 5-5 and Carla's 4-6 tie at 10 over Anna's 0-3; Ben 1-1 = 2, Carla 1-2 = 3
    assert opener(game, 1) == 2
    assert first_event(game, 1) == Play(2, Tile(0, 0), None)  # any tile, her choice
    # R40: one round; Carla goes out, Anna keeps 2-4 + 6-6 = 18, Ben 5-6 = 11 → 29 (R26)
    assert hands_left(data, 1) == left("2-4 6-6", "5-6", "")
    assert result(game, 1) == (ResultKind.DOMINO, 2, (18, 11, 0), (0, 0, 29), (0, 0, 29))
    assert (game.result.finished, game.result.winners, game.result.losers) == (
        True,
        (2,),
        (0, 1),
    )
