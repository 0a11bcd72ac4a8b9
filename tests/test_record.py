"""The game record ``doublesix/1`` (docs/record.md, R32): write, read, replay, reject, as text.

Round trips use engine-written games of every preset and player count; the
rejections start from the golden records in ``tests/golden/`` and break one
thing each, checking that the error names the rule, the round and the event.
Whatever a record holds, reading and replaying it either works or raises
``RecordError``: any other exception is a bug.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from doublesix import PRESETS, Game, Play, preset
from doublesix.names import bot_name
from doublesix.rules import record
from doublesix.rules.record import FORMAT, RecordError
from doublesix.rules.text import record_lines

GOLDEN = Path(__file__).parent / "golden"
COMBOS = [(name, n) for name in PRESETS for n in PRESETS[name].players]
NAMES = ["Anna", "Ben", "Carla", "Dmitri"]


def golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return data


def random_game(
    name: str, players: int, seed: int, stop: int | None = None, **options: Any
) -> Game:
    """A game of random legal moves (seeded); ``stop`` ends it early after that many moves."""
    rng = random.Random(seed)
    game = Game(preset(name, players=players, **options), seed=seed)
    moves = 0
    while not game.finished and (stop is None or moves < stop):
        if game.turn is None:
            game.next_round()
            continue
        game.play(rng.choice(game.legal_moves()))
        moves += 1
    return game


def round_trip(game: Game) -> tuple[dict[str, Any], Game]:
    """Write ``game``, turn it into text and back, and replay it."""
    written = record.game_record(game, NAMES[: game.ruleset.players])
    replayed = record.replay(record.loads(record.dumps(written)))
    return written, replayed


def same_game(a: Game, b: Game) -> None:
    assert a.ruleset == b.ruleset
    assert a.result == b.result
    assert a.lead_draws == b.lead_draws
    assert [(r.deal, r.redeals, r.opener, r.result) for r in a.rounds] == [
        (r.deal, r.redeals, r.opener, r.result) for r in b.rounds
    ]
    assert [r.play.events for r in a.rounds] == [r.play.events for r in b.rounds]


# --- round trips ----------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), COMBOS)
def test_R32_every_preset_and_player_count_round_trips(name: str, players: int) -> None:
    for seed in range(3):
        game = random_game(name, players, seed, target=60)
        assert game.finished
        written, replayed = round_trip(game)
        assert record.game_record(replayed, NAMES[:players]) == written
        same_game(game, replayed)
        assert written["format"] == FORMAT
        assert written["seed"] == seed
        assert written["result"]["finished"] is True
        assert ("lead_draws" in written) == (name in ("classic", "classic-block"))


@pytest.mark.parametrize(("name", "players"), COMBOS)
def test_R32_a_running_game_replays(name: str, players: int) -> None:
    for seed, stop in ((1, 3), (2, 17), (3, 40)):
        game = random_game(name, players, seed, stop=stop)
        written, replayed = round_trip(game)
        assert written["result"]["finished"] is False
        assert record.game_record(replayed, NAMES[:players]) == written
        same_game(game, replayed)
        assert replayed.turn == game.turn
        assert replayed.legal_moves() == game.legal_moves()


def test_R32_a_running_game_between_rounds_replays() -> None:
    game = Game(preset("block", players=2), seed=5)
    rng = random.Random(5)
    while game.turn is not None:
        game.play(rng.choice(game.legal_moves()))
    assert not game.finished and game.rounds[-1].result is not None
    written, replayed = round_trip(game)
    assert "result" in written["rounds"][-1]
    assert replayed.turn is None
    assert record.game_record(replayed, NAMES[:2]) == written


def test_R32_the_whole_ruleset_is_written_out() -> None:
    written = record.game_record(random_game("kozel", 4, 1, stop=1), NAMES)
    assert written["ruleset"] == {
        "preset": "kozel",
        "players": 4,
        "hand_size": 7,
        "boneyard": False,
        "opener": "kozel",
        "scoring": "kozel",
        "target": 100,
        "pairs": True,
        "draw_rule": "draw_until_playable",
        "keep_in_boneyard": 0,
        "redeal": True,
        "fish_charge": "all_hands",
        "lone_zero_zero": 25,
        "lone_six_six": 50,
        "line": "auto",
    }


def test_R32_house_rules_round_trip() -> None:
    options: list[tuple[str, int, dict[str, Any]]] = [
        ("draw", 2, {"draw_rule": "draw_one", "keep_in_boneyard": 2}),
        ("draw", 3, {"keep_in_boneyard": 5, "hand_size": 4}),
        ("kozel", 4, {"fish_charge": "own_hands", "lone_zero_zero": 10, "lone_six_six": 12}),
        ("block", 4, {"pairs": True, "target": 30}),
        ("vog-talon", 3, {"opener": "draw_for_lead", "scoring": "goat", "target": 40}),
    ]
    for name, players, option in options:
        for seed in range(3):
            game = random_game(name, players, seed, **option)
            written, replayed = round_trip(game)
            assert record.game_record(replayed, NAMES[:players]) == written
            same_game(game, replayed)


def test_R32_a_record_written_by_hand_without_optional_fields_replays() -> None:
    """docs/record.md's shape: no optional result fields, no ``redeal``, extra fields ignored."""
    data = golden("r13_kozel_redeal_five_doubles_then_six_of_a_number")
    del data["ruleset"]["redeal"]  # R13 is part of Kozel: implied by the kozel scoring
    del data["ruleset"]["fish_charge"], data["ruleset"]["lone_six_six"]
    data["comment"] = "extra fields are allowed"
    data["rounds"][0]["deal"]["note"] = "and ignored"
    game = record.replay(data)
    assert game.ruleset.redeal
    assert len(game.rounds[0].redeals) == 2
    data = golden("r36_kozel_thirteen_rule_with_eggs")
    for rnd in data["rounds"]:
        del rnd["result"]["eggs_used"], rnd["result"]["dropped"]
    del data["seed"]
    assert record.replay(data).result.scores == (0, 49)


