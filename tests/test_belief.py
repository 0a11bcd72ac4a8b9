"""``benchmarks/belief.py``: how near the true hands a level's deals are."""

from __future__ import annotations

import sys

import pytest

from conftest import benchmark_script
from doublesix.bots.sampler import Sample


def _sample(hands: list[int], log_weight: float = 0.0) -> Sample:
    return Sample(hands=hands, bone=[], groups=[], log_weight=log_weight)


def test_a_deal_scores_the_share_of_the_others_tiles_it_puts_right() -> None:
    placed = benchmark_script("belief").placed
    truth = [0b0011, 0b1100, 0b110000]  # seat 0 searches; seats 1 and 2 hold 2 tiles each
    assert placed(_sample(truth), truth, 0) == 1.0
    assert placed(_sample([0b0011, 0b110000, 0b1100]), truth, 0) == 0.0  # swapped
    assert placed(_sample([0b0011, 0b0100 | 0b100000, 0b1000 | 0b10000]), truth, 0) == 0.5
    assert placed(_sample([0b0011, 0, 0]), [0b0011, 0, 0], 0) == 1.0  # nothing hidden


def test_the_brier_score_is_nought_for_the_truth_and_grows_with_odds_on_wrong_hands() -> None:
    brier = benchmark_script("belief").brier
    truth = [0b1100, 0b01, 0b10]  # seat 0 searches; tiles 0 and 1 are hidden
    right, swapped = _sample(truth), _sample([0b1100, 0b10, 0b01])
    assert brier([right], [0.0], truth, 0, 0b11) == 0.0
    assert brier([swapped], [0.0], truth, 0, 0b11) == 2.0  # each tile: 1 where it is not, 0
    assert brier([right, swapped], [0.0, 0.0], truth, 0, 0b11) == 0.5
    assert brier([right, swapped], [0.0, -1000.0], truth, 0, 0b11) == pytest.approx(0.0)
    elsewhere = _sample([0b1100, 0, 0])  # both in the boneyard: (0-1)^2 + (1-0)^2 a tile
    assert brier([elsewhere], [0.0], truth, 0, 0b11) == 2.0


def test_weights_are_taken_relative_to_the_largest() -> None:
    weighted = benchmark_script("belief").weighted
    assert weighted([1.0, 0.0], [0.0, 0.0]) == 0.5
    assert weighted([1.0, 0.0], [1000.0, 0.0]) == 1.0  # no overflow: the top is 1
    assert weighted([0.2, 0.8], [-1000.0, -1000.0]) == pytest.approx(0.5)


def test_a_run_prints_a_row_a_stage(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = benchmark_script("belief")
    argv = ["belief.py", "--preset", "draw", "--players", "2", "--rounds", "1", "--pool", "5"]
    monkeypatch.setattr(sys, "argv", argv)
    script.main()
    out = capsys.readouterr().out
    assert out.startswith("draw, 2 players: 1 rounds of expert:30, ")
    row = next(line for line in out.splitlines() if line.startswith("| all | 1 |"))
    uniform, model = (float(cell.split()[0]) for cell in row.split("|")[3:5])
    assert 0.0 <= uniform <= 1.0 and 0.0 <= model <= 1.0


def test_a_peek_places_more_of_the_tiles_right(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--peek``: the model raised for each tile in the right hand — truer by construction."""
    script = benchmark_script("belief")

    def placed(*extra: str) -> float:
        argv = ["belief.py", "--preset", "kozel", "--rounds", "1", "--pool", "30", *extra]
        monkeypatch.setattr(sys, "argv", argv)
        script.main()
        out = capsys.readouterr().out
        row = next(line for line in out.splitlines() if line.startswith("| all | 1 |"))
        return float(row.split("|")[4].split()[0])

    assert placed("--peek", "2") > placed() + 0.1
