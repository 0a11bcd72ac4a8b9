"""The samplers' own draws are ``random.Random``'s: a seed deals what it dealt before."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from doublesix.bots.sampler import sample, shuffle


@given(st.integers(0, 2**32), st.integers(1, 28), st.data())
def test_sample_draws_as_random_sample_does(seed: int, n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    population = list(range(100, 100 + n))
    ours, theirs = random.Random(seed), random.Random(seed)
    assert sample(ours, population, k) == theirs.sample(population, k)
    assert ours.getstate() == theirs.getstate()
    assert population == list(range(100, 100 + n))


@given(st.integers(0, 2**32), st.integers(0, 28))
def test_shuffle_draws_as_random_shuffle_does(seed: int, n: int) -> None:
    ours, theirs = list(range(n)), list(range(n))
    a, b = random.Random(seed), random.Random(seed)
    shuffle(a, ours)
    b.shuffle(theirs)
    assert ours == theirs
    assert a.getstate() == b.getstate()
