"""``expert`` against OpenSpiel's information-set MCTS, on duplicate deals, at equal CPU time.

Usage (the README's figures)::

    nice -n 10 .venv/bin/python benchmarks/ismcts_arena.py --preset kozel --games 100 \
        --ms 30 --ismcts-ms 25 --jobs 1 --log benchmarks/arena/kozel-expertnet-ismcts.jsonl
    nice -n 10 .venv/bin/python benchmarks/ismcts_arena.py --preset draw --players 2 \
        --games 100 --ms 30 --ismcts-ms 25 --jobs 1 \
        --log benchmarks/arena/draw2-expertnet-ismcts.jsonl

The arena (``doublesix.bots.arena``) plays every deal in both seatings and
gives the win rate with Wilson's interval; ``--log`` keeps each deal and
resumes a stopped run (the header holds a fingerprint of the source).

OpenSpiel's ``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``) searches
``python_doublesix`` (a whole game to the preset's target) from the real
game's state, resampling the hidden tiles at every simulation with
``resample_from_infostate`` (so it never sees them). Its evaluator is a
uniformly random rollout to the end of the current round, valued by the
returns then (the zero-sum points of the game so far): rollouts through
the rounds after it would mostly measure deals nobody has seen. UCT's
constant is 20 points, the final move the most visited. Its number of
simulations follows its CPU time: after each search the rate of the last
searches sets how many fit in the budget, so that its mean CPU time per
decision is its budget (the arena prints both bots' mean). ``expert``
counts its budget in work: at its 30 ms it takes some 23 ms a decision on
the machine of the README's runs, so ISMCTS was given 25 ms
(``--ismcts-ms``). The runs of the experts before (``kozel-expert-ismcts-tree``,
``draw2-expert-ismcts-tree``: ``ismcts-fit`` at 30 ms against ISMCTS at 55 ms
on a slower machine; ``kozel-expert-ismcts``, ``draw2-expert-ismcts``: the
expert of 2026 at 100 ms against ISMCTS at 150 ms) replay from commit
77ec0df and from commit ea01e46's parent.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from doublesix.bots import make_bot
from doublesix.bots.arena import run_arena, summary
from doublesix.bots.arena_log import ArenaLog, code_fingerprint
from doublesix.bots.base import Bot, register
from doublesix.research import openspiel
from doublesix.research.chance import action_of, move_of
from doublesix.rules.game import Game
from doublesix.rules.moves import Move
from doublesix.rules.ruleset import preset
from doublesix.rules.view import SeatView

UCT_C = 20.0
FIRST_RATE = 0.3
"""Simulations per ms before the first search has been timed."""


class RoundRollout:
    """ISMCTS's evaluator: random play (and chance) to the end of the round, then the returns."""

    def __init__(self, rng: np.random.RandomState) -> None:
        self.rng = rng

    def evaluate(self, state: Any) -> Any:
        state = state.clone()
        rounds = _rounds(state)
        while not state.is_terminal() and _rounds(state) == rounds and not _between(state):
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[self.rng.randint(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[self.rng.randint(len(actions))])
        return np.array(state.returns())

    def prior(self, state: Any) -> list[tuple[int, float]]:
        actions = state.legal_actions()
        return [(a, 1.0 / len(actions)) for a in actions]


def _rounds(state: Any) -> int:
    game = state.table.game
    return 0 if game is None else len(game.rounds)


def _between(state: Any) -> bool:
    game = state.table.game
    return game is not None and game.round.ending is not None


class IsmctsPlayer:
    """A doublesix bot that moves by OpenSpiel's ISMCTS within a CPU budget per decision."""

    name = "ismcts"

    def __init__(self, seed: int, ms_per_move: float = 100.0) -> None:
        self.ms_per_move = ms_per_move
        self.rng = np.random.RandomState(seed % 2**32)
        self.resample_rng = random.Random(seed)
        self.rate = FIRST_RATE
        self.state: Any = None

    def see(self, game: Game) -> None:
        """The arena's hook: the game so far, replayed as an OpenSpiel state (not timed).

        The state holds the hidden tiles, but the search only ever sees it
        through ``resample_from_infostate``, which keeps nothing of them.
        """
        self.state = openspiel.state_of(game, max_rounds=300)

    def choose(self, view: SeatView) -> Move:
        state = self.state
        assert state is not None and state.current_player() == view.seat
        legal = state.legal_actions()
        if len(legal) == 1:
            return move_of(legal[0])
        simulations = max(4, int(self.rate * self.ms_per_move))
        bot = ismcts.ISMCTSBot(
            state.get_game(),
            RoundRollout(self.rng),
            UCT_C,
            simulations,
            random_state=self.rng,
        )
        bot.set_resampler(self._resample)
        start = time.process_time()
        action = bot.step(state)
        spent = max(1e-6, 1000 * (time.process_time() - start))
        self.rate = 0.7 * self.rate + 0.3 * simulations / spent
        move = move_of(int(action))
        assert action_of(move) in legal
        return move

    def _resample(self, state: Any, player: int) -> Any:
        return state.resample_from_infostate(player, self.resample_rng.random)


ISMCTS_MS: float | None = None
"""ISMCTS's CPU budget per decision (``--ismcts-ms``), when not the arena's budget."""


def make(name: str, seed: int) -> Bot:
    if name == "ismcts":
        return IsmctsPlayer(seed) if ISMCTS_MS is None else _Fixed(seed, ISMCTS_MS)
    return make_bot(name, seed)


register("ismcts", table=False)(lambda rng: IsmctsPlayer(rng.randrange(2**32)))
"""The arena knows bots by name; ``make`` builds this one (with ``--ismcts-ms``)."""


class _Fixed(IsmctsPlayer):
    """An ISMCTS player whose budget the arena does not set."""

    def __init__(self, seed: int, ms: float) -> None:
        super().__init__(seed, ms)
        self.fixed = ms

    def choose(self, view: SeatView) -> Move:
        self.ms_per_move = self.fixed
        return super().choose(view)


def source_fingerprint() -> str:
    """What the games depend on: expert and the arena, the OpenSpiel wrapper, this script."""
    digest = hashlib.sha256(code_fingerprint(["expert"]).encode())
    research = Path(openspiel.__file__).parent
    modules = ["chance.py", "observation.py", "openspiel.py", "resample.py", "returns.py"]
    for path in [*(research / m for m in modules), Path(__file__)]:
        digest.update(path.read_bytes())
    digest.update(pyspiel.__file__.encode())
    return digest.hexdigest()[:16]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="kozel")
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--ms", type=float, default=100.0, help="expert's budget per move, ms")
    parser.add_argument(
        "--ismcts-ms",
        type=float,
        help="ISMCTS's CPU ms per decision (default: --ms); set it to expert's measured mean",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--log", type=Path)
    args = parser.parse_args()
    global ISMCTS_MS
    ISMCTS_MS = args.ismcts_ms
    ruleset = preset(args.preset, args.players)
    log = None
    if args.log is not None:
        header = {
            "format": "doublesix-arena/1",
            "ruleset": ruleset.to_dict(),
            "bots": ["expert", "ismcts"],
            "seed": args.seed,
            "ms_per_move": args.ms,
            "ismcts_ms": args.ismcts_ms,
            "code": source_fingerprint(),
        }
        log = ArenaLog(args.log, header)
    result = run_arena(
        ruleset,
        "expert",
        "ismcts",
        args.games,
        args.seed,
        args.ms,
        make=make,
        jobs=args.jobs,
        done=log.deals if log is not None else None,
        on_deal=log.append if log is not None else None,
    )
    print(summary(result))
    print(json.dumps(result.as_dict()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
