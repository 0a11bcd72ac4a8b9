"""Kozel scoring (R33–R37a): lone doubles, fish, eggs, the 13-rule, the Goat and dry wins.

Small hands (2 tiles each) keep the scenarios short; the rules do not depend on
the hand size. The lowest-double opener lets the test choose the first tile.
"""

from __future__ import annotations

from conftest import game_of, hand, make_deal, play
from doublesix import Deal, Game, ResultKind, Ruleset, preset
from doublesix.rules.round import Ending
from doublesix.rules.scoring import game_result, score_round

KOZ = preset("kozel", hand_size=2, opener="lowest_double", redeal=False)

LONE = ("1-2 4-4", "2-3 6-6", "1-4 2-5", "3-5 0-0")
LONE_MOVES = ("1-2", "2-3 right", "1-4 left", "3-5 right", "4-4 left")
FISH = ("1-1 0-2", "3-4 4-5", "2-3 0-3", "5-6 2-6")  # 1-1 opens and nobody holds a 1
EGGS = ("1-1 0-2", "0-4 2-4", "2-3 3-4", "0-0 2-2")  # 2 + 12 against 10 + 4
SMALL = ("2-2 2-3", "0-2 0-1", "2-5 4-5", "0-3 0-4")
SMALL_MOVES = ("2-2", "0-2 left", "2-5 right", "0-3 left", "2-3 left")


def kozel_game(ruleset: Ruleset, *hands: tuple[str, ...]) -> tuple[Game, list[Deal]]:
    deals = [make_deal(ruleset, *h) for h in hands]
    return game_of(ruleset, *deals), deals


def test_R33_domino_charges_the_other_pair_with_lone_0_0_at_25_and_lone_6_6_at_50() -> None:
    game, _ = kozel_game(KOZ, LONE)
    play(game, *LONE_MOVES)
    result = game.rounds[0].result
    assert result is not None
    assert (result.kind, result.winner_seat) == (ResultKind.DOMINO, 0)
    assert result.hand_values == (0, 12, 7, 0)
    assert result.points == (0, 50 + 25)
    assert game.scores == [0, 75]


def test_R33_a_zero_zero_or_six_six_with_other_tiles_counts_plain() -> None:
    hands = [0, hand("0-0 1-2"), hand("5-5"), hand("6-6 0-1")]
    result = score_round(KOZ, Ending.DOMINO, hands, 0, (20, 20), 0)
    assert result.points == (0, 3 + 13)


def test_R33_the_winners_lone_doubles_are_not_charged() -> None:
    hands = [0, hand("0-1"), hand("6-6"), hand("0-2")]
    result = score_round(KOZ, Ending.DOMINO, hands, 0, (20, 20), 0)
    assert result.points == (0, 3)


def test_R34_fish_charges_the_heavier_pair_all_four_hands() -> None:
    game, _ = kozel_game(KOZ, FISH)
    play(game, "1-1")
    result = game.rounds[0].result
    assert result is not None
    assert result.kind is ResultKind.FISH
    assert result.hand_values == (2, 16, 8, 19)
    assert result.points == (0, 2 + 16 + 8 + 19)
    assert result.winner_seat == 0  # the lighter pair's lower hand


def test_R34_fish_counts_lone_doubles_plain() -> None:
    hands = [hand("0-0"), hand("6-6"), hand("0-1"), hand("0-2")]
    result = score_round(KOZ, Ending.BLOCKED, hands, 0, (20, 20), 0)
    assert result.kind is ResultKind.FISH
    assert result.points == (0, 0 + 12 + 1 + 2)


def test_R35_eggs_charge_nobody_and_carry_the_total() -> None:
    game, _ = kozel_game(KOZ, EGGS)
    play(game, "1-1")
    result = game.rounds[0].result
    assert result is not None
    assert result.kind is ResultKind.EGGS and result.tied
    assert result.points == (0, 0) and result.eggs_carried == 28
    assert game.eggs == 28 and game.scores == [0, 0]


def test_R35_eggs_accumulate_and_go_to_the_next_loser_R37_dry_win() -> None:
    game, _ = kozel_game(KOZ, EGGS, EGGS, FISH)
    play(game, "1-1")
    game.next_round()
    play(game, "1-1")
    assert game.eggs == 56
    second = game.rounds[1].result
    assert second is not None and second.kind is ResultKind.EGGS and second.eggs_carried == 56
    game.next_round()
    play(game, "1-1")
    third = game.rounds[2].result
    assert third is not None
    assert third.kind is ResultKind.FISH and third.eggs_used == 56
    assert third.points == (0, 45 + 56) and game.eggs == 0
    assert game.scores == [0, 101]
    # R37: 101 passes 100: pair 1 is the Goat; pair 0 never scored: a dry win.
    assert game.finished
    assert game.result.losers == (1,) and game.result.winners == (0,)
    assert game.result.dry_win


