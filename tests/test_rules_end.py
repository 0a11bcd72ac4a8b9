"""The end of a round (R22–R25) and of a game's record (R31, R32)."""

from __future__ import annotations

import pytest

from conftest import T, finish_round, game_of, hand, idx, make_deal, mv, play, snapshot, tiles
from doublesix import Draw, Game, IllegalMoveError, Pass, Play, ResultKind, Round, preset, seat_view
from doublesix.rules.deal import RecordedDealer
from doublesix.rules.round import Ending

BLOCK2 = preset("block", players=2, hand_size=2)
BLOCK3 = preset("block", players=3, hand_size=2)
PAIRS = preset("block", players=4, hand_size=2, pairs=True)


# --- R22: domino ---------------------------------------------------------------------


def test_R22_playing_the_last_tile_ends_the_round_at_once() -> None:
    game = game_of(BLOCK2, make_deal(BLOCK2, "6-6 0-1", "2-6 3-6"))
    play(game, "2-6 left")
    assert game.round.events[-1] == Pass(0)
    events = game.play(mv("3-6 right"))
    assert events == [Play(1, T("3-6"), "right")]  # nothing after the last tile
    assert game.round.ending is Ending.DOMINO
    assert game.turn is None and game.legal_moves() == []
    result = game.rounds[0].result
    assert result is not None
    assert (result.kind, result.winner_seat, result.hand_values) == (ResultKind.DOMINO, 1, (1, 0))


def test_R22_the_round_is_over_for_every_move() -> None:
    game = game_of(BLOCK2, make_deal(BLOCK2, "6-6 0-1", "2-6 3-6"))
    play(game, "2-6 left", "3-6 right")
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="R22"):
        game.play(mv("0-1 left"))
    assert snapshot(game) == before


def test_R22_in_pairs_the_side_of_the_player_who_went_out_wins() -> None:
    game = game_of(PAIRS, make_deal(PAIRS, "6-6 0-1", "2-3 3-4", "1-6 5-5", "0-2 2-4"))
    # 6-6 opens; seat 1 cannot play; seat 2 plays 1-6; seat 3 cannot; seat 0 plays 0-1 and is out
    play(game, "1-6 right")
    assert game.round.events[-1] == Pass(3)
    play(game, "0-1 right")
    result = game.rounds[0].result
    assert result is not None and result.winner_seat == 0
    assert result.points == (5 + 7 + 2 + 6, 0)  # seats 1 and 3 hold 2-3 3-4 and 0-2 2-4


# --- R23: blocked --------------------------------------------------------------------


def test_R23_a_round_blocks_right_after_a_play_with_no_pass_recorded() -> None:
    game = game_of(BLOCK2, make_deal(BLOCK2, "6-6 0-1", "2-3 4-5"))
    assert game.round.events == [Play(0, T("6-6"), None)]
    assert game.round.ending is Ending.BLOCKED
    result = game.rounds[0].result
    assert result is not None
    assert (result.kind, result.winner_seat, result.hand_values) == (ResultKind.BLOCKED, 0, (1, 14))


def test_R23_a_draw_game_blocks_right_after_the_last_draw() -> None:
    # The 18 tiles without a 6 come first; the six tiles with a 6 are kept back (R11).
    draw = preset("draw", players=2, hand_size=2, keep_in_boneyard=6)
    no_six = "0-0 0-2 0-3 0-4 0-5 1-1 1-2 1-3 1-4 1-5 2-2 2-4 2-5 3-3 3-4 3-5 4-4 5-5"
    game = game_of(draw, make_deal(draw, "6-6 0-1", "2-3 4-5", boneyard=no_six))
    rnd = game.round
    assert rnd.events[0] == Play(0, T("6-6"), None)
    assert rnd.events[1:] == [Draw(1, t) for t in tiles(no_six)]  # no pass after the last draw
    assert rnd.boneyard_count == 6
    assert rnd.ending is Ending.BLOCKED
    assert game.rounds[0].result is not None and game.rounds[0].result.winner_seat == 0


