"""``benchmarks/hands_tilt.py``: a tilt of ``expert``'s deals fitted to where the tiles were."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from conftest import benchmark_script
from doublesix.bots.inference import Decision, Group, Knowledge
from doublesix.rules.ruleset import preset
from doublesix.tiles import ALL, mask_of, tile


def _knowledge() -> Knowledge:
    """Draw-2 seen by seat 0: seat 1 laid 3-4 on the 3 of a line showing 3 and 5."""
    hand = mask_of([tile(0, 0), tile(0, 1)])
    played = mask_of([tile(3, 5), tile(3, 4)])
    return Knowledge(
        seat=0,
        players=2,
        hand=hand,
        played=played,
        unknown=ALL & ~hand & ~played,
        groups=[[], [Group(6, 0, -1)]],
        counts=(2, 6),
        boneyard=14,
        out=0,
        left=4,
        right=5,
        decisions=[Decision(1, 1, tile(3, 4).index, 3, 5)],
        drawn_by=[[], []],
        played_by=[mask_of([tile(3, 5)]), mask_of([tile(3, 4)])],
        events=2,
    )


def test_a_tile_the_seat_could_have_played_and_did_not_is_counted_with_its_kind() -> None:
    script = benchmark_script("hands_tilt")
    phi = script.features(_knowledge(), preset("draw", 2, target="round"))
    fives, three_six, fours = (
        phi[1, tile(5, 5).index],
        phi[1, tile(3, 6).index],
        phi[1, tile(4, 4).index],
    )
    assert fives[:5].tolist() == pytest.approx([1, 10 / 12, 1, 1, 0])  # fitted on the 5, unplayed
    assert three_six[:5].tolist() == pytest.approx([1, 9 / 12, 0, 1, 1])  # on the 3 it played on
    assert fours[:5].tolist() == [0, 0, 0, 0, 0]  # did not fit
    assert fours[5] == 1 and fives[5] == 0  # the seat opened the 4s
    assert fours[6] == 1 and three_six[6] == 1 and phi[1, tile(2, 2).index, 6] == 0
    assert not phi[0].any()  # nothing of the searching seat
    assert not phi[1, tile(0, 0).index].any() and not phi[1, tile(3, 4).index].any()  # not hidden


def _decision(script: object, rng: np.random.Generator, pool: int = 12) -> object:
    hidden = 5
    where = rng.integers(-1, 2, size=(pool, hidden)).astype(np.int8)
    return script.Decision(  # type: ignore[attr-defined]
        round=0,
        base=rng.normal(size=pool),
        feats=rng.normal(size=(pool, 3)),
        where=where,
        truth=where[0].copy(),
        others=[1],
    )


def test_the_log_score_s_gradient_is_its_slope() -> None:
    script = benchmark_script("hands_tilt")
    rng = np.random.default_rng(7)
    data = [_decision(script, rng) for _ in range(4)]
    theta = rng.normal(size=3) * 0.3
    value, grad = script.loss(theta, data, 0.01)
    for i in range(3):
        step = np.zeros(3)
        step[i] = 1e-6
        slope = (
            script.loss(theta + step, data, 0.01)[0] - script.loss(theta - step, data, 0.01)[0]
        ) / 2e-6
        assert grad[i] == pytest.approx(slope, rel=1e-4, abs=1e-7)
    assert value > 0


def test_weight_on_the_true_deal_scores_best() -> None:
    script = benchmark_script("hands_tilt")
    truth = np.array([1, 0, -1], dtype=np.int8)
    wrong = np.array([0, 1, -1], dtype=np.int8)
    d = script.Decision(
        round=0,
        base=np.zeros(2),
        feats=np.array([[1.0], [0.0]]),
        where=np.stack([truth, wrong]),
        truth=truth,
        others=[0, 1],
    )
    assert script.scores(d, np.array([50.0])) == pytest.approx((0.0, 1.0))  # all on the truth
    brier, placed = script.scores(d, np.array([0.0]))  # half each
    assert placed == pytest.approx(0.5)
    assert brier == pytest.approx((0.25 * 4) / 3)  # two tiles, two seats each a quarter


def test_a_run_fits_and_judges(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = benchmark_script("hands_tilt")
    argv = ["hands_tilt.py", "--preset", "draw", "--players", "2", "--train", "1", "--test", "2"]
    monkeypatch.setattr(sys, "argv", [*argv, "--pool", "5"])
    script.main()
    out = capsys.readouterr().out
    assert out.startswith("draw, 2 players: fitted on 1 rounds")
    assert "tilted less network, on the judged rounds: Brier " in out
    assert out.count("\n| ") == 1 + len(script.NAMES)  # the head and a row a feature
