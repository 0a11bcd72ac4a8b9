"""The rules and the record format live in docs/; whatever the tree cites must be there.

Code, tests, error messages and the pages cite rules by number (``R14``,
``test_R28a_…``). Each cited number must be a rule of docs/rules.md, and the
documents the tree names must exist.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
RULES = ROOT / "docs" / "rules.md"
RECORD = ROOT / "docs" / "record.md"

DEFINED = re.compile(r"^- \*\*(R\d+[a-z]?)\.\*\*", re.MULTILINE)
CITED = re.compile(r"(?<![A-Za-z0-9])(R\d+[a-z]?)(?![A-Za-z0-9])")
TEXT = {".py", ".js", ".json", ".html", ".css", ".md", ".sh", ".toml"}


def rules() -> list[str]:
    return DEFINED.findall(RULES.read_text(encoding="utf-8"))


def test_docs_rules_md_numbers_every_rule_once_in_order() -> None:
    found = rules()
    assert len(found) == len(set(found))
    plain = [int(r[1:]) for r in found if r[1:].isdigit()]
    assert plain == list(range(1, len(plain) + 1))
    assert {"R28a", "R37a", "R39", "R40", "R41"} <= set(found)


def cited(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    return set(CITED.findall(text)) | set(CITED.findall(path.name))


def test_every_rule_cited_in_src_and_tests_is_in_docs_rules_md() -> None:
    known = set(rules())
    missing: dict[str, set[str]] = {}
    files = [ROOT / "README.md", RECORD, ROOT / "docs" / "protocol.md"]
    for folder in ("src", "tests"):
        files += [p for p in (ROOT / folder).rglob("*") if p.suffix in TEXT and p.is_file()]
    for path in files:
        unknown = cited(path) - known
        if unknown:
            missing[str(path.relative_to(ROOT))] = unknown
    assert missing == {}


def test_the_tree_cites_docs_not_the_specs_outside_it() -> None:
    """RULES.md and RECORD.md are not in the repository; docs/rules.md and docs/record.md are."""
    assert RULES.is_file() and RECORD.is_file()
    stale = []
    for folder in ("src/doublesix/rules", "src/doublesix/cli", "src/doublesix/bots", "tests"):
        for path in (ROOT / folder).rglob("*.py"):
            if path == Path(__file__):
                continue
            text = path.read_text(encoding="utf-8")
            if re.search(r"(?<![/\w])(RULES|RECORD)\.md", text):
                stale.append(str(path.relative_to(ROOT)))
    assert stale == []
