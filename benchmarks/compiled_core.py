"""The compiled search core against the pure-Python one: the same games, side by side.

    python benchmarks/compiled_core.py [--bots expert-2026,ismcts-fit] [--ms 100] [--deals 3]
    python benchmarks/compiled_core.py --base OTHER/src   # another checkout's core, compiled

Each bot plays ``--deals`` arena deals against ``greedy`` (Kozel and Draw-2)
twice, once importing the core compiled by mypyc (``setup.py``) and once from
a copy of the sources without the compiled modules, the two runs of a deal one
after the other. Budgets are counted in work, so both play the same moves (the
script checks it on the games' records); what differs is the CPU time of a
decision with a choice. It prints, per bot and game, the decisions, the median
over deals of the mean ms a decision, pure and compiled, and their ratio.
With ``--base`` the first of the two runs imports another checkout's sources
(as they are, compiled or not) instead of the pure copy: the ratio is then
what a change of the core gained, on the same moves.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PRESETS = {"kozel": ("kozel", 4), "draw-2": ("draw", 2)}

DEAL = """
import hashlib, json, sys
from doublesix.bots.arena import deal_seed, play_deal
from doublesix.rules.ruleset import preset
import doublesix.bots.search
bot, name, players, deal, ms = sys.argv[1:]
r = play_deal(preset(name, int(players)), bot, "greedy", deal_seed(1, int(deal)), float(ms))
games = [r.a_wins, r.b_wins, r.rounds, r.a_points, r.b_points, r.timing[0].choices]
print(json.dumps({"core": doublesix.bots.search.__file__.rsplit(".", 1)[-1],
    "games": hashlib.sha1(json.dumps(games).encode()).hexdigest(),
    "choices": r.timing[0].choices, "seconds": r.timing[0].choice_total}))
"""
"""One deal of ``bot`` against ``greedy``: its decisions with a choice and their CPU time."""


def run(path: Path | None, bot: str, game: str, deal: int, ms: float) -> dict[str, object]:
    name, players = PRESETS[game]
    env = None if path is None else {"PYTHONPATH": str(path), "PATH": ""}
    out = subprocess.run(
        [sys.executable, "-c", DEAL, bot, name, str(players), str(deal), str(ms)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="expert-2026,ismcts-fit")
    parser.add_argument("--ms", type=float, default=100.0)
    parser.add_argument("--deals", type=int, default=3)
    parser.add_argument("--base", type=Path, help="a src directory to compare with instead")
    args = parser.parse_args()
    if args.base is not None and not (args.base / "doublesix" / "bots").is_dir():
        parser.error(f"--base: {args.base} holds no doublesix package (give a checkout's src)")
    with tempfile.TemporaryDirectory() as tmp:
        pure = args.base or Path(tmp)
        if args.base is None:
            shutil.copytree(
                ROOT / "src" / "doublesix",
                pure / "doublesix",
                ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
            )
        print(f"{args.ms:g} ms a move (in work units), against greedy, {args.deals} deals each")
        first = "pure" if args.base is None else "base"
        print(f"bot          game    decisions  {first} ms  compiled ms  ratio (median over deals)")
        for bot in args.bots.split(","):
            for game in PRESETS:
                choices = 0
                pure_ms: list[float] = []
                fast_ms: list[float] = []
                for deal in range(args.deals):
                    slow = run(pure, bot, game, deal, args.ms)
                    fast = run(None, bot, game, deal, args.ms)
                    assert fast["core"] == "so", fast
                    assert args.base or slow["core"] == "py", slow
                    if slow["games"] != fast["games"]:
                        sys.exit(
                            f"{bot} {game} deal {deal}: the two cores played other games (a"
                            " decision past the 0.95 s safety stop ends by the clock: a smaller"
                            " --ms keeps the slower core under it)"
                        )
                    n = int(str(fast["choices"]))
                    choices += n
                    pure_ms.append(1000 * float(str(slow["seconds"])) / n)
                    fast_ms.append(1000 * float(str(fast["seconds"])) / n)
                ratios = [p / f for p, f in zip(pure_ms, fast_ms, strict=True)]
                print(
                    f"{bot:12} {game:7} {choices:9}  {statistics.median(pure_ms):7.1f}  "
                    f"{statistics.median(fast_ms):11.1f}  {statistics.median(ratios):5.2f} "
                    f"({min(ratios):.2f}-{max(ratios):.2f})"
                )
        print("every deal: the same games with either core")


if __name__ == "__main__":
    main()