def test_R23_draw_one_blocks_after_a_draw_not_after_a_pass() -> None:
    ruleset = preset("draw", players=2, draw_rule="draw_one")
    r = Round(
        ruleset, [hand("6-6 0-1"), hand("2-3 4-4")], [idx("1-5"), idx("3-4")], 0, 0, idx("6-6")
    )
    assert r.events == [
        Play(0, T("6-6"), None),
        Draw(1, T("1-5")),
        Pass(1),
        Draw(0, T("3-4")),
    ]
    assert r.ending is Ending.BLOCKED


def test_R23_keep_in_boneyard_blocks_with_tiles_left() -> None:
    ruleset = preset("draw", players=2, keep_in_boneyard=2)
    bone = [idx(t) for t in ("1-5", "2-6", "3-6")]
    r = Round(ruleset, [hand("6-6 0-1"), hand("2-3 4-4")], bone, 0, 0, idx("6-6"))
    assert r.events == [Play(0, T("6-6"), None), Draw(1, T("1-5"))]
    assert r.ending is Ending.BLOCKED
    assert r.boneyard_count == 2  # 2-6 and 3-6 would fit, but may not be drawn


def test_R23_the_lowest_hand_wins_a_blocked_round() -> None:
    game = game_of(BLOCK3, make_deal(BLOCK3, "6-6 0-4", "5-5 0-1", "2-5 0-0"))
    result = game.rounds[0].result
    assert result is not None
    assert result.hand_values == (4, 11, 7)
    assert (result.kind, result.winner_seat) == (ResultKind.BLOCKED, 0)


def test_R23_a_shared_lowest_value_ties_the_round() -> None:
    game = game_of(BLOCK3, make_deal(BLOCK3, "6-6 1-2", "0-3 4-5", "0-1 0-2"))
    result = game.rounds[0].result
    assert result is not None
    assert result.hand_values == (3, 12, 3)
    assert result.kind is ResultKind.TIED and result.winner_seat is None
    assert result.points == (0, 0, 0) and game.scores == [0, 0, 0]


def test_R23_a_blocked_round_ends_on_a_play_or_a_draw_never_on_a_pass() -> None:
    for name in ("draw", "block", "vog-talon", "classic"):
        for players in (2, 3, 4):
            for seed in range(12):
                game = Game(preset(name, players=players), seed=seed)
                finish_round(game)
                if game.round.ending is Ending.BLOCKED:
                    assert not isinstance(game.round.events[-1], Pass)


# --- R24: partners' hands add up --------------------------------------------------------


def test_R24_partners_hands_are_added_together() -> None:
    game = game_of(PAIRS, make_deal(PAIRS, "6-6 0-1", "2-3 2-4", "4-5 3-5", "0-2 0-3"))
    result = game.rounds[0].result
    assert result is not None
    assert result.hand_values == (1, 11, 17, 5)
    # seat 0 holds the lowest hand, but side 1 holds 16 against side 0's 18
    assert game.ruleset.side_of(result.winner_seat or 0) == 1
    assert result.points == (0, 18 - 16)


def test_R24_equal_side_totals_tie_in_pairs() -> None:
    game = game_of(PAIRS, make_deal(PAIRS, "6-6 2-3", "0-1 0-3", "0-0 1-2", "0-2 1-1"))
    result = game.rounds[0].result
    assert result is not None
    assert result.hand_values == (5, 4, 3, 4)  # 5 + 3 against 4 + 4
    assert result.kind is ResultKind.TIED and result.points == (0, 0)


# --- R25: hands shown, then the next round ---------------------------------------------


