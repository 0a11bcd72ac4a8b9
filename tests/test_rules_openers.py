"""Who opens a round (R16–R21)."""

from __future__ import annotations

import pytest

from conftest import T, finish_round, game_of, make_deal, play
from doublesix import DealError, Game, Play, ResultKind, Ruleset, preset
from doublesix.rules.deal import SeededDealer
from doublesix.rules.round import Ending
from doublesix.tiles import TILES, VALUE, heaviest, tiles_of

BLOCK2 = preset("block", players=2, hand_size=2)
BLOCK3 = preset("block", players=3, hand_size=2)
PAIRS = preset("block", players=4, hand_size=2, pairs=True)


def opening(game: Game) -> tuple[int, set[str]]:
    """The opener of the current round and the moves open to it (none played yet)."""
    assert game.round.events == []
    assert game.turn == game.rounds[-1].opener
    return game.rounds[-1].opener, {str(m) for m in game.legal_moves()}


# --- R16: highest double ------------------------------------------------------------


def test_R16_the_holder_of_the_highest_double_opens_with_it_automatically() -> None:
    game = game_of(BLOCK2, make_deal(BLOCK2, "1-1 2-6", "3-3 0-3"))
    assert game.rounds[0].opener == 1
    assert game.round.events[0] == Play(1, T("3-3"), None)


def test_R16_the_highest_double_dealt_when_6_6_is_out_of_play() -> None:
    game = game_of(BLOCK2, make_deal(BLOCK2, "5-5 0-1", "4-4 2-3"))
    assert game.rounds[0].opener == 0
    assert game.round.events == [Play(0, T("5-5"), None)]


def test_R16_without_doubles_the_heaviest_tile_opens_automatically() -> None:
    game = game_of(BLOCK2, make_deal(BLOCK2, "4-6 0-1", "5-6 2-3"))
    assert game.round.events[0] == Play(1, T("5-6"), None)


def test_R16_heaviest_tile_ties_go_to_the_larger_half() -> None:
    game = game_of(BLOCK2, make_deal(BLOCK2, "3-6 0-1", "4-5 0-2"))
    assert game.round.events[0] == Play(0, T("3-6"), None)


# --- R17: the previous winner -------------------------------------------------------


def test_R17_the_winner_of_a_domino_opens_the_next_round_with_any_tile() -> None:
    game = game_of(
        BLOCK2,
        make_deal(BLOCK2, "6-6 0-1", "2-6 3-6"),
        make_deal(BLOCK2, "6-6 1-2", "0-3 4-5"),
    )
    play(game, "2-6 left", "3-6 right")
    result = game.rounds[0].result
    assert result is not None and result.kind is ResultKind.DOMINO and result.winner_seat == 1
    game.next_round()
    assert opening(game) == (1, {"0-3", "4-5"})  # not 6-6 automatically (R16 is round 1 only)


def test_R17_the_winner_of_a_blocked_round_opens_the_next() -> None:
    game = game_of(
        BLOCK2,
        make_deal(BLOCK2, "6-6 0-1", "2-3 4-5"),
        make_deal(BLOCK2, "1-2 0-3", "5-5 4-6"),
    )
    result = game.rounds[0].result
    assert result is not None and result.kind is ResultKind.BLOCKED and result.winner_seat == 0
    game.next_round()
    assert opening(game) == (0, {"1-2", "0-3"})


def test_R17_after_a_tied_round_the_highest_double_opens_again() -> None:
    game = game_of(
        BLOCK3,
        make_deal(BLOCK3, "6-6 1-2", "0-3 4-5", "0-1 0-2"),
        make_deal(BLOCK3, "1-2 0-3", "2-2 4-6", "5-6 0-1"),
    )
    result = game.rounds[0].result
    assert result is not None and result.tied and result.kind is ResultKind.TIED
    game.next_round()
    assert game.rounds[1].opener == 1
    assert game.round.events[0] == Play(1, T("2-2"), None)


