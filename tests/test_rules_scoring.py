"""Scoring a round (R26–R28a), the target (R30) and single rounds (R40)."""

from __future__ import annotations

import pytest

from conftest import game_of, hand, make_deal, play
from doublesix import IllegalMoveError, ResultKind, Ruleset, RulesetError, preset
from doublesix.rules.round import Ending
from doublesix.rules.scoring import game_result, score_round

# Seed 003's example: opponents hold 11 and 7, the winner 4 (6-6 opens and blocks the line).
SEED_003 = ("6-6 0-4", "5-5 0-1", "2-5 0-0")


def blocked_3(scoring: str, target: int = 100) -> tuple[int, ...]:
    ruleset = preset("block", players=3, hand_size=2, scoring=scoring, target=target)
    game = game_of(ruleset, make_deal(ruleset, *SEED_003))
    result = game.rounds[0].result
    assert result is not None
    assert result.kind is ResultKind.BLOCKED and result.hand_values == (4, 11, 7)
    return result.points


def domino_2(scoring: str) -> tuple[int, ...]:
    """6-6 opens, seat 1 plays 2-6, seat 0 goes out with 1-6; seat 1 keeps 3-4."""
    ruleset = preset("block", players=2, hand_size=2, scoring=scoring)
    game = game_of(ruleset, make_deal(ruleset, "6-6 1-6", "2-6 3-4"))
    play(game, "2-6 left", "1-6 right")
    result = game.rounds[0].result
    assert result is not None and result.kind is ResultKind.DOMINO and result.winner_seat == 0
    return result.points


def tied_3(scoring: str) -> tuple[int, ...]:
    ruleset = preset("block", players=3, hand_size=2, scoring=scoring)
    game = game_of(ruleset, make_deal(ruleset, "6-6 1-2", "0-3 4-5", "0-1 0-2"))
    result = game.rounds[0].result
    assert result is not None and result.kind is ResultKind.TIED
    return result.points


def test_R2_a_hands_value_is_the_sum_of_its_tiles() -> None:
    ruleset = preset("block", players=3, hand_size=2)
    game = game_of(ruleset, make_deal(ruleset, *SEED_003))
    assert [game.round.hand_value(s) for s in range(3)] == [0 + 4, 5 + 5 + 0 + 1, 2 + 5 + 0 + 0]


# --- R26 ------------------------------------------------------------------------------


def test_R26_winner_takes_a_domino_scores_the_opponents_hands() -> None:
    assert domino_2("winner_takes") == (7, 0)


def test_R26_winner_takes_a_blocked_round_scores_the_opponents_minus_his_own() -> None:
    assert blocked_3("winner_takes") == (14, 0, 0)  # seed 003: 11 + 7 - 4


def test_R26_winner_takes_a_tied_round_scores_nothing() -> None:
    assert tied_3("winner_takes") == (0, 0, 0)


def test_R26_in_pairs_the_winning_side_subtracts_both_partners_hands() -> None:
    pairs = preset("block", players=4, hand_size=2, pairs=True)
    game = game_of(pairs, make_deal(pairs, "6-6 0-1", "2-3 2-4", "4-5 3-5", "0-2 0-3"))
    result = game.rounds[0].result
    assert result is not None
    assert result.points == (0, (1 + 17) - (11 + 5))


# --- R27 ------------------------------------------------------------------------------


def test_R27_winner_takes_all_scores_the_opponents_hands_domino_or_blocked() -> None:
    assert domino_2("winner_takes_all") == (7, 0)
    assert blocked_3("winner_takes_all") == (18, 0, 0)


def test_R27_winner_takes_all_a_tied_round_scores_nothing() -> None:
    assert tied_3("winner_takes_all") == (0, 0, 0)


# --- R28 ------------------------------------------------------------------------------


def test_R28_goat_every_losing_side_is_charged_its_own_hand() -> None:
    assert blocked_3("goat") == (0, 11, 7)
    assert domino_2("goat") == (0, 7)


