"""``benchmarks/pool_ess.py``: the effective sample size of a pool's weights."""

from __future__ import annotations

import math

import pytest

from conftest import benchmark_script


def test_equal_weights_count_every_deal_and_one_heavy_deal_counts_once() -> None:
    ess = benchmark_script("pool_ess").ess
    assert ess([0.0] * 48) == pytest.approx(48.0)
    assert ess([5.0] * 10) == pytest.approx(10.0)  # only the ratios matter
    assert ess([0.0, -50.0, -50.0, -50.0]) == pytest.approx(1.0)
    assert ess([0.0, 0.0, math.log(1e-9)]) == pytest.approx(2.0, rel=1e-6)
