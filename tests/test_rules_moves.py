"""The line of play and moves (R4–R8), not being able to play (R9–R11), the layout (R38, R39)."""

from __future__ import annotations

import pytest

from conftest import T, game_of, hand, idx, make_deal, mv, play, round_state, snapshot
from doublesix import (
    Draw,
    End,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Pass,
    Play,
    Round,
    preset,
)

BLOCK2 = preset("block", players=2)
BLOCK3 = preset("block", players=3)
DRAW2 = preset("draw", players=2)


def moves(r: Round) -> set[str]:
    return {str(m) for m in r.legal_moves()}


def block_round(*hands: str, opener: int = 0, opening: str | None = None) -> Round:
    ruleset = {2: BLOCK2, 3: BLOCK3}[len(hands)]
    first = None if opening is None else idx(opening)
    return Round(ruleset, [hand(h) for h in hands], (), 0, opener, first)


# --- R4: the first tile, two ends, no spinner ----------------------------------


def test_R4_the_first_tile_opens_the_line_with_a_left_and_a_right_end() -> None:
    r = block_round("2-5 3-3", "5-6 1-2")
    assert r.ends is None
    assert moves(r) == {"2-5", "3-3"}  # the opener's moves name no end
    play(r, "2-5")
    assert r.ends == (2, 5)
    assert r.laid_line() == [(2, 5)]
    assert moves(r) == {"1-2 left", "5-6 right"}


def test_R4_a_double_lies_crosswise_and_adds_no_ends() -> None:
    r = block_round("3-3 3-4", "3-5 3-6")
    play(r, "3-3")
    assert r.ends == (3, 3)
    # Four tile-end pairs, but only the two ends: no spinner on the double.
    assert moves(r) == {"3-5 left", "3-5 right", "3-6 left", "3-6 right"}
    play(r, "3-5 left")
    assert r.ends == (5, 3)
    assert moves(r) == {"3-4 right"}
    assert r.laid_line() == [(5, 3), (3, 3)]


def test_R4_a_double_in_the_middle_of_the_line_adds_no_ends() -> None:
    r = block_round("2-5 4-4", "5-5 2-4", "0-2 4-5")
    play(r, "2-5", "5-5 right")
    assert r.ends == (2, 5)
    assert moves(r) == {"0-2 left", "4-5 right"}


def test_R4_the_first_tile_takes_no_end() -> None:
    r = block_round("2-5 3-3", "5-6 1-2")
    before = round_state(r)
    with pytest.raises(IllegalMoveError, match="R4") as err:
        r.play(mv("2-5 left"))
    assert err.value.rule == "R4"
    assert round_state(r) == before


# --- R5: fitting a tile at an end ------------------------------------------------


def test_R5_the_other_half_becomes_the_ends_new_number() -> None:
    r = block_round("2-5 1-2", "5-6 0-0")
    play(r, "2-5", "5-6 right")
    assert r.ends == (2, 6)
    play(r, "1-2 left")
    assert r.ends == (1, 6)
    assert r.laid_line() == [(1, 2), (2, 5), (5, 6)]


@pytest.mark.parametrize(("end", "ends"), [("left", (6, 6)), ("right", (2, 2))])
def test_R5_a_tile_that_fits_both_ends_goes_where_the_player_chooses(
    end: str, ends: tuple[int, int]
) -> None:
    r = block_round("2-5 2-6", "5-6 0-1")
    play(r, "2-5", "5-6 right")
    assert r.ends == (2, 6)
    assert moves(r) == {"2-6 left", "2-6 right"}
    play(r, f"2-6 {end}")
    assert r.ends == ends


def test_R5_on_equal_ends_either_end_may_be_chosen() -> None:
    r = block_round("2-2 0-0", "2-5 0-1")
    play(r, "2-2")
    assert moves(r) == {"2-5 left", "2-5 right"}
    play(r, "2-5 left")
    assert r.ends == (5, 2)
    assert r.laid_line() == [(5, 2), (2, 2)]


def test_R5_a_double_at_an_end_keeps_that_ends_number() -> None:
    r = block_round("2-5 0-0", "5-5 0-1")
    play(r, "2-5", "5-5 right")
    assert r.ends == (2, 5)
    assert r.laid_line() == [(2, 5), (5, 5)]


def test_R5_a_tile_that_does_not_fit_is_refused_and_changes_nothing() -> None:
    r = block_round("2-5 0-0", "5-6 1-3")
    play(r, "2-5")
    before = round_state(r)
    with pytest.raises(IllegalMoveError, match="R5") as err:
        r.play(mv("5-6 left"))
    assert err.value.rule == "R5"
    assert "left" in str(err.value)
    assert round_state(r) == before


def test_R5_after_the_first_tile_a_move_names_its_end() -> None:
    r = block_round("2-5 0-0", "5-6 1-3")
    play(r, "2-5")
    before = round_state(r)
    with pytest.raises(IllegalMoveError, match="R5"):
        r.play(mv("5-6"))
    assert round_state(r) == before


