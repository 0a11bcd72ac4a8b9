"""A seat's view: exactly what the seat may know (R9's draws, R13, R21, R25)."""

from __future__ import annotations

import dataclasses

import pytest

from conftest import T, allowed_tiles, game_of, make_deal, play, view_tiles
from doublesix import Draw, Game, HiddenDraw, Pass, Play, preset, seat_view
from doublesix.rules.deal import SeededDealer
from doublesix.rules.view import PlayedRound

DRAW2 = preset("draw", players=2, hand_size=2)


def drawn_game() -> Game:
    # 6-6 opens; seat 1 draws 1-5 and 2-6 and must play 2-6.
    return game_of(DRAW2, make_deal(DRAW2, "6-6 0-1", "2-3 4-4", boneyard="1-5 2-6 3-4"))


def test_view_holds_the_own_hand_and_only_counts_of_the_others() -> None:
    game = drawn_game()
    mine, theirs = seat_view(game, 1), seat_view(game, 0)
    assert set(mine.hand) == {T("2-3"), T("4-4"), T("1-5"), T("2-6")}
    assert theirs.hand == (T("0-1"),)
    assert mine.hand_counts == theirs.hand_counts == (1, 4)
    assert mine.boneyard_count == theirs.boneyard_count == 22
    assert mine.line == theirs.line == ((6, 6),)
    assert mine.ends == (6, 6)
    for view in (mine, theirs):
        assert set(view_tiles(view)) <= allowed_tiles(game, view)


def test_R9_a_draw_shows_its_tile_to_the_drawer_and_a_count_to_the_others() -> None:
    game = drawn_game()
    assert seat_view(game, 1).events == (
        Play(0, T("6-6"), None),
        Draw(1, T("1-5")),
        Draw(1, T("2-6")),
    )
    assert seat_view(game, 0).events == (Play(0, T("6-6"), None), HiddenDraw(1), HiddenDraw(1))


def test_view_legal_moves_only_for_the_seat_to_move() -> None:
    game = drawn_game()
    assert seat_view(game, 1).my_turn
    assert {str(m) for m in seat_view(game, 1).legal_moves} == {"2-6 left", "2-6 right"}
    assert not seat_view(game, 0).my_turn and seat_view(game, 0).legal_moves == ()


def test_view_has_no_seed_no_boneyard_order_and_no_tiles_out_of_play() -> None:
    names = {f.name for f in dataclasses.fields(seat_view(drawn_game(), 0))}
    assert not names & {"seed", "boneyard", "out", "deal", "dealer", "hands"}
    block = preset("block", players=2)
    game = Game(block, seed=5)
    out = game.rounds[0].deal.out
    for seat in (0, 1):
        view = seat_view(game, seat)
        assert not any(t.bit & out for t in view_tiles(view))
        assert set(view_tiles(view)) <= allowed_tiles(game, view)


def test_R25_the_view_shows_every_hand_once_the_round_is_over() -> None:
    game = drawn_game()
    assert seat_view(game, 0).revealed_hands is None
    play(game, "2-6 left")  # seat 0 draws 3-4 and knocks; seat 1 plays on
    assert seat_view(game, 1).events[-1] == Pass(0)
    assert seat_view(game, 1).events[-2] == HiddenDraw(0)
    while game.turn is not None:
        game.play(game.legal_moves()[0])
    view = seat_view(game, 0)
    assert view.turn is None and view.legal_moves == ()
    assert view.revealed_hands == tuple(tuple(game.round.hand(s)) for s in (0, 1))
    assert view.round_result == game.rounds[0].result
    assert set(view_tiles(view)) <= allowed_tiles(game, view)


def test_R25_the_rounds_before_stay_in_view_as_the_seat_saw_them() -> None:
    """Each past round is the seat's own view of it at its end: others' draws hidden, every
    hand shown."""
    game = Game(preset("draw", 2, target=400), seed=4)
    for r in range(3):
        while game.turn is not None:
            game.play(game.legal_moves()[0])
        ended = [seat_view(game, s) for s in range(2)]
        assert all(v.turn is None and v.revealed_hands is not None for v in ended)
        game.next_round()
        for s, v in enumerate(ended):
            assert v.revealed_hands is not None
            past = seat_view(game, s).past_rounds
            assert len(past) == r + 1
            assert past[-1] == PlayedRound(v.events, v.revealed_hands, v.boneyard_count)


def test_R13_the_view_names_the_redeal_reasons_not_the_thrown_in_hands() -> None:
    kozel = preset("kozel")
    for seed in range(300):
        game = Game(kozel, seed=seed)
        if game.rounds[0].redeals:
            break
    else:
        pytest.fail("no seed redeals")
    view = seat_view(game, 0)
    assert view.redeals == tuple(reason for _, reason in game.rounds[0].redeals)
    assert set(view_tiles(view)) <= allowed_tiles(game, view)


def test_R21_the_lead_draws_are_public() -> None:
    classic = preset("classic", players=2)
    game = game_of(classic, SeededDealer(classic, 1).deal(), lead_draws=[(0, "1-2"), (1, "3-4")])
    for seat in (0, 1):
        assert seat_view(game, seat).lead_draws == ((0, T("1-2")), (1, T("3-4")))
    assert seat_view(game, 0).opener == 1


def test_view_of_no_seat_is_refused() -> None:
    with pytest.raises(ValueError, match="seat"):
        seat_view(drawn_game(), 2)
