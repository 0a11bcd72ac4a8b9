"""Evaluating agents through the PettingZoo environment: greedy against random.

Usage: ``python benchmarks/pettingzoo_greedy.py --games 200 > benchmarks/pettingzoo_greedy.log``

Two agents that see only what the environment gives them: ``random``
picks any action its mask allows; ``greedy`` plays its heaviest playable
tile (tile indices follow R3's weight order, and an action is ``3 * tile +
end``, so the heaviest tile is the largest action // 3). They play whole
2-player Draw games to 100, each agent at each seat in turn, and the
script prints greedy's win rate with Wilson's 95% interval.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from doublesix.bots.arena import wilson
from doublesix.pettingzoo import env


def random_agent(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def greedy_agent(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    heaviest = legal[legal // 3 == legal.max() // 3]
    return int(rng.choice(heaviest))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    table = env("draw", 2)
    wins = 0.0
    for game in range(args.games):
        agents = [greedy_agent, random_agent] if game % 2 == 0 else [random_agent, greedy_agent]
        greedy = f"seat_{game % 2}"
        table.reset(seed=args.seed * 1_000_003 + game)
        totals = {agent: 0.0 for agent in table.agents}
        for agent in table.agent_iter():
            observation, reward, terminated, truncated, _ = table.last()
            totals[agent] += reward
            if terminated or truncated:
                table.step(None)
                continue
            seat = int(agent.split("_")[1])
            table.step(agents[seat](observation["action_mask"], rng))
        other = totals["seat_1" if greedy == "seat_0" else "seat_0"]
        wins += 1.0 if totals[greedy] > other else 0.5 if totals[greedy] == other else 0.0
    low, high = wilson(wins, args.games)
    print(f"python benchmarks/pettingzoo_greedy.py --games {args.games} --seed {args.seed}")
    print(
        f"draw, 2 players, whole games to 100: greedy won {wins:g} of {args.games} against random "
        f"({100 * wins / args.games:.1f}%, 95% interval {100 * low:.1f}–{100 * high:.1f}%)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