def test_R28_goat_a_tied_round_charges_nobody() -> None:
    assert tied_3("goat") == (0, 0, 0)


def test_R28_goat_in_pairs_charges_the_losing_pair_both_hands() -> None:
    goat = preset("vog-goat", hand_size=2, opener="highest_double")
    game = game_of(goat, make_deal(goat, "6-6 0-1", "2-3 2-4", "4-5 3-5", "0-2 0-3"))
    result = game.rounds[0].result
    assert result is not None
    assert result.points == (1 + 17, 0)


# --- R28a: goat's two special doubles ------------------------------------------------


def goat_domino(**options: int) -> tuple[int, ...]:
    """Pair 0 goes out (R22); pair 1 is left holding exactly 0-0 (Ben) and exactly 6-6 (Dan)."""
    goat = preset("vog-goat", hand_size=2, **options)
    game = game_of(goat, make_deal(goat, "1-1 1-2", "0-0 1-3", "3-4 2-5", "6-6 4-5"))
    play(game, "1-1", "1-3 right", "3-4 right", "4-5 right", "1-2 left")
    result = game.rounds[0].result
    assert result is not None and result.kind is ResultKind.DOMINO
    assert result.hand_values == (0, 0, 7, 12)  # plain values stay plain (R2)
    return result.points


def test_R28a_goat_a_losing_lone_0_0_counts_25_and_a_lone_6_6_counts_50() -> None:
    assert goat_domino() == (0, 25 + 50)


def test_R28a_the_lone_double_options_apply_to_goat_as_to_kozel() -> None:
    assert goat_domino(lone_zero_zero=10, lone_six_six=12) == (0, 10 + 12)
    assert goat_domino(lone_zero_zero=0, lone_six_six=0) == (0, 0)


def test_R28a_goat_counts_lone_doubles_plain_in_a_blocked_round() -> None:
    goat = preset("vog-goat", hand_size=2)
    hands = [hand("0-1"), hand("6-6"), hand("0-3 1-3"), hand("0-0")]
    result = score_round(goat, Ending.BLOCKED, hands, 3, (0, 0), 0)
    assert result.kind is ResultKind.BLOCKED and result.points == (0, 12 + 0)


def test_R28a_every_losing_side_counts_its_lone_double_and_a_double_with_others_is_plain() -> None:
    goat = preset("block", players=3, hand_size=2, scoring="goat")
    # seat 0 went out; seat 1 holds exactly 6-6, seat 2 exactly 0-0
    result = score_round(goat, Ending.DOMINO, [0, hand("6-6"), hand("0-0")], 0, (0, 0, 0), 0)
    assert result.points == (0, 50, 25)
    # a 0-0 with another tile is no lone 0-0
    result = score_round(goat, Ending.DOMINO, [0, hand("6-6 0-1"), hand("0-0 0-2")], 0, (0,) * 3, 0)
    assert result.points == (0, 13, 2)


# --- R29: Kozel scoring is in test_rules_kozel.py ---------------------------------------


def test_R29_kozel_scoring_charges_the_losing_pair() -> None:
    kozel = preset("kozel")
    hands = [0, hand("1-2"), 0, hand("3-4")]
    result = score_round(kozel, Ending.DOMINO, hands, 0, (0, 0), 0)
    assert result.points == (0, 0)  # under 13 with 0 points: dropped (R36)
    assert result.dropped == (0, 10)
    result = score_round(kozel, Ending.DOMINO, hands, 0, (5, 5), 0)
    assert result.points == (0, 10) and result.scores_after == (5, 15)


# --- R30: the target -------------------------------------------------------------------


def test_R30_winner_takes_the_first_side_to_reach_the_target_wins() -> None:
    ruleset = preset("block", players=3, hand_size=2, target=14)
    game = game_of(ruleset, make_deal(ruleset, *SEED_003))
    assert game.finished
    assert game.result.winners == (0,) and game.result.losers == (1, 2)
    assert game.result.scores == (14, 0, 0)
    ruleset = ruleset.replace(target=15)
    game = game_of(ruleset, make_deal(ruleset, *SEED_003))
    assert not game.finished and game.turn is None