def test_R13_a_ruleset_without_redeal_keeps_its_deals_outside_kozel() -> None:
    data = golden("r16_highest_double_dealt_opens_automatically")
    del data["ruleset"]["redeal"]
    assert not record.replay(data).ruleset.redeal


# --- text ------------------------------------------------------------------------------


def test_record_lines_one_line_per_event_and_per_result() -> None:
    data = golden("r26_winner_takes_domino")
    assert record_lines(data) == [
        "R1 · 1. Anna (seat 0) opens with 6-6: the highest double, laid automatically (R16)",
        "R1 · 2. Ben (seat 1) knocks",
        "R1 · 3. Carla (seat 2) knocks",
        "R1 · 4. Anna (seat 0) plays 3-6 on the left",
        "R1 · domino: Anna (seat 0) goes out; hands 0, 15, 4; Anna (seat 0) scores 19 = 15 + 4 "
        "(R26); scores Anna (seat 0) 19, Ben (seat 1) 0, Carla (seat 2) 0",
        "Game running: scores Anna (seat 0) 19, Ben (seat 1) 0, Carla (seat 2) 0",
    ]


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_record_lines_count_events_redeals_lead_draws_and_results(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    lines = record_lines(data)
    rounds = data["rounds"]
    events = sum(len(r["events"]) for r in rounds)
    redeals = sum(len(r.get("redeals", [])) for r in rounds)
    results = sum("result" in r for r in rounds)
    assert len(lines) == len(data.get("lead_draws", [])) + redeals + events + results + 1
    event_lines = [line for line in lines if line.split(" · ")[-1][:1].isdigit()]
    assert len(event_lines) == events


def test_record_lines_explain_kozel_eggs_and_the_13_rule() -> None:
    lines = record_lines(golden("r36_kozel_thirteen_rule_with_eggs"))
    results = [line for line in lines if "; hands " in line]
    assert "below 13 at 0 points, dropped (R36)" in results[0]
    assert "26 carried to the next round (R35)" in results[1]
    assert "are charged 38 = their hands 10 + 2 (R33) + 26 eggs (R35)" in results[2]
    assert lines[-1].startswith("Game running")


def test_record_lines_of_a_draw_for_lead_game() -> None:
    lines = record_lines(golden("r21_draw_for_lead_tied_redraw_then_rotation"))
    assert lines[:6] == [
        "R1 · Anna (seat 0) draws 3-5 for the lead (R21)",
        "R1 · Ben (seat 1) draws 2-6 for the lead (R21)",
        "R1 · Carla (seat 2) draws 1-4 for the lead (R21)",
        "R1 · Anna (seat 0) draws 0-1 for the lead (R21)",
        "R1 · Ben (seat 1) draws 4-6 for the lead (R21)",
        "R1 · 1. Ben (seat 1) opens with 2-5: drew 4-6, the highest tile, for the lead (R21)",
    ]
    assert "R1 · 2. Carla (seat 2) draws 4-4" in lines


def test_record_lines_refuse_a_bad_record() -> None:
    data = golden("r26_winner_takes_domino")
    data["rounds"][0]["events"].pop()
    with pytest.raises(RecordError):
        record_lines(data)


# --- rejected records --------------------------------------------------------------------


def rejected(name: str, change: Callable[[dict[str, Any]], object]) -> RecordError:
    """The error for golden record ``name`` after ``change``."""
    data = golden(name)
    record.replay(data)  # the original is fine
    change(data)
    with pytest.raises(RecordError) as info:
        record.replay(data)
    return info.value


def where(error: RecordError) -> tuple[str, int | None, int | None]:
    """The rule, the round and the event; rounds and events count from 1, as the move list."""
    return error.rule, error.round, error.event


R16 = "r16_highest_double_dealt_opens_automatically"
R26 = "r26_winner_takes_domino"
R26_BLOCKED = "r26_winner_takes_blocked_11_and_7_against_4_scores_14"
R21 = "r21_draw_for_lead_tied_redraw_then_rotation"
R23 = "r23_draw_game_blocked_when_the_boneyard_ran_out"
R13 = "r13_kozel_redeal_five_doubles_then_six_of_a_number"
EGGS = "r35_kozel_eggs_twice_then_charged"


def events(data: dict[str, Any], number: int = 1) -> list[dict[str, Any]]:
    evs: list[dict[str, Any]] = data["rounds"][number - 1]["events"]
    return evs


def test_R5_an_illegal_play_is_rejected_with_round_and_event() -> None:
    # ends 5 and 5: Ben's 1-3 fits neither
    error = rejected(R16, lambda d: events(d)[2].update(play="1-3"))
    assert where(error) == ("R5", 1, 3)
    assert "1-3 does not fit the left end (5)" in str(error)
    assert str(error).startswith("round 1, event 3: ")  # counted from 1


def test_R8_a_tile_not_in_the_hand_is_rejected() -> None:
    error = rejected(R16, lambda d: events(d)[2].update(play="2-5"))
    assert where(error) == ("R8", 1, 3)


def test_R6_a_play_out_of_turn_is_rejected() -> None:
    error = rejected(R16, lambda d: events(d)[2].update(seat=2))
    assert where(error) == ("R6", 1, 3)


def test_R10_a_missing_forced_pass_is_rejected() -> None:
    error = rejected(R16, lambda d: events(d).pop(1))  # Anna cannot play and knocks
    assert where(error) == ("R10", 1, 2)
    assert "seat 0 cannot play and passes here" in str(error)


def test_R10_a_record_that_ends_before_a_forced_pass_is_rejected() -> None:
    def cut(d: dict[str, Any]) -> None:
        del events(d)[1:]
        del d["rounds"][0]["result"]
        d["result"]["scores"] = [0, 0, 0]

    assert where(rejected(R16, cut)) == ("R10", 1, 2)


def test_R9_a_missing_forced_draw_is_rejected() -> None:
    # Carla draws 4-4 then 1-2; leaving out the 4-4 draws the wrong tile
    error = rejected(R21, lambda d: events(d).pop(1))
    assert where(error) == ("R9", 1, 2)
    assert "draws 4-4, the boneyard's next tile, not 1-2" in str(error)
    # leaving out both draws plays a tile Carla does not hold yet
    error = rejected(R21, lambda d: events(d).__delitem__(slice(1, 3)))
    assert where(error) == ("R9", 1, 2)
    assert "must draw" in str(error)


def test_R9_a_drawn_tile_must_be_played_at_once() -> None:
    # Carla draws 1-2 and must play it; the record has her pass instead
    error = rejected(R21, lambda d: events(d).__setitem__(3, {"seat": 2, "pass": True}))
    assert where(error) == ("R7", 1, 4)


def test_R7_an_extra_pass_is_rejected() -> None:
    # Ben holds 3-5, which fits: he must play
    error = rejected(R16, lambda d: events(d).insert(2, {"seat": 1, "pass": True}))
    assert where(error) == ("R7", 1, 3)


def test_R7_a_voluntary_draw_is_rejected() -> None:
    error = rejected(R21, lambda d: events(d).insert(4, {"seat": 0, "draw": "0-3"}))
    assert where(error) == ("R7", 1, 5)


def test_R16_the_automatic_opening_tile_must_be_recorded_as_it_was_played() -> None:
    error = rejected(R16, lambda d: events(d)[0].update(play="3-5", seat=1))
    assert where(error) == ("R16", 1, 1)
    error = rejected(R16, lambda d: events(d)[0].update(end="left"))
    assert where(error) == ("R4", 1, 1)


def test_R4_a_chosen_opening_tile_has_no_end() -> None:
    error = rejected(R21, lambda d: events(d)[0].update(end="right"))
    assert where(error) == ("R4", 1, 1)


def test_R5_a_later_play_needs_its_end() -> None:
    error = rejected(R16, lambda d: events(d)[2].pop("end"))
    assert where(error) == ("R5", 1, 3)


def test_R22_events_after_a_domino_are_rejected() -> None:
    error = rejected(R26, lambda d: events(d).append({"seat": 1, "pass": True}))
    assert where(error) == ("R22", 1, 5)


def test_R23_events_after_a_blocked_round_are_rejected_no_extra_pass() -> None:
    error = rejected(R23, lambda d: events(d).append({"seat": 3, "pass": True}))
    assert where(error) == ("R23", 1, 15)
    assert "the round is over" in str(error)


def test_R23_a_round_that_stops_short_is_rejected_where_it_stops() -> None:
    last = len(golden(EGGS)["rounds"][0]["events"]) - 1
    error = rejected(EGGS, lambda d: events(d).pop())
    assert where(error) == ("R22, R23", 1, last + 1)
    assert error.field == "result"

    def no_result(d: dict[str, Any]) -> None:
        events(d).pop()
        del d["rounds"][0]["result"]

    error = rejected(EGGS, no_result)
    assert where(error) == ("R22, R23", 1, last + 1)
    assert "another round follows" in str(error)


def test_R1_a_deal_with_a_tile_twice_is_rejected() -> None:
    def twice(d: dict[str, Any]) -> None:
        d["rounds"][0]["deal"]["out"][0] = d["rounds"][0]["deal"]["hands"][0][0]

    error = rejected(R16, twice)
    assert where(error) == ("R1", 1, None)
    assert error.field is not None and error.field.startswith("deal.out")


def test_R1_a_deal_with_a_tile_missing_is_rejected() -> None:
    error = rejected(R16, lambda d: d["rounds"][0]["deal"]["out"].pop())
    assert where(error) == ("R1", 1, None)
    assert "28-tile set" in str(error)


def test_R1_a_tile_that_is_not_in_the_set_is_rejected() -> None:
    error = rejected(R16, lambda d: d["rounds"][0]["deal"]["out"].__setitem__(0, "6-7"))
    assert where(error) == ("R1", 1, None)
    error = rejected(R16, lambda d: events(d)[2].update(play="7-7"))
    assert where(error) == ("R1", 1, 3)


def test_R12_a_hand_of_the_wrong_size_is_rejected() -> None:
    def move(d: dict[str, Any]) -> None:
        deal = d["rounds"][0]["deal"]
        deal["hands"][0].append(deal["out"].pop())

    assert where(rejected(R16, move)) == ("R12", 1, None)


def test_R12_a_boneyard_in_a_block_game_is_rejected() -> None:
    def move(d: dict[str, Any]) -> None:
        deal = d["rounds"][0]["deal"]
        deal["boneyard"], deal["out"] = deal["out"], []

    assert where(rejected(R16, move)) == ("R12", 1, None)


def test_R26_a_wrong_round_result_names_the_scoring_rule() -> None:
    def wrong(d: dict[str, Any]) -> None:
        d["rounds"][0]["result"]["points"] = [22, 0, 0]  # 11 + 7 + 4: not minus the winner's

    error = rejected(R26_BLOCKED, wrong)
    assert where(error) == ("R26", 1, None)
    assert error.field == "result.points"
    assert "[22, 0, 0] is stated, the rules give [14, 0, 0]" in str(error)


@pytest.mark.parametrize(
    ("name", "number", "rule"),
    [
        ("r27_winner_takes_all_blocked_and_domino", 1, "R27"),
        ("r28_goat_losing_pair_charged_its_own_hands", 1, "R28"),
        ("r33_kozel_lone_0_0_counts_25", 1, "R33"),
        ("r34_kozel_fish_charges_all_four_hands", 1, "R34"),
        ("r35_kozel_eggs_twice_then_charged", 3, "R33, R35"),
        ("r36_kozel_thirteen_rule_with_eggs", 1, "R36"),
    ],
)
def test_R26_to_R36_a_wrong_points_entry_names_its_rule(name: str, number: int, rule: str) -> None:
    def wrong(d: dict[str, Any]) -> None:
        d["rounds"][number - 1]["result"]["points"][0] += 1

    assert where(rejected(name, wrong)) == (rule, number, None)


def test_R35_wrong_eggs_are_rejected() -> None:
    def wrong(d: dict[str, Any]) -> None:
        d["rounds"][0]["result"]["eggs_carried"] = 18  # only one pair's pips

    assert where(rejected(EGGS, wrong)) == ("R35", 1, None)


def test_R17_a_wrong_winner_is_rejected() -> None:
    def wrong(d: dict[str, Any]) -> None:
        d["rounds"][0]["result"]["winner_seat"] = 1

    assert where(rejected(R26_BLOCKED, wrong)) == ("R17", 1, None)


def test_R23_a_wrong_kind_is_rejected() -> None:
    def wrong(d: dict[str, Any]) -> None:
        d["rounds"][0]["result"]["kind"] = "domino"

    assert where(rejected(R26_BLOCKED, wrong)) == ("R23", 1, None)


def test_R30_a_wrong_game_result_is_rejected() -> None:
    def wrong(d: dict[str, Any]) -> None:
        d["result"]["winners"] = [1]

    error = rejected(R26_BLOCKED, wrong)
    assert where(error) == ("R30", None, None)
    assert error.field == "result.winners"

    def unfinished(d: dict[str, Any]) -> None:
        d["result"]["finished"] = False

    assert where(rejected(R26_BLOCKED, unfinished)) == ("R30", None, None)


def test_R26_wrong_game_scores_name_the_scoring_rule() -> None:
    def wrong(d: dict[str, Any]) -> None:
        d["result"]["scores"] = [18, 0, 0]

    error = rejected(R26_BLOCKED, wrong)
    assert where(error) == ("R26", None, None)
    assert error.field == "result.scores"


def test_R37_a_wrong_dry_win_is_rejected() -> None:
    error = rejected("r37_kozel_dry_win", lambda d: d["result"].update(dry_win=False))
    assert where(error) == ("R37", None, None)


def test_R30_a_round_after_the_game_was_decided_is_rejected() -> None:
    def more(d: dict[str, Any]) -> None:
        d["rounds"].append(copy.deepcopy(d["rounds"][0]))

    assert where(rejected(R26_BLOCKED, more)) == ("R30", 2, None)


def test_R32_a_finished_round_needs_its_result_and_a_running_one_has_none() -> None:
    error = rejected(R26, lambda d: d["rounds"][0].pop("result"))
    assert where(error) == ("R32", 1, None)

    data = golden("r18_kozel_one_one_then_the_last_placer_opens")
    data["rounds"][1]["result"] = data["rounds"][0]["result"]
    with pytest.raises(RecordError) as info:
        record.replay(data)
    assert where(info.value) == ("R22, R23", 2, 7)


def test_R32_a_running_record_stops_after_a_move_and_its_forced_events() -> None:
    """A record may stop before any play; never before a forced pass (R10)."""
    full = events(golden("r18_kozel_one_one_then_the_last_placer_opens"), 2)
    assert any("pass" in e for e in full)
    for n in range(1, len(full)):
        data = golden("r18_kozel_one_one_then_the_last_placer_opens")
        del events(data, 2)[n:]
        if "play" in full[n]:
            assert record.replay(data).round.turn == full[n]["seat"]
        else:
            with pytest.raises(RecordError) as info:
                record.replay(data)
            assert where(info.value) == ("R10", 2, n + 1)


def test_R13_a_redeal_that_was_not_needed_is_rejected() -> None:
    def needless(d: dict[str, Any]) -> None:
        rnd = d["rounds"][0]
        rnd["redeals"].append({**rnd["deal"], "reason": "no reason"})

    error = rejected(R13, needless)
    assert where(error) == ("R13", 1, None)
    assert error.field == "redeals[2]"
    assert "this deal stands" in str(error)


def test_R13_a_deal_that_needed_redealing_is_rejected() -> None:
    def kept(d: dict[str, Any]) -> None:
        rnd = d["rounds"][0]
        thrown = rnd["redeals"].pop(0)
        del thrown["reason"]
        rnd["redeals"], rnd["deal"] = [], thrown

    error = rejected(R13, kept)
    assert where(error) == ("R13", 1, None)
    assert error.field == "deal"
    assert "seat 0 holds 5 doubles" in str(error)


def test_R13_redeals_without_the_kozel_redeal_are_rejected() -> None:
    def added(d: dict[str, Any]) -> None:
        d["rounds"][0]["redeals"] = [dict(d["rounds"][0]["deal"])]

    assert where(rejected(R16, added)) == ("R13", 1, None)


def test_R21_lead_draws_that_do_not_decide_the_opener_are_rejected() -> None:
    # without the redraw the tie of 3-5 and 2-6 stays undecided
    error = rejected(R21, lambda d: d["lead_draws"].__delitem__(slice(3, None)))
    assert where(error) == ("R21", None, None)
    assert error.field == "lead_draws"
    # a draw after the opener is decided
    error = rejected(R21, lambda d: d["lead_draws"].append({"seat": 2, "tile": "0-0"}))
    assert where(error) == ("R21", None, None)
    # the redraw is only for the tied players
    error = rejected(R21, lambda d: d["lead_draws"][3].update(seat=2))
    assert where(error) == ("R21", None, None)
    # a tile drawn twice
    error = rejected(R21, lambda d: d["lead_draws"][4].update(tile="3-5"))
    assert where(error) == ("R21", None, None)
    # lead draws where the opener is not drawn for
    error = rejected(R16, lambda d: d.update(lead_draws=[{"seat": 0, "tile": "0-0"}]))
    assert where(error) == ("R21", None, None)


def test_an_impossible_ruleset_is_rejected_naming_the_option() -> None:
    error = rejected(R16, lambda d: d["ruleset"].update(hand_size=1))
    assert (error.rule, error.field) == ("R14", "ruleset.hand_size")
    error = rejected(R16, lambda d: d["ruleset"].update(players=5))
    assert (error.rule, error.field) == ("R12", "ruleset.players")
    error = rejected(R16, lambda d: d["ruleset"].update(opener="biggest"))
    assert error.field == "ruleset.opener"


def test_bad_json_is_rejected() -> None:
    for text in ["", "{", "{'format': 'doublesix/1'}", "[1, 2", "nul", "\x00", "[" * 100_000]:
        with pytest.raises(RecordError) as info:
            record.loads(text)
        assert info.value.rule == "docs/record.md"
        assert "not JSON" in str(info.value)
    for text in ["[]", "null", "3", '"doublesix/1"']:
        with pytest.raises(RecordError, match="a record is a JSON object"):
            record.loads(text)


def test_the_format_string_is_checked() -> None:
    for fmt in ["doublesix/2", "", None, 1, ["doublesix/1"]]:
        text = record.dumps({**golden(R16), "format": fmt})
        with pytest.raises(RecordError) as info:
            record.loads(text)
        assert (info.value.rule, info.value.field) == ("docs/record.md", "format")
        with pytest.raises(RecordError):
            record.replay(json.loads(text))
    data = golden(R16)
    del data["format"]
    with pytest.raises(RecordError):
        record.replay(data)


def test_replay_refuses_what_is_not_a_record() -> None:
    values: list[Any] = [None, [], "doublesix/1", 3, {"format": "doublesix/1"}]
    for value in values:
        with pytest.raises(RecordError):
            record.replay(value)


# --- never a crash -------------------------------------------------------------------------

WRONG: list[Any] = [None, True, 0, -1, 7, 1.5, "", "6-6", "left", [], [0], ["1-1"], {}, {"a": 1}]
TYPES = (type(None), bool, int, float, str, list, dict)
SMALL = [R16, R21, R23, R13, "r17_winner_opens_any_tile_after_a_tie_r16_again"]


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value, as a path of keys and indices."""
    if prefix:
        yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from paths(item, (*prefix, i))


def at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def replay_or_reject(data: Any) -> bool:
    """True if the record replays, False if it raises RecordError; anything else fails."""
    try:
        record.replay(data)
        record_lines(data)
    except RecordError:
        return False
    return True


@pytest.mark.parametrize("name", SMALL)
def test_a_value_of_the_wrong_type_anywhere_is_a_record_error(name: str) -> None:
    """Every field of the record, replaced by a value of another JSON type: rejected."""
    original = golden(name)
    accepted = []
    for path in paths(original):
        kind = TYPES.index(type(at(original, path)))
        for value in WRONG:
            if TYPES.index(type(value)) == kind:
                continue
            data = copy.deepcopy(original)
            at(data, path[:-1])[path[-1]] = value
            if replay_or_reject(data):
                accepted.append((path, value))
    # only the seed takes another type: these hand-made deals have none (null), a number is fine
    assert {path for path, _ in accepted} == {("seed",)}
    assert {type(value) for _, value in accepted} == {int}


@pytest.mark.parametrize("name", SMALL)
def test_any_field_left_out_is_never_a_crash(name: str) -> None:
    original = golden(name)
    for path in paths(original):
        data = copy.deepcopy(original)
        del at(data, path[:-1])[path[-1]]
        replay_or_reject(data)


def test_random_corruption_is_never_a_crash() -> None:
    rng = random.Random(2024)
    originals = [json.loads(p.read_text()) for p in sorted(GOLDEN.glob("*.json"))]
    for _ in range(3000):
        data = copy.deepcopy(rng.choice(originals))
        for _ in range(rng.randint(1, 3)):
            path = rng.choice(list(paths(data)))
            parent = at(data, path[:-1])
            roll = rng.random()
            if roll < 0.2 and isinstance(parent, list):
                parent.insert(path[-1], copy.deepcopy(parent[path[-1]]))  # duplicate an item
            elif roll < 0.4:
                del parent[path[-1]]
            else:
                parent[path[-1]] = rng.choice(
                    [*WRONG, *[f"{a}-{b}" for a in (0, 6) for b in (3, 6)]]
                )
        replay_or_reject(data)


# --- the property ----------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    combo=st.sampled_from(COMBOS),
    seed=st.integers(0, 2**32 - 1),
    stop=st.one_of(st.none(), st.integers(0, 120)),
    target=st.sampled_from([30, 50, 100]),
)
def test_property_writing_and_replaying_a_record_gives_the_same_results(
    combo: tuple[str, int], seed: int, stop: int | None, target: int
) -> None:
    name, players = combo
    game = random_game(name, players, seed, stop=stop, target=target)
    written, replayed = round_trip(game)
    assert replayed.result == game.result
    assert [r.result for r in replayed.rounds] == [r.result for r in game.rounds]
    assert replayed.scores == game.scores and replayed.eggs == game.eggs
    assert record.game_record(replayed, NAMES[:players]) == written
    assert len(record_lines(written)) >= sum(len(r.play.events) for r in game.rounds) + 1
    firsts = [r.play.events[0] for r in game.rounds if r.play.events]
    assert all(isinstance(e, Play) and e.end is None for e in firsts)


# --- records written before issue 14 ------------------------------------------------------

LEGACY = sorted((Path(__file__).parent / "legacy").glob("*.json"))


@pytest.mark.parametrize("path", LEGACY, ids=[p.stem for p in LEGACY])
def test_R32_a_record_of_an_earlier_version_replays_to_todays_record(path: Path) -> None:
    """Copies of golden records as an earlier version wrote them (no ``line``, no typed
    reasons): they replay, and writing the game again gives today's golden record."""
    old = record.loads(path.read_text(encoding="utf-8"))
    assert "line" not in old["ruleset"]
    game = record.replay(old)
    assert game.ruleset.line == "auto"
    assert record.game_record(game, old["players"]) == golden(path.stem)


# --- bots: a display name and a level ---------------------------------------------------------


def test_R32_bot_levels_are_kept_apart_from_the_names() -> None:
    game = random_game("block", 3, 1, target=20)
    names = ["Anna", bot_name(1), bot_name(2)]
    written = record.game_record(game, names, [None, "greedy", "expert"])
    assert written["players"] == ["Anna", "Bot 1", "Bot 2"]
    assert written["bots"] == [None, "greedy", "expert"]
    lines = record_lines(written)
    assert any(line.startswith("R1 · 1. ") for line in lines)
    assert "Bot 2 · expert (seat 2)" in "\n".join(lines)
    assert "Anna (seat 0)" in "\n".join(lines) and "Anna ·" not in "\n".join(lines)
    record.replay(written)
    for bad in (
        [None, "greedy"],
        "greedy",
        [None, 3, "expert"],
        [None, "", "x"],
        [None, "x" * 33, None],
    ):
        with pytest.raises(RecordError) as info:
            record.replay({**written, "bots": bad})
        assert info.value.rule == "docs/record.md" and (info.value.field or "").startswith("bots")
    assert record.game_record(game, names)  # without levels: no "bots" at all
    assert "bots" not in record.game_record(game, names)
