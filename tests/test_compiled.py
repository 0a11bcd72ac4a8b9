"""The bots' search core runs compiled (mypyc, ``setup.py``), from its present sources,
and plays exactly the games of the pure-Python core: budgets are counted in work, so a
faster core changes how long a move takes, never which move it is."""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from doublesix.bots import make_bot
from doublesix.bots.arena import configure, play_game
from doublesix.rules.record import game_record
from doublesix.rules.ruleset import preset

ROOT = Path(__file__).resolve().parents[1]

GAMES = """
import importlib, json, sys
from doublesix.bots import make_bot
from doublesix.bots.arena import configure, play_game
from doublesix.rules.record import game_record
from doublesix.rules.ruleset import preset
import doublesix.bots.search
# a pure decision takes some twenty times its budget: its safety stop, in CPU time, must not
# end one early on a busy machine (it decides nothing in the compiled run)
for module in ("pimc", "expert", "ismcts"):
    setattr(importlib.import_module("doublesix.bots." + module), "SAFETY_S", float("inf"))
print(json.dumps({"search": doublesix.bots.search.__file__, "games": [
    game_record(play_game(preset(p, n), 3, [configure(make_bot(b, 7 + s), 10.0)
        for s, b in enumerate(bots)]), [str(s) for s in range(len(bots))])
    for p, n, bots in json.loads(sys.argv[1])]}))
"""
"""Plays the games of ``MATCHES`` and prints their records (run in a pure-Python copy, whose
searches the CPU-time safety stop may not cut short, as it never does the compiled core's)."""

MATCHES = [
    ("draw", 2, ["expert", "expert-2026"]),
    ("kozel", 4, ["ismcts-fit", "expert-2026", "ismcts-fit", "expert-2026"]),
]


def core_modules() -> list[str]:
    """The modules ``setup.py`` compiles, as module names."""
    for node in ast.parse((ROOT / "setup.py").read_text()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "CORE":
            paths = ast.literal_eval(node.value)
            return [p.removeprefix("src/").removesuffix(".py").replace("/", ".") for p in paths]
    raise AssertionError("setup.py names no CORE")


def test_the_search_core_is_compiled_from_its_present_sources() -> None:
    modules = core_modules()
    assert "doublesix.bots.search" in modules
    for name in modules:
        path = Path(importlib.import_module(name).__file__ or "")
        assert path.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), (
            f"{name} runs uncompiled ({path.name}): `make install` compiles it"
        )
        source = path.parent / (name.rsplit(".", 1)[1] + ".py")
        assert path.stat().st_mtime >= source.stat().st_mtime, (
            f"{name} was compiled before its source last changed: `make install` recompiles it"
        )


def test_the_compiled_core_plays_the_games_of_the_pure_one(tmp_path: Path) -> None:
    shutil.copytree(
        ROOT / "src" / "doublesix",
        tmp_path / "doublesix",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", GAMES, json.dumps(MATCHES)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    pure = json.loads(out.stdout)
    assert pure["search"].endswith("search.py")
    compiled = [
        game_record(
            play_game(
                preset(p, n),
                3,
                [configure(make_bot(b, 7 + s), 10.0) for s, b in enumerate(bots)],
            ),
            [str(s) for s in range(len(bots))],
        )
        for p, n, bots in MATCHES
    ]
    assert json.loads(json.dumps(compiled)) == pure["games"]