def test_R5_a_move_with_an_end_that_does_not_exist_is_refused() -> None:
    r = block_round("2-5 0-0", "5-6 1-3")
    play(r, "2-5")
    before = round_state(r)
    with pytest.raises(InvalidMoveError):
        r.play(Move(T("5-6"), "middle"))  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveError):
        Move.parse("5-6 middle")
    assert round_state(r) == before


# --- R6: turns and partners --------------------------------------------------------


def test_R6_turns_go_clockwise() -> None:
    r = block_round("0-1 1-2 2-3", "0-4 4-5 5-6", "0-6 3-4 1-5")
    while not r.over:
        r.play(r.legal_moves()[0])
    seats = [e.seat for e in r.events]
    assert len(seats) > 3
    assert seats == [(seats[0] + k) % 3 for k in range(len(seats))]


def test_R6_partners_sit_opposite() -> None:
    kozel = preset("kozel")
    assert kozel.seats_of(0) == (0, 2)
    assert kozel.seats_of(1) == (1, 3)
    assert [kozel.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    alone = preset("block", players=4)
    assert [alone.side_of(s) for s in range(4)] == [0, 1, 2, 3]


def test_R6_only_the_seat_to_move_plays() -> None:
    rs = preset("block", players=2, hand_size=2)
    game = game_of(rs, make_deal(rs, "6-6 5-6", "2-6 3-4"))
    assert game.turn == 1
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="R6"):
        game.play(mv("5-6 left"), seat=0)
    assert snapshot(game) == before
    game.play(mv("2-6 left"), seat=1)
    assert game.turn == 0


# --- R7, R8: must play, one tile per turn ----------------------------------------


def test_R7_there_is_no_voluntary_pass_or_draw() -> None:
    for text in ("pass", "draw", ""):
        with pytest.raises(InvalidMoveError):
            Move.parse(text)
    r = Round(DRAW2, [hand("2-5 0-0"), hand("5-6 1-3")], [idx("4-4")], 0, 0)
    play(r, "2-5")
    # Seat 1 can play 5-6, so the engine neither draws nor passes for it.
    assert r.turn == 1
    assert r.events == [Play(0, T("2-5"), None)]
    assert r.boneyard_count == 1
    assert moves(r) == {"5-6 right"}


def test_R7_a_seat_that_can_play_is_never_passed_for() -> None:
    r = block_round("0-1 1-2 2-3 3-4", "0-4 4-5 5-6 2-6", "0-6 3-5 1-5 0-2")
    passes = 0
    while not r.over:
        new = r.play(r.legal_moves()[-1])
        assert r.ends is not None
        for e in new[1:]:
            assert isinstance(e, Pass)  # a block game: the engine only ever passes
            assert not any(t.shows(p) for t in r.hand(e.seat) for p in r.ends)
            passes += 1
    assert passes > 0


def test_R8_one_tile_per_turn_then_the_next_seat() -> None:
    r = block_round("2-5 5-6 1-2", "5-5 0-1 0-2")
    play(r, "2-5")
    assert r.turn == 1
    play(r, "5-5 right")
    assert r.turn == 0
    assert r.hand(1) == [T("0-1"), T("0-2")]


def test_R8_a_tile_the_seat_does_not_hold_is_refused() -> None:
    r = block_round("2-5 5-6 1-2", "5-5 0-1 0-2")
    play(r, "2-5")
    before = round_state(r)
    with pytest.raises(IllegalMoveError, match="R8") as err:
        r.play(mv("5-6 right"))  # seat 0's tile, but it is seat 1's turn
    assert err.value.rule == "R8"
    with pytest.raises(InvalidMoveError):
        r.play(Move("5-5", End.RIGHT))  # type: ignore[arg-type]
    assert round_state(r) == before


# --- R9: the boneyard -------------------------------------------------------------


def draw_round(rule: str = "draw_until_playable", keep: int = 0, seat0: str = "6-6 0-1") -> Round:
    ruleset = preset("draw", players=2, draw_rule=rule, keep_in_boneyard=keep)
    bone = [idx(t) for t in ("1-5", "2-6", "3-4")]
    return Round(ruleset, [hand(seat0), hand("2-3 4-4")], bone, 0, 0, idx("6-6"))


def test_R9_a_seat_that_cannot_play_draws_until_a_tile_fits_and_must_play_it() -> None:
    r = draw_round()
    assert r.events == [Play(0, T("6-6"), None), Draw(1, T("1-5")), Draw(1, T("2-6"))]
    assert r.turn == 1
    assert moves(r) == {"2-6 left", "2-6 right"}
    assert r.boneyard_count == 1
    before = round_state(r)
    with pytest.raises(IllegalMoveError, match="R9") as err:
        r.play(mv("1-5 left"))  # drawn too, but it is not the tile that fits
    assert err.value.rule == "R9"
    assert round_state(r) == before


def test_R9_when_the_boneyard_runs_out_the_seat_passes() -> None:
    r = draw_round()
    play(r, "2-6 left")
    assert r.ends == (2, 6)
    # Seat 0 holds 0-1: it draws the last tile, 3-4, which does not fit, and passes.
    assert r.events[-2:] == [Draw(0, T("3-4")), Pass(0)]
    assert r.turn == 1
    assert r.boneyard_count == 0
    assert moves(r) == {"2-3 left"}


