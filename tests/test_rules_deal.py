"""Dealing (R12–R15), the presets and ruleset validation."""

from __future__ import annotations

import pytest

from conftest import T, finish_round, game_of, hand, make_deal
from doublesix import (
    PRESETS,
    Deal,
    DealError,
    Game,
    Play,
    Ruleset,
    RulesetError,
    preset,
)
from doublesix.rules.deal import Redeal, RedealKind, SeededDealer, deal_from
from doublesix.tiles import ALL, TILES, bits

# docs/rules.md's preset table: players, hand size per player count, boneyard, opener, scoring.
TABLE = {
    "draw": ((2, 3, 4), {2: 7, 3: 5, 4: 5}, True, "highest_double", "winner_takes"),
    "block": ((2, 3, 4), {2: 7, 3: 6, 4: 7}, False, "highest_double", "winner_takes"),
    "kozel": ((4,), {4: 7}, False, "kozel", "kozel"),
    "vog-talon": ((2, 3, 4), {2: 7, 3: 5, 4: 5}, True, "lowest_double", "winner_takes_all"),
    "vog-block": ((2, 3, 4), {2: 7, 3: 6, 4: 7}, False, "lowest_double", "winner_takes_all"),
    "vog-goat": ((4,), {4: 7}, False, "lowest_double", "goat"),
    "international": ((4,), {4: 7}, False, "highest_tile", "winner_takes_all"),
    "international-2": ((2,), {2: 7}, False, "highest_tile", "winner_takes_all"),
    "classic": ((2, 3, 4), {2: 7, 3: 5, 4: 5}, True, "draw_for_lead", "winner_takes"),
    "classic-block": ((2, 3, 4), {2: 7, 3: 7, 4: 7}, False, "draw_for_lead", "winner_takes"),
}
PAIRS = {"kozel", "vog-goat", "international"}


def test_R12_every_preset_matches_the_rules_table() -> None:
    assert set(PRESETS) == set(TABLE)
    for name, (players, hands, boneyard, opener, scoring) in TABLE.items():
        assert preset(name).players == players[-1]
        for n in players:
            r = preset(name, players=n)
            assert (r.preset, r.players, r.hand_size) == (name, n, hands[n])
            assert (r.boneyard, r.opener, r.scoring) == (boneyard, opener, scoring)
            assert r.target == 100
            assert r.pairs == (name in PAIRS)
            assert r.redeal == (name == "kozel")
            assert r.draw_rule == "draw_until_playable" and r.keep_in_boneyard == 0
            assert r.line == ("manual" if name.startswith("vog-") else "auto")  # R39


@pytest.mark.parametrize(
    ("name", "players", "boneyard", "out"),
    [
        ("draw", 2, 14, 0),
        ("draw", 3, 13, 0),
        ("draw", 4, 8, 0),
        ("block", 2, 0, 14),
        ("block", 3, 0, 10),
        ("block", 4, 0, 0),
        ("kozel", 4, 0, 0),
    ],
)
def test_R12_hand_sizes_and_the_rest(name: str, players: int, boneyard: int, out: int) -> None:
    ruleset = preset(name, players=players)
    deal = SeededDealer(ruleset, 3).deal()
    deal.check(ruleset)
    assert [h.bit_count() for h in deal.hands] == [ruleset.hand_size] * players
    assert len(deal.boneyard) == boneyard
    assert deal.out.bit_count() == out


def test_R12_a_deal_must_match_the_ruleset() -> None:
    block = preset("block", players=2, hand_size=2)
    good = make_deal(block, "6-6 5-6", "2-6 3-4")
    good.check(block)
    with pytest.raises(DealError, match="R12"):
        Deal(good.hands[:1], (), ALL ^ good.hands[0]).check(block)
    with pytest.raises(DealError, match="R12"):
        make_deal(block, "6-6 5-6 0-0", "2-6 3-4").check(block)
    with pytest.raises(DealError, match="R12"):
        Deal(good.hands, tuple(bits(good.out)), 0).check(block)  # no boneyard in Block
    draw = preset("draw", players=2, hand_size=2)
    with pytest.raises(DealError, match="R12"):
        Deal(good.hands, (), good.out).check(draw)  # the rest is the boneyard in Draw
    with pytest.raises(DealError, match="R1"):
        Deal(good.hands, (), good.out | good.hands[0]).check(block)  # a tile twice
    with pytest.raises(DealError, match="R1"):
        Deal(good.hands, (), good.out ^ T("0-0").bit).check(block)  # a tile missing


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_R12_a_table_seats_2_to_4(players: int) -> None:
    with pytest.raises(RulesetError, match=r"^players: .*\(R12\)$") as err:
        preset("draw", players=players)
    assert err.value.option == "players" and err.value.rule == "R12"
    with pytest.raises(RulesetError, match="players"):
        Ruleset(**{**preset("draw").to_dict(), "players": players})


