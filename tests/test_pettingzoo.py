"""doublesix as a PettingZoo environment: PettingZoo's own API test, masks, rewards, honesty."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test

from doublesix.pettingzoo import env
from doublesix.research.chance import ChanceGame


@pytest.mark.parametrize(
    ("preset", "players", "rounds"),
    [("kozel", 4, "game"), ("draw", 2, "game"), ("classic", 3, "one"), ("block", 4, "one")],
)
def test_api_test_of_pettingzoo_passes(preset: str, players: int, rounds: str) -> None:
    api_test(env(preset, players, rounds=rounds, target=40), num_cycles=300)


def test_masks_allow_the_legal_moves_only_and_rewards_add_up_to_the_game() -> None:
    table = env("kozel", target=60)
    table.reset(seed=3)
    totals = {agent: 0.0 for agent in table.possible_agents}
    rng = np.random.default_rng(0)
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, _ = table.last()
        totals[agent] += reward
        if terminated or truncated:
            table.step(None)
            continue
        mask = observation["action_mask"]
        assert sorted(np.flatnonzero(mask)) == table.unwrapped.table.legal_actions()
        for other in table.possible_agents:
            if other != agent:
                assert not table.observe(other)["action_mask"].any()
        with pytest.raises(ValueError, match="not legal"):
            table.step(int(np.flatnonzero(mask == 0)[0]))
        table.step(int(rng.choice(np.flatnonzero(mask))))
    game = table.unwrapped.table.game
    assert game.finished
    charged = [float(s) for s in game.scores]
    assert totals["seat_0"] == totals["seat_2"] == charged[1] - charged[0]


def _observation(seat: int, variant: int) -> np.ndarray:
    """``seat``'s observation at the first decision, the other hands dealt by ``variant``."""
    table = env("classic", 3, rounds="one")
    table.reset(seed=0)
    game = ChanceGame(table.unwrapped.ruleset, whole=False)
    size = table.unwrapped.ruleset.hand_size
    mine = list(range(seat * size, seat * size + size))
    others = [t for t in range(28) if t not in mine]
    random.Random(variant).shuffle(others)
    for t in (others[: seat * size] + mine + others[seat * size :])[:15]:
        game.apply(t)
    while game.need is not None:  # R21: the same lead draws in every variant
        game.apply(max(game.outcomes()))
    table.unwrapped.table = game
    table.unwrapped._select()
    observation: np.ndarray = table.observe(f"seat_{seat}")["observation"]
    return observation


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_observations_hold_nothing_of_the_hidden_tiles(seat: int) -> None:
    """Shuffling the other hands leaves the seat's observation as it was."""
    first = _observation(seat, 0)
    assert first.any()
    for variant in range(1, 4):
        assert np.array_equal(first, _observation(seat, variant))
