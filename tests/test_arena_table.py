"""The arena's tools read each log's bots under their present names, and the table's default
budgets are what ``benchmarks/choose_budgets.py`` chooses from the logs."""

from __future__ import annotations

import json

import pytest

from conftest import BENCHMARKS, benchmark_script
from doublesix.bots import BUDGETS

ARENA = BENCHMARKS / "arena"


def _levels(specs: list[str]) -> list[str]:
    return [spec.partition(":")[0] for spec in specs]


def test_the_renamed_bots_are_read_under_their_present_names() -> None:
    table = benchmark_script("arena_table")
    for old, new, logs in table.RENAMED:
        for stem in logs:
            path = ARENA / f"{stem}.jsonl"
            recorded = _levels(json.loads(path.read_text().splitlines()[0])["bots"])
            assert old in recorded, stem
            header, deals = table.played(path)
            sides = [i for i, level in enumerate(recorded) if level == old]
            assert all(_levels(header["bots"])[i] == new for i in sides), stem
            assert deals, stem
            assert all(_levels(list(d.bots))[i] == new for d in deals.values() for i in sides), stem
    assert table.as_named_now("kozel-expert-pimc", "expert") == "expert-2026"
    assert table.as_named_now("kozel-expert-pimc", "pimc") == "pimc"
    fit = "ismcts-fit:100"
    assert table.as_named_now("kozel-ismctsfit100-greedy-native", fit) == fit
    assert table.as_named_now("block4-ismctsfit100-greedy-native", fit) == fit
    assert table.as_named_now("kozel-expert30-greedy-tree", "expert:30") == "ismcts-fit:30"
    assert table.as_named_now("block4-expert30-greedy-tree", "expert:30") == "ismcts-fit:30"
    assert table.as_named_now("kozel-net30-expert30", "ismcts-net:30") == "ismcts-net:30"
    assert table.as_named_now("kozel-net30-expert30", "expert:30") == "ismcts-fit:30"
    assert table.as_named_now("kozel-netread30-expert30", "ismcts-net-read:30") == "expert:30"
    assert table.as_named_now("kozel-netread30-expert30", "expert:30") == "ismcts-net:30"
    assert table.as_named_now("draw2-expert300-expert30-net", "expert:300") == "ismcts-net:300"


def test_the_default_budgets_are_the_choice_of_the_arena_logs() -> None:
    module = benchmark_script("choose_budgets")
    _, choice = module.choose(sorted(ARENA.glob("*.jsonl")))
    assert choice == {level: BUDGETS[level] for level in choice}
    assert {"expert", "pimc"} <= set(choice)


def test_the_table_reads_every_log_and_leaves_out_the_variants_not_on_main(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = benchmark_script("arena_table")
    variants = [
        path for path in sorted(ARENA.glob("*.jsonl")) if not table.on_main(table.played(path)[0])
    ]
    assert variants  # the tried variants' logs (benchmarks/tried)
    monkeypatch.setattr("sys.argv", ["arena_table.py"])
    table.main()
    printed = capsys.readouterr().out
    assert printed.startswith(table.HEAD)
    for path in variants:
        a, b = table.bots_of(table.played(path)[0])
        assert f" {a} vs {b} " not in printed, path.stem
