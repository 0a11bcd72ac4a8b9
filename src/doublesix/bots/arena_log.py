"""A resumable arena run: one JSON line per played deal, after a header that names the run.

A measurement the issue asks for (hundreds of games at 300 ms a move) takes
hours of CPU. The log keeps every finished deal, so a run can stop and go on
later, in another process or on another day, and still give exactly the
result of one uninterrupted run: a deal's games depend only on its number
(``arena.deal_seed``). The header holds the ruleset, the bots, the seed, the
budget and a fingerprint of the source its games depend on, and a log is resumed
only by the same run of the same code; anything else is refused, naming what
differs.
"""

from __future__ import annotations

import ast
import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from doublesix.bots import arena, make_bot
from doublesix.bots.arena import ArenaResult
from doublesix.rules.ruleset import Ruleset

FORMAT = "doublesix-arena/1"
PACKAGE = Path(__file__).resolve().parent.parent
NATIVE = PACKAGE / "bots" / "native.py"
NATIVE_SOURCES = PACKAGE / "bots" / "c"


class ArenaLogError(ValueError):
    """A log that cannot be read, or that belongs to another run."""


def code_fingerprint(bots: Iterable[str]) -> str:
    """A hash of the source that decides how a run's games go.

    That is the arena and the modules of the run's two bots, with everything
    they import from doublesix (the rules, the tiles, shared search code), but
    not the bots' registry, which imports every bot: changing ``expert`` then
    voids the logs of the runs ``expert`` plays in, and not the yardsticks
    (``pimc`` against ``greedy``) it takes no part in.
    """
    digest = hashlib.sha256()
    for path in source_files(bots):
        digest.update(path.relative_to(PACKAGE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def source_files(bots: Iterable[str]) -> list[Path]:
    """The files ``code_fingerprint`` hashes, in order: with the bots' C core's own sources
    where a module loads it (``bots/native.py``)."""
    roots = {arena.__name__, *(type(make_bot(name)).__module__ for name in bots)}
    files = _closure(roots)
    if NATIVE in files:
        files |= set(NATIVE_SOURCES.iterdir())
    return sorted(files)


def _closure(modules: set[str]) -> set[Path]:
    """The source files of ``modules`` and of every doublesix module they import, transitively."""
    found: set[Path] = set()
    todo = [_source(module) for module in modules]
    while todo:
        path = todo.pop()
        if path in found:
            continue
        found.add(path)
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.Import):
                todo += [_source(a.name) for a in node.names if a.name.startswith("doublesix.")]
            elif (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.module.startswith("doublesix")
            ):
                for alias in node.names:  # ``from doublesix.bots import expert`` names a module
                    submodule = _source(f"{node.module}.{alias.name}")
                    stub = submodule.with_suffix(".pyi")  # the C core's (its sources: NATIVE)
                    if submodule.exists() or stub.exists():
                        todo.append(submodule if submodule.exists() else stub)
                    else:
                        todo.append(_source(node.module))
    return found


def _source(module: str) -> Path:
    """The file of a doublesix module (a package's ``__init__.py``)."""
    path = PACKAGE.joinpath(*module.split(".")[1:])
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def run_header(
    ruleset: Ruleset, bots: tuple[str, str], seed: int, ms_per_move: float | None
) -> dict[str, Any]:
    """What identifies a run: the header line of its log."""
    return {
        "format": FORMAT,
        "ruleset": ruleset.to_dict(),
        "bots": list(bots),
        "seed": seed,
        "ms_per_move": ms_per_move,
        "code": code_fingerprint(bots),
    }


class ArenaLog:
    """The log file of one run; ``deals`` are those already played, by number."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        self.deals: dict[int, ArenaResult] = {}
        if not path.exists() or path.stat().st_size == 0:
            path.write_text(json.dumps(header) + "\n")
            return
        text = path.read_text()
        lines = text.split("\n")
        complete = lines[:-1]  # the last piece is "" or a line cut short by a kill
        if not complete:
            raise ArenaLogError(f"{path}: no header line")
        self._check_header(complete[0], header)
        for number, line in enumerate(complete[1:], start=2):
            self._read_deal(number, line)
        if lines[-1]:
            with path.open("w") as out:  # drop the cut line; its deal is played again
                out.write("\n".join(complete) + "\n")

    def _check_header(self, line: str, header: dict[str, Any]) -> None:
        try:
            found = json.loads(line)
        except json.JSONDecodeError as error:
            raise ArenaLogError(f"{self.path}: line 1 is not JSON ({error.msg})") from None
        if not isinstance(found, dict) or found.get("format") != FORMAT:
            raise ArenaLogError(f"{self.path}: not an arena log ({FORMAT})")
        for key, value in header.items():
            if found.get(key) != value:
                raise ArenaLogError(
                    f"{self.path}: the log is of another run: {key} was "
                    f"{json.dumps(found.get(key))}, now {json.dumps(value)}"
                    + (" (the rules or bots changed)" if key == "code" else "")
                )

    def _read_deal(self, number: int, line: str) -> None:
        try:
            data = json.loads(line)
            deal = data["deal"]
            result = ArenaResult.from_json(data["result"])
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
            raise ArenaLogError(f"{self.path}: line {number} is not a deal ({error})") from None
        if not isinstance(deal, int) or deal < 0 or deal in self.deals:
            raise ArenaLogError(f"{self.path}: line {number}: bad or repeated deal {deal!r}")
        self.deals[deal] = result

    def append(self, deal: int, result: ArenaResult) -> None:
        """Keep one played deal (written at once, so a kill loses at most the deal in play)."""
        with self.path.open("a") as out:
            out.write(json.dumps({"deal": deal, "result": result.to_json()}) + "\n")
        self.deals[deal] = result