@pytest.mark.parametrize("players", [2, 3])
def test_R12_kozel_is_only_for_four_players_in_pairs(players: int) -> None:
    with pytest.raises(RulesetError) as err:
        preset("kozel", players=players)
    message = str(err.value)
    assert err.value.option == "players"
    assert "kozel" in message and "4 players" in message and "R12" in message
    with pytest.raises(RulesetError, match="Kozel is played by 4 players in two pairs"):
        preset("kozel", pairs=False)
    with pytest.raises(RulesetError, match="Kozel is played by 4 players in two pairs"):
        preset("block", players=3, scoring="kozel")


@pytest.mark.parametrize("name", ["vog-goat", "international", "international-2"])
def test_R12_presets_for_a_fixed_table_refuse_other_player_counts(name: str) -> None:
    other = 3
    with pytest.raises(RulesetError, match=rf"^players: the {name} preset .*not {other} \(R12\)"):
        preset(name, players=other)


def deal_with(ruleset: Ruleset, first: str) -> Deal:
    """Seat 0 holds ``first`` plus fillers; the other seats get the rest in turn."""
    held = hand(first)
    rest = [t for t in TILES if not held & t.bit]
    fill = ruleset.hand_size - held.bit_count()
    seat0 = held | sum(t.bit for t in rest[:fill])
    others = rest[fill:]
    hands = [seat0] + [
        sum(t.bit for t in others[s :: ruleset.players - 1]) for s in range(ruleset.players - 1)
    ]
    return Deal(tuple(hands), (), 0)


def test_R13_five_doubles_in_a_hand_are_thrown_in() -> None:
    deal = Deal((hand("0-0 1-1 2-2 3-3 4-4 0-1 0-2"),) + (0,) * 3, (), 0)
    assert deal.redeal_reason() == Redeal(0, RedealKind.DOUBLES, 5)
    assert str(deal.redeal_reason()) == "seat 0 holds 5 doubles"  # records' ``reason`` text
    four = Deal((0, hand("0-0 1-1 2-2 3-3 0-1 0-2 0-3")), (), 0)
    assert four.redeal_reason() is None  # 4 doubles, 5 tiles showing 0


def test_R13_six_tiles_showing_a_number_are_thrown_in() -> None:
    deal = Deal((0, 0, hand("3-3 0-3 1-3 2-3 3-4 3-5 0-1")), (), 0)
    assert deal.redeal_reason() == Redeal(2, RedealKind.NUMBER, 6, 3)
    assert str(deal.redeal_reason()) == "seat 2 holds 6 tiles showing 3"
    five = Deal((0, 0, hand("3-3 0-3 1-3 2-3 3-4 5-6 0-1")), (), 0)
    assert five.redeal_reason() is None


def test_R13_kozel_redeals_and_says_why() -> None:
    kozel = preset("kozel")
    thrown = Deal(
        (
            hand("0-0 1-1 2-2 3-3 4-4 0-1 0-2"),
            hand("5-5 6-6 0-3 0-4 0-5 0-6 1-2"),
            hand("1-3 1-4 1-5 1-6 2-3 2-4 2-5"),
            hand("2-6 3-4 3-5 3-6 4-5 4-6 5-6"),
        ),
        (),
        0,
    )
    thrown.check(kozel)
    also = Deal(tuple(reversed(thrown.hands)), (), 0)  # now seat 3 has the 5 doubles
    played = Deal(tuple(sum(1 << i for i in range(s, 28, 4)) for s in range(4)), (), 0)
    played.check(kozel)
    assert played.redeal_reason() is None
    game = game_of(kozel, thrown, also, played)
    current = game.rounds[0]
    assert [reason for _, reason in current.redeals] == [
        Redeal(0, RedealKind.DOUBLES, 5),
        Redeal(3, RedealKind.DOUBLES, 5),
    ]
    assert current.deal == played
    holder = next(s for s in range(4) if played.hands[s] & T("1-1").bit)
    assert game.round.events[0] == Play(holder, T("1-1"), None)


def test_R13_only_rulesets_with_redeal_throw_deals_in() -> None:
    block = preset("block", players=4)
    deal = deal_with(block, "0-0 1-1 2-2 3-3 4-4")
    deal.check(block)
    assert deal.redeal_reason() is not None
    game = game_of(block, deal)
    assert game.rounds[0].redeals == [] and game.rounds[0].deal == deal


