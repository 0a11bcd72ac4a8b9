"""R1–R3: the set, values, weights and tile notation."""

import pytest

from doublesix.tiles import ALL, SUIT, TILES, InvalidTileError, Tile, heaviest, lowest, tile


def test_R1_the_set_has_28_tiles_each_pair_once() -> None:
    pairs = {(t.low, t.high) for t in TILES}
    assert len(TILES) == 28 == len(pairs)
    assert pairs == {(a, b) for a in range(7) for b in range(a, 7)}
    assert [t.index for t in TILES] == list(range(28))
    assert ALL == (1 << 28) - 1


@pytest.mark.parametrize("text", ["2-5", "5-2", "2|5", " 5 | 2 "])
def test_R1_parsing_accepts_both_orders_and_the_bar(text: str) -> None:
    assert Tile.parse(text) == tile(2, 5)
    assert str(Tile.parse(text)) == "2-5"


@pytest.mark.parametrize("text", ["", "7-1", "2-", "2/5", "25", "a-b", "1-2-3"])
def test_R1_parsing_refuses_what_is_not_a_tile(text: str) -> None:
    with pytest.raises(InvalidTileError, match="R1"):
        Tile.parse(text)


def test_R1_doubles_are_the_seven_tiles_with_equal_halves() -> None:
    assert [str(t) for t in TILES if t.is_double] == [f"{n}-{n}" for n in range(7)]


def test_R2_value_is_the_sum_of_the_halves() -> None:
    assert tile(6, 6).value == 12
    assert tile(2, 5).value == 7
    assert tile(0, 0).value == 0


def test_R3_heaviest_breaks_ties_by_the_larger_half() -> None:
    assert heaviest([tile(5, 4), tile(6, 3)]) == tile(6, 3)
    assert heaviest(TILES) == tile(6, 6)


def test_R3_lowest_breaks_ties_by_the_smaller_half() -> None:
    assert lowest([tile(1, 2), tile(0, 3)]) == tile(0, 3)
    assert lowest(TILES) == tile(0, 0)


def test_R3_indices_follow_weight_so_the_highest_bit_is_the_heaviest_tile() -> None:
    for i, t in enumerate(TILES[1:], start=1):
        assert heaviest([t, TILES[i - 1]]) == t


def test_R5_suit_masks_hold_the_seven_tiles_showing_a_pip() -> None:
    for pip in range(7):
        assert {t for t in TILES if t.bit & SUIT[pip]} == {t for t in TILES if t.shows(pip)}