@pytest.mark.parametrize(("six_six", "winner"), [(0, 1), (2, 3)])
def test_R17_a_blocked_winner_is_the_lowest_hand_of_the_winning_side_ties_clockwise(
    six_six: int, winner: int
) -> None:
    hands = ["6-6 0-1", "0-2 1-3", "4-5 3-5", "0-3 1-2"]
    if six_six == 2:
        hands[0], hands[2] = hands[2], hands[0]
    game = game_of(PAIRS, make_deal(PAIRS, *hands), make_deal(PAIRS, *hands))
    first = game.rounds[0]
    assert first.play.ending is Ending.BLOCKED and first.play.last_seat == six_six
    assert first.result is not None
    # Side 1 (6 + 6 = 12) beats side 0 (1 + 17 = 18); seats 1 and 3 hold 6 each:
    # the first of them clockwise after the seat that placed the last tile wins.
    assert first.result.winner_seat == winner
    game.next_round()
    assert game.rounds[1].opener == winner
    assert game.round.events == []


def test_R17_a_blocked_winner_in_pairs_need_not_hold_the_lowest_hand() -> None:
    hands = ["6-6 0-1", "2-3 2-4", "4-5 3-5", "0-2 0-3"]
    game = game_of(PAIRS, make_deal(PAIRS, *hands))
    result = game.rounds[0].result
    assert result is not None
    assert result.hand_values == (1, 11, 17, 5)
    assert result.winner_seat == 3  # side 1 holds 16 < 18; seat 0's 1 point does not count


# --- R18: Kozel ---------------------------------------------------------------------


def test_R18_kozel_round_one_the_holder_of_1_1_opens_with_it() -> None:
    for seed in range(5):
        game = Game(preset("kozel"), seed=seed)
        deal = game.rounds[0].deal
        holder = next(s for s in range(4) if deal.hands[s] & T("1-1").bit)
        assert game.rounds[0].opener == holder
        assert game.round.events[0] == Play(holder, T("1-1"), None)


@pytest.mark.parametrize("ending", [Ending.DOMINO, Ending.BLOCKED])
def test_R18_kozel_later_rounds_the_last_placer_opens_with_any_tile(ending: Ending) -> None:
    for seed in range(200):
        game = Game(preset("kozel"), seed=seed)
        finish_round(game)
        if game.round.ending is ending and not game.finished:
            break
    else:
        pytest.fail(f"no seed gives a {ending} first round")
    last = game.round.last_seat
    final = game.round.events[-1]
    assert isinstance(final, Play) and final.seat == last  # no boneyard: the last event is a play
    game.next_round()
    opener, moves = opening(game)
    assert opener == last
    assert moves == {str(t) for t in game.round.hand(last)}


# --- R19: lowest double ---------------------------------------------------------------

VOG2 = preset("vog-block", players=2, hand_size=2)


def test_R19_the_lowest_double_other_than_0_0_opens_with_any_tile() -> None:
    game = game_of(VOG2, make_deal(VOG2, "0-0 5-5", "3-3 1-2"))
    assert opening(game) == (1, {"3-3", "1-2"})


def test_R19_without_such_a_double_the_lowest_tile_opens() -> None:
    game = game_of(VOG2, make_deal(VOG2, "0-0 4-5", "1-2 0-3"))
    assert opening(game) == (0, {"0-0", "4-5"})
    game = game_of(VOG2, make_deal(VOG2, "1-2 5-6", "0-3 4-5"))
    assert opening(game) == (1, {"0-3", "4-5"})  # R3: 0-3 is lower than 1-2


def test_R19_applies_in_every_round() -> None:
    game = game_of(
        VOG2,
        make_deal(VOG2, "0-0 5-5", "3-3 1-2"),
        make_deal(VOG2, "1-1 2-3", "2-2 0-4"),
    )
    play(game, "1-2")
    result = game.rounds[0].result
    assert result is not None and result.winner_seat == 1
    game.next_round()
    assert opening(game) == (0, {"1-1", "2-3"})


# --- R20: highest tile ----------------------------------------------------------------

INTL2 = preset("international-2", hand_size=2)


