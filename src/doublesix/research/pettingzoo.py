"""doublesix as a PettingZoo AEC environment: ``env(preset="kozel", players=4)``.

Agents are ``seat_0`` … ``seat_{n-1}``; the agent to act is the seat to
move. An action is ``3 * tile index + end`` (end 0 left, 1 right, 2 the
round's first tile: 84 in all), and each observation is a dict of
``observation`` (the seat's view as numbers: ``doublesix.research.observation``)
and ``action_mask`` (1 for each legal action of the seat, all 0 when it is
not its turn). Chance (the deal, R21's lead draws, each tile drawn from
the boneyard) is drawn from the environment's seeded generator, and the
rules are the engine's (``doublesix.research.chance``).

``rounds="game"`` (default) plays rounds until the target decides;
``rounds="one"`` a single round. Rewards are the change of the zero-sum
returns of ``doublesix.research.openspiel`` (a round's points when it is
scored: the winning side ``+p``, the other ``−p``; Kozel's charged pair
``−charge``). A game still running after ``max_rounds`` rounds is
truncated.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from doublesix.research import observation
from doublesix.research.chance import NUM_ACTIONS, ChanceGame
from doublesix.research.returns import returns
from doublesix.rules.ruleset import Ruleset, preset
from doublesix.rules.view import seat_view

_HIGH = 10_000.0
"""Upper bound of every observed number (counts, scores)."""


def env(
    preset: str = "kozel",
    players: int | None = None,
    rounds: str = "game",
    target: int | None = None,
    max_rounds: int = 100,
    render_mode: str | None = None,
) -> DoublesixEnv:
    """The environment of a preset (``doublesix.PRESETS``) for ``players`` seats."""
    return DoublesixEnv(preset, players, rounds, target, max_rounds, render_mode)


class DoublesixEnv(AECEnv):  # type: ignore[misc]
    metadata: ClassVar[dict[str, Any]] = {
        "name": "doublesix_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset_name: str = "kozel",
        players: int | None = None,
        rounds: str = "game",
        target: int | None = None,
        max_rounds: int = 100,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if rounds not in ("one", "game"):
            raise ValueError(f"rounds: {rounds!r} is not 'one' or 'game'")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode: {render_mode!r}; only 'ansi'")
        options = {} if target is None else {"target": target}
        self.ruleset: Ruleset = preset(preset_name, players, **options)
        self.whole = rounds == "game"
        self.max_rounds = max_rounds if self.whole else 1
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{s}" for s in range(self.ruleset.players)]
        self._layout = observation.layout(self.ruleset)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, _HIGH, (self._layout.size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self.table = ChanceGame(self.ruleset, self.whole, self.max_rounds)
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or not hasattr(self, "agents"):
            self._rng = np.random.default_rng(seed)
        self.table = ChanceGame(self.ruleset, self.whole, self.max_rounds)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._chance()
        self._select()

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.possible_agents.index(agent)
        flat = np.zeros(self._layout.size, np.float32)
        game = self.table.game
        view = None if game is None else seat_view(game, seat)
        observation.encode(view, seat, self._layout.views(flat))
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if self.table.turn == seat:
            mask[self.table.legal_actions()] = 1
        return {"observation": flat, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or int(action) not in self.table.legal_actions():
            raise ValueError(f"{agent}: action {action} is not legal now (see the action mask)")
        before = returns(self.table)
        self.table.apply(int(action))
        self._chance()
        after = returns(self.table)
        self.rewards = {a: after[s] - before[s] for s, a in enumerate(self.possible_agents)}
        if self.table.over:
            finished = self.table.game is not None and self.table.game.finished
            ended = finished or not self.whole
            for a in self.agents:
                self.terminations[a] = ended
                self.truncations[a] = not ended
        self._cumulative_rewards[agent] = 0.0
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        game = self.table.game
        seat = self.table.turn
        if game is None or seat is None:
            return observation.history_text(game, None)
        return observation.observation_text(seat_view(game, seat), seat)

    def close(self) -> None:
        return None

    def _chance(self) -> None:
        """Draw every chance outcome until a seat is to move or the game is over."""
        table = self.table
        while table.need is not None:
            outcomes = table.outcomes()
            table.apply(outcomes[int(self._rng.integers(len(outcomes)))])

    def _select(self) -> None:
        turn = self.table.turn
        if turn is not None:
            self.agent_selection = self.possible_agents[turn]
        elif not hasattr(self, "agent_selection"):
            self.agent_selection = self.possible_agents[0]
