"""The hand-laid line (R39): turns, straightenings, their limits, the view and the record.

The deal used throughout (``vog-block``, 2 players, 5 tiles each, line manual):
Anna holds 1-1, the lowest double but 0-0, and opens (R19). The right arm grows
2-5, 5-6, 1-6, 1-3, 3-3, 0-3, 0-4, 4-4 — two doubles in it, so every limit
can be met.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import T, game_of, make_deal, mv, round_state, snapshot
from doublesix import (
    End,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Play,
    Straighten,
    preset,
    seat_view,
)
from doublesix.rules import record
from doublesix.rules.moves import Turn
from doublesix.rules.text import record_lines

LEFT, RIGHT = Turn.LEFT, Turn.RIGHT
MANUAL = preset("vog-block", players=2, hand_size=5)
GOLDEN = Path(__file__).parent / "golden" / "r39_manual_line_turns_and_straightenings.json"


def manual_game(*plays: tuple[str, Turn | None]) -> Game:
    game = game_of(MANUAL, make_deal(MANUAL, "2-5 1-6 3-3 0-4 1-1", "5-6 1-3 0-3 4-4 2-2"))
    for move, turn in plays:
        game.play(mv(move), turn=turn)
    return game


UP_TO_0_3 = (
    ("2-5", None),
    ("5-6 right", LEFT),
    ("1-6 right", RIGHT),
    ("1-3 right", None),
    ("3-3 right", None),
    ("0-3 right", None),
)


def test_R39_vog_presets_lay_the_line_by_hand() -> None:
    assert MANUAL.line == "manual"
    assert preset("vog-goat").line == preset("vog-talon").line == "manual"
    assert preset("block").line == preset("kozel").line == "auto"


def test_R39_a_play_may_turn_left_or_right_and_its_event_says_so() -> None:
    game = manual_game(("2-5", None))
    events = game.play(mv("5-6 right"), turn=LEFT)
    assert events[0] == Play(1, T("5-6"), End.RIGHT, LEFT)
    assert game.round.events[1].turn is LEFT  # type: ignore[union-attr]
    game.play(mv("1-6 right"))  # no turn: straight on
    assert game.round.events[2] == Play(0, T("1-6"), End.RIGHT, None)


def test_R39_the_first_tile_has_no_turn() -> None:
    game = manual_game()
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match=r"first tile has no turn \(R39\)"):
        game.play(mv("2-5"), turn=LEFT)
    assert snapshot(game) == before


def test_R39_a_double_never_turns_and_the_tile_after_it_goes_straight_on() -> None:
    game = manual_game(*UP_TO_0_3[:4])
    with pytest.raises(IllegalMoveError, match=r"3-3 is a double.*\(R39\)"):
        game.play(mv("3-3 right"), turn=RIGHT)
    game.play(mv("3-3 right"))
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match=r"0-3 follows the double 3-3.*\(R39\)"):
        game.play(mv("0-3 right"), turn=LEFT)
    assert snapshot(game) == before
    assert not game.round.may_turn(mv("0-3 right"))


def test_R39_an_automatic_line_takes_no_turn_and_no_straightening() -> None:
    auto = MANUAL.replace(line="auto")
    game = game_of(auto, make_deal(auto, "2-5 1-6 3-3 0-4 1-1", "5-6 1-3 0-3 4-4 2-2"))
    game.play(mv("2-5"))
    with pytest.raises(IllegalMoveError, match=r"line: auto\) \(R39\)"):
        game.play(mv("5-6 right"), turn=LEFT)
    with pytest.raises(IllegalMoveError, match="R39"):
        game.straighten(1, T("2-5"), LEFT)
    assert seat_view(game, 1).may_turn == (False, False)  # 5-6 right, 2-2 left
    assert seat_view(game, 1).straightenings == ()


def test_R39_a_turn_must_be_left_or_right() -> None:
    game = manual_game(("2-5", None))
    with pytest.raises(InvalidMoveError):
        game.play(mv("5-6 right"), turn="up")  # type: ignore[arg-type]


def test_R39_straightening_is_not_a_move_the_same_seat_plays_on() -> None:
    game = manual_game(*UP_TO_0_3)
    rnd = game.round
    before, legal = round_state(rnd), rnd.legal_moves()
    event = game.straighten(0, T("1-6"), LEFT)
    assert event == Straighten(0, T("1-6"), LEFT) and rnd.events[-1] == event
    after = round_state(rnd)
    at = type(rnd).__slots__.index("events")
    assert after[:at] + after[at + 1 :] == before[:at] + before[at + 1 :]
    assert (rnd.turn, rnd.legal_moves()) == (0, legal)
    game.play(mv("0-4 right"), turn=LEFT)
    assert rnd.events[-1] == Play(0, T("0-4"), End.RIGHT, LEFT)


@pytest.mark.parametrize(
    ("at", "turn", "why"),
    [
        ("2-5", LEFT, "cannot turn across its first tile 2-5"),
        ("3-3", LEFT, "cannot turn right behind the double 3-3"),
        ("1-3", LEFT, "the tail beyond 1-3 starts with the double 3-3"),
        ("0-3", LEFT, "nothing lies beyond 0-3"),
        ("5-6", RIGHT, "turning right at 5-6 would fold the line back"),  # 1-6 turned right
        ("4-4", LEFT, "4-4 is not on the line"),
    ],
)
def test_R39_straightening_limits(at: str, turn: Turn, why: str) -> None:
    game = manual_game(*UP_TO_0_3)
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="R39") as info:
        game.straighten(0, T(at), turn)
    assert why in str(info.value)
    assert snapshot(game) == before


def test_R39_a_straightened_joint_can_be_turned_back_but_not_past_a_quarter() -> None:
    game = manual_game(*UP_TO_0_3)
    game.straighten(0, T("1-6"), LEFT)
    with pytest.raises(IllegalMoveError, match="fold the line back"):
        game.straighten(0, T("1-6"), LEFT)
    game.straighten(0, T("1-6"), RIGHT)  # back to straight
    game.straighten(0, T("5-6"), LEFT)  # 1-6 was laid turning right: now straight


def test_R39_only_the_seat_to_move_straightens_and_not_after_the_round() -> None:
    game = manual_game(*UP_TO_0_3)
    with pytest.raises(IllegalMoveError, match=r"seat 0's turn, not seat 1's \(R39\)"):
        game.straighten(1, T("1-6"), LEFT)
    over = manual_game(*UP_TO_0_3, ("0-4 right", None), ("4-4 right", None), ("2-2 left", None))
    assert over.round.ending is not None
    with pytest.raises(IllegalMoveError, match="R39"):
        over.round.straighten(T("1-6"), LEFT)
    with pytest.raises(InvalidMoveError):
        game.straighten(0, "1-6", LEFT)  # type: ignore[arg-type]


def test_R39_the_seat_to_move_sees_which_moves_may_turn_and_where_it_may_straighten() -> None:
    game = manual_game(*UP_TO_0_3[:5])
    view = seat_view(game, 1)  # Ben to play after 3-3
    assert [str(m) for m in view.legal_moves] == ["0-3 right", "2-2 left"]
    assert view.may_turn == (False, False)  # right after the double 3-3; a double
    # at 5-6 only left (1-6 was laid turning right); not at 1-3, whose tail starts with 3-3
    bends = {(T("5-6"), LEFT), (T("1-6"), LEFT), (T("1-6"), RIGHT)}
    assert set(view.straightenings) == bends
    assert seat_view(game, 0).straightenings == ()  # not Anna's turn
    game.play(mv("0-3 right"))
    view = seat_view(game, 0)
    assert view.may_turn == (True,)
    assert set(view.straightenings) == bends  # nothing lies beyond 0-3 yet


def test_R39_turns_and_straightenings_are_recorded_replayed_and_told() -> None:
    data = record.loads(GOLDEN.read_text(encoding="utf-8"))
    events = data["rounds"][0]["events"]
    assert events[1] == {"seat": 1, "play": "5-6", "end": "right", "turn": "left"}
    assert events[6] == {"seat": 0, "straighten": {"at": "1-6", "turn": "left"}}
    game = record.replay(data)
    assert game.rounds[0].play.events[6] == Straighten(0, T("1-6"), LEFT)
    assert record.game_record(game, data["players"]) == data
    lines = record_lines(data)
    assert (
        "R1 · 7. Anna (seat 0) straightened the line at 1-6, its tail a quarter turn left (R39)"
        in lines
    )
    assert "R1 · 2. Ben (seat 1) plays 5-6 on the right, turning left (R39)" in lines


@pytest.mark.parametrize(
    ("index", "change", "field", "rule"),
    [
        (5, {"turn": "left"}, None, "R39"),  # 0-3 after the double 3-3
        (0, {"turn": "left"}, None, "R39"),  # the first tile
        (1, {"turn": "up"}, "turn", "R39"),
        (6, {"straighten": {"at": "2-5", "turn": "left"}}, None, "R39"),
        (6, {"straighten": {"at": "1-6", "turn": "around"}}, "straighten.turn", "R39"),
        (6, {"straighten": "1-6"}, "straighten", "docs/record.md"),
        (6, {"seat": 1}, None, "R6"),
    ],
)
def test_R39_a_record_beyond_the_limits_is_refused_where_it_breaks_them(
    index: int, change: dict[str, object], field: str | None, rule: str
) -> None:
    data = record.loads(GOLDEN.read_text(encoding="utf-8"))
    data["rounds"][0]["events"][index].update(change)
    with pytest.raises(record.RecordError) as info:
        record.replay(data)
    error = info.value
    assert (error.rule, error.round, error.event, error.field) == (rule, 1, index + 1, field)
