"""``benchmarks/arena_paired.py``: paired statistics of arena logs, and clear refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import BENCHMARKS, benchmark_script

ARENA = BENCHMARKS / "arena"


def test_a_log_gives_shares_and_margins_over_deals(capsys: pytest.CaptureFixture[str]) -> None:
    log = ARENA / "round-kozel-ismctsfit100-greedy-s20.jsonl"
    assert benchmark_script("arena_paired").main([str(log)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("kozel-4 ismcts-fit:100 vs greedy: 100 deals, 200 games;")
    assert "A's share" in out and "points a round" in out


def test_the_bots_are_named_as_they_are_now(capsys: pytest.CaptureFixture[str]) -> None:
    """``ismcts-net-read`` is ``expert`` now, the ``expert`` it played then ``ismcts-net``,
    and the ``expert`` that ``ismcts-net`` played before ``ismcts-fit``."""
    paired = benchmark_script("arena_paired")
    assert paired.main([str(ARENA / "kozel-netread30-expert30.jsonl")]) == 0
    assert capsys.readouterr().out.startswith("kozel-4 expert:30 vs ismcts-net:30: 200 deals")
    assert paired.main([str(ARENA / "kozel-net30-expert30.jsonl")]) == 0
    assert capsys.readouterr().out.startswith("kozel-4 ismcts-net:30 vs ismcts-fit:30: 200 deals")
    new, old = ARENA / "kozel-netread30-greedy.jsonl", ARENA / "kozel-net30-greedy.jsonl"
    assert paired.main(["--versus", str(new), str(old)]) == 0
    assert capsys.readouterr().out.startswith(
        "expert:30 instead of ismcts-net:30 against greedy, 200 deals: margin"
    )


def test_two_runs_on_the_same_deals_give_the_change_of_margin(
    capsys: pytest.CaptureFixture[str],
) -> None:
    new = ARENA / "round-kozel-ismctsstyle100-greedy-s20.jsonl"
    old = ARENA / "round-kozel-ismctsfit100-greedy-s20.jsonl"
    assert benchmark_script("arena_paired").main(["--versus", str(new), str(old)]) == 0
    assert capsys.readouterr().out.startswith(
        "ismcts-style:100 instead of ismcts-fit:100 against greedy, 100 deals: margin"
    )


def test_runs_on_other_deals_are_refused() -> None:
    new = ARENA / "round-kozel-ismctsfit100-greedy-s21.jsonl"
    old = ARENA / "round-kozel-ismctsfit100-greedy-s20.jsonl"
    with pytest.raises(SystemExit, match="differ in seed: not the same deals"):
        benchmark_script("arena_paired").main(["--versus", str(new), str(old)])


def test_what_is_not_a_log_is_named_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paired = benchmark_script("arena_paired")
    assert paired.main([str(tmp_path / "missing.jsonl")]) == 2
    assert "missing.jsonl: No such file or directory" in capsys.readouterr().err
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("not json\n")
    assert paired.main([str(garbage)]) == 2
    assert "not an arena log" in capsys.readouterr().err
    assert paired.main([]) == 2
    assert "--versus NEW.jsonl OLD.jsonl" in capsys.readouterr().err


def test_runs_on_other_seeds_are_pooled_deal_by_deal(capsys: pytest.CaptureFixture[str]) -> None:
    runs = [str(ARENA / f"round-kozel-ismctsfit100-greedy-s{seed}.jsonl") for seed in (20, 21)]
    paired = benchmark_script("arena_paired")
    assert paired.main(["--pool", *runs]) == 0
    assert capsys.readouterr().out.startswith(
        "kozel-4 ismcts-fit:100 vs greedy (2 runs): 400 deals, 800 games;"
    )


def test_the_same_deals_or_other_bots_are_not_pooled() -> None:
    paired = benchmark_script("arena_paired")
    run = str(ARENA / "round-kozel-ismctsfit100-greedy-s20.jsonl")
    with pytest.raises(SystemExit, match="share seed 20: the same deals"):
        paired.main(["--pool", run, run])
    other = str(ARENA / "round-kozel-ismctsstyle100-greedy-s20.jsonl")
    with pytest.raises(SystemExit, match="another game or other bots: not pooled"):
        paired.main(["--pool", run, other])