def test_R35_eggs_are_added_to_a_domino_charge_too() -> None:
    hands = [0, hand("0-1"), hand("6-6"), hand("0-2")]
    result = score_round(KOZ, Ending.DOMINO, hands, 0, (0, 0), 28)
    assert result.points == (0, 3 + 28) and result.eggs_used == 28 and result.eggs_carried == 0


def test_R36_a_charge_below_13_is_dropped_while_the_pair_has_0() -> None:
    game, _ = kozel_game(KOZ, SMALL, FISH, SMALL)
    play(game, *SMALL_MOVES)
    first = game.rounds[0].result
    assert first is not None
    assert first.kind is ResultKind.DOMINO and first.winner_seat == 0
    assert first.points == (0, 0) and first.dropped == (0, 1 + 4)
    assert game.scores == [0, 0]
    game.next_round()
    play(game, "1-1")
    assert game.scores == [0, 45]
    game.next_round()
    play(game, *SMALL_MOVES)
    third = game.rounds[2].result
    assert third is not None and third.points == (0, 5) and third.dropped == (0, 0)
    assert game.scores == [0, 50]


def test_R36_eggs_count_towards_the_13() -> None:
    hands = [0, hand("0-1"), hand("6-6"), hand("0-4")]  # pair 1 holds 5
    dropped = score_round(KOZ, Ending.DOMINO, hands, 0, (0, 0), 7)
    assert dropped.points == (0, 0) and dropped.dropped == (0, 12)
    written = score_round(KOZ, Ending.DOMINO, hands, 0, (0, 0), 8)
    assert written.points == (0, 13) and written.dropped == (0, 0)


def test_R36_the_13_rule_looks_at_the_charged_pairs_own_score() -> None:
    hands = [0, hand("0-1"), hand("6-6"), hand("0-4")]
    result = score_round(KOZ, Ending.DOMINO, hands, 0, (40, 0), 0)
    assert result.points == (0, 0) and result.dropped == (0, 5)


def test_R37_the_pair_that_passes_the_target_is_the_goat() -> None:
    result = game_result(preset("kozel"), [30, 101])
    assert result.finished and result.losers == (1,) and result.winners == (0,)
    assert not result.dry_win
    assert not game_result(preset("kozel"), [0, 100]).finished
    dry = game_result(preset("kozel", target=50), [51, 0])
    assert dry.finished and dry.winners == (1,) and dry.dry_win


def test_R37_kozel_games_end_with_a_goat() -> None:
    for seed in range(3):
        game = Game(preset("kozel", target=50), seed=seed)
        while not game.finished:
            if game.turn is None:
                game.next_round()
            else:
                game.play(game.legal_moves()[0])
        (goat,) = game.result.losers
        assert game.scores[goat] > 50 and game.scores[1 - goat] <= 50
        assert game.result.dry_win == (game.scores[1 - goat] == 0)


def test_R37a_the_house_rules_default_to_the_seed() -> None:
    kozel = preset("kozel")
    assert (kozel.fish_charge, kozel.lone_zero_zero, kozel.lone_six_six) == ("all_hands", 25, 50)


def test_R37a_own_hands_charges_the_heavier_pair_only_its_own_pips() -> None:
    game, _ = kozel_game(KOZ.replace(fish_charge="own_hands"), FISH)
    play(game, "1-1")
    result = game.rounds[0].result
    assert result is not None and result.points == (0, 16 + 19)


def test_R37a_own_hands_eggs_keep_what_the_fish_would_have_charged() -> None:
    # R35 keeps "the round's total"; under own_hands the engine keeps one pair's pips.
    game, _ = kozel_game(KOZ.replace(fish_charge="own_hands"), EGGS)
    play(game, "1-1")
    assert game.eggs == 14


def test_R37a_lone_tile_values_are_options() -> None:
    game, _ = kozel_game(KOZ.replace(lone_zero_zero=10, lone_six_six=12), LONE)
    play(game, *LONE_MOVES)
    result = game.rounds[0].result
    assert result is not None and result.points == (0, 10 + 12)
