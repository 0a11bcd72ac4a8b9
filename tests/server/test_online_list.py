"""``online_list.change``: a lobby that applies the changes holds the new list, entry for
entry, however many entries two lists share or repeat (two guests may share a name)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from doublesix.server.online_list import change

from .server_helpers import apply_online

ENTRIES = st.fixed_dictionaries(
    {
        "name": st.sampled_from(["Anna", "anna", "Ben", "Cleo"]),
        "account": st.booleans(),
        "status": st.sampled_from(["free", "seated"]),
        "table": st.sampled_from([None, "t1"]),
    },
    optional={"ratings": st.fixed_dictionaries({"draw": st.integers(1400, 1402)})},
)
LISTS = st.lists(ENTRIES, max_size=8).map(lambda xs: sorted(xs, key=lambda p: p["name"].casefold()))


def bag(players: list[dict[str, Any]]) -> list[str]:
    return sorted(repr(sorted(p.items())) for p in players)


@given(LISTS, LISTS)
def test_the_changes_turn_one_list_into_the_other(before: Any, after: Any) -> None:
    changed = change(before, after)
    if changed is None:
        assert bag(before) == bag(after)
        return
    assert bag(apply_online(before, changed)) == bag(after)
    assert len(changed["added"]) + len(changed["removed"]) <= len(before) + len(after)


def test_a_change_names_only_what_changed() -> None:
    anna = {"name": "Anna", "account": False, "status": "free", "table": None}
    twin = dict(anna)
    ben = {"name": "Ben", "account": True, "status": "free", "table": None}
    seated = ben | {"status": "seated", "table": "t1"}
    assert change([anna, ben], [anna, twin, seated]) == {"added": [twin, seated], "removed": [ben]}
    assert change([anna, twin], [anna]) == {"added": [], "removed": [anna]}  # one of the two
    assert change([anna, ben], [anna, ben]) is None