def test_R20_highest_tile_round_one_the_heaviest_tile_opens_with_any_tile() -> None:
    game = game_of(INTL2, make_deal(INTL2, "5-6 0-1", "6-6 2-3"))
    assert opening(game) == (1, {"6-6", "2-3"})


def test_R20_later_rounds_the_winner_opens_and_after_a_tie_the_heaviest_tile() -> None:
    game = game_of(
        INTL2,
        make_deal(INTL2, "5-6 0-1", "6-6 2-3"),
        make_deal(INTL2, "6-6 1-2", "5-6 0-4"),
        make_deal(INTL2, "0-1 0-2", "6-6 5-5"),
    )
    play(game, "2-3")  # nobody holds a 2 or a 3: blocked at 12 against 12
    assert game.rounds[0].result is not None and game.rounds[0].result.tied
    game.next_round()
    assert opening(game) == (0, {"6-6", "1-2"})  # after a tie: the heaviest tile again
    play(game, "6-6", "5-6 left")
    assert game.rounds[1].result is not None and game.rounds[1].result.winner_seat == 0
    game.next_round()
    assert opening(game) == (0, {"0-1", "0-2"})  # the winner, though seat 1 holds 6-6


def test_R20_international_with_pairs_uses_the_heaviest_tile() -> None:
    for seed in range(3):
        game = Game(preset("international"), seed=seed)
        deal = game.rounds[0].deal
        top = heaviest(t for s in range(4) for t in tiles_of(deal.hands[s]))
        holder = next(s for s in range(4) if deal.hands[s] & top.bit)
        assert opening(game)[0] == holder


# --- R21: draw for the lead -------------------------------------------------------------

CLASSIC3 = preset("classic", players=3, hand_size=2)


def test_R21_the_highest_lead_draw_opens_ties_draw_again_then_clockwise() -> None:
    deals = [SeededDealer(CLASSIC3, k).deal() for k in range(4)]
    draws = [(0, "4-6"), (1, "5-5"), (2, "1-2"), (0, "0-1"), (1, "3-3")]
    game = game_of(CLASSIC3, *deals, lead_draws=draws)
    assert game.lead_draws == [(s, T(t).index) for s, t in draws]
    opener, moves = opening(game)
    assert opener == 1
    assert moves == {str(t) for t in game.round.hand(1)}
    for expected in (2, 0, 1):
        finish_round(game)
        if game.finished:
            break
        game.next_round()
        assert opening(game)[0] == expected


def test_R21_only_the_tied_players_draw_again() -> None:
    deal = SeededDealer(CLASSIC3, 0).deal()
    with pytest.raises(DealError, match="R21"):
        # seats 0 and 1 tie on 10: seat 2 may not draw again
        game_of(CLASSIC3, deal, lead_draws=[(0, "4-6"), (1, "5-5"), (2, "1-2"), (2, "6-6")])
    with pytest.raises(DealError, match="R21"):
        game_of(CLASSIC3, deal, lead_draws=[(0, "4-6"), (1, "4-6"), (2, "1-2")])  # twice


def lead_winner(ruleset: Ruleset, draws: list[tuple[int, int]]) -> int:
    """R21 by hand: everybody draws, the highest value opens, the tied draw again."""
    contenders = list(range(ruleset.players))
    rest = list(draws)
    while True:
        group, rest = rest[: len(contenders)], rest[len(contenders) :]
        assert [s for s, _ in group] == contenders
        best = max(VALUE[t] for _, t in group)
        contenders = [s for s, t in group if VALUE[t] == best]
        if len(contenders) == 1:
            assert rest == []
            return contenders[0]


def test_R21_seeded_lead_draws_follow_the_rule() -> None:
    for players in (2, 3, 4):
        ruleset = preset("classic", players=players)
        for seed in range(15):
            game = Game(ruleset, seed=seed)
            assert len({t for _, t in game.lead_draws}) == len(game.lead_draws)
            assert all(0 <= t < len(TILES) for _, t in game.lead_draws)
            assert game.rounds[0].opener == lead_winner(ruleset, game.lead_draws)
            assert game.round.events == []
