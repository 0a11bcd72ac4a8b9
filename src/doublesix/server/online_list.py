"""The lobby's list of who is online, sent as changes: what a player coming or going costs
every lobby socket is that player's entry, not the whole list again.

A list is a multiset of entries (two guests may share a name, and their entries can be the
same): ``change`` says which entries came and which went between two lists, a changed entry
being one of each; a client holding ``before`` that removes each entry of ``removed`` once
and adds those of ``added`` holds ``after``, in some order (the lobby sorts by name).
"""

from __future__ import annotations

from collections import Counter

import orjson

from doublesix.table.model import JSON


def _key(entry: JSON) -> bytes:
    return orjson.dumps(entry, option=orjson.OPT_SORT_KEYS)


def change(before: list[JSON], after: list[JSON]) -> JSON | None:
    """``{"added": [...], "removed": [...]}`` from ``before`` to ``after``; None if they hold
    the same entries."""
    left = Counter(_key(e) for e in after)
    for entry in before:
        left[_key(entry)] -= 1
    added, removed = [], []
    pending = +left  # entries of ``after`` not in ``before``, as many times as they are new
    for entry in after:
        key = _key(entry)
        if pending[key] > 0:
            pending[key] -= 1
            added.append(entry)
    gone = -left  # entries of ``before`` not in ``after``
    for entry in before:
        key = _key(entry)
        if gone[key] > 0:
            gone[key] -= 1
            removed.append(entry)
    if not added and not removed:
        return None
    return {"added": added, "removed": removed}