@pytest.mark.parametrize("size", [1, 0, -3])
def test_R14_a_hand_has_at_least_two_tiles(size: int) -> None:
    with pytest.raises(RulesetError, match=r"^hand_size: .*at least 2 tiles.*\(R14\)$"):
        preset("block", hand_size=size)


def test_R14_players_times_hand_size_fits_the_set() -> None:
    with pytest.raises(RulesetError, match=r"^hand_size: 4 × 8 = 32 tiles.*28 \(R14\)$"):
        preset("block", players=4, hand_size=8)
    assert preset("block", players=2, hand_size=14).dealt == 28
    assert preset("block", players=3, hand_size=9).dealt == 27


def test_R14_a_draw_game_keeps_at_least_one_tile_in_the_boneyard() -> None:
    with pytest.raises(RulesetError, match=r"^hand_size: .*boneyard \(R14\)$"):
        preset("draw", players=4, hand_size=7)
    with pytest.raises(RulesetError, match=r"^hand_size: .*boneyard \(R14\)$"):
        preset("draw", players=2, hand_size=14)
    assert preset("draw", players=3, hand_size=9).drawable == 1
    assert preset("draw", players=2, hand_size=13).drawable == 2


def test_R14_custom_hand_sizes_deal_and_play() -> None:
    for name, players, size in [("draw", 3, 9), ("block", 2, 14), ("vog-talon", 4, 2)]:
        ruleset = preset(name, players=players, hand_size=size)
        game = Game(ruleset, seed=1)
        assert [h.bit_count() for h in game.rounds[0].deal.hands] == [size] * players
        finish_round(game)


def test_R14_other_impossible_settings_name_the_option_and_rule() -> None:
    cases = {
        "target": ({"target": 0}, "R30"),
        "pairs": ({"players": 3, "pairs": True}, "R6"),
        "opener": ({"players": 3, "opener": "kozel"}, "R18"),
        "lone_six_six": ({"lone_six_six": -1}, "R37a"),
        "lone_zero_zero": ({"lone_zero_zero": -1}, "R37a"),
        "scoring": ({"scoring": "golf"}, "R26–R29"),
        "fish_charge": ({"fish_charge": "nobody"}, "R37a"),
    }
    for option, (changes, rule) in cases.items():
        with pytest.raises(RulesetError) as err:
            preset("block", **changes)
        assert err.value.option == option, changes
        assert err.value.rule == rule
        assert str(err.value).startswith(f"{option}: ")
    with pytest.raises(RulesetError, match=r"^colour: no such option"):
        preset("block", colour="green")
    with pytest.raises(RulesetError, match=r"^preset: 'chess' is not one of"):
        preset("chess")


def test_R14_options_may_be_given_as_text_and_are_written_out() -> None:
    r = preset("block", players=3, scoring="goat", opener="lowest_double", target=37)
    assert r.scoring == "goat" and r.opener == "lowest_double" and r.target == 37
    assert Ruleset(**r.to_dict()) == r
    assert Ruleset.from_dict(r.to_dict()) == r
    with pytest.raises(RulesetError, match=r"^players: '4' is not a whole number"):
        Ruleset.from_dict({**r.to_dict(), "players": "4"})
    with pytest.raises(RulesetError, match=r"^hand_size: missing"):
        Ruleset.from_dict({k: v for k, v in r.to_dict().items() if k != "hand_size"})


def test_R15_a_seed_determines_every_deal() -> None:
    ruleset = preset("draw", players=3)
    one, two = SeededDealer(ruleset, 42), SeededDealer(ruleset, 42)
    deals = [one.deal() for _ in range(5)]
    assert deals == [two.deal() for _ in range(5)]
    assert len(set(deals)) == 5
    assert deals != [SeededDealer(ruleset, 43).deal() for _ in range(5)]


def test_R15_the_same_seed_gives_the_same_game() -> None:
    for name in PRESETS:
        games = [Game(preset(name), seed=9) for _ in range(2)]
        for game in games:
            while not game.finished and len(game.rounds) < 4:
                if game.turn is None:
                    game.next_round()
                else:
                    game.play(game.legal_moves()[-1])
        a, b = games
        assert [r.deal for r in a.rounds] == [r.deal for r in b.rounds]
        assert [r.play.events for r in a.rounds] == [r.play.events for r in b.rounds]
        assert a.lead_draws == b.lead_draws


def test_R15_deal_from_shares_an_order_out_seat_by_seat() -> None:
    ruleset = preset("draw", players=2)
    order = list(range(27, -1, -1))
    deal = deal_from(ruleset, order)
    assert deal.hands[0] == sum(1 << t for t in order[:7])
    assert deal.hands[1] == sum(1 << t for t in order[7:14])
    assert deal.boneyard == tuple(order[14:])