def test_R25_the_next_round_waits_for_the_end_of_this_one() -> None:
    game = game_of(
        BLOCK2, make_deal(BLOCK2, "6-6 0-1", "2-6 3-6"), make_deal(BLOCK2, "0-1 0-2", "3-4 1-1")
    )
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="R25"):
        game.next_round()
    assert snapshot(game) == before
    play(game, "2-6 left", "3-6 right")
    assert game.turn is None and not game.finished
    view = seat_view(game, 0)
    assert view.revealed_hands == ((T("0-1"),), ())
    game.next_round()
    assert len(game.rounds) == 2 and game.turn is not None
    assert seat_view(game, 0).revealed_hands is None


def test_R25_no_round_after_the_game() -> None:
    ruleset = preset("block", players=2, hand_size=2, target=5)
    game = game_of(ruleset, make_deal(ruleset, "6-6 0-1", "2-6 3-6"))
    play(game, "2-6 left", "3-6 right")
    assert not game.finished  # seat 1 scored 1 point of 5
    game = game_of(ruleset, make_deal(ruleset, "6-6 0-1", "2-3 4-5"))
    assert game.finished  # blocked at once: seat 0 scores 14 - 1
    before = snapshot(game)
    with pytest.raises(IllegalMoveError, match="R30"):
        game.next_round()
    with pytest.raises(IllegalMoveError, match="R30"):
        game.play(mv("0-1 left"))
    assert snapshot(game) == before


# --- R31: what is never scored -------------------------------------------------------------


def test_R31_out_of_play_tiles_are_never_scored() -> None:
    game = game_of(BLOCK3, make_deal(BLOCK3, "6-6 0-4", "5-5 0-1", "2-5 0-0"))
    result = game.rounds[0].result
    assert result is not None
    assert game.rounds[0].deal.out.bit_count() == 22  # 5-6, 4-6 … lie out of play
    assert result.points == (11 + 7 - 4, 0, 0)


def test_R31_the_boneyard_is_never_scored() -> None:
    ruleset = preset("draw", players=2, hand_size=2, keep_in_boneyard=23)
    game = game_of(ruleset, make_deal(ruleset, "6-6 0-1", "2-3 4-5", boneyard="0-0 5-6 4-6"))
    result = game.rounds[0].result
    assert result is not None
    assert game.round.events[1:] == [Draw(1, T("0-0"))]
    assert game.round.boneyard_count == 23  # 5-6, 4-6, … are left: not scored
    assert result.hand_values == (1, 14)
    assert result.points == (14 - 1, 0)


# --- R32: a game is a recorded sequence of rounds ------------------------------------------


def test_R32_a_game_plays_rounds_until_the_target_decides() -> None:
    game = Game(preset("draw", players=3, target=50), seed=4)
    while not game.finished:
        if game.turn is None:
            game.next_round()
        else:
            game.play(game.legal_moves()[0])
    assert max(game.scores) >= 50
    assert game.result.winners == (game.scores.index(max(game.scores)),)
    assert all(r.result is not None for r in game.rounds)
    for before, after in zip(game.rounds, game.rounds[1:], strict=False):
        assert before.result is not None and after.result is not None
        assert all(
            b + p == a
            for b, p, a in zip(
                before.result.scores_after,
                after.result.points,
                after.result.scores_after,
                strict=True,
            )
        )


def test_R32_a_game_replays_from_its_deals_and_moves_to_the_same_result() -> None:
    for name in ("draw", "kozel", "classic", "vog-goat"):
        game = Game(preset(name), seed=11)
        chosen = []
        while not game.finished:
            if game.turn is None:
                game.next_round()
                continue
            move = game.legal_moves()[-1]
            chosen.append(move)
            game.play(move)
        deals = [d for r in game.rounds for d in [*(d for d, _ in r.redeals), r.deal]]
        again = Game(game.ruleset, dealer=RecordedDealer(deals, game.lead_draws))
        for move in chosen:
            if again.turn is None:
                again.next_round()
            again.play(move)
        assert [r.play.events for r in again.rounds] == [r.play.events for r in game.rounds]
        assert [r.result for r in again.rounds] == [r.result for r in game.rounds]
        assert again.result == game.result