def test_R30_goat_every_side_at_the_target_loses_the_lowest_wins() -> None:
    ruleset = preset("block", players=3, hand_size=2, scoring="goat", target=10)
    game = game_of(ruleset, make_deal(ruleset, "6-6 5-6", "3-5 4-5", "2-6 5-5"))
    assert game.round.events[-1].seat == 1  # seat 1 has no 6 and knocks
    play(game, "2-6 left", "5-6 right")
    result = game.rounds[0].result
    assert result is not None and result.points == (0, 17, 10)
    assert game.finished
    assert game.result.losers == (1, 2)  # both reached 10 at once
    assert game.result.winners == (0,)


def test_R30_goat_the_lowest_score_wins_even_when_shared() -> None:
    goat = preset("block", players=4, scoring="goat", target=50)
    result = game_result(goat, [50, 20, 20, 61])
    assert result.finished and result.losers == (0, 3) and result.winners == (1, 2)
    assert not game_result(goat, [49, 0, 12, 30]).finished


def test_R30_kozel_the_pair_that_passes_the_target_loses() -> None:
    for target in (50, 100, 150):
        kozel = preset("kozel", target=target)
        assert not game_result(kozel, [target, 30]).finished
        result = game_result(kozel, [target + 1, 30])
        assert result.finished and result.losers == (0,) and result.winners == (1,)


@pytest.mark.parametrize("target", [1, 37, 50, 100, 150, 1000])
def test_R30_any_positive_target_is_allowed(target: int) -> None:
    assert preset("draw", target=target).target == target


@pytest.mark.parametrize("target", [0, -50])
def test_R30_the_target_is_positive(target: int) -> None:
    with pytest.raises(ValueError, match=r"^target: .*\(R30\)$"):
        preset("draw", target=target)


# --- R40: single rounds ------------------------------------------------------------------


def test_R40_a_game_of_one_round_is_won_by_the_rounds_winner() -> None:
    ruleset = preset("block", players=3, hand_size=2, target="round")
    game = game_of(ruleset, make_deal(ruleset, *SEED_003))
    assert game.finished and game.turn is None
    assert (game.result.winners, game.result.losers) == ((0,), (1, 2))
    with pytest.raises(IllegalMoveError, match="R30"):
        game.next_round()


def test_R40_after_a_tied_single_round_nobody_wins() -> None:
    ruleset = preset("block", players=3, hand_size=2, target="round")
    game = game_of(ruleset, make_deal(ruleset, "6-6 1-2", "0-3 4-5", "0-1 0-2"))
    assert game.rounds[0].result is not None and game.rounds[0].result.tied
    assert game.finished and (game.result.winners, game.result.losers) == ((), ())


def test_R40_the_winner_of_a_single_round_wins_even_with_no_points() -> None:
    kozel = preset("kozel", target="round")
    result = score_round(kozel, Ending.DOMINO, [0, hand("1-2"), 0, hand("3-4")], 0, (0, 0), 0)
    assert result.points == (0, 0) and result.dropped == (0, 10)  # R36 still drops it
    game = game_result(kozel, result.scores_after, result)
    assert game.finished and game.winners == (0,) and game.losers == (1,)
    assert not game.dry_win  # nobody passed a target
    assert not game_result(kozel, (0, 0)).finished  # no round played yet


@pytest.mark.parametrize("value", ["round", "ROUND", " round "])
def test_R40_target_round_is_written_round(value: str) -> None:
    assert preset("draw", target="round").target == "round"
    assert preset("draw", target="round").single_round
    assert Ruleset.from_dict(preset("draw", target="round").to_dict()).target == "round"
    if value != "round":  # only the exact word, as the record writes it
        with pytest.raises(RulesetError, match=r"^target: .*\(R30\)$"):
            preset("draw", target=value)