def test_R9_draws_and_passes_are_done_by_the_engine_and_reported() -> None:
    ruleset = preset("draw", players=2, hand_size=2)
    game = game_of(ruleset, make_deal(ruleset, "6-6 0-1", "2-3 4-4", boneyard="1-5 2-6"))
    assert game.round.events == [
        Play(0, T("6-6"), None),
        Draw(1, T("1-5")),
        Draw(1, T("2-6")),
    ]
    events = game.play(mv("2-6 right"))
    assert events[0] == Play(1, T("2-6"), End.RIGHT)
    assert all(isinstance(e, Draw | Pass) for e in events[1:])


# --- R10: block games knock ------------------------------------------------------


def test_R10_without_a_boneyard_a_seat_that_cannot_play_passes() -> None:
    r = block_round("2-5 0-0 5-5", "0-1 1-3 5-6", "0-6 6-6 2-2")
    play(r, "2-5")
    assert r.turn == 1
    play(r, "5-6 right")
    # seat 2 plays a 6 …
    play(r, "6-6 right")
    # … seat 0 has 0-0 and 5-5: no 2, no 6 → passes; seat 1 has no 2/6 → passes
    assert r.events[-2:] == [Pass(0), Pass(1)]
    assert r.turn == 2


def test_R10_kozel_and_vog_without_talon_pass_too() -> None:
    for name in ("kozel", "vog-block", "vog-goat", "international", "international-2"):
        assert not preset(name).boneyard
        assert preset(name).drawable == 0


# --- R11: draw-rule options --------------------------------------------------------


def test_R11_draw_until_playable_is_the_default() -> None:
    assert preset("draw").draw_rule == "draw_until_playable"
    assert preset("draw").keep_in_boneyard == 0


def test_R11_draw_one_draws_one_tile_and_passes_if_it_does_not_fit() -> None:
    r = draw_round("draw_one")
    assert r.events == [Play(0, T("6-6"), None), Draw(1, T("1-5")), Pass(1), Draw(0, T("2-6"))]
    assert r.turn == 0
    assert moves(r) == {"2-6 left", "2-6 right"}


def test_R11_draw_one_plays_the_drawn_tile_when_it_fits() -> None:
    ruleset = preset("draw", players=2, draw_rule="draw_one")
    r = Round(ruleset, [hand("6-6 0-1"), hand("2-3 4-4")], [idx("2-6")], 0, 0, idx("6-6"))
    assert r.events[-1] == Draw(1, T("2-6"))
    assert r.turn == 1
    assert moves(r) == {"2-6 left", "2-6 right"}


def test_R11_keep_in_boneyard_leaves_the_last_tiles_undrawn() -> None:
    r = draw_round(keep=2, seat0="6-6 0-6")
    assert r.events == [Play(0, T("6-6"), None), Draw(1, T("1-5")), Pass(1)]
    assert r.boneyard_count == 2
    assert r.turn == 0
    assert moves(r) == {"0-6 left", "0-6 right"}


def test_R11_draw_options_are_validated() -> None:
    with pytest.raises(ValueError, match="draw_rule"):
        preset("draw", draw_rule="draw_two")
    with pytest.raises(ValueError, match=r"keep_in_boneyard.*R11"):
        preset("draw", players=2, keep_in_boneyard=14)
    with pytest.raises(ValueError, match=r"keep_in_boneyard.*R11"):
        preset("block", keep_in_boneyard=1)
    with pytest.raises(ValueError, match=r"keep_in_boneyard.*R11"):
        preset("draw", keep_in_boneyard=-1)
    assert preset("draw", players=2, keep_in_boneyard=13).drawable == 1


# --- R38, R39: the layout never decides legality -----------------------------------


def test_R38_legality_depends_only_on_the_logical_line() -> None:
    seat2 = "5-6 1-2 0-5 4-4"
    short = block_round("2-3 0-0", "3-5 0-1", seat2)
    play(short, "2-3", "3-5 right")
    crossed = block_round("2-2 0-0", "2-5 0-1", seat2)
    play(crossed, "2-2", "2-5 right")
    assert short.ends == crossed.ends == (2, 5)
    assert short.laid_line() != crossed.laid_line()
    assert short.turn == crossed.turn == 2
    assert short.legal_moves() == crossed.legal_moves()
    assert moves(short) == {"5-6 right", "1-2 left", "0-5 right"}


def test_R38_the_line_is_kept_as_tiles_and_ends_only() -> None:
    r = block_round("2-5 1-2 3-3 0-0", "5-6 1-3 6-6 0-1")
    play(r, "2-5", "5-6 right", "1-2 left", "1-3 left", "3-3 left", "6-6 right")
    # The logical line, left to right; where the client turns the snake is not here.
    assert r.laid_line() == [(3, 3), (3, 1), (1, 2), (2, 5), (5, 6), (6, 6)]
    assert r.ends == (3, 6)
