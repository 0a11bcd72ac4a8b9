"""``benchmarks/calibrate_bots.py``: the fit of CPU time to work, and what it prints."""

from __future__ import annotations

import random
import re

import pytest

from conftest import benchmark_script


def test_least_squares_finds_the_costs_and_drops_a_negative_one() -> None:
    calibrate = benchmark_script("calibrate_bots")
    rng = random.Random(1)
    xs = [[float(rng.randrange(1, 100)) for _ in range(3)] for _ in range(40)]
    ys = [2.0 * a + 0.5 * b for a, b, _ in xs]
    assert calibrate.least_squares(xs, ys) == pytest.approx([2.0, 0.5, 0.0], abs=1e-9)
    # a third kind that would fit best with a negative cost is left out, not given one
    ys = [2.0 * a + 0.5 * b - 0.3 * c for a, b, c in xs]
    assert min(calibrate.least_squares(xs, ys)) >= 0.0


def test_a_run_prints_each_games_budget_share_and_units_by_kind(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calibrate = benchmark_script("calibrate_bots")
    argv = ["calibrate_bots.py", "--bot", "ismcts-net", "--ms", "2", "--games", "1"]
    monkeypatch.setattr("sys.argv", [*argv, "--jobs", "1", "--games-of", "draw-2"])
    calibrate.main()
    out = capsys.readouterr().out
    assert "ismcts-net:" in out and "weighed=36" in out
    assert re.search(r"draw-2 +\d+ decisions: mean", out)
    assert "kozel" not in out.split("with UNITS_PER_MS")[1]
    shares = re.search(r"the units charged, by kind: (.*)", out)
    assert shares is not None
    parts = dict(part.split() for part in shares.group(1).split(", "))
    assert {"attempts", "weighed", "tree"} <= set(parts)
    assert sum(float(v) for v in parts.values()) == pytest.approx(1.0, abs=0.01 * len(parts))


def test_an_unknown_game_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calibrate = benchmark_script("calibrate_bots")
    monkeypatch.setattr("sys.argv", ["calibrate_bots.py", "--games-of", "kozel,vog"])
    with pytest.raises(SystemExit):
        calibrate.main()
    assert "--games-of: vog is not one of kozel, draw-2, block-4" in capsys.readouterr().err
