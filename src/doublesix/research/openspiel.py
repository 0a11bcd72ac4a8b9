"""doublesix's games in OpenSpiel: ``pyspiel.load_game("python_doublesix", {...})``.

Importing this module registers the game. Parameters:

- ``preset``: any of ``doublesix.PRESETS`` (default ``"kozel"``);
- ``players``: a count the preset allows (default 0: the preset's own, 4 where it allows 4);
- ``rounds``: ``"game"`` (default) plays rounds until the target decides, ``"one"`` a single
  round;
- ``target``: the points that decide the game (default 0: the preset's, 100);
- ``max_rounds``: a game still running after this many rounds ends there (default 100), so
  that every game has a bounded length as OpenSpiel requires.

The state wraps the engine (``doublesix.research.chance.ChanceGame`` around
``Game``): chance nodes deal one tile at a time, draw the lead tiles of
R21 and decide each tile drawn from the boneyard when it is drawn; a
player's action is ``3 * tile index + end`` (end 0 left, 1 right, 2 the
round's first tile). The rules, the scoring and the end of the game are
the engine's.

Returns are zero-sum, in the preset's points: a seat gets its side's points
minus the mean of the other sides' points (two sides: ``+p`` and ``−p``);
where points are penalties (Kozel, goat) the signs turn, so the pair
charged gets ``−charge`` and the other ``+charge``. A whole game counts the
scores so far; a single round its points (Kozel: its charge, written or
dropped under R36's 13-rule). ``rewards()`` is the change of the returns
since the last player's action, that action included (a round's points
when it is scored).

Each seat has an observation (its hand, the line, counts, the boneyard,
known voids, scores: ``doublesix.research.observation``) and an information
state string with perfect recall (every round's events as the seat saw
them). ``resample_from_infostate`` draws the hidden tiles with the bots'
sampler (``doublesix.research.resample``), so OpenSpiel's ``ISMCTSBot`` can
search the games.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from doublesix.research import observation
from doublesix.research.chance import NUM_ACTIONS, ChanceGame, Need, move_of, replay_round
from doublesix.research.resample import resample
from doublesix.research.returns import returns
from doublesix.rules.game import Game
from doublesix.rules.ruleset import Ruleset, preset
from doublesix.rules.view import SeatView, seat_view
from doublesix.tiles import TILES, bits

NAME = "python_doublesix"
_MAX_REDEALS = 10
"""Deals thrown in (R13) allowed for in the declared longest game; more is astronomically rare."""

_GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="doublesix dominoes (Draw, Block, Kozel and more)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.REWARDS,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "preset": "kozel",
        "players": 0,
        "rounds": "game",
        "target": 0,
        "max_rounds": 100,
    },
)


def ruleset_of(params: dict[str, Any]) -> tuple[Ruleset, bool, int]:
    """The ruleset, whether a whole game is played, and the round limit of ``params``."""
    name = str(params.get("preset", "kozel"))
    players = int(params.get("players", 0))
    rounds = str(params.get("rounds", "game"))
    if rounds not in ("one", "game"):
        raise ValueError(f"rounds: {rounds!r} is not 'one' or 'game'")
    options: dict[str, Any] = {}
    if int(params.get("target", 0)):
        options["target"] = int(params["target"])
    max_rounds = int(params.get("max_rounds", 100))
    if max_rounds < 1:
        raise ValueError(f"max_rounds: {max_rounds}; at least 1")
    ruleset = preset(name, players or None, **options)
    return ruleset, rounds == "game", max_rounds if rounds == "game" else 1


def _bounds(ruleset: Ruleset, rounds: int) -> tuple[float, int]:
    """The largest return, and the longest game in actions, that ``rounds`` rounds allow."""
    round_points = sum(t.value for t in TILES) + ruleset.lone_zero_zero + ruleset.lone_six_six
    target = ruleset.target if isinstance(ruleset.target, int) else 0  # "round": R40
    most = float(round_points * rounds + (target if rounds > 1 else 0))
    per_round = ruleset.dealt * (1 + _MAX_REDEALS) + 2 * len(TILES) + len(TILES)
    return most, per_round * rounds


class DoublesixGame(pyspiel.Game):  # type: ignore[misc]
    """One doublesix ruleset as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.ruleset, self.whole, self.max_rounds = ruleset_of(params)
        most, longest = _bounds(self.ruleset, self.max_rounds)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=len(TILES),
            num_players=self.ruleset.players,
            min_utility=-most,
            max_utility=most,
            utility_sum=0.0,
            max_game_length=longest,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> DoublesixState:
        return DoublesixState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        if params:
            raise ValueError(f"observer parameters are not supported: {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return Observer(self.ruleset, iig_obs_type)


class _Shared:
    """A state kept by reference when states are copied (it is only ever cloned)."""

    def __init__(self, state: DoublesixState) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, object]) -> _Shared:
        return self


