"""doublesix in OpenSpiel: OpenSpiel's own checks, its ISMCTS, resampling and honesty."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from doublesix import Game, preset, seat_view
from doublesix.bots import make_bot
from doublesix.research.chance import ChanceGame, Need
from doublesix.research.openspiel import NAME, state_of
from doublesix.rules.record import game_record, replay
from doublesix.rules.ruleset import PRESETS

GAMES = [(name, n) for name, p in PRESETS.items() for n in p.players]


def load(name: str, players: int, rounds: str = "one", **more: Any) -> Any:
    return pyspiel.load_game(NAME, {"preset": name, "players": players, "rounds": rounds, **more})


def play_randomly(state: Any, rng: random.Random, stop: int = 10**9) -> Any:
    """Random outcomes and moves until the end or ``stop`` player moves."""
    moves = 0
    while not state.is_terminal() and moves < stop:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return state


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_random_sim_test_of_openspiel_passes_for_every_preset(name: str, players: int) -> None:
    """OpenSpiel's own invariants: clones, serialization, chance, rewards, bounds."""
    pyspiel.random_sim_test(load(name, players, "one"), num_sims=4, serialize=True, verbose=False)
    pyspiel.random_sim_test(load(name, players, "game"), num_sims=1, serialize=True, verbose=False)


def test_load_game_names_presets_players_and_rounds() -> None:
    game = load("kozel", 4, "game")
    assert game.num_players() == 4
    assert game.num_distinct_actions() == 84
    assert game.max_chance_outcomes() == 28
    assert pyspiel.load_game(NAME).num_players() == 4  # kozel by default
    assert pyspiel.load_game(NAME, {"preset": "international-2"}).num_players() == 2
    with pytest.raises(ValueError, match="R12"):
        load("kozel", 3)
    with pytest.raises(ValueError, match="rounds"):
        load("draw", 2, "three")


def test_chance_nodes_deal_one_tile_at_a_time_and_each_draw() -> None:
    state = load("draw", 2).new_initial_state()
    for dealt in range(14):
        assert state.is_chance_node()
        assert len(state.chance_outcomes()) == 28 - dealt
        state.apply_action(state.chance_outcomes()[0][0])
    rng = random.Random(3)
    draws = 0
    while not state.is_terminal():
        if state.is_chance_node():
            assert state.table.need is Need.DRAW
            outcomes = state.chance_outcomes()
            assert len(outcomes) == 14 - draws
            assert all(p == pytest.approx(1 / len(outcomes)) for _, p in outcomes)
            draws += 1
            state.apply_action(rng.choice(outcomes)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.table.game.round.drawn == draws


@pytest.mark.parametrize(("name", "players"), [("draw", 2), ("kozel", 4), ("classic", 3)])
def test_a_chance_game_is_the_engine_s_game(name: str, players: int) -> None:
    """Its record replays through the engine to the same scores."""
    rng = random.Random(7)
    table = ChanceGame(preset(name, players, target=60))
    while not table.over:
        table.apply(rng.choice(table.outcomes() or table.legal_actions()))
    assert table.game is not None
    record = game_record(table.game, [f"p{s}" for s in range(players)])
    assert replay(record).scores == table.game.scores


def test_returns_are_zero_sum_in_the_preset_s_points() -> None:
    rng = random.Random(5)
    for _ in range(20):
        state = play_randomly(load("kozel", 4).new_initial_state(), rng)
        returns = state.returns()
        result = state.table.game.rounds[0].result
        charge = [p + d for p, d in zip(result.points, result.dropped, strict=True)]
        assert returns == [charge[1] - charge[0], charge[0] - charge[1]] * 2  # charged pair < 0
        state = play_randomly(load("draw", 3).new_initial_state(), rng)
        points = state.table.game.rounds[0].result.points
        assert sum(state.returns()) == pytest.approx(0)
        assert state.returns()[0] == pytest.approx(points[0] - (points[1] + points[2]) / 2)


@pytest.mark.parametrize(("name", "players"), [("kozel", 4), ("draw", 2), ("vog-talon", 3)])
def test_ismcts_of_openspiel_plays_whole_games(name: str, players: int) -> None:
    game = load(name, players, "game", target=40)
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, rng), 20.0, max_simulations=8, random_state=rng
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            state.apply_action(bot.step(state))  # resamples, and checks the infostate each time
    assert state.table.game.finished
    assert sum(state.returns()) == pytest.approx(0)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_resampled_states_keep_the_infostate_and_change_hidden_tiles(
    name: str, players: int
) -> None:
    rng = random.Random(11)
    game = load(name, players, "game", target=50)
    changed = checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            state = play_randomly(state, rng, stop=rng.randint(1, 12))
            if state.is_terminal():
                break
            if state.is_chance_node():
                continue
            seat = rng.randrange(players)
            other = state.resample_from_infostate(seat, rng.random)
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.observation_string(seat) == state.observation_string(seat)
            assert other.observation_tensor(seat) == state.observation_tensor(seat)
            assert other.current_player() == state.current_player()
            if seat == state.current_player():
                assert other.legal_actions() == state.legal_actions()
            prefix = len(state.table.round_snapshot.history)
            assert other.history()[:prefix] == state.history()[:prefix]
            changed += other.table.game.round.hands != state.table.game.round.hands
            checked += 1
    assert checked >= 3
    assert changed  # the hidden tiles are drawn afresh, not copied


def _first_decision(rules_name: str, players: int, seat: int, rng: random.Random) -> Any:
    """A game at the first decision, every hand but ``seat``'s dealt by ``rng``."""
    game = load(rules_name, players)
    size = game.ruleset.hand_size
    mine = list(range(seat * size, seat * size + size))  # the same tiles for the seat
    others = [t for t in range(28) if t not in mine]
    rng.shuffle(others)
    order = others[: seat * size] + mine + others[seat * size :]
    state = game.new_initial_state()
    for t in order[: game.ruleset.dealt]:
        state.apply_action(t)
    leads = iter(range(27, -1, -1))  # R21: the same lead draws every time
    while state.is_chance_node():
        outcomes = [t for t, _ in state.chance_outcomes()]
        state.apply_action(next(t for t in leads if t in outcomes))
    return state


@pytest.mark.parametrize(("name", "players"), [("classic", 2), ("classic", 3), ("classic", 4)])
def test_observations_hold_nothing_of_the_hidden_tiles(name: str, players: int) -> None:
    """Shuffling the hidden tiles changes no observation, infostate or resample of a seat."""
    for seat in range(players):
        seen = set()
        hidden = set()
        for variant in range(4):
            state = _first_decision(name, players, seat, random.Random(variant))
            hidden.add(tuple(state.table.game.round.hands))
            fixed = random.Random(99)
            resampled = state.resample_from_infostate(seat, fixed.random)
            seen.add(
                (
                    state.observation_string(seat),
                    tuple(state.observation_tensor(seat)),
                    state.information_state_string(seat),
                    tuple(resampled.history()),
                )
            )
        assert len(hidden) == 4
        assert len(seen) == 1


def test_state_of_a_game_replays_it() -> None:
    rules = preset("draw", 2)
    game = Game(rules, seed=5)
    bots = [make_bot("greedy", s) for s in range(2)]
    moves = 0
    while not game.finished:
        if game.turn is None:
            game.next_round()
            continue
        game.play(bots[game.turn].choose(seat_view(game, game.turn)))
        moves += 1
        if moves % 7 == 0 or game.finished:
            state = state_of(game)
            for s in range(2):
                assert seat_view(state.table.game, s) == seat_view(game, s)
    assert moves > 7
