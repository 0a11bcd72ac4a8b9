"""The arena: duplicate seatings, statistics math, the CLI commands arena and review."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from doublesix.bots.arena import ArenaResult, elo, run_arena, seatings, summary, wilson
from doublesix.bots.arena_log import (
    PACKAGE,
    ArenaLog,
    ArenaLogError,
    code_fingerprint,
    run_header,
    source_files,
)
from doublesix.bots.base import BUDGETS, Bot, budget_of, make_bot, parse_spec
from doublesix.cli import main
from doublesix.rules import record
from doublesix.rules.moves import Move
from doublesix.rules.ruleset import preset
from doublesix.rules.view import SeatView

# --- statistics ---------------------------------------------------------------------


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3)
    assert hi == pytest.approx(0.5962, abs=1e-3)
    lo, hi = wilson(100, 100)
    assert hi == 1.0
    assert lo == pytest.approx(0.9630, abs=1e-3)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_contains_the_rate_and_narrows() -> None:
    for wins, n in [(3, 10), (30, 100), (300, 1000)]:
        lo, hi = wilson(wins, n)
        assert lo < wins / n < hi
    assert wilson(300, 1000)[1] - wilson(300, 1000)[0] < wilson(30, 100)[1] - wilson(30, 100)[0]


def test_elo_difference() -> None:
    assert elo(0.5, 100) == 0.0
    assert elo(0.75, 100) == pytest.approx(400 * math.log10(3))
    assert elo(0.25, 100) == pytest.approx(-400 * math.log10(3))
    assert math.isfinite(elo(1.0, 100)) and elo(1.0, 100) > 0  # clamped half a game from 100%
    assert elo(1.0, 100) == pytest.approx(400 * math.log10(0.995 / 0.005))


def test_result_counts_draws_as_halves() -> None:
    r = ArenaResult("draw", 2, ("a", "b"), games=10, a_wins=6, b_wins=2, draws=2)
    assert r.a_win_rate == pytest.approx(0.7)
    d = r.as_dict()
    for key in ("games", "a_wins", "b_wins", "draws", "a_win_rate", "ci95", "elo"):
        assert key in d
    assert "ms_per_move_mean" in d and "ms_per_move_max" in d
    assert len(d["ci95"]) == 2


# --- seatings -------------------------------------------------------------------------


def test_seatings_swap_hands_between_sides() -> None:
    assert seatings(preset("draw", 2)) == [(0, 1), (1, 0)]
    assert seatings(preset("kozel")) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert seatings(preset("block", 4)) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    three = seatings(preset("draw", 3))
    assert len(three) == 6 and len(set(three)) == 6
    for seat in range(3):  # each bot sits at each seat equally often
        assert sum(s[seat] == 0 for s in three) == 3


def test_same_bots_play_an_even_match_on_duplicate_deals() -> None:
    r = run_arena(preset("draw", 2, target=30), "greedy", "greedy", 20, seed=4)
    assert r.games == 20
    assert r.a_wins + r.b_wins + r.draws == 20
    # greedy against itself on duplicate deals: each deal's two games mirror each other
    assert r.a_wins == r.b_wins


def test_arena_is_reproducible_and_times_moves() -> None:
    rules = preset("kozel", target=30)
    one = run_arena(rules, "medium", "greedy", 4, seed=2)
    two = run_arena(rules, "medium", "greedy", 4, seed=2)
    assert (one.a_wins, one.b_wins, one.rounds) == (two.a_wins, two.b_wins, two.rounds)
    assert one.timing[0].moves > 0 and one.timing[1].moves > 0
    assert "medium win rate" in summary(one)


def test_arena_runs_every_seating_of_three() -> None:
    r = run_arena(preset("block", 3, target=20), "random", "greedy", 1, seed=1)
    assert r.games == 6


def test_arena_with_the_omniscient_bot() -> None:
    r = run_arena(preset("draw", 2, target=20), "omniscient", "greedy", 2, ms_per_move=3)
    assert r.games == 2


class _Recorder:
    """Wraps a bot and notes the budget it had at each decision."""

    def __init__(self, bot: Bot, seen: dict[str, set[float]], spec: str) -> None:
        self.bot = bot
        self.name = bot.name
        self.seen = seen.setdefault(spec, set())

    @property
    def ms_per_move(self) -> float:
        return float(self.bot.ms_per_move)  # type: ignore[attr-defined]

    @ms_per_move.setter
    def ms_per_move(self, ms: float) -> None:
        self.bot.ms_per_move = ms  # type: ignore[attr-defined]

    def choose(self, view: SeatView) -> Move:
        if hasattr(self.bot, "ms_per_move"):
            self.seen.add(self.ms_per_move)
        return self.bot.choose(view)


def test_each_side_plays_with_its_own_budget() -> None:
    seen: dict[str, set[float]] = {}

    def make(spec: str, seed: int) -> Bot:
        return _Recorder(make_bot(spec, seed), seen, spec)

    rules = preset("draw", 2, target=20)
    r = run_arena(rules, "expert:4", "expert", 2, seed=3, ms_per_move=2, make=make)
    assert seen == {"expert:4": {4.0}, "expert": {2.0}}
    assert r.budgets == (4.0, 2.0)
    assert r.as_dict()["budgets"] == [4.0, 2.0]
    assert "budget per move: expert:4 4 ms, expert 2 ms" in summary(r)
    seen.clear()
    r = run_arena(rules, "pimc:3", "greedy", 2, seed=3, make=make)
    assert seen == {"pimc:3": {3.0}, "greedy": set()} and r.budgets == (3.0, None)
    r = run_arena(rules, "pimc", "expert", 2, seed=3, make=make)  # the levels' defaults
    assert r.budgets == (BUDGETS["pimc"], BUDGETS["expert"])


def test_a_budget_given_with_the_bot_plays_the_same_games_as_the_runs_budget() -> None:
    rules = preset("draw", 2, target=20)
    one = run_arena(rules, "expert:3", "pimc:3", 4, seed=6)
    two = run_arena(rules, "expert", "pimc", 4, seed=6, ms_per_move=3)
    assert _games(one) | {"bots": None} == _games(two) | {"bots": None}
    assert ArenaResult.from_json(json.loads(json.dumps(one.to_json()))) == one


def test_bot_specs_name_a_level_and_its_budget() -> None:
    assert parse_spec("expert:300") == ("expert", 300.0)
    assert parse_spec("greedy") == ("greedy", None)
    assert budget_of("expert:30", 100) == 30.0
    assert budget_of("expert", 100) == 100.0
    assert budget_of("expert") == BUDGETS["expert"]
    assert budget_of("medium", 100) is None
    assert make_bot("pimc:7").ms_per_move == 7.0  # type: ignore[attr-defined]
    assert make_bot("pimc").ms_per_move == BUDGETS["pimc"]  # type: ignore[attr-defined]
    for bad, reason in [
        ("greedy:30", "does not search"),
        ("expert:fast", "not a number"),
        ("expert:0", "positive"),
        ("expert:nan", "positive"),
        ("wizard:30", "no bot"),
    ]:
        with pytest.raises(ValueError, match=reason):
            make_bot(bad)


def _games(result: ArenaResult) -> dict[str, object]:
    """A result without its CPU times (which differ from run to run)."""
    data = result.to_json()
    del data["timing"]
    return data


def test_result_round_trips_through_json() -> None:
    r = run_arena(preset("kozel", target=30), "medium", "greedy", 4, seed=3)
    back = ArenaResult.from_json(json.loads(json.dumps(r.to_json())))
    assert back == r


def test_worker_processes_play_the_same_games() -> None:
    rules = preset("draw", 2, target=40)
    one = run_arena(rules, "medium", "greedy", 12, seed=5)
    two = run_arena(rules, "medium", "greedy", 12, seed=5, jobs=2)
    assert _games(two) == _games(one)
    assert two.timing[0].moves == one.timing[0].moves


def test_a_logged_run_resumes_to_the_uninterrupted_result(tmp_path: Path) -> None:
    rules = preset("kozel", target=40)
    header = run_header(rules, ("medium", "greedy"), 8, None)
    whole = run_arena(rules, "medium", "greedy", 8, seed=8)

    path = tmp_path / "run.jsonl"
    first = ArenaLog(path, header)
    run_arena(rules, "medium", "greedy", 4, seed=8, done=first.deals, on_deal=first.append)
    with path.open("a") as out:  # a deal cut short by a kill
        out.write('{"deal": 2, "res')
    second = ArenaLog(path, header)
    assert sorted(second.deals) == [0, 1]
    played: list[int] = []

    def keep(deal: int, part: ArenaResult) -> None:
        played.append(deal)
        second.append(deal, part)

    resumed = run_arena(rules, "medium", "greedy", 8, seed=8, done=second.deals, on_deal=keep)
    assert played == [2, 3]
    assert _games(resumed) == _games(whole)
    assert sorted(ArenaLog(path, header).deals) == [0, 1, 2, 3]


def test_a_log_of_another_run_is_refused(tmp_path: Path) -> None:
    rules = preset("kozel", target=40)
    path = tmp_path / "run.jsonl"
    ArenaLog(path, run_header(rules, ("medium", "greedy"), 8, None))
    with pytest.raises(ArenaLogError, match="seed was 8, now 9"):
        ArenaLog(path, run_header(rules, ("medium", "greedy"), 9, None))
    other = dict(run_header(rules, ("medium", "greedy"), 8, None), code="0" * 16)
    with pytest.raises(ArenaLogError, match="the rules or bots changed"):
        ArenaLog(path, other)
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("not json\n")
    with pytest.raises(ArenaLogError, match="line 1 is not JSON"):
        ArenaLog(garbage, run_header(rules, ("medium", "greedy"), 8, None))


def test_the_fingerprint_covers_the_arena_the_rules_and_the_two_bots_only() -> None:
    def files(bots: tuple[str, str]) -> set[str]:
        return {path.relative_to(PACKAGE).as_posix() for path in source_files(bots)}

    expert, pimc = files(("expert", "greedy")), files(("pimc", "greedy"))
    shared = {"bots/arena.py", "bots/simple.py", "bots/sampler.py", "rules/round.py", "tiles.py"}
    assert shared <= expert & pimc
    assert "bots/expert.py" in expert and "bots/expert.py" not in pimc
    assert "bots/omniscient.py" in files(("omniscient", "pimc")) - expert
    for unused in ("bots/__init__.py", "bots/arena_log.py", "bots/hint.py", "rules/record.py"):
        assert unused not in expert | pimc
    assert code_fingerprint(("expert", "greedy")) != code_fingerprint(("pimc", "greedy"))
    assert code_fingerprint(("pimc", "greedy")) == code_fingerprint(["pimc", "greedy"])


def test_the_fingerprint_covers_the_c_core_of_the_bots_that_load_it() -> None:
    def files(bots: tuple[str, str]) -> set[str]:
        return {path.relative_to(PACKAGE).as_posix() for path in source_files(bots)}

    tree = files(("ismcts-fit", "greedy"))
    assert {"bots/native.py", "bots/_native.pyi", "bots/c/tree.c", "bots/c/seen.c"} <= tree
    assert "bots/__init__.py" not in tree
    assert "bots/c/tree.c" not in files(("pimc", "greedy"))


# --- command line ---------------------------------------------------------------------


def test_arena_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "arena",
            "--preset",
            "draw",
            "--players",
            "2",
            "--bots",
            "expert,greedy",
            "--games",
            "2",
            "--target",
            "20",
            "--ms-per-move",
            "3",
            "--json",
        ]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2
    for key in (
        "a_wins",
        "b_wins",
        "draws",
        "a_win_rate",
        "ci95",
        "elo",
        "ms_per_move_mean",
        "ms_per_move_max",
    ):
        assert key in data


def test_arena_command_log_and_jobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "run.jsonl"
    argv = ["arena", "--preset", "kozel", "--target", "30", "--bots", "medium,greedy"]
    argv += ["--games", "4", "--json", "--log", str(log)]
    assert main([*argv, "--jobs", "2"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["games"] == 4 and len(log.read_text().splitlines()) == 3
    assert main(argv) == 0  # every deal is in the log: nothing is played again
    assert json.loads(capsys.readouterr().out) == first
    assert main([*argv, "--seed", "2"]) == 2
    assert "seed was 1, now 2" in capsys.readouterr().err


def test_arena_command_budgets_per_bot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "run.jsonl"
    argv = ["arena", "--preset", "draw", "--players", "2", "--target", "20", "--games", "2"]
    argv += ["--json", "--log", str(log)]
    assert main([*argv, "--bots", "expert:3,expert:1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["bots"] == ["expert:3", "expert:1"] and data["budgets"] == [3.0, 1.0]
    header = json.loads(log.read_text().splitlines()[0])
    assert header["bots"] == ["expert:3", "expert:1"]
    deal = json.loads(log.read_text().splitlines()[1])
    assert deal["result"]["budgets"] == [3.0, 1.0]
    assert main([*argv, "--bots", "expert:3,expert:2"]) == 2
    assert 'bots was ["expert:3", "expert:1"]' in capsys.readouterr().err


def test_arena_command_text(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--preset", "kozel", "--bots", "medium,random", "--games", "2"])
    assert code == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "95% CI" in out and "Elo" in out and "ms per move" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["arena", "--preset", "kozel", "--bots", "medium"],
        ["arena", "--preset", "kozel", "--bots", "medium,wizard"],
        ["arena", "--preset", "kozel", "--bots", "medium,greedy", "--games", "0"],
        ["arena", "--preset", "kozel", "--bots", "medium,greedy", "--ms-per-move", "-1"],
        ["arena", "--preset", "kozel", "--players", "3", "--bots", "medium,greedy"],
        ["arena", "--preset", "kozel", "--bots", "medium,greedy", "--jobs", "0"],
        ["arena", "--preset", "kozel", "--bots", "medium:30,greedy"],
        ["arena", "--preset", "kozel", "--bots", "expert:0,greedy"],
    ],
)
def test_arena_command_refuses_bad_options(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert "error" in capsys.readouterr().err


def _record_file(tmp_path: Path) -> Path:
    from doublesix.bots import make_bot
    from doublesix.bots.arena import play_game

    rules = preset("draw", 2, target=15)
    bots = [make_bot("greedy", 1), make_bot("random", 2)]
    game = play_game(rules, 9, bots)
    path = tmp_path / "game.json"
    path.write_text(record.dumps(record.game_record(game, ["greedy", "random"])))
    return path


def test_review_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record_file(tmp_path)
    assert main(["review", str(path), "--seat", "1", "--ms", "3"]) == 0
    out = capsys.readouterr().out
    assert "review of seat 1" in out
    assert "moves" in out
    assert main(["review", str(path), "--seat", "0", "--ms", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["seat"] == 0 and data["moves"]
    for row in data["moves"]:
        assert row["loss"] >= 0
        if row["played"] == row["best"]:
            assert row["loss"] == 0


def test_review_command_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _record_file(tmp_path)
    assert main(["review", str(path), "--seat", "5"]) == 2
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "doublesix/1"}')
    assert main(["review", str(bad)]) == 1
    assert main(["review", str(tmp_path / "missing.json")]) == 1
    assert "error" in capsys.readouterr().err
