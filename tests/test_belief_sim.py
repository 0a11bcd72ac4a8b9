"""``benchmarks/belief_sim.py``: weighing deals by the others' own search, replayed."""

from __future__ import annotations

import math
import sys

import pytest

from conftest import benchmark_script
from doublesix.bots import make_bot
from doublesix.bots.inference import infer
from doublesix.bots.sampler import Sample, choices
from doublesix.rules.game import Game
from doublesix.rules.ruleset import preset
from doublesix.rules.view import seat_view


def _mid_round(seed: int) -> tuple[Game, int]:
    """A Kozel round of ``greedy`` players, stopped at a decision with plays behind it."""
    rules = preset("kozel", target="round")
    game = Game(rules, seed=seed)
    bots = [make_bot("greedy", s) for s in range(4)]
    while len(game.round.events) < 12 or len(game.legal_moves()) < 2:
        assert game.round.ending is None
        me = game.round.turn
        game.play(bots[me].choose(seat_view(game, me)))
    return game, game.round.turn


@pytest.mark.parametrize("seed", [3, 4])
def test_the_true_deal_replays_every_seen_choice_when_the_players_are_simulated(seed: int) -> None:
    """``greedy`` is deterministic: simulated on the true deal, it makes every play it made."""
    simulated = benchmark_script("belief_sim").simulated
    game, me = _mid_round(seed)
    k = infer(seat_view(game, me))
    truth = list(game.round.hands)
    sample = Sample(hands=truth, bone=[], groups=[[h] for h in truth], log_weight=0.0)
    eps = 0.3
    counts = [playable.bit_count() for _, _, playable in choices(k, sample)]
    best = sum(math.log(eps / n + 1 - eps) for n in counts if n > 1)
    assert any(n > 1 for n in counts)
    assert simulated(game.ruleset, game, k, sample, "greedy", 1, eps) == pytest.approx(best)
    # the others' hands swapped round: the replay no longer makes every seen play
    others = [s for s in range(4) if s != me]
    swapped = list(truth)
    swapped[others[0]], swapped[others[1]] = truth[others[1]], truth[others[0]]
    other = Sample(hands=swapped, bone=[], groups=[[h] for h in swapped], log_weight=0.0)
    found = simulated(game.ruleset, game, k, other, "greedy", 1, eps)
    assert found is None or found < best


def test_a_run_prints_each_model_and_its_gain_on_the_network(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = benchmark_script("belief_sim")
    argv = ["belief_sim.py", "--rounds", "2", "--pool", "4", "--simulate", "greedy"]
    monkeypatch.setattr(sys, "argv", argv)
    script.main()
    out = capsys.readouterr().out
    assert out.startswith("kozel: 2 rounds of expert:30, ")
    rows = [line.split("|")[1].strip() for line in out.splitlines() if line.startswith("| ")]
    assert rows == [
        "model",
        "network",
        "simulation",
        "both",
        "simulation less network",
        "both less network",
    ]


def test_a_slack_outside_nought_to_one_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = benchmark_script("belief_sim")
    monkeypatch.setattr(sys, "argv", ["belief_sim.py", "--eps", "0"])
    with pytest.raises(SystemExit) as exit_:
        script.main()
    assert exit_.value.code == 2
    assert "--eps" in capsys.readouterr().err