class DoublesixState(pyspiel.State):  # type: ignore[misc]
    """A position of a doublesix game; OpenSpiel copies it by deep-copying its attributes."""

    def __init__(self, game: DoublesixGame) -> None:
        super().__init__(game)
        self.table = ChanceGame(game.ruleset, game.whole, game.max_rounds)
        self._rewards = [0.0] * game.ruleset.players
        self._deal_start: _Shared | None = None
        self._round_start: _Shared | None = None
        """This state as it was where the current round's last deal began."""

    def current_player(self) -> int:
        table = self.table
        if table.over:
            return int(pyspiel.PlayerId.TERMINAL)
        if table.need is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert table.turn is not None
        return table.turn

    def _legal_actions(self, player: int) -> list[int]:
        return self.table.legal_actions() if player == self.table.turn else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outcomes = self.table.outcomes()
        return [(t, 1.0 / len(outcomes)) for t in outcomes]

    def _apply_action(self, action: int) -> None:
        table = self.table
        if table.need is Need.DEAL and table.dealing_starts:
            self._deal_start = _Shared(self.clone())
        before = self.returns()
        chance = table.need is not None
        rounds = len(table.game.rounds) if table.game is not None else 0
        table.apply(int(action))
        if table.game is not None and len(table.game.rounds) != rounds:
            self._round_start = self._deal_start
        change = [a - b for a, b in zip(self.returns(), before, strict=True)]
        if chance:  # chance outcomes add to the reward of the player's action before them
            change = [a + b for a, b in zip(self._rewards, change, strict=True)]
        self._rewards = change

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return str(TILES[action])
        return str(move_of(action))

    def is_terminal(self) -> bool:
        return self.table.over

    def returns(self) -> list[float]:
        return returns(self.table)

    def rewards(self) -> list[float]:
        return list(self._rewards)

    def __str__(self) -> str:
        """Everything, hidden tiles included (for debugging; observations hide them)."""
        game = self.table.game
        if game is None:
            return "dealing"
        rnd = game.round
        hands = " / ".join(" ".join(map(str, rnd.hand(s))) or "-" for s in range(rnd.players))
        return f"{observation.history_text(game, None)}\nhands {hands}"

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> DoublesixState:
        """A state ``player_id`` cannot tell from this one, its hidden tiles drawn afresh.

        ``probability_sampler`` (a call gives a number in [0, 1)) seeds the draw.
        Only where a seat is to move.
        """
        rng = random.Random(int(probability_sampler() * 2**53))
        world = resample(self.table, int(player_id), rng)
        start = self._round_start
        assert start is not None
        state = start.state.clone()
        for action in world.history[len(state.table.history) :]:
            state.apply_action(action)
        return state  # type: ignore[no-any-return]


def state_of(game: Game, max_rounds: int = 100) -> DoublesixState:
    """The OpenSpiel state of a doublesix game played so far (one of a preset's rulesets,
    its target changed or not): its deals, draws and plays replayed as actions."""
    ruleset = game.ruleset
    params = {
        "preset": ruleset.preset,
        "players": ruleset.players,
        "target": ruleset.target,
        "max_rounds": max_rounds,
    }
    spiel_game = pyspiel.load_game(NAME, params)
    if spiel_game.ruleset != ruleset:
        raise ValueError(f"the game's ruleset is not the {ruleset.preset} preset's")
    state: DoublesixState = spiel_game.new_initial_state()
    for number, current in enumerate(game.rounds, start=1):
        deals = [*(deal for deal, _ in current.redeals), current.deal]
        order = [t for deal in deals for hand in deal.hands for t in bits(hand)]
        lead = [t for _, t in game.lead_draws] if number == 1 else []
        drawn = current.deal.boneyard[: current.play.drawn]
        events = current.play.events
        if not replay_round(state.table, state.apply_action, order, lead, drawn, events, number):
            raise ValueError(f"round {number} does not replay")
    return state


class Observer:
    """OpenSpiel's observer: a tensor of named pieces and a string, for one seat."""

    def __init__(self, ruleset: Ruleset, iig_obs_type: Any) -> None:
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if not self.perfect_recall:
            shape = observation.layout(ruleset, self.private, self.public)
            self.tensor = np.zeros(shape.size, np.float32)
            self.dict = shape.views(self.tensor)

    def set_from(self, state: DoublesixState, player: int) -> None:
        observation.encode(_view(state, player), player, self.dict)

    def string_from(self, state: DoublesixState, player: int) -> str:
        game = state.table.game
        if self.perfect_recall:
            return f"seat {player}\n" + observation.history_text(
                game, player if self.private else None
            )
        return observation.observation_text(_view(state, player), player, self.private)


def _view(state: DoublesixState, player: int) -> SeatView | None:
    game = state.table.game
    return None if game is None else seat_view(game, player)


def register() -> None:
    """Register ``python_doublesix`` with ``pyspiel`` (done on import; harmless to repeat)."""
    if NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, DoublesixGame)


register()
