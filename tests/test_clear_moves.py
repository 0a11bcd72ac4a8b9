"""``benchmarks/clear_moves.py``: ``ismcts-fit``'s searches replayed pool by pool."""

from __future__ import annotations

import random
from typing import Any

from conftest import benchmark_script
from doublesix.bots.arena import play_game
from doublesix.rules.ruleset import preset


def test_each_search_spends_its_budget_pool_by_pool_and_plays_its_last_leader() -> None:
    clear_moves = benchmark_script("clear_moves")
    decisions: list[Any] = []
    bots = [clear_moves.Recorder(random.Random(s), 30.0, decisions) for s in range(2)]
    game = play_game(preset("draw", 2, target=30), 5, bots)
    assert game.finished
    assert len(decisions) > 5
    for d in decisions:
        shares = [spent for spent, _, _ in d.checkpoints]
        assert shares == sorted(shares) and shares[-1] >= 1.0 > shares[0]
        assert all(lead >= 0.0 for _, _, lead in d.checkpoints)
    # some searches find their move clear before their budget ends
    assert any(lead >= 2.0 for d in decisions for _, _, lead in d.checkpoints)
